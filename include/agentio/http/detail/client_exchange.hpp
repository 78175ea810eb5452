//
// agentio/http/detail/client_exchange.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// One request/response exchange of the client, as coroutines: take a pool
// slot, connect (resolve, TCP, proxy CONNECT, TLS) unless a pooled
// connection is reused, send, read the header, then the body piece by piece.
// Every failure becomes a client_error that names the peer.
//

#ifndef AGENTIO_HTTP_DETAIL_CLIENT_EXCHANGE_HPP
#define AGENTIO_HTTP_DETAIL_CLIENT_EXCHANGE_HPP

#include <agentio/http/detail/client_error.hpp>
#include <agentio/http/detail/client_pool.hpp>
#include <agentio/http/detail/client_proxy.hpp>
#include <agentio/trace.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/cancellation_state.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace agentio::http::detail {

namespace bhttp = beast::http;
using tcp = asio::ip::tcp;
using clock_type = std::chrono::steady_clock;

inline constexpr auto nothrow_awaitable = asio::as_tuple(asio::use_awaitable);

// Everything a client's requests share; requests in flight keep it alive.
struct client_state
{
    client_state(asio::any_io_executor e, client_options o)
        : ex(std::move(e))
        , opts(std::move(o))
        , pool(opts.max_connections_per_origin, opts.keep_alive_timeout, opts.watch_idle_connections)
    {
        if(!opts.tls)
        {
            opts.tls = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
            SSL_CTX_set_min_proto_version(opts.tls->native_handle(), TLS1_2_VERSION);
            opts.tls->set_verify_mode(asio::ssl::verify_peer);
            // Without a store every handshake fails, with a message that says why.
            system::error_code ignored;
            opts.tls->set_default_verify_paths(ignored);
        }
    }

    asio::any_io_executor ex;
    client_options opts; // immutable once constructed: read from any thread
    connection_pool pool;
    std::atomic<std::uint64_t> connections_opened{0};
    std::atomic<std::uint64_t> connections_reused{0};
    std::atomic<std::uint64_t> stale_retries{0};
};

// Where a request goes, from its URL.
struct target
{
    bool https = false;
    bool host_is_ip = false;
    std::string host; // lower case, no brackets
    std::uint16_t port = 0;
    std::string authority;      // for Host and CONNECT: host, and the port unless the default
    std::string request_target; // origin form: path and query
    std::string display;        // host:port, in messages
    std::string authorization;  // from user:password@ in the URL
};

inline client_error make_error(system::error_code code, std::string message)
{
    return client_error{code, std::move(message)};
}

inline client_error parse_target(std::string const& url, target& t)
{
    auto parsed = boost::urls::parse_uri(url);
    if(!parsed)
        return make_error(client_errc::bad_url, "invalid URL '" + url + "': " + parsed.error().message());
    auto const& u = *parsed;
    std::string scheme(u.scheme());
    std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if(scheme == "https")
        t.https = true;
    else if(scheme != "http")
        return make_error(client_errc::unsupported_scheme,
            "unsupported URL scheme '" + scheme + "' in '" + url + "' (only http and https)");
    auto const kind = u.host_type();
    if(!u.has_authority() || kind == boost::urls::host_type::ipvfuture || kind == boost::urls::host_type::none ||
        u.encoded_host().empty())
        return make_error(client_errc::bad_url, "invalid URL '" + url + "': no host");
    t.host_is_ip = kind == boost::urls::host_type::ipv4 || kind == boost::urls::host_type::ipv6;
    t.host = u.host_address();
    std::transform(t.host.begin(), t.host.end(), t.host.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::uint16_t const default_port = t.https ? 443 : 80;
    t.port = default_port;
    if(u.has_port())
    {
        t.port = parse_port(u.port());
        if(t.port == 0)
            return make_error(client_errc::bad_url, "invalid URL '" + url + "': bad port");
    }
    t.display = host_port(t.host, t.port);
    t.authority = t.port == default_port ? t.display.substr(0, t.display.rfind(':')) : t.display;
    t.request_target = u.encoded_target();
    if(t.request_target.empty() || t.request_target.front() != '/')
        t.request_target.insert(0, "/");
    if(u.has_userinfo())
        t.authorization = "Basic " + agentio::detail::base64_encode(u.user() + ":" + u.password());
    return {};
}

// Which limit the stream's current expiry stands for, to name a timeout.
enum class limit
{
    connect,
    idle,
    total
};

inline clock_type::time_point add_clamped(clock_type::time_point t, clock_type::duration d)
{
    return d >= clock_type::time_point::max() - t ? clock_type::time_point::max() : t + d;
}

inline bool is_cancelled(asio::cancellation_state const& cs) noexcept
{
    return cs.cancelled() != asio::cancellation_type::none;
}

// The peer closed (or reset) the connection.
inline bool is_closed_by_peer(system::error_code const& ec) noexcept
{
    return ec == asio::error::eof || ec == bhttp::error::end_of_stream || ec == bhttp::error::partial_message ||
        ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
        ec == asio::error::connection_aborted || ec == asio::ssl::error::stream_truncated;
}

// Any cancellation the coroutine accepts cancels its I/O for good: the
// connection is closed, which is what Beast's terminal-only operations need.
struct to_terminal
{
    asio::cancellation_type_t operator()(asio::cancellation_type_t t) const noexcept
    {
        return t == asio::cancellation_type::none ? asio::cancellation_type::none : asio::cancellation_type::terminal;
    }
};

// Host name (or IP address) check on top of the chain check, recording the
// reason so that the message can say "hostname mismatch".
struct verify_peer_name
{
    asio::ssl::host_name_verification check;
    bool ip;

    bool operator()(bool preverified, asio::ssl::verify_context& ctx) const
    {
        bool const ok = check(preverified, ctx);
        if(!ok && preverified)
            X509_STORE_CTX_set_error(ctx.native_handle(),
                ip ? X509_V_ERR_IP_ADDRESS_MISMATCH : X509_V_ERR_HOSTNAME_MISMATCH);
        return ok;
    }
};

// Resolution outlives the request if need be: getaddrinfo cannot be
// interrupted, and a cancelled or timed-out request must not wait for it.
struct resolve_state
{
    resolve_state(asio::any_io_executor io_ex, asio::any_io_executor strand_ex)
        : resolver(std::move(io_ex))
        , done(std::move(strand_ex))
    {
    }

    tcp::resolver resolver;
    asio::steady_timer done; // a condition: cancelled when the answer is in
    system::error_code ec;
    std::vector<tcp::endpoint> endpoints;
    bool finished = false;
};

/* `url.full` as the HTTP conventions want it on a span: no credentials
   (`REDACTED:REDACTED@`), no fragment, and every query value `REDACTED`
   (an API key or a user's search often travels there; the keys stay, to
   tell requests apart). Empty when the URL does not parse. */
inline std::string url_for_span(std::string const& url)
{
    auto parsed = boost::urls::parse_uri(url);
    if(!parsed)
        return {};
    boost::urls::url u(*parsed);
    if(u.has_userinfo())
        u.set_userinfo("REDACTED:REDACTED");
    u.remove_fragment();
    if(u.has_query())
    {
        auto params = u.params();
        for(auto it = params.begin(); it != params.end(); ++it)
            if((*it).has_value)
                it = params.set(it, "REDACTED");
    }
    return std::string(u.buffer());
}

/* One request and its response. Shared by the coroutine working on it and,
   once the header is in, the response_stream that reads the body. Used on
   its strand only.
*/
struct exchange
{
    static constexpr std::size_t chunk_capacity = 16 * 1024;

    explicit exchange(std::shared_ptr<client_state> s) : state(std::move(s)), strand(asio::make_strand(state->ex)) {}

    exchange(exchange const&) = delete;
    exchange& operator=(exchange const&) = delete;

    ~exchange() { drop(); }

    std::shared_ptr<client_state> state;
    asio::strand<asio::any_io_executor> strand;

    target where;
    std::optional<proxy_route> proxy;
    bool tunnel = false; // CONNECT through the proxy (https), else absolute form
    std::string pool_key;

    bool has_slot = false;
    std::unique_ptr<connection> conn;

    std::optional<bhttp::response_parser<bhttp::buffer_body>> parser;
    std::unique_ptr<char[]> chunk;

    clock_type::time_point deadline;
    clock_type::duration idle{};
    clock_type::duration total{};
    std::uint64_t max_body = 0;
    limit armed = limit::idle;
    std::uint64_t body_bytes = 0;
    bool request_keep_alive = true;
    bool is_head = false;
    bool finished = false; // the body was read to the end
    bool reading = false;  // a body read is pending on the connection
    client_error failure;  // sticky: a failed stream keeps failing
    trace::span span;      // the request's client span, when it is traced

    // Returns the slot, the connection closed with it.
    void drop() noexcept
    {
        if(conn)
        {
            conn->close();
            conn.reset();
        }
        if(has_slot)
        {
            has_slot = false;
            state->pool.release(pool_key, nullptr);
        }
    }

    // At the end of the body: back to the pool if the connection may be reused.
    void complete() noexcept
    {
        finished = true;
        span.end();
        bool const reusable = conn && parser && parser->is_done() && parser->get().keep_alive() && request_keep_alive &&
            conn->buffer.size() == 0;
        if(!reusable)
        {
            drop();
            return;
        }
        conn->tcp().expires_never();
        has_slot = false;
        state->pool.release(pool_key, std::move(conn));
    }

    client_error fail(client_error err)
    {
        drop();
        if(!failure)
        {
            failure = err;
            end_span_failed(failure);
        }
        return failure;
    }

    // Starts the client span of a request that carries a valid traceparent,
    // and sends the span's context instead.
    void start_span(client_request& creq)
    {
        trace::tracer* const tracer = state->opts.tracer;
        if(tracer == nullptr || !tracer->enabled())
            return;
        auto const field = creq.headers.find("traceparent");
        if(field == creq.headers.end())
            return;
        auto const parent = trace::parse_traceparent(std::string_view(field->value()));
        if(!parent)
            return;
        std::string_view const method = bhttp::to_string(creq.method);
        span = tracer->start(method, trace::span_kind::client, parent);
        if(std::string mine = span.traceparent(); !mine.empty())
            creq.headers.set("traceparent", mine);
        if(!span.recording())
            return;
        span.set("http.request.method", method);
        span.set("url.full", url_for_span(creq.url));
        target peer;
        if(!parse_target(creq.url, peer))
        {
            span.set("server.address", peer.host);
            span.set("server.port", static_cast<std::int64_t>(peer.port));
        }
    }

    // The status is in: 4xx and 5xx are errors of a client span.
    void record_status(unsigned status)
    {
        if(!span.recording())
            return;
        span.set("http.response.status_code", static_cast<std::int64_t>(status));
        if(status >= 400)
            span.fail(std::to_string(status));
    }

    void end_span_failed(client_error const& err) noexcept
    {
        if(!span.recording())
            return;
        try
        {
            span.fail(err.code.message(), err.message);
        }
        catch(...) // out of memory: the span still ends
        {
        }
        span.end();
    }

    // The response_stream went away or was closed. A pending read still uses
    // the connection (the TLS stream, the buffer): closing the socket ends it,
    // and the reader drops the connection once its operation has completed.
    void abandon()
    {
        if(!finished && !failure)
        {
            failure = make_error(asio::error::operation_aborted,
                "response stream from " + where.display + " was closed");
            end_span_failed(failure);
        }
        if(reading && conn)
            conn->close();
        else
            drop();
    }

    void arm_until(clock_type::time_point until, limit kind)
    {
        if(until >= deadline)
        {
            conn->tcp().expires_at(deadline);
            armed = limit::total;
        }
        else
        {
            conn->tcp().expires_at(until);
            armed = kind;
        }
    }

    void arm_idle() { arm_until(add_clamped(clock_type::now(), idle), limit::idle); }

    client_error cancelled_error() const
    {
        return make_error(asio::error::operation_aborted, "request to " + where.display + " was cancelled");
    }

    // A beast::error::timeout, named after the limit that was armed.
    client_error timeout_error(std::string const& peer) const
    {
        switch(armed)
        {
        case limit::connect:
            return make_error(client_errc::connect_timeout,
                "timed out after " + describe_duration(state->opts.connect_timeout) + " connecting to " + peer);
        case limit::idle:
            return make_error(client_errc::idle_timeout,
                "timed out after " + describe_duration(idle) + " waiting for data from " + peer);
        case limit::total: break;
        }
        return make_error(client_errc::total_timeout,
            "request to " + where.display + " exceeded its total timeout of " + describe_duration(total));
    }

    std::string connect_peer() const { return proxy ? "proxy " + proxy->display : where.display; }

    // ---------------------------------------------------------------------

    // Builds the wire request; fills in the target, limits and route.
    client_error prepare(client_request& creq, bhttp::request<bhttp::string_body>& req)
    {
        auto const& opts = state->opts;
        if(auto err = parse_target(creq.url, where))
            return err;
        idle = creq.idle_timeout.value_or(opts.idle_timeout);
        total = creq.total_timeout.value_or(opts.total_timeout);
        max_body = creq.max_response_bytes.value_or(opts.max_response_bytes);
        deadline = add_clamped(clock_type::now(), total);

        std::string const& proxy_url = where.https ? opts.proxy.https_proxy : opts.proxy.http_proxy;
        if(!proxy_url.empty() && !opts.proxy.bypass(where.host, where.port))
        {
            proxy_route route;
            switch(parse_proxy_url(proxy_url, route))
            {
            case proxy_parse::ok: break;
            case proxy_parse::bad_url: return make_error(client_errc::bad_url, "invalid proxy URL '" + proxy_url + "'");
            case proxy_parse::unsupported_scheme:
                return make_error(client_errc::unsupported_scheme,
                    "unsupported proxy URL '" + proxy_url + "' (only http:// proxies)");
            }
            proxy = std::move(route);
            tunnel = where.https;
        }
        pool_key = (where.https ? "https://" : "http://") + where.display;
        if(proxy)
            pool_key += " via " + proxy->display;

        static_cast<bhttp::fields&>(req) = std::move(creq.headers);
        req.method(creq.method);
        req.version(11);
        if(proxy && !tunnel)
            req.target("http://" + where.authority + where.request_target);
        else
            req.target(where.request_target);
        req.body() = std::move(creq.body);
        if(req.find(bhttp::field::host) == req.end())
            req.set(bhttp::field::host, where.authority);
        if(!opts.user_agent.empty() && req.find(bhttp::field::user_agent) == req.end())
            req.set(bhttp::field::user_agent, opts.user_agent);
        if(!where.authorization.empty() && req.find(bhttp::field::authorization) == req.end())
            req.set(bhttp::field::authorization, where.authorization);
        if(proxy && !tunnel && !proxy->authorization.empty() &&
            req.find(bhttp::field::proxy_authorization) == req.end())
            req.set(bhttp::field::proxy_authorization, proxy->authorization);
        if(req.find(bhttp::field::content_length) == req.end() &&
            req.find(bhttp::field::transfer_encoding) == req.end())
            req.prepare_payload();
        request_keep_alive = req.keep_alive();
        is_head = creq.method == bhttp::verb::head;
        chunk.reset(new char[chunk_capacity]);
        return {};
    }

    // Takes an idle connection or a slot to open one, waiting (FIFO) at the cap.
    asio::awaitable<client_error> acquire(asio::cancellation_state cs)
    {
        auto const ex = co_await asio::this_coro::executor;
        auto a = state->pool.acquire(pool_key, ex);
        if(!a.granted)
        {
            a.wait->timer.expires_at(deadline);
            co_await a.wait->timer.async_wait(nothrow_awaitable);
            if(!state->pool.withdraw(pool_key, *a.wait))
            {
                if(is_cancelled(cs))
                    co_return cancelled_error();
                co_return make_error(client_errc::total_timeout,
                    "timed out after " + describe_duration(total) + " waiting for a free connection to " +
                        where.display + " (" + std::to_string(state->opts.max_connections_per_origin) + " in use)");
            }
            a.conn = std::move(a.wait->conn);
            if(is_cancelled(cs))
            {
                state->pool.release(pool_key, std::move(a.conn)); // someone else may use it
                co_return cancelled_error();
            }
        }
        has_slot = true;
        conn = std::move(a.conn);
        co_return client_error{};
    }

    asio::awaitable<client_error> resolve(std::string const& host, std::uint16_t port, clock_type::time_point until,
        asio::cancellation_state cs, std::vector<tcp::endpoint>& out)
    {
        auto const ex = co_await asio::this_coro::executor;
        auto rs = std::make_shared<resolve_state>(state->ex, ex);
        bool const total_first = until >= deadline;
        rs->done.expires_at(total_first ? deadline : until);
        auto on_resolved = [rs](system::error_code ec, tcp::resolver::results_type results) {
            rs->ec = ec;
            for(auto const& e : results)
                rs->endpoints.push_back(e.endpoint());
            rs->finished = true;
            rs->done.cancel();
        };
        rs->resolver.async_resolve(host, std::to_string(port), asio::bind_executor(ex, std::move(on_resolved)));
        co_await rs->done.async_wait(nothrow_awaitable);
        if(!rs->finished)
        {
            rs->resolver.cancel();
            if(is_cancelled(cs))
                co_return cancelled_error();
            armed = total_first ? limit::total : limit::connect;
            co_return timeout_error(host_port(host, port));
        }
        if(rs->ec)
            co_return make_error(rs->ec, "cannot resolve host '" + host + "': " + lower_first(rs->ec.message()));
        out = std::move(rs->endpoints);
        co_return client_error{};
    }

    // A new connection: TCP to the origin or the proxy, CONNECT, TLS.
    asio::awaitable<client_error> connect(asio::cancellation_state cs)
    {
        auto const until = add_clamped(clock_type::now(), state->opts.connect_timeout);
        conn = std::make_unique<connection>(state->ex);
        ++state->connections_opened;
        std::string const& host = proxy ? proxy->host : where.host;
        std::uint16_t const port = proxy ? proxy->port : where.port;
        std::string const peer = connect_peer();

        std::vector<tcp::endpoint> endpoints;
        system::error_code ec;
        auto const address = asio::ip::make_address(host, ec);
        if(!ec)
            endpoints.emplace_back(address, port);
        else if(auto err = co_await resolve(host, port, until, cs, endpoints))
            co_return err;
        if(is_cancelled(cs))
            co_return cancelled_error();

        arm_until(until, limit::connect);
        auto [cec, ep] = co_await conn->tcp().async_connect(endpoints, nothrow_awaitable);
        if(cec == asio::error::operation_aborted && !is_cancelled(cs) && state->pool.drop_idle() != 0)
        {
            // Out of descriptors (see below), and idle pooled connections hold
            // some: give them back and try once more.
            arm_until(until, limit::connect);
            std::tie(cec, ep) = co_await conn->tcp().async_connect(endpoints, nothrow_awaitable);
        }
        if(cec)
        {
            if(is_cancelled(cs))
                co_return cancelled_error();
            if(cec == asio::error::operation_aborted)
            {
                // Nobody cancelled: Asio's range connect reports a socket it
                // could not open (out of descriptors) as aborted. Say what
                // happened; a descriptor may have been freed since, so a
                // socket that opens now still means that one did not.
                tcp::socket probe(state->ex);
                system::error_code oec;
                probe.open(endpoints.front().protocol(), oec);
                if(!oec)
                    oec = asio::error::no_descriptors;
                co_return make_error(oec, "cannot open a socket to connect to " + peer + ": " + oec.message());
            }
            if(cec == beast::error::timeout)
                co_return timeout_error(peer);
            co_return make_error(cec, lower_first(cec.message()) + " to " + peer);
        }
        conn->tcp().socket().set_option(tcp::no_delay(true), ec);

        if(tunnel)
        {
            bhttp::request<bhttp::empty_body> creq{bhttp::verb::connect, where.display, 11};
            creq.set(bhttp::field::host, where.display);
            if(!proxy->authorization.empty())
                creq.set(bhttp::field::proxy_authorization, proxy->authorization);
            if(!state->opts.user_agent.empty())
                creq.set(bhttp::field::user_agent, state->opts.user_agent);
            arm_until(until, limit::connect);
            auto [wec, wn] = co_await bhttp::async_write(conn->tcp(), creq, nothrow_awaitable);
            bhttp::response_parser<bhttp::empty_body> p;
            p.skip(true); // a 2xx to CONNECT has no body; the tunnel starts right after
            if(!wec)
                std::tie(wec, wn) = co_await bhttp::async_read(conn->tcp(), conn->buffer, p, nothrow_awaitable);
            if(wec)
            {
                if(is_cancelled(cs) || wec == asio::error::operation_aborted)
                    co_return cancelled_error();
                if(wec == beast::error::timeout)
                    co_return timeout_error(peer);
                co_return make_error(wec, "error talking to " + peer + ": " + lower_first(wec.message()));
            }
            auto const& res = p.get();
            if(res.result_int() / 100 != 2)
            {
                std::string reason(res.reason());
                if(reason.empty())
                    reason = std::string(bhttp::obsolete_reason(res.result()));
                co_return make_error(client_errc::proxy_refused,
                    peer + " refused CONNECT to " + where.display + ": " + std::to_string(res.result_int()) + " " +
                        reason);
            }
            if(conn->buffer.size() != 0)
                co_return make_error(client_errc::proxy_refused,
                    peer + " sent data before the TLS handshake through its tunnel to " + where.display);
        }

        if(where.https)
        {
            conn->start_tls(*state->opts.tls);
            auto& tls = conn->tls();
            // SNI is for names only (RFC 6066 §3); IP addresses are checked against the certificate all the same.
            if(!where.host_is_ip && !SSL_set_tlsext_host_name(tls.native_handle(), where.host.c_str()))
                co_return make_error(system::error_code(static_cast<int>(::ERR_get_error()),
                                         asio::error::get_ssl_category()),
                    "cannot set TLS server name for " + where.display);
            tls.set_verify_callback(verify_peer_name{asio::ssl::host_name_verification(where.host), where.host_is_ip},
                ec);
            arm_until(until, limit::connect);
            auto [hec] = co_await tls.async_handshake(asio::ssl::stream_base::client, nothrow_awaitable);
            if(hec)
            {
                if(is_cancelled(cs) || hec == asio::error::operation_aborted)
                    co_return cancelled_error();
                if(hec == beast::error::timeout)
                    co_return timeout_error(where.display);
                if(hec.category() == asio::error::get_ssl_category() &&
                    ERR_GET_REASON(static_cast<unsigned long>(hec.value())) == SSL_R_CERTIFICATE_VERIFY_FAILED)
                {
                    long const result = SSL_get_verify_result(tls.native_handle());
                    co_return make_error(client_errc::tls_verify_failed,
                        "certificate verify failed for " + where.display + " (" +
                            X509_verify_cert_error_string(result) + ")");
                }
                co_return make_error(hec,
                    "TLS handshake with " + where.display + " failed: " + lower_first(hec.message()));
            }
        }
        co_return client_error{};
    }

    // Sends the request and reads the response header (skipping 1xx).
    // `sent`: the request went out completely.
    asio::awaitable<system::error_code> send(bhttp::request<bhttp::string_body>& req, bool& sent)
    {
        sent = false;
        parser.reset();
        bhttp::request_serializer<bhttp::string_body> sr(req);
        while(!sr.is_done())
        {
            arm_idle();
            auto [ec, n] = co_await bhttp::async_write_some(*conn, sr, nothrow_awaitable);
            if(ec)
                co_return ec;
        }
        sent = true;
        for(;;)
        {
            parser.emplace();
            parser->header_limit(state->opts.max_header_bytes);
            parser->body_limit(max_body);
            if(is_head)
                parser->skip(true);
            arm_idle();
            auto [ec, n] = co_await bhttp::async_read_header(*conn, conn->buffer, *parser, nothrow_awaitable);
            if(ec)
                co_return ec;
            unsigned const status = parser->get().result_int();
            if(status < 100 || status >= 200 || status == 101)
                co_return system::error_code{};
            // An interim response (103 Early Hints…): the real one follows.
        }
    }

    client_error header_error(system::error_code const& ec, bool sent, asio::cancellation_state const& cs) const
    {
        if(is_cancelled(cs) || ec == asio::error::operation_aborted)
            return cancelled_error();
        if(ec == beast::error::timeout)
            return timeout_error(where.display);
        if(ec == bhttp::error::header_limit)
            return make_error(client_errc::header_too_large,
                "response header exceeds " + std::to_string(state->opts.max_header_bytes) + " bytes from " +
                    where.display);
        if(ec == bhttp::error::body_limit)
            return make_error(client_errc::body_too_large,
                "response body exceeds " + std::to_string(max_body) + " bytes from " + where.display);
        if(is_closed_by_peer(ec))
            return make_error(client_errc::closed_before_response,
                "server " + where.display + " closed the connection before responding" +
                    (sent ? "" : " (while the request was sent)"));
        if(ec.category() == system::error_code(bhttp::error::end_of_stream).category())
            return make_error(ec, "invalid HTTP response from " + where.display + ": " + lower_first(ec.message()));
        return make_error(ec,
            (sent ? "error reading the response from " : "error sending the request to ") + where.display + ": " +
                lower_first(ec.message()));
    }

    // Opens: slot, connection, request, header. A reused connection that
    // turns out closed before any response byte is replaced once.
    asio::awaitable<client_error> open(client_request& creq)
    {
        auto const cs = co_await asio::this_coro::cancellation_state;
        bhttp::request<bhttp::string_body> req;
        start_span(creq);
        if(auto err = prepare(creq, req))
        {
            end_span_failed(err);
            co_return err;
        }
        if(auto err = co_await acquire(cs))
        {
            end_span_failed(err);
            co_return err;
        }
        for(int attempt = 0;; ++attempt)
        {
            bool const reused = conn != nullptr;
            if(reused)
                ++state->connections_reused;
            else if(auto err = co_await connect(cs))
                co_return fail(err);
            bool sent = false;
            auto const ec = co_await send(req, sent);
            if(!ec)
                break;
            bool const stale = reused && attempt == 0 && !is_cancelled(cs) && !(parser && parser->got_some()) &&
                is_closed_by_peer(ec);
            if(!stale)
                co_return fail(header_error(ec, sent, cs));
            conn->close();
            conn.reset();
            ++state->stale_retries;
        }
        record_status(parser->get().result_int());
        if(parser->is_done())
            complete();
        co_return client_error{};
    }

    client_error body_error(system::error_code const& ec, asio::cancellation_state const& cs) const
    {
        if(is_cancelled(cs) || ec == asio::error::operation_aborted)
            return cancelled_error();
        if(ec == beast::error::timeout)
            return timeout_error(where.display);
        if(ec == bhttp::error::body_limit)
            return make_error(client_errc::body_too_large,
                "response body exceeds " + std::to_string(max_body) + " bytes from " + where.display);
        if(is_closed_by_peer(ec))
        {
            auto const length = parser->content_length();
            return make_error(client_errc::closed_mid_body,
                "server closed the connection mid-body (" + std::to_string(body_bytes) +
                    (length ? " of " + std::to_string(*length) : std::string()) + " bytes) from " + where.display);
        }
        if(ec.category() == system::error_code(bhttp::error::end_of_stream).category())
            return make_error(ec,
                "invalid HTTP response body from " + where.display + ": " + lower_first(ec.message()));
        return make_error(ec,
            "error reading the response body from " + where.display + ": " + lower_first(ec.message()));
    }

    // The next body bytes as they arrive; empty at the end.
    asio::awaitable<std::tuple<client_error, std::string_view>> read_some()
    {
        if(failure)
            co_return std::tuple{failure, std::string_view{}};
        if(finished)
            co_return std::tuple{client_error{}, std::string_view{}};
        auto const cs = co_await asio::this_coro::cancellation_state;
        auto& body = parser->get().body();
        for(;;)
        {
            if(is_cancelled(cs))
                co_return std::tuple{fail(cancelled_error()), std::string_view{}};
            body.data = chunk.get();
            body.size = chunk_capacity;
            arm_idle();
            reading = true;
            auto [ec, n] = co_await bhttp::async_read_some(*conn, conn->buffer, *parser, nothrow_awaitable);
            reading = false;
            if(ec == bhttp::error::need_buffer)
                ec = {};
            // Servers often end a TLS connection without close_notify; for a
            // body delimited by the close, that is its end.
            if(ec == asio::ssl::error::stream_truncated && parser->need_eof())
            {
                ec = {};
                parser->put_eof(ec);
            }
            std::size_t const got = chunk_capacity - body.size;
            body_bytes += got;
            if(ec)
                co_return std::tuple{fail(body_error(ec, cs)), std::string_view{}};
            if(parser->is_done())
                complete();
            if(got != 0)
                co_return std::tuple{client_error{}, std::string_view(chunk.get(), got)};
            if(finished)
                co_return std::tuple{client_error{}, std::string_view{}};
        }
    }

    // ---------------------------------------------------------------------
    // Entry points, one per public operation (each runs as its own co_spawn).

    static asio::awaitable<std::tuple<client_error, client_response>> run_request(std::shared_ptr<exchange> x,
        client_request creq)
    {
        co_await asio::this_coro::throw_if_cancelled(false);
        co_await asio::this_coro::reset_cancellation_state(asio::enable_partial_cancellation(), to_terminal{});
        client_response res;
        if(auto err = co_await x->open(creq))
            co_return std::tuple{std::move(err), std::move(res)};
        if(auto const length = x->parser->content_length(); length && *length <= x->max_body)
            res.body.reserve(static_cast<std::size_t>(*length));
        client_error err;
        for(;;)
        {
            auto [e, piece] = co_await x->read_some();
            if(e || piece.empty())
            {
                err = std::move(e);
                break;
            }
            res.body.append(piece);
        }
        res.status = x->parser->get().result_int();
        res.headers = std::move(static_cast<bhttp::fields&>(x->parser->get()));
        co_return std::tuple{std::move(err), std::move(res)};
    }

    static asio::awaitable<std::tuple<client_error, response_stream>> run_open(std::shared_ptr<exchange> x,
        client_request creq)
    {
        co_await asio::this_coro::throw_if_cancelled(false);
        co_await asio::this_coro::reset_cancellation_state(asio::enable_partial_cancellation(), to_terminal{});
        if(auto err = co_await x->open(creq))
            co_return std::tuple{std::move(err), response_stream{}};
        co_return std::tuple{client_error{}, response_stream(std::move(x))};
    }

    static asio::awaitable<std::tuple<client_error, std::string_view>> run_read_some(std::shared_ptr<exchange> x)
    {
        co_await asio::this_coro::throw_if_cancelled(false);
        co_await asio::this_coro::reset_cancellation_state(asio::enable_partial_cancellation(), to_terminal{});
        co_return co_await x->read_some();
    }

    static asio::awaitable<std::tuple<client_error, std::string>> run_read_all(std::shared_ptr<exchange> x)
    {
        co_await asio::this_coro::throw_if_cancelled(false);
        co_await asio::this_coro::reset_cancellation_state(asio::enable_partial_cancellation(), to_terminal{});
        std::string all;
        for(;;)
        {
            auto [e, piece] = co_await x->read_some();
            if(e || piece.empty())
                co_return std::tuple{std::move(e), std::move(all)};
            all.append(piece);
        }
    }
};

inline client_error internal_error(std::exception_ptr ep)
{
    std::string what = "unknown exception";
    try
    {
        std::rethrow_exception(ep);
    }
    catch(std::exception const& e)
    {
        what = e.what();
    }
    catch(...)
    {
    }
    return make_error(client_errc::internal, "internal error in the HTTP client: " + what);
}

/* Runs `work` on the exchange's strand and completes `handler` with its
   result: on the handler's associated executor (else the client's), with the
   handler's cancellation slot cancelling the coroutine. An exception (only
   out of memory or a bug) still completes the handler, as an error value.

   The caller's cancellation is forwarded by hand rather than by binding the
   caller's slot to co_spawn: Asio 1.81's co_spawn_cancellation_handler, which
   lives in the caller's slot, dispatches a raw pointer to its own signal to
   the strand; when the coroutine finishes first, the caller clears its slot,
   the handler and its signal are freed, and the deferred emit writes freed
   memory (chriskohlhoff/asio#1332, fixed in Asio 1.29). Here the signal the
   coroutine listens to is shared by the forwarder and the completion, and is
   emitted on the strand, where the coroutine's own slot is cleared: a
   cancellation that arrives after the end finds nothing to cancel.
*/
template<class Result, class Handler>
void launch(asio::any_io_executor const& io_ex, asio::strand<asio::any_io_executor> const& strand,
    asio::awaitable<Result> work, Handler handler)
{
    auto caller_slot = asio::get_associated_cancellation_slot(handler);
    auto handler_ex = asio::get_associated_executor(handler, io_ex);
    auto signal = std::make_shared<asio::cancellation_signal>();
    if(caller_slot.is_connected())
        caller_slot.assign([signal, strand](asio::cancellation_type type) {
            asio::dispatch(strand, [signal, type] { signal->emit(type); });
        });
    auto complete = [h = std::move(handler), signal](std::exception_ptr ep, Result r) mutable {
        if(ep)
            std::get<0>(r) = internal_error(ep);
        std::apply(std::move(h), std::move(r));
    };
    auto coroutine_slot = signal->slot();
    asio::co_spawn(strand, std::move(work),
        asio::bind_cancellation_slot(coroutine_slot, asio::bind_executor(handler_ex, std::move(complete))));
}

} // namespace agentio::http::detail

#endif
