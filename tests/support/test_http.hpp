// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Blocking HTTP helpers for tests: one request per call over a fresh loopback
// connection, or raw bytes for requests a well-behaved client would not send.
#pragma once

#include <agentio/sse/parser.hpp>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace test_http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

struct reply
{
    unsigned status = 0;
    std::string body;
    http::fields headers;

    boost::json::value json() const { return boost::json::parse(body); }
    std::string detail() const { return std::string(json().at("detail").as_string()); }
    /// A JSON-RPC error's message, or a REST error's detail.
    std::string detail_or_message() const
    {
        auto const v = json();
        if(auto const* e = v.as_object().if_contains("error"))
            return std::string(e->at("message").as_string());
        return detail();
    }
};

inline reply request(tcp::endpoint ep, http::verb method, std::string const& target, std::string const& body = {},
    std::string const& content_type = "application/json", http::fields const& extra = {})
{
    asio::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.expires_after(std::chrono::seconds(30));
    stream.connect(ep);
    http::request<http::string_body> req{method, target, 11};
    req.set(http::field::host, "127.0.0.1");
    for(auto const& f : extra)
        req.set(f.name_string(), f.value());
    if(!body.empty())
        req.set(http::field::content_type, content_type);
    req.body() = body;
    req.prepare_payload();
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    reply r{res.result_int(), res.body(), {}};
    for(auto const& f : res)
        r.headers.insert(f.name_string(), f.value());
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    return r;
}

inline reply get(tcp::endpoint ep, std::string const& target)
{
    return request(ep, http::verb::get, target);
}

inline reply post(tcp::endpoint ep, std::string const& target, std::string const& body)
{
    return request(ep, http::verb::post, target, body);
}

/// Sends `bytes` as they are and returns everything the server sends back until it closes.
/// With `half_close`, the client then shuts down its sending side (a streaming
/// server may take that for the client leaving: pass false to keep it open).
inline std::string raw(tcp::endpoint ep, std::string const& bytes, bool half_close = true)
{
    asio::io_context ioc;
    tcp::socket s(ioc);
    s.connect(ep);
    beast::error_code ec;
    asio::write(s, asio::buffer(bytes), ec);
    if(half_close)
        s.shutdown(tcp::socket::shutdown_send, ec); // nothing more will come: the server need not wait for it
    std::string out;
    asio::read(s, asio::dynamic_buffer(out), ec); // until EOF or reset
    return out;
}

/// A GET whose response is an event stream, read event by event as the server sends them.
class event_stream
{
public:
    explicit event_stream(tcp::endpoint ep, std::string const& target, http::fields const& extra = {},
        http::verb method = http::verb::get, std::string const& body = {})
        : stream_(ioc_)
    {
        stream_.expires_after(std::chrono::seconds(30));
        stream_.connect(ep);
        http::request<http::string_body> req{method, target, 11};
        req.set(http::field::host, "127.0.0.1");
        req.set(http::field::accept, "text/event-stream");
        for(auto const& f : extra)
            req.set(f.name_string(), f.value());
        if(!body.empty())
        {
            req.set(http::field::content_type, "application/json");
            req.body() = body;
            req.prepare_payload();
        }
        http::write(stream_, req);
        parser_.body_limit(boost::none);
        on_chunk_ = [this](std::uint64_t, std::string_view data, beast::error_code&) -> std::size_t {
            events_parser_.feed(data, [this](agentio::sse::event const& e) { events_.push_back(e); });
            return data.size();
        };
        parser_.on_chunk_body(on_chunk_); // Beast keeps a reference
        http::read_header(stream_, buffer_, parser_);
        status = parser_.get().result_int();
        for(auto const& f : parser_.get())
            headers.insert(f.name_string(), f.value());
    }

    /// The next event; throws when the stream ends or nothing comes within `timeout`.
    agentio::sse::event next(std::chrono::steady_clock::duration timeout = std::chrono::seconds(30))
    {
        stream_.expires_after(timeout);
        while(events_.empty())
        {
            if(parser_.is_done())
                throw std::runtime_error("event_stream: the stream ended with no further event");
            http::read_some(stream_, buffer_, parser_);
        }
        auto e = std::move(events_.front());
        events_.erase(events_.begin());
        return e;
    }

    /// Whether the response has ended (after its last event was read).
    bool finished() const noexcept { return parser_.is_done() && events_.empty(); }

    /// Leaves: closes the connection.
    void close()
    {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        stream_.close();
    }

    unsigned status = 0;
    http::fields headers;

private:
    asio::io_context ioc_;
    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::function<std::size_t(std::uint64_t, std::string_view, beast::error_code&)> on_chunk_;
    http::response_parser<http::empty_body> parser_;
    agentio::sse::parser events_parser_;
    std::vector<agentio::sse::event> events_;
};

} // namespace test_http
