//
// agentio/mcp/http.hpp
// ~~~~~~~~~~~~~~~~~~~~
//
// The MCP Streamable HTTP transport on one path: POST carries client
// messages (answered with JSON, or with an SSE stream when the request has
// notifications of its own to send first), DELETE ends a session, GET is 405
// (this server keeps no standalone stream). Sessions by `Mcp-Session-Id`,
// `MCP-Protocol-Version` checked, Host and Origin checked against DNS
// rebinding. A streaming handler of agentio::http::server.
//

#ifndef AGENTIO_MCP_HTTP_HPP
#define AGENTIO_MCP_HTTP_HPP

#include <agentio/http/server.hpp>
#include <agentio/json_text.hpp>
#include <agentio/mcp/server.hpp>
#include <agentio/sse/writer.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/json/parse.hpp>

#include <openssl/rand.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace agentio::mcp {

namespace beast = boost::beast;

struct http_options
{
    /// The endpoint's path.
    std::string path = "/mcp";

    /// Host header values accepted (any port). Empty: any host — only for a
    /// server behind a proxy that checks it; a local server must keep these.
    std::vector<std::string> allowed_hosts{"localhost", "127.0.0.1", "[::1]"};

    /// Origin header values accepted besides `http(s)://<allowed host>[:port]`.
    std::vector<std::string> allowed_origins{};

    /// Sessions kept at most; when full, the one idle longest goes.
    std::size_t max_sessions = 1024;

    /// A session unused for this long is forgotten.
    std::chrono::steady_clock::duration session_idle_timeout = std::chrono::minutes(30);
};

namespace detail {

// "host[:port]" → "host", keeping "[v6]" whole.
inline std::string_view host_without_port(std::string_view host)
{
    if(host.starts_with('['))
    {
        auto const end = host.find(']');
        return end == std::string_view::npos ? host : host.substr(0, end + 1);
    }
    auto const colon = host.rfind(':');
    return colon == std::string_view::npos ? host : host.substr(0, colon);
}

inline std::string new_session_id()
{
    // A UUID v4 from the system's CSPRNG: unguessable, visible ASCII.
    unsigned char b[16];
    if(RAND_bytes(b, sizeof b) != 1)
        throw std::runtime_error("RAND_bytes failed");
    b[6] = static_cast<unsigned char>((b[6] & 0x0F) | 0x40);
    b[8] = static_cast<unsigned char>((b[8] & 0x3F) | 0x80);
    static constexpr char hex[] = "0123456789abcdef";
    std::string id;
    for(int i = 0; i < 16; ++i)
    {
        if(i == 4 || i == 6 || i == 8 || i == 10)
            id.push_back('-');
        id.push_back(hex[b[i] >> 4]);
        id.push_back(hex[b[i] & 15]);
    }
    return id;
}

} // namespace detail

/** Serves an MCP server over Streamable HTTP.

    @code
    agentio::mcp::server<my_tools> mcp(tools);
    agentio::http::server http(ioc.get_executor(), agentio::mcp::streamable_http(mcp));
    @endcode

    Copies share their sessions.
*/
template<tool_catalog Tools>
class streamable_http
{
public:
    explicit streamable_http(server<Tools> const& srv, http_options options = {})
        : state_(std::make_shared<state>(srv, std::move(options)))
    {
    }

    /// The agentio::http::server streaming handler.
    asio::awaitable<std::optional<beast::http::message_generator>> operator()(http::request&& req,
        beast::tcp_stream& stream) const;

    /// Sessions alive now.
    std::size_t session_count() const
    {
        std::lock_guard lock(state_->mutex);
        return state_->sessions.size();
    }

private:
    struct session_entry
    {
        mcp::session session{[](json::object) {}}; // no standalone stream: unrelated messages are dropped
        std::chrono::steady_clock::time_point last_used = std::chrono::steady_clock::now();
    };

    struct state
    {
        server<Tools> const* srv;
        http_options options;
        mutable std::mutex mutex;
        std::map<std::string, std::shared_ptr<session_entry>, std::less<>> sessions;

        state(server<Tools> const& s, http_options o) : srv(&s), options(std::move(o)) {}
    };

    std::shared_ptr<state> state_;
};

namespace detail {

inline http::response mcp_http_error(beast::http::status status, int code, std::string_view message,
    http::request const& req)
{
    http::response res{status, req.version()};
    res.set(beast::http::field::content_type, "application/json");
    res.keep_alive(req.keep_alive());
    res.body() = to_json_text(jsonrpc::make_error(nullptr, code, message));
    res.prepare_payload();
    return res;
}

inline bool accepts(http::request const& req, std::string_view type)
{
    return req[beast::http::field::accept].find(type) != std::string_view::npos ||
        req[beast::http::field::accept].find("*/*") != std::string_view::npos;
}

} // namespace detail

template<tool_catalog Tools>
asio::awaitable<std::optional<beast::http::message_generator>> streamable_http<Tools>::operator()(
    http::request&& req, beast::tcp_stream& stream) const
{
    namespace bhttp = beast::http;
    using bhttp::status;
    auto fail = [&](status st, int code, std::string_view message) {
        return std::optional<bhttp::message_generator>(detail::mcp_http_error(st, code, message, req));
    };
    auto const& opt = state_->options;
    auto const target = req.target();
    if(target.substr(0, target.find('?')) != opt.path)
        co_return fail(status::not_found, jsonrpc::invalid_request, "Not Found");

    // DNS rebinding: a page on another site must not reach a local server through the browser.
    if(!opt.allowed_hosts.empty())
    {
        auto const host = detail::host_without_port(req[bhttp::field::host]);
        bool const host_ok = std::find(opt.allowed_hosts.begin(), opt.allowed_hosts.end(), host) != opt.allowed_hosts.end();
        if(!host_ok)
            co_return fail(status::forbidden, -32000, "Forbidden: invalid Host header");
        if(auto const origin = req[bhttp::field::origin]; !origin.empty())
        {
            bool origin_ok = std::find(opt.allowed_origins.begin(), opt.allowed_origins.end(), origin) !=
                opt.allowed_origins.end();
            for(auto scheme : {std::string_view("http://"), std::string_view("https://")})
                if(origin.starts_with(scheme))
                {
                    auto const origin_host = detail::host_without_port(origin.substr(scheme.size()));
                    origin_ok = origin_ok ||
                        std::find(opt.allowed_hosts.begin(), opt.allowed_hosts.end(), origin_host) != opt.allowed_hosts.end();
                }
            if(!origin_ok)
                co_return fail(status::forbidden, -32000, "Forbidden: invalid Origin header");
        }
    }

    auto const version_header = req["MCP-Protocol-Version"];
    if(!version_header.empty() && !is_supported_protocol_version(version_header))
    {
        std::string supported;
        for(auto v : supported_protocol_versions)
            supported += (supported.empty() ? "" : ", ") + std::string(v);
        co_return fail(status::bad_request, -32000, "Bad Request: Unsupported protocol version: " +
                std::string(version_header) + " (supported versions: " + supported + ")");
    }

    auto find_session = [&]() -> std::shared_ptr<session_entry> {
        std::lock_guard lock(state_->mutex);
        auto it = state_->sessions.find(req["Mcp-Session-Id"]);
        if(it == state_->sessions.end())
            return nullptr;
        it->second->last_used = std::chrono::steady_clock::now();
        return it->second;
    };

    if(req.method() == bhttp::verb::delete_)
    {
        if(req["Mcp-Session-Id"].empty())
            co_return fail(status::bad_request, -32000, "Bad Request: Mcp-Session-Id header is required");
        std::lock_guard lock(state_->mutex);
        if(state_->sessions.erase(req["Mcp-Session-Id"]) == 0)
            co_return fail(status::not_found, -32001, "Session not found");
        http::response res{status::ok, req.version()};
        res.keep_alive(req.keep_alive());
        res.prepare_payload();
        co_return bhttp::message_generator(std::move(res));
    }
    if(req.method() != bhttp::verb::post)
    {
        // No standalone stream: the spec lets a server answer GET with 405.
        auto res = detail::mcp_http_error(status::method_not_allowed, -32000, "Method Not Allowed", req);
        res.set(bhttp::field::allow, "POST, DELETE");
        co_return bhttp::message_generator(std::move(res));
    }

    if(req[bhttp::field::content_type].find("application/json") == std::string_view::npos)
        co_return fail(status::unsupported_media_type, -32000, "Unsupported Media Type: Content-Type must be application/json");
    if(!detail::accepts(req, "application/json") || !detail::accepts(req, "text/event-stream"))
        co_return fail(status::not_acceptable, -32000,
            "Not Acceptable: Client must accept both application/json and text/event-stream");
    boost::system::error_code ec;
    json::value message = json::parse(req.body(), ec);
    if(ec)
        co_return fail(status::bad_request, jsonrpc::parse_error, "Parse error: " + ec.message());
    std::string why;
    auto const what = jsonrpc::classify(message, why);
    bool const is_initialize = what == jsonrpc::kind::request && message.at("method") == "initialize";

    std::shared_ptr<session_entry> entry;
    std::string session_id;
    if(is_initialize && req["Mcp-Session-Id"].empty())
    {
        entry = std::make_shared<session_entry>();
        session_id = detail::new_session_id();
    }
    else
    {
        if(req["Mcp-Session-Id"].empty())
            co_return fail(status::bad_request, -32000, "Bad Request: Mcp-Session-Id header is required");
        entry = find_session();
        if(!entry)
            co_return fail(status::not_found, -32001, "Session not found");
        session_id = std::string(req["Mcp-Session-Id"]);
    }

    auto reply_json = [&](std::optional<json::object> const& body) {
        if(!body)
        {
            http::response accepted{status::accepted, req.version()};
            accepted.keep_alive(req.keep_alive());
            accepted.prepare_payload();
            return std::optional<bhttp::message_generator>(std::move(accepted));
        }
        http::response res{status::ok, req.version()};
        res.set(bhttp::field::content_type, "application/json");
        res.set("Mcp-Session-Id", session_id);
        res.keep_alive(req.keep_alive());
        res.body() = to_json_text(*body);
        res.prepare_payload();
        return std::optional<bhttp::message_generator>(std::move(res));
    };

    if(what != jsonrpc::kind::request)
    {
        // Notifications and the client's answers: accepted, nothing to say (errors included, for invalid ones).
        auto reply = co_await state_->srv->handle(entry->session, std::move(message));
        if(reply && what == jsonrpc::kind::invalid)
            co_return reply_json(reply);
        http::response res{status::accepted, req.version()};
        res.keep_alive(req.keep_alive());
        res.prepare_payload();
        co_return bhttp::message_generator(std::move(res));
    }

    if(is_initialize && req["Mcp-Session-Id"].empty())
    {
        auto reply = co_await state_->srv->handle(entry->session, std::move(message));
        if(reply && reply->contains("result"))
        {
            std::lock_guard lock(state_->mutex);
            auto const now = std::chrono::steady_clock::now();
            for(auto it = state_->sessions.begin(); it != state_->sessions.end();)
                it = now - it->second->last_used > opt.session_idle_timeout ? state_->sessions.erase(it) : std::next(it);
            if(state_->sessions.size() >= opt.max_sessions && !state_->sessions.empty())
                state_->sessions.erase(std::min_element(state_->sessions.begin(), state_->sessions.end(),
                    [](auto const& a, auto const& b) { return a.second->last_used < b.second->last_used; }));
            state_->sessions.emplace(session_id, entry);
        }
        co_return reply_json(reply);
    }

    if(message.at("method") != "tools/call")
    {
        auto reply = co_await state_->srv->handle(entry->session, std::move(message));
        co_return reply_json(reply);
    }

    // tools/call: an SSE stream, so that the call's progress precedes its result.
    sse::writer writer(stream);
    writer.headers().set("Mcp-Session-Id", session_id);
    writer.headers().set(bhttp::field::cache_control, "no-cache, no-transform");
    if(auto start_ec = co_await writer.start(req.version()))
    {
        co_await writer.finish();
        co_return std::nullopt;
    }
    struct outbox
    {
        std::deque<std::string> events;
        asio::steady_timer wake;
        bool done = false;
    };
    auto const ex = co_await asio::this_coro::executor;
    auto box = std::make_shared<outbox>(outbox{{}, asio::steady_timer(ex), false});
    session::send_function channel = [box](json::object m) {
        box->events.push_back(to_json_text(m));
        box->wake.cancel();
    };
    auto run = [](server<Tools> const* srv, std::shared_ptr<session_entry> e, json::value m,
                   session::send_function ch, std::shared_ptr<outbox> b) -> asio::awaitable<void> {
        auto reply = co_await srv->handle(e->session, std::move(m), ch);
        if(reply)
            ch(*reply);
        b->done = true;
        b->wake.cancel();
    };
    auto call = run(state_->srv, entry, std::move(message), channel, box);
    asio::co_spawn(ex, std::move(call), asio::bind_cancellation_slot(writer.disconnect_slot(), asio::detached));
    for(;;)
    {
        while(!box->events.empty())
        {
            std::string data = std::move(box->events.front());
            box->events.pop_front();
            if(auto send_ec = co_await writer.send("message", data))
                break;
        }
        if(box->done && box->events.empty())
            break;
        if(writer.client_gone())
            break;
        box->wake.expires_after(std::chrono::hours(1));
        co_await box->wake.async_wait(asio::as_tuple(asio::use_awaitable));
    }
    co_await writer.finish();
    co_return std::nullopt;
}

} // namespace agentio::mcp

#endif
