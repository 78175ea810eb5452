//
// agentio/http/server.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// A small HTTP/1.1 server on Beast and Asio coroutines: accept loop, one
// coroutine per connection on its own strand (so an io_context run by several
// threads uses all cores), keep-alive, `Expect: 100-continue`, bounded headers
// and bodies, and per-read/per-write timeouts. What to answer is the
// application's business: a handler coroutine turns a request into a response.
//

#ifndef AGENTIO_HTTP_SERVER_HPP
#define AGENTIO_HTTP_SERVER_HPP

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/tcp_stream.hpp>
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

namespace agentio::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace system = boost::system;
using tcp = asio::ip::tcp;

/// A request as the server hands it to the handler: headers and a string body.
using request = beast::http::request<beast::http::string_body>;

/// A response with a string body, the common case for handlers.
using response = beast::http::response<beast::http::string_body>;

/// Limits and timeouts of a server. The defaults suit a JSON API.
struct server_options
{
    /// Largest request body accepted; a larger one is answered with 413.
    std::size_t max_body_bytes = 1024 * 1024;

    /// Largest request header accepted; a larger one is answered with 431.
    std::uint32_t max_header_bytes = 16 * 1024;

    /// How long a request may take to arrive, and how long an idle
    /// keep-alive connection is kept.
    std::chrono::steady_clock::duration read_timeout = std::chrono::seconds(30);

    /// How long writing one response may take.
    std::chrono::steady_clock::duration write_timeout = std::chrono::seconds(30);

    /// Connections served at once; further ones wait in the listen backlog.
    std::size_t max_connections = 10000;

    /// Value of the `Server` header of responses the server makes itself.
    std::string server_name = "agentio";
};

/** A request handler: a callable that turns a request into a response.

    @code
    asio::awaitable<beast::http::message_generator> operator()(request&& req);
    @endcode

    It runs on the connection's strand. It should not throw: an exception is
    answered with a 500 and closes the connection, as the last line of defence.
*/
template<class Handler>
concept plain_request_handler = requires(Handler& h, request&& req) {
    { h(std::move(req)) } -> std::same_as<asio::awaitable<beast::http::message_generator>>;
};

/** A request handler that may also answer by writing to the connection
    itself, for responses that stream (Server-Sent Events):

    @code
    asio::awaitable<std::optional<beast::http::message_generator>>
    operator()(request&& req, beast::tcp_stream& stream);
    @endcode

    Returning a message sends it as a plain handler's would. Returning
    `std::nullopt` means the handler wrote its response on `stream` itself;
    the server then closes the connection.
*/
template<class Handler>
concept streaming_request_handler = requires(Handler& h, request&& req, beast::tcp_stream& stream) {
    { h(std::move(req), stream) } -> std::same_as<asio::awaitable<std::optional<beast::http::message_generator>>>;
};

/// Either kind of handler.
template<class Handler>
concept request_handler = plain_request_handler<Handler> || streaming_request_handler<Handler>;

/** Makes a JSON response `{"detail": "..."}` with the given status.

    The shape of the error answers the server makes itself (400, 413, 431,
    500), offered to handlers so that all errors of an API look alike.
*/
response make_error_response(beast::http::status status, std::string_view detail, unsigned version = 11,
    bool keep_alive = true);

/** An HTTP/1.1 server.

    @tparam Handler A @ref request_handler, shared by all connections (it is
    called concurrently from several threads when the io_context is).

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

    /// Connections open right now.
    std::size_t connection_count() const noexcept { return shared_->connections.load(); }

    Handler& handler() noexcept { return shared_->handler; }

private:
    struct shared_state
    {
        shared_state(Handler h, server_options o)
            : handler(std::move(h))
            , options(std::move(o))
        {
        }

        Handler handler;
        server_options options;
        std::atomic<std::size_t> connections{0};
    };

    asio::awaitable<void> accept_loop();
    static asio::awaitable<void> serve(std::shared_ptr<shared_state> state, beast::tcp_stream stream);

    asio::any_io_executor executor_;
    tcp::acceptor acceptor_;
    std::shared_ptr<shared_state> shared_;
};

} // agentio::http

#include <agentio/http/impl/server.hpp>

#endif
