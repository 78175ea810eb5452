//
// agentio/mcp/client/client.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An MCP client: negotiates the protocol (the 2024-11-05 to 2025-11-25
// handshake, or the stateless 2026-07-28 revision), lists and calls a
// server's tools, and turns them into tools an orchestrator can use.
//

#ifndef AGENTIO_MCP_CLIENT_CLIENT_HPP
#define AGENTIO_MCP_CLIENT_CLIENT_HPP

#include <agentio/config.hpp>
#include <agentio/mcp/client/error.hpp>
#include <agentio/mcp/client/transport.hpp>
#include <agentio/tool/tool.hpp>
#include <agentio/tool/toolset.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::mcp {

/// How the client chooses the protocol revision.
enum class negotiation
{
    /** `server/discover` first; the stateless 2026-07-28 revision when the
        server offers it, else the `initialize` handshake. */
    automatic,
    /// The `initialize` handshake only (2025-11-25 down to 2024-11-05).
    handshake,
    /// 2026-07-28 only: fails when the server does not offer it.
    stateless,
};

/// A client's settings.
struct client_options
{
    /// `clientInfo` sent to the server.
    std::string name = "agentio";
    std::string version = "1.0.0";

    negotiation mode = negotiation::automatic;

    /// The version asked for in `initialize`. The server may answer with an
    /// older one; any of 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05 is accepted.
    std::string handshake_version = "2025-11-25";

    /// How long a request may wait for its answer (progress notifications
    /// restart the wait, see @ref call_options).
    std::chrono::steady_clock::duration request_timeout = std::chrono::seconds(60);

    /// Largest number of `tools/list` pages followed (a server whose cursors loop ends there).
    std::size_t max_list_pages = 1000;

    /// `notifications/message` from the server: level, logger (may be empty) and data.
    std::function<void(std::string_view level, std::string_view logger, json::value const& data)> on_log = {};

    /// `notifications/tools/list_changed`: the cached list is dropped before this is called.
    std::function<void()> on_tools_changed = {};

    /** Answers the server's `elicitation/create` requests (form mode); the
        client declares the elicitation capability only when it is set. The
        result is the `ElicitResult` (`action`, `content`). */
    std::function<asio::awaitable<json::object>(json::object const& params)> on_elicitation = {};
};

/// Progress reported by the server for one request.
struct progress
{
    double value = 0;
    std::optional<double> total = {};
    std::string message = {};
};

/// Options of one request.
struct call_options
{
    /// Overrides @ref client_options::request_timeout.
    std::optional<std::chrono::steady_clock::duration> timeout = {};

    /// Called for each progress notification; setting it sends a `progressToken`.
    std::function<void(progress const&)> on_progress = {};

    /// A progress notification restarts the timeout (a long task that reports stays alive).
    bool progress_resets_timeout = true;

    /// Extra `_meta` entries sent with the request.
    json::object meta = {};

    /** The W3C `traceparent` of the caller's span (the `execute_tool` span of
        an agent's tool call): sent as `params._meta.traceparent`, as SEP-414
        and the OpenTelemetry MCP conventions carry it on every transport, and
        over HTTP also as the `traceparent` header of the POST that carries
        the request; the server's spans then join the caller's trace. Empty or
        malformed (see trace::parse_traceparent): nothing is sent. The tools of
        @ref add_tools set it from `tool_context::traceparent`. It must stay
        valid until the call completes. */
    // A view, as the library's other traceparents: GCC 12 mishandles an aggregate temporary made within a
    // co_await expression (the default `call_options` argument is one), and a std::string member of it crashes.
    std::string_view traceparent = {};
};

/// A tool as the server describes it.
struct tool_info
{
    std::string name;
    std::string title = {};
    std::string description = {};
    json::object input_schema = {};
    std::optional<json::object> output_schema = {};
    json::object annotations = {};
    /// The whole description, for fields not above.
    json::object raw = {};
};

/// The server, as the negotiation found it.
struct server_description
{
    /// The protocol revision in use (e.g. "2025-11-25", "2026-07-28").
    std::string protocol_version;
    std::string name;
    std::string version;
    std::string instructions;
    json::object capabilities;
};

namespace detail {
struct client_state;
}

/** A connection to one MCP server.

    @code
    auto c = agentio::mcp::client(agentio::mcp::make_stdio_transport(ex, {.program = "agentio-sqlite-mcp",
                                                                          .arguments = {"--db", "chinook.db"}}));
    co_await c.connect();
    auto tools = co_await c.list_tools();
    agentio::tool_result r = co_await c.call_tool("sqlite_run_select", {{"sql", "SELECT 1"}});
    co_await c.close();
    @endcode

    Requests may run concurrently, from any thread: the client runs on its
    transport's strand. A caller's cancellation (`||` with a timer, a
    cancellation slot) abandons the request and tells the server
    (`notifications/cancelled`, or the closed stream of 2026-07-28 over HTTP).
    Failures throw @ref client_error; a tool's own failure is not one: it is
    a `tool_result` with `is_error` set, for the model to read.

    A `client` is a handle: copies share the connection, which ends on
    `close()` or when the last copy (and the last tool bridged from it) goes.
*/
class client
{
public:
    AGENTIO_DECL explicit client(std::shared_ptr<client_transport> transport, client_options options = {});

    /** Connects and negotiates the protocol revision.
        @throws client_error (`transport_failed`, `unsupported_version`,
        `server_error`, `timeout`).
    */
    AGENTIO_DECL asio::awaitable<server_description> connect();

    /// The server as negotiated. @pre `connect()` completed.
    AGENTIO_DECL server_description const& server() const;

    /// Every tool of the server, every page followed; cached until the server says the list changed.
    AGENTIO_DECL asio::awaitable<std::vector<tool_info>> list_tools();

    /** Calls a tool. The content blocks, `structuredContent` and `isError`
        become the @ref tool_result; a JSON-RPC error (an unknown tool) throws.
    */
    AGENTIO_DECL asio::awaitable<tool_result> call_tool(std::string name, json::value arguments,
        call_options options = {});

    /// Checks that the server answers (`ping`; `server/discover` over 2026-07-28).
    AGENTIO_DECL asio::awaitable<void> ping(call_options options = {});

    /** Any request: its `result` (`_meta` added over 2026-07-28).
        @throws client_error
    */
    AGENTIO_DECL asio::awaitable<json::object> request(std::string method, json::object params,
        call_options options = {});

    /// Sends a notification.
    AGENTIO_DECL asio::awaitable<void> notify(std::string method, json::object params = {});

    /// Ends the connection (requests still waiting fail with `closed`).
    AGENTIO_DECL asio::awaitable<void> close();

    /// The strand the client runs on.
    AGENTIO_DECL asio::any_io_executor get_executor() const;

private:
    std::shared_ptr<detail::client_state> state_;
};

/// How @ref add_tools names and describes a server's tools.
struct bridge_options
{
    /// Put before each tool's name (e.g. "everything_"), to keep two servers' tools apart.
    std::string prefix = {};

    /// Only these tools (by the server's names); empty: all.
    std::vector<std::string> only = {};

    /** Options of each call (timeout, progress). Its `traceparent` is the
        calling tool_context's when that has one. */
    call_options call = {};

    /** Believe the server's tool annotations: a tool whose `readOnlyHint`
        or `idempotentHint` is true is marked idempotent (a durable run that
        lost its process in the middle of a call runs it again instead of
        asking a person, see @ref tool_descriptor::idempotent). The
        specification calls annotations untrusted unless the server is: set
        it for servers you run or trust. */
    bool trust_annotations = false;
};

/** Adds every tool of `c`'s server to `tools`: an orchestrator then offers
    them to the model and calls them through the client. The server's input
    schema is checked by the library's validator before a call leaves (a
    call the schema refuses goes back to the model as an error result), and a
    failed call (the server gone, a timeout) is an error result too.
    @return The names added; a tool `tools` refuses (a name taken, or not
    of `[A-Za-z0-9_.-]`) is left out.
    @throws client_error when the list cannot be had.
*/
AGENTIO_DECL asio::awaitable<std::vector<std::string>> add_tools(client c, dynamic_tools& tools,
    bridge_options options = {});

/// The MCP `CallToolResult` `result` as a @ref tool_result.
AGENTIO_DECL tool_result tool_result_from_json(json::object const& result);

} // namespace agentio::mcp

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/mcp/client/impl/client.ipp>
#include <agentio/mcp/client/impl/http_transport.ipp>
#include <agentio/mcp/client/impl/stdio_transport.ipp>
#endif

#endif
