//
// agentio/mcp/client/transport.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// How an MCP client reaches its server: a child process on stdio, Streamable
// HTTP, or the 2024-11-05 HTTP+SSE transport. A transport moves JSON-RPC
// messages; the protocol (negotiation, ids, timeouts) is the client's.
//

#ifndef AGENTIO_MCP_CLIENT_TRANSPORT_HPP
#define AGENTIO_MCP_CLIENT_TRANSPORT_HPP

#include <agentio/config.hpp>
#include <agentio/http/client.hpp>
#include <agentio/mcp/client/error.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/fields.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentio::mcp {

namespace asio = boost::asio;
namespace json = boost::json;

/// What the client tells the transport about one outgoing message.
struct send_options
{
    /** Extra HTTP fields of a 2026-07-28 request (`Mcp-Param-<Name>`), ignored
        by stdio. `Mcp-Method` and `Mcp-Name` the HTTP transport derives from
        the message itself. */
    std::vector<std::pair<std::string, std::string>> headers = {};

    /// The message is a 2026-07-28 request: no session, the routing headers.
    bool stateless = false;

    /** How long a request may go without its answer (or, over an event
        stream, without any message): an HTTP transport bounds its wait for an
        answer that comes with the POST itself. Unset: the transport's own limits. */
    std::optional<std::chrono::steady_clock::duration> answer_within = {};

    /** The request's W3C `traceparent` (valid, also in its `params._meta`):
        an HTTP transport sends it as the `traceparent` header of the POST that
        carries the message, ignored by stdio. Empty: no header. It stays
        valid while `send` runs. */
    std::string_view traceparent = {};
};

/** A connection to one MCP server, as the client sees it: messages out,
    messages in.

    A transport runs on a strand (`get_executor()`); it calls the receiver's
    functions on it, and the client calls the transport from it. Implement it
    to reach a server some other way (a WebSocket, an in-process pipe).
*/
class client_transport : public std::enable_shared_from_this<client_transport>
{
public:
    /// Where incoming messages go.
    struct receiver
    {
        /// A JSON-RPC message from the server: a response, a notification or a request.
        std::function<void(json::object)> on_message;
        /// The request with this id will get no answer through this transport (its stream broke).
        std::function<void(json::value const& id, client_error)> on_request_failed;
        /// The connection is over: no message will arrive any more.
        std::function<void(client_error)> on_closed;
    };

    virtual ~client_transport() = default;

    /// The strand the transport and its client run on.
    virtual asio::any_io_executor get_executor() const = 0;

    /** Opens the connection (spawns the process, opens the event stream).
        @throws client_error with `client_errc::transport_failed`.
    */
    virtual asio::awaitable<void> start(receiver r) = 0;

    /** Sends one message. For a request, completes once the server took it:
        the answer arrives through the receiver.
        @throws client_error (`transport_failed`, `closed`; `session_expired`
        is reported as `closed` after the transport forgot the session).
    */
    virtual asio::awaitable<void> send(json::object const& message, send_options const& options) = 0;

    /** The handshake chose `version`: HTTP sends it in `MCP-Protocol-Version`
        from now on and opens the stream of server-initiated messages. */
    virtual asio::awaitable<void> session_established(std::string const& version)
    {
        (void)version;
        co_return;
    }

    /** The request with this id is abandoned (cancelled or timed out): an HTTP
        transport closes its response stream, which is how 2026-07-28 cancels. */
    virtual void abandon(json::value const& id) { (void)id; }

    /// Whether the session the server gave expired (HTTP 404): the client initializes again.
    virtual bool take_session_expired() noexcept { return false; }

    /// Whether a 2026-07-28 (stateless) exchange can run over this transport.
    virtual bool supports_stateless() const noexcept { return true; }

    /** Whether `abandon` is itself the cancellation over 2026-07-28 (HTTP:
        closing the request's stream); otherwise the client sends
        `notifications/cancelled`. */
    virtual bool cancels_by_closing_stream() const noexcept { return false; }

    /// Ends the connection: DELETE of the HTTP session, or the child process ended.
    virtual asio::awaitable<void> close() = 0;

    /** Ends the connection at once, without waiting: the child process is
        killed, the streams are closed. What the client does when it is
        dropped without `close()`. */
    virtual void abort() noexcept = 0;
};

/// How to start an MCP server as a child process (the stdio transport).
struct process_options
{
    /// The program: a path, or a name looked up in `PATH`.
    std::string program;

    /// Its arguments.
    std::vector<std::string> arguments = {};

    /** Where the server's stderr goes (appended): its log. Empty: inherited,
        into this process's stderr. */
    std::filesystem::path stderr_log = {};

    /// Its working directory; empty: this process's.
    std::filesystem::path working_directory = {};

    /** Variables set (a value) or removed (none) in its environment; the
        rest is this process's (as an MCP client's `env` configuration).
        Remove what must not be shared: a log file both would rotate. */
    std::vector<std::pair<std::string, std::optional<std::string>>> environment = {};

    /** On close, stdin is closed and the server gets this long to exit; then
        SIGTERM and as long again; then SIGKILL. */
    std::chrono::steady_clock::duration shutdown_grace = std::chrono::seconds(2);

    /// The longest line read from the server; a longer one ends the connection.
    std::size_t max_message_bytes = 64 * 1024 * 1024;

    /** Splits a command line into a program and arguments, as a shell would
        for words (single and double quotes, backslash escapes; no variables).
        @throws std::invalid_argument for an empty command or an open quote.
    */
    AGENTIO_DECL static process_options from_command_line(std::string_view command);
};

/// A Streamable HTTP server (the HTTP transport of MCP 2025-03-26 on).
struct http_transport_options
{
    /// The MCP endpoint, e.g. `http://127.0.0.1:8002/mcp`.
    std::string url;

    /// Sent with every request (e.g. `Authorization`).
    boost::beast::http::fields headers = {};

    /// The HTTP client's limits; the idle timeout bounds a silent event stream.
    http::client_options http = {};

    /// Open the GET stream for messages the server sends on its own (handshake era).
    bool listen_for_server_messages = true;

    /// The wait before reconnecting a broken event stream when the server gave no `retry:`.
    std::chrono::milliseconds default_retry = std::chrono::seconds(1);

    /// Reconnections of one broken event stream before its request fails.
    unsigned max_reconnects = 3;
};

/// A 2024-11-05 HTTP+SSE server: a GET event stream that names the POST endpoint.
struct legacy_sse_transport_options
{
    /// The event stream, e.g. `http://127.0.0.1:8001/sse`.
    std::string url;

    /// Sent with every request (e.g. `Authorization`).
    boost::beast::http::fields headers = {};

    /// The HTTP client's limits.
    http::client_options http = {};
};

/** Spawns the server and speaks JSON-RPC over its stdin and stdout, one
    message per line (Boost.Process v2). The child ends on close, or when the
    transport is destroyed. A server that exits is an error of the requests
    in flight, never the end of this process: SIGPIPE, when its disposition
    is still the default, is ignored process-wide from the first call. */
AGENTIO_DECL std::shared_ptr<client_transport> make_stdio_transport(asio::any_io_executor ex, process_options options);

/** Streamable HTTP: each message a POST whose answer is JSON or an event
    stream; `Mcp-Session-Id`; resumption with `Last-Event-ID`; DELETE on close. */
AGENTIO_DECL std::shared_ptr<client_transport> make_http_transport(asio::any_io_executor ex,
    http_transport_options options);

/// The 2024-11-05 HTTP+SSE transport.
AGENTIO_DECL std::shared_ptr<client_transport> make_legacy_sse_transport(asio::any_io_executor ex,
    legacy_sse_transport_options options);

} // namespace agentio::mcp

#endif
