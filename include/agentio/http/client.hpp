//
// agentio/http/client.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An HTTP/1.1 client on Beast and Asio coroutines: http:// and https:// URLs,
// a keep-alive connection pool per origin with a cap, TLS with certificate
// and host name verification, HTTP proxies (CONNECT tunnels for https),
// connect/idle/total timeouts, cancellation through Asio cancellation slots,
// and response bodies either buffered (bounded) or streamed chunk by chunk.
// Failures are values: a code to branch on and a message for humans.
//

#ifndef AGENTIO_HTTP_CLIENT_HPP
#define AGENTIO_HTTP_CLIENT_HPP

#include <agentio/version.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/http/fields.hpp>
#include <boost/beast/http/verb.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace agentio::trace {
class tracer;
} // namespace agentio::trace

namespace agentio::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace system = boost::system;

/** Errors of the client that are not plain Asio, SSL or Beast errors.

    Errors of the network (`asio::error::connection_refused`, resolver
    errors, …) and of TLS (other than verification) are passed through as they
    are; the codes below name what the client itself detects.
*/
enum class client_errc
{
    /// The URL could not be parsed, or has no host.
    bad_url = 1,

    /// The URL's scheme is neither `http` nor `https` (or the proxy's is not `http`).
    unsupported_scheme,

    /// Resolving, connecting, the proxy tunnel and the TLS handshake took longer
    /// than `client_options::connect_timeout`.
    connect_timeout,

    /// Nothing was sent or received for `client_options::idle_timeout`.
    idle_timeout,

    /// The whole request (waiting for a connection, connecting, sending and
    /// reading the whole body) took longer than `client_options::total_timeout`.
    total_timeout,

    /// The response body is larger than `client_options::max_response_bytes`.
    body_too_large,

    /// The response header is larger than `client_options::max_header_bytes`.
    header_too_large,

    /// The proxy answered the CONNECT request with a non-2xx status.
    proxy_refused,

    /// The server's certificate did not verify (untrusted, expired, wrong host…).
    tls_verify_failed,

    /// The server closed the connection before a complete response header.
    closed_before_response,

    /// The server closed the connection before the end of the response body.
    closed_mid_body,

    /// An unexpected exception inside the client (out of memory, a bug).
    internal
};

/** The error category of @ref client_errc.

    @return The category object, named "agentio.http.client".
*/
system::error_category const& client_category() noexcept;

/** Makes an error code of @ref client_errc (found by ADL, so that
    `ec == client_errc::idle_timeout` works).

    @param e The error.
    @return `{e, client_category()}`.
*/
inline system::error_code make_error_code(client_errc e) noexcept
{
    return {static_cast<int>(e), client_category()};
}

/** The outcome of a failed operation: a code and a message.

    The code is meant for branching (`err.code == client_errc::idle_timeout`,
    `err.code == asio::error::connection_refused`), the message for people:
    it names the peer and what happened, e.g.
    "connection refused to 127.0.0.1:8080" or
    "timed out after 10 s connecting to api.anthropic.com:443".

    Default-constructed, it means success.
*/
struct client_error
{
    /// What went wrong; no error on success.
    system::error_code code{};

    /// A sentence for a log or a user, naming the peer; empty on success.
    std::string message{};

    /// Whether this is an error.
    explicit operator bool() const noexcept { return code.failed(); }

    /** Whether trying the same request again may succeed.

        True for transient conditions: refused or reset connections,
        unreachable networks, temporary DNS failures, the three timeouts and
        servers closing the connection early. False for anything that will
        fail the same way (bad URL, certificate, size limits, proxy refusal)
        and for cancellation. HTTP statuses (429, 503 …) are not errors of
        the client: look at the response and its `retry-after` header.
    */
    bool retryable() const noexcept;
};

/** Which proxy to use, if any.

    Proxies are spoken to in plain HTTP: `https://` targets go through a
    `CONNECT` tunnel (TLS is end to end, with the target's name), `http://`
    targets are requested from the proxy in absolute form.
*/
struct proxy_settings
{
    /** Proxy for `https://` targets, e.g. `"http://proxy.corp:3128"`.

        The scheme may be left out (`"proxy.corp:3128"`); without a port, 1080
        is used (as curl does). `user:password@` in the URL is sent as
        `Proxy-Authorization: Basic`. Empty: no proxy.
    */
    std::string https_proxy{};

    /// Proxy for `http://` targets; same form as `https_proxy`.
    std::string http_proxy{};

    /** Hosts reached directly, as curl reads `NO_PROXY`: a comma-separated
        list of

        @li `*`: no proxy for any host;
        @li a domain name: that name and its subdomains (`example.com` and
            `.example.com` both match `example.com` and `api.example.com`);
        @li an IP address (`127.0.0.1`, `::1` or `[::1]`), matched literally,
            or a CIDR block (`10.0.0.0/8`, `fd00::/8`);
        @li any of those with `:port`, which then only matches that port.

        Names are compared without case and are not resolved, so
        `localhost` does not match `127.0.0.1`. Loopback hosts are not exempt
        unless they are listed (curl too proxies `localhost` unless told
        otherwise); list `localhost,127.0.0.1,::1` to reach local services
        directly.
    */
    std::string no_proxy{};

    /** Reads the settings the usual way from the environment.

        `https_proxy`, then `HTTPS_PROXY`; `http_proxy`, then `HTTP_PROXY`,
        except that `HTTP_PROXY` is ignored when `REQUEST_METHOD` is set (a
        CGI program's `HTTP_PROXY` comes from the request's `Proxy:` header,
        the "httpoxy" hole); `no_proxy`, then `NO_PROXY`.

        @return The settings; empty strings for unset variables.
    */
    static proxy_settings from_environment();

    /** Whether `host:port` is to be reached without a proxy.

        @param host A host name or IP address, IPv6 with or without brackets.
        @param port The target port.
        @return True if `no_proxy` lists the host.
    */
    bool bypass(std::string_view host, std::uint16_t port) const;
};

/// Limits, timeouts, TLS and proxy settings of a @ref client.
struct client_options
{
    /// Connections alive at once per origin (scheme, host, port and proxy
    /// route), idle ones included. Further requests wait, first come first served.
    std::size_t max_connections_per_origin = 8;

    /// Resolving, connecting, proxy CONNECT and TLS handshake of a new connection.
    std::chrono::steady_clock::duration connect_timeout = std::chrono::seconds(10);

    /// Longest silence while sending the request or reading the response,
    /// including the wait for the response header.
    std::chrono::steady_clock::duration idle_timeout = std::chrono::seconds(60);

    /// The whole request: waiting for a connection, connecting, sending, and
    /// reading the whole body, streamed bodies included.
    std::chrono::steady_clock::duration total_timeout = std::chrono::minutes(10);

    /// An idle pooled connection is closed after this long without use.
    std::chrono::steady_clock::duration keep_alive_timeout = std::chrono::seconds(60);

    /** Watch idle pooled connections, closing one as soon as its server closes
        it, rather than leaving it in CLOSE_WAIT until the next request to that
        origin (or the keep-alive timeout) finds it dead. The watch is an
        operation in progress: while a connection is idle, `io_context::run()`
        does not return for lack of work. For long-running servers; a program
        that runs its io_context until its requests are done leaves it off.
    */
    bool watch_idle_connections = false;

    /// Largest response body, buffered or streamed.
    std::uint64_t max_response_bytes = 64 * 1024 * 1024;

    /// Largest response header (status line and fields).
    std::uint32_t max_header_bytes = 64 * 1024;

    /// Proxies; none by default (`proxy_settings::from_environment()` reads the usual variables).
    proxy_settings proxy{};

    /** TLS context for `https://`. Null: a client context with TLS 1.2 or
        later, peer verification and the system's certificate store
        (`set_default_verify_paths`). Host name verification and SNI are added
        per connection whatever the context.
    */
    std::shared_ptr<asio::ssl::context> tls{};

    /// `User-Agent` sent unless the request has one; empty: none.
    std::string user_agent = "agentio/" AGENTIO_VERSION_STRING;

    /** Records an HTTP client span (OpenTelemetry's HTTP conventions: named
        after the method, `http.request.method`, `server.address`,
        `server.port`, `url.full` with its user and query values redacted,
        `http.response.status_code`, `error.type`) for each request that
        carries a valid `traceparent` field: the span is that context's
        child, and its own context replaces the field, so that the server's
        spans hang below it. It lasts until the body is read to its end (a
        streamed one included), fails or is abandoned. A request without the
        field (an exporter's own) is not traced. Null: nothing is recorded,
        and the field goes out as given. The tracer outlives the client. */
    trace::tracer* tracer = nullptr;
};

/// A request to make.
struct client_request
{
    beast::http::verb method = beast::http::verb::get;

    /// `http://` or `https://` URL. A fragment is dropped; `user:password@`
    /// becomes `Authorization: Basic` unless the request has one.
    std::string url{};

    /** Request fields. `Host`, `User-Agent` and `Content-Length` are added
        unless present; fields set here are never replaced. `Connection: close`
        keeps the connection out of the pool.
    */
    beast::http::fields headers{};

    /// Body, sent with `Content-Length`.
    std::string body{};

    /// Overrides `client_options::idle_timeout` for this request (a
    /// non-streaming LLM call may send nothing for minutes).
    std::optional<std::chrono::steady_clock::duration> idle_timeout{};

    /// Overrides `client_options::total_timeout` for this request.
    std::optional<std::chrono::steady_clock::duration> total_timeout{};

    /// Overrides `client_options::max_response_bytes` for this request.
    std::optional<std::uint64_t> max_response_bytes{};
};

/// A complete response, body included.
struct client_response
{
    /// Status code, e.g. 200.
    unsigned status = 0;

    beast::http::fields headers{};

    std::string body{};

    /// @return Whether the status is 2xx.
    bool ok() const noexcept { return status >= 200 && status < 300; }

    /** The value of a field.

        @param name The field name, in any case.
        @return The value (the first one if repeated), empty if absent.
    */
    std::string_view header(std::string_view name) const;

    /** `Retry-After` as a delay.

        @return The delay, if the field is present and in seconds form; the
        HTTP-date form is not parsed (LLM providers send seconds).
    */
    std::optional<std::chrono::seconds> retry_after() const;
};

/// Counters of a @ref client, for tests and metrics.
struct client_stats
{
    /// Connections opened (TCP connects started), proxy tunnels included.
    std::uint64_t connections_opened = 0;

    /// Requests sent on a connection taken from the pool.
    std::uint64_t connections_reused = 0;

    /// Requests sent again on a fresh connection because a pooled one turned out closed.
    std::uint64_t stale_retries = 0;
};

namespace detail {
struct client_state;
struct exchange;
} // namespace detail

/** A response whose body is read incrementally.

    Obtained from @ref client::async_open once the status line and header
    have arrived; it owns the connection while the body is read. Read it
    with `async_read_some` until an empty chunk (the end), or with
    `async_read_all`. At the end of a keep-alive response the connection goes
    back to the pool; a stream destroyed or closed before the end closes its
    connection instead, so a half-read connection is never reused.

    One read at a time; the object itself is not thread-safe (like an Asio
    socket), but may be used from any thread.
*/
class response_stream
{
public:
    /// An empty stream (`is_open()` is false), e.g. the one passed with an error.
    response_stream() noexcept = default;

    response_stream(response_stream&&) noexcept = default;
    response_stream& operator=(response_stream&& other) noexcept;
    response_stream(response_stream const&) = delete;
    response_stream& operator=(response_stream const&) = delete;

    /// Closes the connection unless the body was read to the end.
    ~response_stream();

    /// @return Whether the stream refers to a response.
    bool is_open() const noexcept { return x_ != nullptr; }

    /// @return The status code. @pre `is_open()`.
    unsigned status() const noexcept;

    /// @return The response fields (trailer fields join them at the end). @pre `is_open()`.
    beast::http::fields const& headers() const noexcept;

    /// @return Whether the whole body has been read.
    bool done() const noexcept;

    /** Reads the next piece of the body as it arrives (chunked or not).

        Completes as soon as some body bytes arrived, without waiting to fill
        a buffer: fit to feed an SSE parser. The total timeout of the request
        and the idle timeout apply.

        @param token Completion token; the completion signature is
        @code
        void(client_error err, std::string_view chunk);
        @endcode
        An empty chunk without error means the end of the body. The view is
        valid until the next call on this stream or its destruction.

        @pre `is_open()`, and no other read is pending.

        Cancellation: terminal and partial, through the handler's cancellation
        slot. The connection is then closed and the stream fails.

        @return Whatever the token makes of the operation (e.g. an awaitable of
        `std::tuple<client_error, std::string_view>` with `use_awaitable`).
    */
    template<asio::completion_token_for<void(client_error, std::string_view)> Token =
                 asio::default_completion_token_t<asio::any_io_executor>>
    auto async_read_some(Token&& token = {});

    /** Reads the rest of the body into a string.

        @param token Completion token; the completion signature is
        @code
        void(client_error err, std::string body);
        @endcode
        The body is bounded by the request's `max_response_bytes`.

        @pre `is_open()`, and no other read is pending.

        @return Whatever the token makes of the operation.
    */
    template<asio::completion_token_for<void(client_error, std::string)> Token =
                 asio::default_completion_token_t<asio::any_io_executor>>
    auto async_read_all(Token&& token = {});

    /// Closes the connection (unless it already went back to the pool) and empties the stream.
    void close() noexcept;

private:
    friend struct detail::exchange;
    explicit response_stream(std::shared_ptr<detail::exchange> x) noexcept : x_(std::move(x)) {}

    std::shared_ptr<detail::exchange> x_;
};

/** An HTTP/1.1 client with a connection pool.

    @code
    agentio::http::client c(ioc.get_executor());
    auto [err, res] = co_await c.async_request(
        {.method = http::verb::get, .url = "http://127.0.0.1:8080/api/v1/status"},
        asio::use_awaitable);
    if(err)
        log(err.message);          // e.g. "connection refused to 127.0.0.1:8080"
    @endcode

    Thread safety: one client may be used concurrently from several threads
    (e.g. an io_context run by several threads); each request runs on a strand
    of its own and the pool is guarded by a mutex. A pooled connection is used
    by one request at a time.

    Connection reuse: a connection goes back to the pool only after a
    complete response with keep-alive, no leftover bytes, and no error or
    cancellation. A pooled connection found closed by the server is replaced
    transparently: before reuse the client checks that the peer has not
    closed it, and if sending fails or the server closes it before any byte
    of the response, the request is sent once more on a fresh connection —
    whatever its method, since the server cannot have processed a request it
    never answered any byte of on a connection it was closing (curl and
    urllib3 do the same).
*/
class client
{
public:
    /** Creates a client.

        @param ex The executor for the client's I/O objects, usually an
        io_context's. Completion handlers without an associated executor run on it.
        @param options Limits, timeouts, TLS and proxies.
    */
    explicit client(asio::any_io_executor ex, client_options options = {});

    client(client&&) noexcept = default;
    client& operator=(client&&) noexcept = default;
    client(client const&) = delete;
    client& operator=(client const&) = delete;

    /// Closes the idle connections. Requests in flight complete normally; their
    /// connections are closed instead of pooled.
    ~client();

    /** Makes a request and reads the whole response.

        @param req The request.
        @param token Completion token; the completion signature is
        @code
        void(client_error err, client_response res);
        @endcode
        An HTTP error status is not an error: `err` is empty and `res.status` is,
        say, 503. As the first argument is not an `error_code`,
        `co_await c.async_request(req, asio::use_awaitable)` gives a
        `std::tuple<client_error, client_response>` and never throws.

        Cancellation: terminal and partial, through the handler's cancellation
        slot (e.g. `asio::bind_cancellation_slot`, or the `||` of
        `asio::experimental::awaitable_operators`). The request completes
        promptly with `asio::error::operation_aborted` and its connection is
        closed, never pooled.

        @return Whatever the token makes of the operation.

        @par Example
        @code
        auto [err, res] = co_await c.async_request(std::move(req), asio::use_awaitable);
        @endcode
    */
    template<asio::completion_token_for<void(client_error, client_response)> Token =
                 asio::default_completion_token_t<asio::any_io_executor>>
    auto async_request(client_request req, Token&& token = {});

    /** Makes a request and completes once the response header has arrived.

        @param req The request.
        @param token Completion token; the completion signature is
        @code
        void(client_error err, response_stream res);
        @endcode
        On error `res` is empty. Read the body through `res`; the total
        timeout of the request keeps running while it is read.

        Cancellation: as for `async_request`.

        @return Whatever the token makes of the operation.
    */
    template<asio::completion_token_for<void(client_error, response_stream)> Token =
                 asio::default_completion_token_t<asio::any_io_executor>>
    auto async_open(client_request req, Token&& token = {});

    /// @return Idle connections in the pool, all origins together.
    std::size_t idle_connections() const;

    /// @return Counters since the client was created.
    client_stats stats() const noexcept;

    /// @return The options the client was created with (the default TLS context filled in).
    client_options const& options() const noexcept;

    /// @return The executor given to the constructor.
    asio::any_io_executor get_executor() const noexcept;

private:
    std::shared_ptr<detail::client_state> state_;
};

} // namespace agentio::http

namespace boost::system {
template<>
struct is_error_code_enum<agentio::http::client_errc> : std::true_type
{
};
} // namespace boost::system

#include <agentio/http/impl/client.hpp>
#ifdef AGENTIO_HEADER_ONLY
#include <agentio/http/impl/client.ipp>
#endif

#endif
