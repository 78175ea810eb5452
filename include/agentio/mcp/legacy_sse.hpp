//
// agentio/mcp/legacy_sse.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The HTTP+SSE transport of MCP 2024-11-05, deprecated since 2025-03-26 but
// still spoken by older clients (and by the "sse" mode of Python FastMCP
// servers): `GET /sse` opens a stream whose first event, `endpoint`, names
// where to POST; each POST is answered 202 and every server message,
// responses included, travels as a `message` event on that stream. The
// session lives as long as the stream. A streaming handler of
// agentio::http::server, which can sit next to streamable_http on the same
// port, as the spec's backwards-compatibility section recommends.
//

#ifndef AGENTIO_MCP_LEGACY_SSE_HPP
#define AGENTIO_MCP_LEGACY_SSE_HPP

#include <agentio/async_queue.hpp>
#include <agentio/mcp/http.hpp>

#include <boost/url/parse.hpp>

namespace agentio::mcp {

struct legacy_sse_options
{
    /// Where clients open the stream.
    std::string sse_path = "/sse";

    /// Where clients POST; the `endpoint` event says `<messages_path>?session_id=<id>`
    /// as FastMCP does (`sessionId`, the TypeScript SDK's name, is accepted too).
    std::string messages_path = "/messages/";

    /// As http_options::allowed_hosts / allowed_origins: against DNS rebinding.
    std::vector<std::string> allowed_hosts{"localhost", "127.0.0.1", "[::1]"};
    std::vector<std::string> allowed_origins{};

    /// Streams open at once; more are answered 503 (an open stream is a
    /// session in use: none is ever closed to make room).
    std::size_t max_sessions = 1024;

    /// Streams open at once from one client address (as
    /// http_options::max_sessions_per_address); more are answered 503. 0: no such cap.
    std::size_t max_sessions_per_address = 64;

    /// Messages a client has not read yet, in bytes, before its stream is closed
    /// (a client that POSTs but never reads must not grow the server).
    std::size_t max_unread_bytes = 16 * 1024 * 1024;

    /// The stream's heartbeat, write timeout and queue.
    sse::writer_options stream{};
};

/** Serves an MCP server over the 2024-11-05 HTTP+SSE transport.

    @code
    agentio::mcp::streamable_http modern(mcp);
    agentio::mcp::legacy_sse old(mcp);
    auto handler = [=](agentio::http::request&& req, agentio::http::any_stream& s) {
        return old.handles(req.target()) ? old(std::move(req), s) : modern(std::move(req), s);
    };
    @endcode

    Copies share their sessions.
*/
template<tool_catalog Tools>
class legacy_sse
{
public:
    explicit legacy_sse(server<Tools> const& srv, legacy_sse_options options = {})
        : state_(std::make_shared<state>(srv, std::move(options)))
    {
    }

    /// The agentio::http::server streaming handler, on any AsyncStream.
    template<class Stream>
    asio::awaitable<std::optional<beast::http::message_generator>> operator()(http::request&& req,
        Stream& stream) const;

    /// Whether `target` is the stream or the messages path (for routing).
    bool handles(std::string_view target) const noexcept
    {
        auto const path = target.substr(0, target.find('?'));
        return path == state_->options.sse_path || path == state_->options.messages_path;
    }

    /// Streams open now.
    std::size_t session_count() const
    {
        std::lock_guard lock(state_->mutex);
        return state_->sessions.size();
    }

private:
    // Messages for one stream, pushed from any connection's strand and popped
    // on the stream's. Closed when the client leaves or reads too slowly.
    struct outbox
    {
        async_queue<std::string, count_bytes> messages;

        outbox(asio::any_io_executor ex, std::size_t limit) : messages(std::move(ex), limit) {}

        void push(json::object const& message)
        {
            if(!messages.try_push(to_json_text(message)))
                messages.close(); // full: the stream ends, its client cannot keep up
        }
    };

    struct session_entry
    {
        std::shared_ptr<outbox> box;
        mcp::session session;
        asio::ip::address address; // the client's, for max_sessions_per_address

        explicit session_entry(std::shared_ptr<outbox> b) : box(b), session([b](json::object m) { b->push(m); }) {}
    };

    struct state
    {
        server<Tools> const* srv;
        legacy_sse_options options;
        mutable std::mutex mutex;
        std::map<std::string, std::shared_ptr<session_entry>, std::less<>> sessions;

        state(server<Tools> const& s, legacy_sse_options o) : srv(&s), options(std::move(o)) {}
    };

    template<class Stream>
    asio::awaitable<std::optional<beast::http::message_generator>> open_stream(http::request const& req,
        Stream& stream) const;
    asio::awaitable<std::optional<beast::http::message_generator>> accept_message(http::request const& req) const;

    std::shared_ptr<state> state_;
};

namespace detail {

// The session id of a POST's target: `session_id` (FastMCP) or `sessionId` (TypeScript SDK).
inline std::string legacy_session_id(std::string_view target)
{
    auto const url = boost::urls::parse_origin_form(target);
    if(!url)
        return {};
    for(auto const& name : {"session_id", "sessionId"})
        if(auto it = url->params().find(name); it != url->params().end())
            return std::string((*it).value);
    return {};
}

} // namespace detail

template<tool_catalog Tools>
template<class Stream>
asio::awaitable<std::optional<beast::http::message_generator>> legacy_sse<Tools>::operator()(http::request&& req,
    Stream& stream) const
{
    namespace bhttp = beast::http;
    auto const& opt = state_->options;
    auto const path = req.target().substr(0, req.target().find('?'));
    auto refuse = [&](bhttp::status st, int code, std::string_view message) {
        return std::optional<bhttp::message_generator>(detail::mcp_http_error(st, code, message, req));
    };
    if(path != opt.sse_path && path != opt.messages_path)
        co_return refuse(bhttp::status::not_found, jsonrpc::invalid_request, "Not Found");
    if(auto const refused = detail::refused_host_or_origin(req, opt.allowed_hosts, opt.allowed_origins);
        !refused.empty())
        co_return refuse(bhttp::status::forbidden, -32000, refused);

    bhttp::verb const expected = path == opt.sse_path ? bhttp::verb::get : bhttp::verb::post;
    if(req.method() != expected)
    {
        auto res = detail::mcp_http_error(bhttp::status::method_not_allowed, -32000, "Method Not Allowed", req);
        res.set(bhttp::field::allow, expected == bhttp::verb::get ? "GET" : "POST");
        co_return bhttp::message_generator(std::move(res));
    }
    if(expected == bhttp::verb::get)
        co_return co_await open_stream(req, stream);
    co_return co_await accept_message(req);
}

template<tool_catalog Tools>
template<class Stream>
asio::awaitable<std::optional<beast::http::message_generator>> legacy_sse<Tools>::open_stream(http::request const& req,
    Stream& stream) const
{
    namespace bhttp = beast::http;
    auto const& opt = state_->options;
    auto const ex = co_await asio::this_coro::executor;
    auto box = std::make_shared<outbox>(ex, opt.max_unread_bytes);
    auto entry = std::make_shared<session_entry>(box);
    entry->address = detail::client_address(stream);
    std::string const id = detail::new_session_id();

    // Counted from now, so that streams opening together cannot pass the caps.
    bool reserved = false;
    {
        std::lock_guard lock(state_->mutex);
        std::size_t from_here = 0;
        for(auto const& s : state_->sessions)
            from_here += s.second->address == entry->address ? 1 : 0;
        reserved = state_->sessions.size() < opt.max_sessions &&
            (opt.max_sessions_per_address == 0 || from_here < opt.max_sessions_per_address);
        if(reserved)
            state_->sessions.emplace(id, entry);
    }
    if(!reserved)
    {
        auto res = detail::mcp_http_error(bhttp::status::service_unavailable, -32000,
            "Service Unavailable: too many sessions", req);
        res.set(bhttp::field::retry_after, "30"); // streams end when their clients go: no better guess
        co_return bhttp::message_generator(std::move(res));
    }

    sse::basic_writer<Stream> writer(stream, opt.stream);
    writer.headers().set(bhttp::field::cache_control, "no-cache, no-transform");
    writer.headers().set("X-Accel-Buffering", "no"); // nginx would hold the events back
    if(auto ec = co_await writer.start(req.version()))
    {
        {
            std::lock_guard lock(state_->mutex);
            state_->sessions.erase(id);
        }
        co_await writer.finish();
        co_return std::nullopt;
    }
    // Ends when the client leaves (its signal closes the queue) or a push finds the queue full.
    writer.disconnect_slot().assign([box](asio::cancellation_type) { box->messages.close(); });
    auto ec = co_await writer.send("endpoint", opt.messages_path + "?session_id=" + id);
    while(!ec)
    {
        auto message = co_await box->messages.pop();
        if(!message)
            break;
        ec = co_await writer.send("message", *message);
    }
    writer.disconnect_slot().clear();
    {
        std::lock_guard lock(state_->mutex);
        state_->sessions.erase(id);
    }
    entry->session.cancel_all(); // nobody is left to read the answers
    co_await writer.finish();
    co_return std::nullopt;
}

template<tool_catalog Tools>
asio::awaitable<std::optional<beast::http::message_generator>>
legacy_sse<Tools>::accept_message(http::request const& req) const
{
    namespace bhttp = beast::http;
    using bhttp::status;
    auto refuse = [&](status st, int code, std::string_view message) {
        return std::optional<bhttp::message_generator>(detail::mcp_http_error(st, code, message, req));
    };
    auto const id = detail::legacy_session_id(req.target());
    if(id.empty())
        co_return refuse(status::bad_request, -32000, "Bad Request: session_id is required");
    std::shared_ptr<session_entry> entry;
    {
        std::lock_guard lock(state_->mutex);
        if(auto it = state_->sessions.find(id); it != state_->sessions.end())
            entry = it->second;
    }
    if(!entry)
        co_return refuse(status::not_found, -32001, "Session not found");
    if(req[bhttp::field::content_type].find("application/json") == std::string_view::npos)
        co_return refuse(status::unsupported_media_type, -32000,
            "Unsupported Media Type: Content-Type must be application/json");
    boost::system::error_code ec;
    json::value message = json::parse(req.body(), ec);
    if(ec)
        co_return refuse(status::bad_request, jsonrpc::parse_error, "Parse error: " + ec.message());

    // Answered at once; the reply follows on the stream, so a slow tool holds no POST. The
    // POST's traceparent header goes with the message (a tools/call's `_meta` one wins).
    auto serve = [](server<Tools> const* srv, std::shared_ptr<session_entry> e, json::value m,
                     std::string traceparent) -> asio::awaitable<void> {
        session::send_function on_its_stream; // the session's own
        if(auto reply = co_await srv->handle(e->session, std::move(m), std::move(on_its_stream), traceparent))
            e->box->push(*reply);
    };
    auto const ex = co_await asio::this_coro::executor;
    auto call = serve(state_->srv, std::move(entry), std::move(message), detail::traceparent_of(req));
    asio::co_spawn(ex, std::move(call), asio::detached);
    http::response res{status::accepted, req.version()};
    res.set(bhttp::field::content_type, "text/plain");
    res.keep_alive(req.keep_alive());
    res.body() = "Accepted";
    res.prepare_payload();
    co_return bhttp::message_generator(std::move(res));
}

} // namespace agentio::mcp

#endif
