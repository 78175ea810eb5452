//
// agentio/mcp/client/impl/http_transport.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_MCP_CLIENT_IMPL_HTTP_TRANSPORT_IPP
#define AGENTIO_MCP_CLIENT_IMPL_HTTP_TRANSPORT_IPP

#include <agentio/config.hpp>
#include <agentio/detail/ascii.hpp>
#include <agentio/detail/base64.hpp>
#include <agentio/json_text.hpp>
#include <agentio/mcp/client/transport.hpp>
#include <agentio/sse/parser.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <map>

namespace agentio::mcp {

namespace detail {

namespace beast = boost::beast;

// Collects a chunk's events (a named type: no lambda in a coroutine's frame).
struct event_collector
{
    std::vector<sse::event>* out;
    void operator()(sse::event const& e) const { out->push_back(e); }
};

inline bool is_event_stream(http::response_stream const& res)
{
    auto const type = res.headers()[beast::http::field::content_type];
    return type.size() >= 17 && agentio::detail::iequal(type.substr(0, 17), "text/event-stream");
}

// A stream that lives as long as the session (the GET stream, the legacy
// event stream, an answer stream kept alive by progress) has no whole-request
// limit; the client's own timers bound what waits on it.
inline constexpr std::chrono::steady_clock::duration session_long = std::chrono::hours(24 * 365);

// The HTTP client's failure as the MCP client reports it.
inline client_error transport_error(http::client_error const& err)
{
    if(err.code == asio::error::operation_aborted)
        return client_error(err.code, "the request was cancelled before its answer came");
    if(err.code == http::client_errc::idle_timeout || err.code == http::client_errc::total_timeout)
        return client_error(client_errc::timeout, err.message);
    return client_error(client_errc::transport_failed, err.message);
}

// The JSON-RPC messages of a body: one object, or a batch.
inline std::vector<json::object> messages_of(std::string_view body)
{
    std::vector<json::object> out;
    boost::system::error_code ec;
    auto v = json::parse(body, ec);
    if(ec)
        return out;
    if(v.is_object())
        out.push_back(std::move(v.get_object()));
    else if(v.is_array())
        for(auto& m : v.get_array())
            if(m.is_object())
                out.push_back(std::move(m.get_object()));
    return out;
}

inline std::optional<std::int64_t> request_id_of(json::object const& message)
{
    auto const* id = message.if_contains("id");
    if(!id || !message.contains("method"))
        return std::nullopt;
    if(id->is_int64())
        return id->get_int64();
    if(id->is_uint64())
        return static_cast<std::int64_t>(id->get_uint64());
    return std::nullopt;
}

inline bool answers(json::object const& message, std::int64_t id)
{
    if(message.contains("method"))
        return false;
    auto const* v = message.if_contains("id");
    return v && ((v->is_int64() && v->get_int64() == id) || (v->is_uint64() && v->get_uint64() == std::uint64_t(id)));
}

// A refusal's sentence: the JSON-RPC error's message when the body has one.
inline std::string refusal(unsigned status, std::string_view url, std::string_view body)
{
    std::string text = "HTTP " + std::to_string(status) + " from " + std::string(url);
    for(auto const& m : messages_of(body))
        if(auto const* e = m.if_contains("error"); e && e->is_object())
            if(auto const* msg = e->get_object().if_contains("message"); msg && msg->is_string())
                return text + ": " + std::string(msg->get_string());
    if(!body.empty())
        text += ": " + std::string(body.substr(0, 200));
    return text;
}

// The completion of a reader bound to `signal`: owns it, so that the signal
// outlives the coroutine and co_spawn's own use of the slot after it.
struct keep_until_done
{
    std::shared_ptr<asio::cancellation_signal> signal;
    void operator()(std::exception_ptr) const noexcept {}
};

// The end of an answer stream whose answer has come: servers close it right
// after, and a body read to its end lets the connection go back to the pool
// (a new TCP connection per call otherwise). A stream that stays open past
// a short grace is closed instead.
inline asio::awaitable<void> finish_body(asio::any_io_executor ex, http::response_stream& res)
{
    using namespace asio::experimental::awaitable_operators;
    asio::steady_timer grace(ex, std::chrono::milliseconds(50));
    while(!res.done())
    {
        auto r = co_await (res.async_read_some(asio::use_awaitable) ||
            grace.async_wait(asio::as_tuple(asio::use_awaitable)));
        if(r.index() == 1)
            break;
        auto const& [err, chunk] = std::get<0>(r);
        if(err || chunk.empty())
            break;
    }
}

// An event stream being read: cancelled by abandon() (its request) or close().
struct stream_entry
{
    std::optional<std::int64_t> request;
    std::shared_ptr<asio::cancellation_signal> signal;
};

class streamable_http_transport final : public client_transport
{
public:
    streamable_http_transport(asio::any_io_executor ex, http_transport_options options)
        : strand_(asio::make_strand(ex))
        , options_(std::move(options))
        , http_(ex, options_.http)
    {
    }

    asio::any_io_executor get_executor() const override { return strand_; }

    asio::awaitable<void> start(receiver r) override
    {
        if(!boost::urls::parse_uri(options_.url))
            throw client_error(client_errc::transport_failed, "'" + options_.url + "' is not a URL");
        receiver_ = std::move(r);
        co_return;
    }

    asio::awaitable<void> send(json::object const& message, send_options const& so) override
    {
        if(closed_)
            throw client_error(client_errc::closed, "the MCP HTTP transport is closed");
        auto const request_id = request_id_of(message);
        http::client_request req{beast::http::verb::post, options_.url, options_.headers, to_json_text(message)};
        req.headers.set(beast::http::field::content_type, "application/json");
        req.headers.set(beast::http::field::accept, "application/json, text/event-stream");
        bool const with_session = !so.stateless && !session_id_.empty();
        if(so.stateless)
            add_stateless_headers(req.headers, message, so);
        else
        {
            if(!protocol_version_.empty())
                req.headers.set("MCP-Protocol-Version", protocol_version_);
            if(with_session)
                req.headers.set("Mcp-Session-Id", session_id_);
        }
        if(!so.traceparent.empty())
            req.headers.set("traceparent", so.traceparent);
        // The answer may come with the POST itself: the request's timeout bounds the silence.
        req.total_timeout = session_long;
        if(so.answer_within)
            req.idle_timeout = *so.answer_within;
        auto [err, res] = co_await http_.async_open(std::move(req), asio::use_awaitable);
        if(err)
            throw transport_error(err);
        unsigned const status = res.status();
        if(!so.stateless)
            if(auto const sid = res.headers()["Mcp-Session-Id"]; !sid.empty())
                session_id_ = std::string(sid);
        if(status == 404 && with_session)
        {
            // The server forgot the session: the client starts a new one.
            session_id_.clear();
            session_expired_ = true;
            throw client_error(client_errc::closed, "the MCP session expired (HTTP 404)");
        }
        if(status == 200 && is_event_stream(res))
        {
            if(request_id)
                spawn_reader(std::move(res), request_id);
            else
                res.close(); // nothing is owed to a notification or a response
            co_return;
        }
        auto [read_err, body] = co_await res.async_read_all(asio::use_awaitable);
        if(read_err)
            throw transport_error(read_err);
        bool answered = false;
        for(auto& m : messages_of(body))
        {
            if(request_id && answers(m, *request_id))
                answered = true;
            deliver(std::move(m));
        }
        if(answered || (status >= 200 && status < 300 && !request_id))
            co_return;
        // Accepted without an answer: it can only come on the GET stream.
        if(status == 202 && listening_ > 0)
            co_return;
        if(status == 202)
            throw client_error(client_errc::protocol_error,
                "the MCP server accepted a request without answering it, and no event stream is open for the answer");
        if(status >= 200 && status < 300)
            throw client_error(client_errc::protocol_error,
                "the MCP server answered a request with HTTP " + std::to_string(status) + " and no response");
        throw client_error(client_errc::transport_failed, refusal(status, options_.url, body));
    }

    asio::awaitable<void> session_established(std::string const& version) override
    {
        protocol_version_ = version;
        if(!options_.listen_for_server_messages || closed_)
            co_return;
        // Opened before the client goes on, so that what the server sends on
        // it in answer to the next request (an elicitation) has a way in.
        auto res = co_await open_listen_stream(std::string());
        if(res.is_open())
            spawn_reader(std::move(res), std::nullopt);
    }

    void abandon(json::value const& id) override
    {
        if(!id.is_int64())
            return;
        for(auto& [serial, entry] : streams_)
            if(entry.request == id.get_int64())
                entry.signal->emit(asio::cancellation_type::terminal);
    }

    bool take_session_expired() noexcept override { return std::exchange(session_expired_, false); }

    bool cancels_by_closing_stream() const noexcept override { return true; }

    asio::awaitable<void> close() override
    {
        if(closed_)
            co_return;
        closed_ = true;
        cancel_streams();
        if(session_id_.empty())
            co_return;
        http::client_request req{beast::http::verb::delete_, options_.url, options_.headers};
        req.headers.set("Mcp-Session-Id", session_id_);
        if(!protocol_version_.empty())
            req.headers.set("MCP-Protocol-Version", protocol_version_);
        req.total_timeout = std::chrono::seconds(5);
        auto [err, res] = co_await http_.async_request(std::move(req), asio::use_awaitable);
        (void)err; // 405: the server keeps sessions until they expire; nothing to do
        (void)res;
        session_id_.clear();
    }

    void abort() noexcept override
    {
        asio::post(strand_, [self = std::static_pointer_cast<streamable_http_transport>(shared_from_this())] {
            self->closed_ = true;
            self->cancel_streams();
        });
    }

private:
    void deliver(json::object message)
    {
        if(receiver_.on_message)
            receiver_.on_message(std::move(message));
    }

    void cancel_streams()
    {
        for(auto& [serial, entry] : streams_)
            entry.signal->emit(asio::cancellation_type::terminal);
    }

    // The routing headers of MCP 2026-07-28 (SEP-2243).
    static void add_stateless_headers(beast::http::fields& h, json::object const& message, send_options const& so)
    {
        auto const* params = message.if_contains("params");
        auto const* p = params ? params->if_object() : nullptr;
        auto const* meta = p ? p->if_contains("_meta") : nullptr;
        auto const* version = meta && meta->is_object()
            ? meta->get_object().if_contains("io.modelcontextprotocol/protocolVersion")
            : nullptr;
        h.set("MCP-Protocol-Version", version && version->is_string() ? version->get_string() : "2026-07-28");
        auto const* method = message.if_contains("method");
        if(!method || !method->is_string())
            return;
        std::string_view const m = method->get_string();
        h.set("Mcp-Method", m);
        std::string_view const named_by = m == "resources/read" ? "uri" : "name";
        if(p && (m == "tools/call" || m == "prompts/get" || m == "resources/read"))
            if(auto const* name = p->if_contains(named_by); name && name->is_string())
                h.set("Mcp-Name", encode_header(name->get_string()));
        for(auto const& [field, value] : so.headers)
            h.set(field, value);
    }

    static std::string encode_header(std::string_view text)
    {
        bool plain = text.empty() || (text.front() != ' ' && text.back() != ' ');
        for(unsigned char c : text)
            if(c < 0x20 || c > 0x7e)
                plain = false;
        return plain ? std::string(text) : "=?base64?" + agentio::detail::base64_encode(text) + "?=";
    }

    // GET of the event stream: the standalone one, or a resumption after `last_event_id`.
    asio::awaitable<http::response_stream> open_listen_stream(std::string last_event_id)
    {
        http::client_request req{beast::http::verb::get, options_.url, options_.headers};
        req.headers.set(beast::http::field::accept, "text/event-stream");
        if(!session_id_.empty())
            req.headers.set("Mcp-Session-Id", session_id_);
        if(!protocol_version_.empty())
            req.headers.set("MCP-Protocol-Version", protocol_version_);
        if(!last_event_id.empty())
            req.headers.set("Last-Event-ID", last_event_id);
        req.total_timeout = session_long;
        req.idle_timeout = session_long; // a quiet session is not a dead one
        auto [err, res] = co_await http_.async_open(std::move(req), asio::use_awaitable);
        if(err || res.status() != 200 || !is_event_stream(res))
            co_return http::response_stream{}; // 405: the server offers no such stream
        co_return std::move(res);
    }

    // Forgets a stream however its reader ends (a cancelled reader throws at its next co_await).
    struct stream_registration
    {
        streamable_http_transport& self;
        std::uint64_t serial;
        bool standalone;
        ~stream_registration()
        {
            self.streams_.erase(serial);
            if(standalone)
                --self.listening_;
        }
    };

    void spawn_reader(http::response_stream res, std::optional<std::int64_t> request)
    {
        auto signal = std::make_shared<asio::cancellation_signal>();
        auto const serial = ++next_serial_;
        streams_.emplace(serial, stream_entry{request, signal});
        if(!request)
            ++listening_;
        asio::co_spawn(strand_,
            read_events(std::static_pointer_cast<streamable_http_transport>(shared_from_this()), std::move(res),
                request, serial),
            asio::bind_cancellation_slot(signal->slot(), keep_until_done{signal}));
    }

    // Reads an event stream to its end; a stream that ends before its
    // request's answer (or a standalone one) is resumed with `Last-Event-ID`
    // after the server's `retry:` delay.
    static asio::awaitable<void> read_events(std::shared_ptr<streamable_http_transport> self, http::response_stream res,
        std::optional<std::int64_t> request, std::uint64_t serial)
    {
        stream_registration const registration{*self, serial, !request};
        std::string last_event_id;
        std::optional<std::uint64_t> retry;
        bool answered = false;
        unsigned reconnects = 0;
        std::vector<sse::event> events;
        while(res.is_open() && !self->closed_)
        {
            sse::parser parser;
            bool got_data = false;
            for(;;)
            {
                auto [err, chunk] = co_await res.async_read_some(asio::use_awaitable);
                if(err || chunk.empty())
                    break;
                events.clear();
                parser.feed(chunk, event_collector{&events});
                for(auto& e : events)
                {
                    got_data = true;
                    if(e.data.empty())
                        continue; // a priming event: an id (and a retry) to resume from
                    for(auto& m : messages_of(e.data))
                    {
                        if(request && answers(m, *request))
                            answered = true;
                        self->deliver(std::move(m));
                    }
                }
                if(!parser.last_event_id().empty())
                    last_event_id = std::string(parser.last_event_id());
                if(parser.retry())
                    retry = parser.retry();
                if(answered)
                    break;
            }
            if(answered && !res.done())
                co_await finish_body(self->strand_, res);
            res.close();
            auto const cs = co_await asio::this_coro::cancellation_state;
            if(answered || self->closed_ || cs.cancelled() != asio::cancellation_type::none)
                break;
            if(got_data)
                reconnects = 0;
            // An answer stream without an event id cannot be resumed (the
            // server gave none, so it cannot replay); the session's own stream
            // is opened again anyway, so that the server can still reach us.
            if((request && last_event_id.empty()) || reconnects++ >= self->options_.max_reconnects)
                break;
            asio::steady_timer wait(self->strand_);
            wait.expires_after(retry ? std::chrono::milliseconds(*retry) : self->options_.default_retry);
            auto [ec] = co_await wait.async_wait(asio::as_tuple(asio::use_awaitable));
            if(ec || self->closed_)
                break;
            res = co_await self->open_listen_stream(last_event_id);
        }
        auto const cs = co_await asio::this_coro::cancellation_state;
        if(request && !answered && !self->closed_ && cs.cancelled() == asio::cancellation_type::none &&
            self->receiver_.on_request_failed)
            self->receiver_.on_request_failed(json::value(*request),
                client_error(client_errc::transport_failed,
                    "the MCP server's event stream ended before the answer to request " + std::to_string(*request)));
    }

    asio::strand<asio::any_io_executor> strand_;
    http_transport_options options_;
    http::client http_;
    receiver receiver_;
    std::string session_id_;
    std::string protocol_version_;
    std::map<std::uint64_t, stream_entry> streams_;
    std::uint64_t next_serial_ = 0;
    int listening_ = 0; // the session's GET stream, while it is open
    bool session_expired_ = false;
    bool closed_ = false;
};

class legacy_sse_transport final : public client_transport
{
public:
    legacy_sse_transport(asio::any_io_executor ex, legacy_sse_transport_options options)
        : strand_(asio::make_strand(ex))
        , options_(std::move(options))
        , http_(ex, options_.http)
    {
    }

    asio::any_io_executor get_executor() const override { return strand_; }

    bool supports_stateless() const noexcept override { return false; }

    asio::awaitable<void> start(receiver r) override
    {
        receiver_ = std::move(r);
        http::client_request req{beast::http::verb::get, options_.url, options_.headers};
        req.headers.set(beast::http::field::accept, "text/event-stream");
        req.total_timeout = session_long;
        req.idle_timeout = session_long; // the session's only way in: quiet is not dead
        auto [err, res] = co_await http_.async_open(std::move(req), asio::use_awaitable);
        if(err)
            throw client_error(client_errc::transport_failed, err.message);
        if(res.status() != 200 || !is_event_stream(res))
            throw client_error(client_errc::transport_failed,
                "HTTP " + std::to_string(res.status()) + " from " + options_.url + ": not an event stream");
        // The first event names the endpoint the messages are POSTed to.
        auto parser = std::make_unique<sse::parser>();
        std::vector<sse::event> events, early;
        while(endpoint_.empty())
        {
            auto [read_err, chunk] = co_await res.async_read_some(asio::use_awaitable);
            if(read_err || chunk.empty())
                throw client_error(client_errc::transport_failed,
                    "the event stream of " + options_.url + " ended before naming its endpoint");
            events.clear();
            parser->feed(chunk, event_collector{&events});
            for(auto& e : events)
            {
                if(endpoint_.empty() && e.type == "endpoint")
                {
                    endpoint_ = resolve(e.data);
                    if(endpoint_.empty())
                        throw client_error(client_errc::transport_failed,
                            "the endpoint event of " + options_.url + " is not a URL of the same origin: '" + e.data +
                                "'");
                }
                else
                    early.push_back(std::move(e));
            }
        }
        for(auto const& e : early)
            deliver_event(e);
        auto signal = std::make_shared<asio::cancellation_signal>();
        signal_ = signal;
        asio::co_spawn(strand_,
            read_events(std::static_pointer_cast<legacy_sse_transport>(shared_from_this()), std::move(res),
                std::move(parser)),
            asio::bind_cancellation_slot(signal->slot(), keep_until_done{signal}));
    }

    asio::awaitable<void> send(json::object const& message, send_options const& so) override
    {
        if(closed_)
            throw client_error(client_errc::closed, "the MCP event stream is closed");
        http::client_request req{beast::http::verb::post, endpoint_, options_.headers, to_json_text(message)};
        req.headers.set(beast::http::field::content_type, "application/json");
        if(!so.traceparent.empty())
            req.headers.set("traceparent", so.traceparent);
        auto [err, res] = co_await http_.async_request(std::move(req), asio::use_awaitable);
        if(err)
            throw client_error(client_errc::transport_failed, err.message);
        if(!res.ok())
            throw client_error(client_errc::transport_failed, refusal(res.status, endpoint_, res.body));
    }

    asio::awaitable<void> close() override
    {
        closed_ = true;
        if(signal_)
            signal_->emit(asio::cancellation_type::terminal);
        co_return;
    }

    void abort() noexcept override
    {
        asio::post(strand_, [self = std::static_pointer_cast<legacy_sse_transport>(shared_from_this())] {
            self->closed_ = true;
            if(self->signal_)
                self->signal_->emit(asio::cancellation_type::terminal);
        });
    }

private:
    // The endpoint may be relative to the stream's URL (it usually is: "/messages?sessionId=…").
    std::string resolve(std::string_view reference) const
    {
        auto base = boost::urls::parse_uri(options_.url);
        auto ref = boost::urls::parse_uri_reference(reference);
        if(!base || !ref)
            return {};
        boost::urls::url out;
        if(!boost::urls::resolve(*base, *ref, out))
            return {};
        // Another origin would receive the request headers (an Authorization): refused.
        if(out.scheme() != base->scheme() || out.host() != base->host() || out.port() != base->port())
            return {};
        return std::string(out.buffer());
    }

    void deliver_event(sse::event const& e)
    {
        if(e.type != "message" || !receiver_.on_message)
            return;
        for(auto& m : messages_of(e.data))
            receiver_.on_message(std::move(m));
    }

    static asio::awaitable<void> read_events(std::shared_ptr<legacy_sse_transport> self, http::response_stream res,
        std::unique_ptr<sse::parser> parser)
    {
        std::vector<sse::event> events;
        std::string why = "the MCP server closed its event stream";
        for(;;)
        {
            auto [err, chunk] = co_await res.async_read_some(asio::use_awaitable);
            if(err || chunk.empty())
            {
                if(err)
                    why = "the MCP event stream failed: " + err.message;
                break;
            }
            events.clear();
            parser->feed(chunk, event_collector{&events});
            for(auto const& e : events)
                self->deliver_event(e);
        }
        self->closed_ = true;
        if(self->receiver_.on_closed)
            self->receiver_.on_closed(client_error(client_errc::closed, why));
    }

    asio::strand<asio::any_io_executor> strand_;
    legacy_sse_transport_options options_;
    http::client http_;
    receiver receiver_;
    std::string endpoint_;
    std::shared_ptr<asio::cancellation_signal> signal_;
    bool closed_ = false;
};

} // namespace detail

AGENTIO_DECL std::shared_ptr<client_transport> make_http_transport(asio::any_io_executor ex,
    http_transport_options options)
{
    return std::make_shared<detail::streamable_http_transport>(std::move(ex), std::move(options));
}

AGENTIO_DECL std::shared_ptr<client_transport> make_legacy_sse_transport(asio::any_io_executor ex,
    legacy_sse_transport_options options)
{
    return std::make_shared<detail::legacy_sse_transport>(std::move(ex), std::move(options));
}

} // namespace agentio::mcp

#endif
