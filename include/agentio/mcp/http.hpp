//
// agentio/mcp/http.hpp
// ~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The MCP Streamable HTTP transport on one path: POST carries client
// messages (answered with JSON, or with an SSE stream when the request has
// notifications of its own to send first), DELETE ends a session, GET is 405
// (this server keeps no standalone stream). Sessions by `Mcp-Session-Id`,
// capped overall and per client address (a session in use is never pushed
// out: a new one is refused with 503 instead), `MCP-Protocol-Version`
// checked, Host and Origin parsed strictly and checked against DNS
// rebinding. A streaming handler of agentio::http::server.
//

#ifndef AGENTIO_MCP_HTTP_HPP
#define AGENTIO_MCP_HTTP_HPP

#include <agentio/async_queue.hpp>
#include <agentio/detail/base64.hpp>
#include <agentio/detail/stream_ops.hpp>
#include <agentio/http/accept.hpp>
#include <agentio/http/server.hpp>
#include <agentio/json_text.hpp>
#include <agentio/mcp/server.hpp>
#include <agentio/sse/writer.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/json/parse.hpp>
#include <boost/url/ipv6_address.hpp>
#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
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

    /// Sessions kept at most.
    std::size_t max_sessions = 1024;

    /// Sessions kept at most for one client address (the connection's remote
    /// address, IPv4-mapped IPv6 taken as IPv4); 0: no such cap.
    std::size_t max_sessions_per_address = 64;

    /// A session unused for this long, with no request on it, is forgotten.
    std::chrono::steady_clock::duration session_idle_timeout = std::chrono::minutes(30);

    /// When a cap is reached, a new session may push out only a session unused
    /// for at least this long, with no request on it (the one idle longest); a
    /// session in use or used more recently is kept and the `initialize` is
    /// answered 503 with `Retry-After`, so a flood of `initialize` cannot evict
    /// a client that is still working.
    std::chrono::steady_clock::duration session_evictable_after = std::chrono::minutes(5);

    /// A `tools/call` whose result comes within this time with no notification
    /// before it is answered with plain JSON, keeping the connection; otherwise
    /// the answer becomes an SSE stream (progress first, cancelled by closing).
    std::chrono::steady_clock::duration json_reply_window = std::chrono::milliseconds(100);
};

namespace detail {

// The host of one `host [":" port]` (a Host header, RFC 9110 §7.2; an
// origin's authority, RFC 3986 §3.2): a DNS name or IPv4 address, or an IPv6
// address in brackets (kept with them), the port 1 to 5 digits up to 65535.
// Nothing for anything else — userinfo, a list, spaces, an empty port, a
// path — since a lax split would let `allowed@evil` or `allowed:1,evil` pass.
inline std::optional<std::string_view> authority_host(std::string_view authority)
{
    std::string_view host = authority;
    std::optional<std::string_view> port;
    if(authority.starts_with('['))
    {
        auto const close = authority.find(']');
        if(close == std::string_view::npos)
            return std::nullopt;
        host = authority.substr(0, close + 1);
        auto const rest = authority.substr(close + 1);
        if(!rest.empty())
        {
            if(rest.front() != ':')
                return std::nullopt;
            port = rest.substr(1);
        }
        if(!boost::urls::parse_ipv6_address(host.substr(1, host.size() - 2))) // no zone, no IPvFuture
            return std::nullopt;
    }
    else
    {
        auto const colon = authority.find(':');
        if(colon != std::string_view::npos)
        {
            host = authority.substr(0, colon);
            port = authority.substr(colon + 1);
        }
        if(host.empty())
            return std::nullopt;
        for(char const c : host)
            if(!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'))
                return std::nullopt;
    }
    if(port)
    {
        if(port->empty() || port->size() > 5)
            return std::nullopt;
        unsigned value = 0;
        for(char const c : *port)
        {
            if(c < '0' || c > '9')
                return std::nullopt;
            value = value * 10 + static_cast<unsigned>(c - '0');
        }
        if(value > 65535)
            return std::nullopt;
    }
    return host;
}

// The host of an Origin that is exactly `http(s)://host[:port]` (RFC 6454
// §7: no path, no userinfo), or nothing.
inline std::optional<std::string_view> origin_host(std::string_view origin)
{
    for(std::string_view const scheme : {"http://", "https://"})
        if(origin.size() > scheme.size() && beast::iequals(origin.substr(0, scheme.size()), scheme))
            return authority_host(origin.substr(scheme.size()));
    return std::nullopt;
}

// The connection's client address, IPv4-mapped IPv6 as IPv4 (a dual-stack
// listener must not give one client two addresses); unspecified when unknown.
template<class Stream>
asio::ip::address client_address(Stream& stream)
{
    auto const address = agentio::detail::peer_address(stream);
    if(address.is_v6() && address.to_v6().is_v4_mapped())
        return asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6());
    return address;
}

// A version 4 UUID from the operating system's random source: unguessable, visible ASCII.
inline std::string new_session_id()
{
    return boost::uuids::to_string(boost::uuids::random_generator()());
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

    /** The agentio::http::server streaming handler.

        @tparam Stream The connection: any AsyncStream (agentio::http::server
        passes an http::any_stream).
    */
    template<class Stream>
    asio::awaitable<std::optional<beast::http::message_generator>> operator()(http::request&& req,
        Stream& stream) const;

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
        asio::ip::address address;                 // the client's, for max_sessions_per_address
        // Guarded by state::mutex.
        std::chrono::steady_clock::time_point last_used = std::chrono::steady_clock::now();
        std::size_t in_flight = 0; // requests being served on it, streams included
    };

    struct state
    {
        server<Tools> const* srv;
        http_options options;
        mutable std::mutex mutex;
        std::map<std::string, std::shared_ptr<session_entry>, std::less<>> sessions;

        state(server<Tools> const& s, http_options o) : srv(&s), options(std::move(o)) {}

        // Under the mutex: makes room for one more session from `address`.
        // Forgets the sessions idle past session_idle_timeout; then, for each
        // cap reached, evicts the session of those it counts idle longest, if
        // idle at least session_evictable_after. False when a cap stays
        // reached, with how long until a session may go in `retry_after`.
        bool make_room(asio::ip::address const& address, std::chrono::steady_clock::duration& retry_after)
        {
            auto const now = std::chrono::steady_clock::now();
            auto const idle_for = [&](session_entry const& e) {
                return e.in_flight != 0 ? std::chrono::steady_clock::duration::min() : now - e.last_used;
            };
            for(auto it = sessions.begin(); it != sessions.end();)
                it = idle_for(*it->second) > options.session_idle_timeout ? sessions.erase(it) : std::next(it);

            // Evicts the idlest evictable session among those `counted`.
            auto const evict = [&](auto counted) {
                auto oldest = sessions.end();
                for(auto it = sessions.begin(); it != sessions.end(); ++it)
                    if(counted(*it->second) && it->second->in_flight == 0 &&
                        (oldest == sessions.end() || it->second->last_used < oldest->second->last_used))
                        oldest = it;
                if(oldest != sessions.end() && idle_for(*oldest->second) >= options.session_evictable_after)
                {
                    sessions.erase(oldest);
                    return true;
                }
                retry_after = oldest == sessions.end() ? options.session_evictable_after
                                                       : options.session_evictable_after - idle_for(*oldest->second);
                return false;
            };
            auto const from_address = [&](session_entry const& e) { return e.address == address; };
            std::size_t from_here = 0;
            for(auto const& s : sessions)
                from_here += from_address(*s.second) ? 1 : 0;
            if(options.max_sessions_per_address != 0 && from_here >= options.max_sessions_per_address &&
                !evict(from_address))
                return false;
            if(sessions.size() >= options.max_sessions && !evict([](session_entry const&) { return true; }))
                return false;
            return true;
        }
    };

    // Holds a session in use while a request on it is served: it is neither
    // forgotten nor evicted meanwhile, and counts as used when the request
    // ends. A provisional session (an `initialize` not yet answered) is
    // dropped instead, unless kept.
    struct use_guard
    {
        std::shared_ptr<state> st;
        std::shared_ptr<session_entry> entry;
        std::string provisional_id;

        use_guard(std::shared_ptr<state> s, std::shared_ptr<session_entry> e, std::string id = {})
            : st(std::move(s))
            , entry(std::move(e))
            , provisional_id(std::move(id))
        {
        }
        use_guard(use_guard const&) = delete;
        use_guard& operator=(use_guard const&) = delete;
        ~use_guard()
        {
            std::lock_guard lock(st->mutex);
            --entry->in_flight;
            entry->last_used = std::chrono::steady_clock::now();
            if(!provisional_id.empty())
                st->sessions.erase(provisional_id);
        }
        void keep() noexcept { provisional_id.clear(); }
    };

    template<class Stream>
    asio::awaitable<std::optional<beast::http::message_generator>> serve_stateless(http::request const& req,
        Stream& stream, json::object message) const;

    std::shared_ptr<state> state_;
};

} // namespace agentio::mcp

#include <agentio/mcp/impl/http.hpp>

#endif
