// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// libFuzzer target: agentio::http::server's request path on arbitrary bytes.
//
// One server on 127.0.0.1 for the whole run; each input is sent on a fresh
// connection (any number of requests, pipelined), the client half-closes and
// reads until the server closes. Properties, beyond "no crash, no sanitizer
// report": the server always closes the connection (no input keeps it past
// the header timeout), what it sends parses as a sequence of HTTP responses,
// and an error answer (4xx/5xx it made itself) is the last one.
#include <agentio/http/server.hpp>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/empty_body.hpp>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

struct echo
{
    asio::awaitable<http::message_generator> operator()(agentio::http::request&& req)
    {
        agentio::http::response res{http::status::ok, req.version()};
        res.body() = "echo " + std::string(req.target()) + " " + req.body();
        res.keep_alive(req.keep_alive());
        res.prepare_payload();
        co_return res;
    }
};

struct fixture
{
    asio::io_context ioc{1};
    std::unique_ptr<agentio::http::server<echo>> server;
    tcp::endpoint ep;
    std::thread runner;

    fixture()
    {
        agentio::http::server_options opt;
        opt.max_header_bytes = 2048; // small limits, so inputs reach them
        opt.max_body_bytes = 4096;
        opt.header_timeout = std::chrono::seconds(5);
        opt.read_timeout = std::chrono::seconds(5);
        server = std::make_unique<agentio::http::server<echo>>(ioc.get_executor(), echo{}, opt);
        ep = server->listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        server->start();
        runner = std::thread([this] { agentio::http::run_threads(ioc, 1, [](std::exception_ptr) { std::abort(); }); });
    }
};

fixture& the_server()
{
    static fixture* f = new fixture; // never destroyed: the run ends with exit()
    return *f;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    auto& f = the_server();
    asio::io_context ioc;
    tcp::socket s(ioc);
    s.connect(f.ep);
    boost::system::error_code ec;
    asio::write(s, asio::buffer(data, size), ec);
    s.shutdown(tcp::socket::shutdown_send, ec);
    std::string out;
    asio::read(s, asio::dynamic_buffer(out), ec); // until the server closes
    if(ec != asio::error::eof && ec != asio::error::connection_reset)
        std::abort();

    // What came back is whole HTTP responses, an error answer last. An
    // answer to HEAD has a Content-Length and no body: the next answer
    // starting right after the header tells it apart.
    std::string_view rest(out);
    while(!rest.empty())
    {
        if(!rest.starts_with("HTTP/1."))
            std::abort();
        auto const end = rest.find("\r\n\r\n");
        if(end == std::string_view::npos)
            std::abort();
        http::response_parser<http::empty_body> p;
        p.skip(true);
        p.put(asio::buffer(rest.data(), end + 4), ec);
        if(ec || !p.is_header_done())
            std::abort();
        auto const status = p.get().result_int();
        rest.remove_prefix(end + 4);
        // Bodies start with "echo " or '{': one starting "HTTP/1." is the next
        // answer, and nothing after a header is the answer to a last HEAD.
        if(!rest.empty() && !rest.starts_with("HTTP/1."))
        {
            auto const length = static_cast<std::size_t>(p.content_length().value_or(0));
            if(rest.size() < length)
                std::abort();
            rest.remove_prefix(length);
        }
        if(status >= 400 && !rest.empty())
            std::abort();
    }
    return 0;
}
