//
// agentio/http/server.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A small HTTP/1.1 server on Beast and Asio coroutines: accept loop, one
// coroutine per connection on its own strand (so an io_context run by several
// threads uses all cores), keep-alive, `Expect: 100-continue`, bounded headers
// and bodies, and per-read/per-write timeouts, over TCP or TLS. What to
// answer is the application's business: a handler coroutine turns a request
// into a response.
//

#ifndef AGENTIO_HTTP_SERVER_HPP
#define AGENTIO_HTTP_SERVER_HPP

#include <agentio/http/any_stream.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/system/result.hpp>

#include <atomic>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace agentio::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace system = boost::system;
using tcp = asio::ip::tcp;

/// The stream of a connection served over TLS.
using tls_stream = beast::ssl_stream<beast::tcp_stream>;

/// A request as the server hands it to the handler: headers and a string body.
using request = beast::http::request<beast::http::string_body>;

/// A response with a string body, the common case for handlers.
using response = beast::http::response<beast::http::string_body>;

/** Where to listen, from text: `host:port` (`127.0.0.1:9464`), `[v6]:port`
    (`[::1]:9464`), or a port alone, `:port` or `port`, for every interface
    (`0.0.0.0`), as Prometheus exporters write it. The host is an address,
    never a name to resolve. Nothing when the text is none of these. */
inline std::optional<tcp::endpoint> parse_listen_address(std::string_view text)
{
    std::string_view host;
    std::string_view port = text;
    if(auto const colon = text.rfind(':'); colon != std::string_view::npos)
    {
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
        if(host.size() >= 2 && host.front() == '[' && host.back() == ']')
            host = host.substr(1, host.size() - 2);
        else if(host.find(':') != std::string_view::npos)
            return std::nullopt; // an IPv6 address without brackets: its port is ambiguous
    }
    if(port.empty() || port.size() > 5)
        return std::nullopt;
    unsigned number = 0;
    for(char const c : port)
    {
        if(c < '0' || c > '9')
            return std::nullopt;
        number = number * 10 + static_cast<unsigned>(c - '0');
    }
    if(number > 65535)
        return std::nullopt;
    system::error_code ec;
    auto const address = host.empty() ? asio::ip::address(asio::ip::address_v4::any())
                                      : asio::ip::make_address(std::string(host), ec);
    if(ec)
        return std::nullopt;
    return tcp::endpoint(address, static_cast<unsigned short>(number));
}

/** Writes the body of an error answer from one sentence: sets the content
    type and the body of `res`, whose status is set.
*/
using error_body_writer = std::function<void(response& res, std::string_view detail)>;

/** The default error body: RFC 9457 problem details, `application/problem+json`
    with `title` (the reason phrase), `status` and `detail`.
*/
void write_problem_details(response& res, std::string_view detail);

/** Limits and timeouts of a server. The defaults suit a JSON API facing
    clients that may be hostile: every resource a client can make the server
    hold (connections, bytes of a request, bytes of answers it does not read,
    time) is bounded, and no single address can take all of one.
*/
struct server_options
{
    /// Largest request body accepted; a larger one is answered with 413.
    std::size_t max_body_bytes = 1024 * 1024;

    /** The largest body of one request, chosen from its head (a route that
        takes uploads allows more than one that takes JSON); a larger body is
        answered with 413 before it is read. Empty: @ref max_body_bytes for
        every request.
    */
    std::function<std::size_t(beast::http::request_header<> const&)> max_body_bytes_for = {};

    /** Largest request header accepted; a larger one is answered with 431.
        The same bound holds for the trailer of a chunked body and for each
        chunk header with its extensions. At most 65 535: Beast stores a
        field in 16 bits, so larger values are taken as 65 535.
    */
    std::uint32_t max_header_bytes = 16 * 1024;

    /// How long a complete request head may take to arrive, counted from the
    /// connection's start or the previous answer (so also how long an idle
    /// keep-alive connection is kept). A client trickling a header is cut off.
    std::chrono::steady_clock::duration header_timeout = std::chrono::seconds(10);

    /// How long a request body may take to arrive once its head has.
    std::chrono::steady_clock::duration read_timeout = std::chrono::seconds(30);

    /// How long writing one response may take; a client that stops reading
    /// is disconnected then.
    std::chrono::steady_clock::duration write_timeout = std::chrono::seconds(30);

    /// Connections served at once; one more is answered 503 and closed.
    std::size_t max_connections = 10000;

    /// Connections served at once from one client address, so that one client
    /// cannot take every slot (503 past it). 0: no per-address bound.
    std::size_t max_connections_per_address = 256;

    /** Bytes of answers being written, server-wide: what clients that do not
        read make the server hold. An answer that would pass the bound is
        replaced by a 503 (its memory released at once) unless it is small
        (below 16 KiB) or its client holds nothing else. 0: no bound.
    */
    std::size_t max_pending_output_bytes = 64 * 1024 * 1024;

    /// The same bound per client address. 0: no per-address bound.
    std::size_t max_pending_output_bytes_per_address = 16 * 1024 * 1024;

    /// Value of the `Server` header of responses the server makes itself.
    std::string server_name = "agentio";

    /// How the error answers the server makes itself (400, 413, 431, 500,
    /// 503) are written; empty: @ref write_problem_details. An API gives the
    /// same writer to @ref make_error_response, so all its errors look alike.
    error_body_writer error_body = {};

    /** Serve HTTPS: when set, each connection starts with a TLS handshake
        (server side, with this context's certificate and key), which must end
        within @ref header_timeout; a client that does not complete one (plain
        HTTP on this port, say) is closed without an answer. Streaming handlers
        then get a @ref tls_stream, or an @ref any_stream over one. The
        connection ends with a TLS close_notify (`async_shutdown`), waited for
        at most @ref tls_shutdown_timeout.
    */
    std::shared_ptr<asio::ssl::context> tls = {};

    /// How long the TLS closing exchange may take before the socket is closed anyway.
    std::chrono::steady_clock::duration tls_shutdown_timeout = std::chrono::seconds(2);
};

/** A request handler: a callable that turns a request into a response.

    @code
    asio::awaitable<beast::http::message_generator> operator()(request&& req);
    @endcode

    It runs on the connection's strand. It should not throw: an exception is
    answered with a 500 and closes the connection, as the last line of defence.
*/
// clang-format off
template<class Handler>
concept plain_request_handler = requires(Handler& h, request&& req) {
    { h(std::move(req)) } -> std::same_as<asio::awaitable<beast::http::message_generator>>;
};
// clang-format on

/** A request handler that may also answer by writing to the connection
    itself, for responses that stream (Server-Sent Events):

    @code
    asio::awaitable<std::optional<beast::http::message_generator>>
    operator()(request&& req, Stream& stream);
    @endcode

    Returning a message sends it as a plain handler's would. Returning
    `std::nullopt` means the handler wrote its response on `stream` itself;
    the server then closes the connection.

    The server passes an @ref any_stream when the handler accepts one (it is
    then compiled once for TCP and TLS), otherwise the connection's own
    stream: `beast::tcp_stream`, or @ref tls_stream when serving TLS.
*/
// clang-format off
template<class Handler, class Stream = beast::tcp_stream>
concept streaming_request_handler = requires(Handler& h, request&& req, Stream& stream) {
    { h(std::move(req), stream) } -> std::same_as<asio::awaitable<std::optional<beast::http::message_generator>>>;
};
// clang-format on

/// Either kind of handler, on any stream the server serves. (Tried in this
/// order, so that a generic handler is instantiated for any_stream alone.)
template<class Handler>
concept request_handler = plain_request_handler<Handler> || streaming_request_handler<Handler, any_stream> ||
    streaming_request_handler<Handler, beast::tcp_stream> || streaming_request_handler<Handler, tls_stream>;

/** Makes an error response with the given status, its body written by
    `write_body` (empty: @ref write_problem_details).

    Handlers pass the writer of their @ref server_options::error_body, so
    that every error of an API, the server's own included, looks alike.
*/
response make_error_response(beast::http::status status, std::string_view detail, unsigned version = 11,
    bool keep_alive = true, error_body_writer const& write_body = {});

/** Runs `ioc` on `threads` threads (the calling one included) until it stops.

    An exception that escapes a completion handler — a bug, or a library that
    throws from inside an operation — is passed to `on_error` (by default
    written to stderr) and the thread goes back to `run()`: the operation that
    threw is abandoned, and with it the one connection it served, never the
    process.
*/
void run_threads(asio::io_context& ioc, unsigned threads, std::function<void(std::exception_ptr)> on_error = {});

/** Raises the soft limit on open files (RLIMIT_NOFILE) to the hard limit:
    every connection is a descriptor, and 1 024 is a common default.

    @return The soft limit in force afterwards.
*/
std::size_t raise_open_file_limit() noexcept;

namespace detail {
struct connection_control;
} // namespace detail

/** An HTTP/1.1 server.

    @tparam Handler A @ref request_handler, shared by all connections (it is
    called concurrently from several threads when the io_context is). To
    serve TLS (@ref server_options::tls) it must be a plain handler or accept
    an @ref any_stream or a @ref tls_stream.

    @code
    asio::io_context ioc;
    agentio::http::server srv(ioc.get_executor(), my_handler{});
    auto ep = srv.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    srv.start();
    ioc.run();
    @endcode
*/
template<request_handler Handler>
class server
{
public:
    /** Creates a server.

        @param ex The executor of an io_context (not a strand): every
        connection gets a strand of its own on it.
        @param handler The request handler.
        @param options Limits and timeouts.
        @throws std::invalid_argument when `options.tls` is set and the
        handler cannot be given a TLS stream.
    */
    server(asio::any_io_executor ex, Handler handler, server_options options = {});

    server(server const&) = delete;
    server& operator=(server const&) = delete;

    /** Binds and listens.

        @param endpoint Where to listen; port 0 picks a free port.
        @return The endpoint actually bound, or the error (e.g. address in use).
    */
    system::result<tcp::endpoint> listen(tcp::endpoint const& endpoint);

    /// Starts accepting connections. Call after a successful `listen`.
    void start();

    /// Stops accepting; connections already open finish their current request.
    void stop();

    /** Stops gracefully: stops accepting, closes idle keep-alive connections,
        lets requests and streamed answers in flight finish for up to `grace`,
        then closes what is left (a streaming handler sees its client leave and
        cancels its work). Calls `done` once no connection is left, or a second
        after the forced close. Safe from any thread.
    */
    void shutdown(std::chrono::steady_clock::duration grace, std::function<void()> done);

    /// Connections open right now.
    std::size_t connection_count() const noexcept;

    Handler& handler() noexcept;

private:
    struct shared_state;

    static constexpr bool serves_tls = plain_request_handler<Handler> ||
        streaming_request_handler<Handler, any_stream> || streaming_request_handler<Handler, tls_stream>;

    asio::awaitable<void> accept_loop();
    static asio::awaitable<void> serve(std::shared_ptr<shared_state> state, beast::tcp_stream stream,
        asio::ip::address peer);
    template<class Stream>
    static asio::awaitable<bool> serve_requests(std::shared_ptr<shared_state> const& state, Stream& stream,
        asio::ip::address const& peer, detail::connection_control& control);

    asio::any_io_executor executor_;
    std::shared_ptr<tcp::acceptor> acceptor_; // shared with stop()'s posted close
    std::shared_ptr<shared_state> shared_;
};

} // namespace agentio::http

#include <agentio/http/impl/server.hpp>

#endif
