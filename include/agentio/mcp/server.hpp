//
// agentio/mcp/server.hpp
// ~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The Model Context Protocol on the server side, transport-free: a session's
// messages in, its answers and notifications out. A tool catalog (a
// compile-time toolset, runtime tools, or both) is served as MCP tools with
// the very schemas the LLM loop sends: one registration, no second schema.
//

#ifndef AGENTIO_MCP_SERVER_HPP
#define AGENTIO_MCP_SERVER_HPP

#include <agentio/async_queue.hpp>
#include <agentio/config.hpp>
#include <agentio/detail/ascii.hpp>
#include <agentio/version.hpp>
#include <agentio/json_text.hpp>
#include <agentio/mcp/detail/request_state.hpp>
#include <agentio/mcp/jsonrpc.hpp>
#include <agentio/tool/toolset.hpp>
#include <agentio/trace.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/list.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentio::mcp {

namespace asio = boost::asio;
namespace json = boost::json;

/// The newest revision this server speaks.
inline constexpr std::string_view latest_protocol_version = "2025-11-25";

/// Every revision a client may negotiate, newest first.
inline constexpr std::array<std::string_view, 4> supported_protocol_versions{"2025-11-25", "2025-06-18", "2025-03-26",
    "2024-11-05"};

/// The stateless revision (no handshake, no session): each request names its
/// version, capabilities and client in `params._meta`. Served next to the
/// handshake revisions, chosen per request.
inline constexpr std::string_view stateless_protocol_version = "2026-07-28";

/// Whether `version` is one of supported_protocol_versions.
constexpr bool is_supported_protocol_version(std::string_view version) noexcept
{
    for(auto v : supported_protocol_versions)
        if(v == version)
            return true;
    return false;
}

/// The version to answer an `initialize` with: the client's when supported,
/// else the latest (the client then decides whether it can go on).
constexpr std::string_view negotiate_protocol_version(std::string_view requested) noexcept
{
    return is_supported_protocol_version(requested) ? requested : latest_protocol_version;
}

/// RFC 5424 severities, as `logging/setLevel` and `notifications/message` name them.
enum class log_level
{
    debug,
    info,
    notice,
    warning,
    error,
    critical,
    alert,
    emergency
};

/// The level named `name`, if any.
std::optional<log_level> parse_log_level(std::string_view name) noexcept;

/// The wire name of `level`.
std::string_view to_string(log_level level) noexcept;

/// Name and version, as `serverInfo` carries them.
struct implementation
{
    std::string name = "agentio";
    std::string version = AGENTIO_VERSION_STRING;
    std::string title = {}; ///< for display; omitted when empty
};

struct server_options
{
    implementation info{};

    /// Shown to the model by some clients (`instructions` of the initialize result); omitted when empty.
    std::string instructions{};

    /// Tools per `tools/list` page; the rest follows through `nextCursor`.
    std::size_t tools_page_size = 100;

    /// Adds `annotations: {readOnlyHint: true}` to every tool: the catalog only reads.
    bool read_only_tools = false;

    /// 2026-07-28 caching hints: how long a client may reuse `server/discover`
    /// and list results (shared by every client: `cacheScope` public) and
    /// `resources/read` results (private to the client).
    std::chrono::milliseconds list_ttl = std::chrono::minutes(5);
    std::chrono::milliseconds resource_ttl = std::chrono::milliseconds(0);

    /// Rounds of tool_result::input_required one call may take with a
    /// handshake session (the server asks the client each time).
    std::size_t max_input_rounds = 8;

    /// Called after each tool call that got an answer (for logs and metrics).
    std::function<void(std::string_view tool, json::value const& arguments, tool_result const& result,
        std::chrono::steady_clock::duration elapsed)>
        on_tool_call = {};

    /** Traces each `tools/call` as a server span, as the OpenTelemetry MCP
        conventions name it (`tools/call {tool}`, with `mcp.method.name`,
        `gen_ai.operation.name` `execute_tool`, `gen_ai.tool.name`,
        `jsonrpc.request.id`, `mcp.protocol.version`; `error.type` the JSON-RPC
        error code, `tool_error` for a result with `isError`, or `cancelled`):
        the child of the request's `params._meta.traceparent` (SEP-414) or,
        without a valid one, of the transport's (the HTTP request's
        `traceparent` header). The tool gets the span's context in
        `tool_context::traceparent`. Null: nothing is recorded, and the tool
        gets the caller's context as it came (a malformed one is ignored). The
        tracer outlives the server. */
    trace::tracer* tracer = nullptr;
};

/// The schema keyword of an argument mirrored in an HTTP header (MCP 2026-07-28, SEP-2243).
inline constexpr std::string_view param_header_keyword = "x-mcp-header";

/** Mirrors a scalar argument in the HTTP header `Mcp-Param-<name>` of MCP
    2026-07-28 (SEP-2243), so proxies and gateways can route on it without
    reading the body; the HTTP transport refuses a request whose header
    disagrees with the body.

    @code
    {.name = "region", .description = "Región", .annotation = agentio::mcp::param_header("Region")}
    @endcode

    For top-level arguments of a scalar type (string, number, boolean, enum,
    or an optional of one). `name` is an HTTP token, and two arguments of a
    tool cannot share one (names ignore case): both are checked when the
    toolset is given to an @ref server, and are compile errors.
*/
constexpr schema_annotation param_header(std::string_view name) noexcept
{
    return {param_header_keyword, name, true};
}

namespace detail {

/// Whether a message is a 2026-07-28 request (the transports route on it too).
AGENTIO_DECL bool is_stateless_request(json::object const& request);

/// A message's `params`, or an empty object.
AGENTIO_DECL json::object const& params_of(json::object const& message);

// The `_meta` keys of a 2026-07-28 request.
inline constexpr std::string_view meta_protocol_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view meta_client_capabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view meta_client_info = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view meta_log_level = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view meta_server_info = "io.modelcontextprotocol/serverInfo";

template<class Args, std::size_t Entry, bool Token>
struct param_header_is_not_an_http_token
{
    static_assert(Token,
        "agentio: mcp::param_header names the header Mcp-Param-<name>: letters, digits and !#$%&'*+-.^_`|~ only "
        "(the arguments are 'Args' above, the field_traits entry number 'Entry')");
};

template<class Args, bool Unique>
struct param_headers_must_be_unique
{
    static_assert(Unique,
        "agentio: two members of 'Args' are mirrored in the same Mcp-Param header (header names ignore case)");
};

template<class Args, std::size_t Entry>
constexpr bool param_header_is_token()
{
    constexpr field_info const& f = agentio::detail::fields_of<Args>[Entry];
    constexpr bool ok = f.annotation.keyword != param_header_keyword ||
        agentio::detail::is_http_token(f.annotation.value);
    (void)param_header_is_not_an_http_token<Args, Entry, ok>{};
    return ok;
}

template<class Args>
constexpr bool param_headers_unique()
{
    // Indices, not addresses: GCC refuses pointer comparisons in constant expressions under UBSan.
    constexpr auto const& fields = agentio::detail::fields_of<Args>;
    for(std::size_t i = 0; i < std::size(fields); ++i)
        for(std::size_t j = i + 1; j < std::size(fields); ++j)
            if(fields[i].annotation.keyword == param_header_keyword &&
                fields[j].annotation.keyword == param_header_keyword &&
                agentio::detail::iequal(fields[i].annotation.value, fields[j].annotation.value))
                return false;
    return true;
}

template<class Args>
constexpr bool param_headers_valid()
{
    if constexpr(!agentio::detail::has_fields<Args>)
        return true;
    else
    {
        // clang-format off
        constexpr bool tokens = []<std::size_t... I>(std::index_sequence<I...>) {
            return (param_header_is_token<Args, I>() && ... && true);
        }(std::make_index_sequence<agentio::detail::field_count<Args>>{});
        // clang-format on
        constexpr bool unique = param_headers_unique<Args>();
        (void)param_headers_must_be_unique<Args, unique>{};
        return tokens && unique;
    }
}

// The static tools of a catalog, checked; runtime tools are checked by their schemas when called.
template<class Tools>
constexpr bool param_headers_valid_in()
{
    if constexpr(requires { typename Tools::tool_types; })
        return []<class... Ts>(boost::mp11::mp_list<Ts...>) {
            return (param_headers_valid<typename Ts::args>() && ... && true);
        }(typename Tools::tool_types{});
    else
        return true;
}

} // namespace detail

/// The answer of a client to a request a tool made through it.
struct client_reply
{
    json::value result = nullptr; ///< the result, when `error` is null
    json::value error = nullptr;  ///< the JSON-RPC error object, when it failed

    bool ok() const noexcept { return error.is_null(); }
};

/** What a tool served over MCP can ask of the client that called it. The
    server puts it in the call's tool_context; a tool finds it with
    @ref client_of (null when the tool is not called over MCP).
*/
struct client_channel
{
    /** Asks the client something (`sampling/createMessage`,
        `elicitation/create`, `roots/list`): its result, or its error object
        (`{"code", "message"}`) when it refused, could not answer in time, or
        cannot be asked.
    */
    std::function<asio::awaitable<client_reply>(std::string method, json::object params)> ask = {};

    /// Whether the client can be asked for `capability` ("sampling", "elicitation", "roots").
    std::function<bool(std::string_view capability)> can = {};

    /// The client's answers to the inputs an earlier round of this call asked
    /// for with @ref input_required, by key; empty on the first round.
    json::object input_responses = {};

    /// The state the previous round attached to its @ref input_required result.
    std::string request_state = {};
};

/// The MCP client channel of a call, or null outside MCP.
inline client_channel* client_of(tool_context& ctx) noexcept
{
    return ctx.extensions.find<client_channel>();
}

/// The inputs a tool asked for (attached to its result by @ref input_required).
struct input_request
{
    /// By key of the tool's choosing: `{"method", "params"}`.
    json::object requests;
    /// Given back to the tool in client_channel::request_state.
    std::string state;
};

/** Asks the client for inputs before the call can finish (MCP multi-round
    input, SEP-2322): `requests` maps keys of the tool's choosing to
    `{"method": "elicitation/create" | "sampling/createMessage" |
    "roots/list", "params": {...}}`. The tool is called again with the
    answers in client_channel::input_responses under the same keys, and
    `state` in client_channel::request_state (signed by the server in
    between, so a client cannot forge it). Over MCP 2026-07-28 this is an
    `input_required` result; with a handshake session the server asks the
    client itself and calls the tool again. Any other caller (the model's
    tool loop) reads an error result that says so.
*/
inline tool_result input_required(json::object requests, std::string state = {})
{
    tool_result r = tool_result::error("The tool needs input this caller cannot give (" + to_json_text(requests) + ")");
    r.extensions.set(input_request{std::move(requests), std::move(state)});
    return r;
}

/// The inputs a result asks for, or null.
inline input_request const* input_request_of(tool_result const& r) noexcept
{
    return r.extensions.find<input_request>();
}

/** One client's conversation with the server: negotiated version, client
    capabilities, log level, and the requests in flight (for cancellation).

    The transport creates one per connection (stdio: one for the process) and
    gives it the function that sends a message to the client. That function
    must keep the order of its calls: a tool's progress and log messages go
    out before its response because they are sent first.
*/
class session
{
public:
    using send_function = std::function<void(json::object message)>;

    explicit session(send_function send) : send_(std::move(send)) {}

    session(session const&) = delete;
    session& operator=(session const&) = delete;

    /// The version agreed in `initialize`; empty before.
    std::string const& protocol_version() const noexcept { return protocol_version_; }

    /// Whether `notifications/initialized` arrived.
    bool initialized() const noexcept { return initialized_.load(); }

    /// The client's `capabilities` and `clientInfo` from `initialize`.
    json::object const& client_capabilities() const noexcept { return client_capabilities_; }
    json::object const& client_info() const noexcept { return client_info_; }

    /// The threshold set by `logging/setLevel`; nothing is sent until the client sets one.
    std::optional<log_level> level() const noexcept
    {
        int const l = level_.load();
        return l < 0 ? std::nullopt : std::optional<log_level>(static_cast<log_level>(l));
    }

    /// Sends `notifications/message` when the client asked for `level` or less severe.
    void log(log_level level, json::value data, std::string_view logger = {});

    /// Sends a notification.
    void notify(std::string_view method, json::object params);

    /** Sends a request to the client and waits for its answer.

        @param channel where to send it (a POST's stream on HTTP); empty: the session's.
        @param timeout how long to wait; then the reply is an error (-32001).

        Must run on the session's strand (see @ref server), where the
        client's answer is delivered.
    */
    asio::awaitable<client_reply> request(std::string_view method, json::object params, send_function channel = {},
        std::chrono::steady_clock::duration timeout = std::chrono::seconds(60));

    /// Whether the client declared `capability` (e.g. "sampling") in `initialize`.
    bool client_can(std::string_view capability) const noexcept { return client_capabilities_.contains(capability); }

    /// The resource URIs the client subscribed to.
    std::vector<std::string> subscriptions() const;

    /// Whether this session serves one 2026-07-28 request (no handshake).
    bool stateless() const noexcept { return protocol_version_ == stateless_protocol_version; }

    /// Cancels every request being served (the transport lost the client):
    /// their tools see `terminal` cancellation and no answers are sent.
    void cancel_all();

private:
    friend class server_base;

    send_function send_;
    std::string protocol_version_;
    std::atomic<bool> initialized_{false};
    json::object client_capabilities_;
    json::object client_info_;
    std::atomic<int> level_{-1}; // a log_level, -1 before logging/setLevel (HTTP serves a session from several threads)

    // Requests being served, by the JSON text of their id; notifications/cancelled emits the signal.
    struct in_flight_request
    {
        asio::any_io_executor executor; // where the call runs: the signal is emitted there
        asio::cancellation_signal signal;
        std::atomic<bool> cancelled{false};
    };
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<in_flight_request>, std::less<>> in_flight_;

    // Our requests to the client waiting for an answer, by the JSON text of their id.
    struct pending_request
    {
        async_queue<client_reply> answer; // holds one: a repeated answer is refused

        explicit pending_request(asio::any_io_executor ex) : answer(std::move(ex), 1) {}
    };
    std::map<std::string, std::shared_ptr<pending_request>, std::less<>> pending_;
    std::uint64_t next_request_id_ = 0;
    std::vector<std::string> subscriptions_;

    // A 2026-07-28 request's session registers its calls with the transport's
    // (so notifications/cancelled on stdio finds them).
    session* registry_ = this;

    // Delivers a response of the client to the request waiting for it.
    void resolve(json::object const& response);
};

/// One of a resource's contents: text or base64 `blob`.
struct resource_contents
{
    std::string uri;
    std::string mime_type;
    std::optional<std::string> text;
    std::optional<std::string> blob;
};

/// A resource the client can list and read.
struct resource
{
    std::string uri;
    std::string name;
    std::string title = {};
    std::string description = {};
    std::string mime_type = {};
    std::function<std::vector<resource_contents>(std::string const& uri)> read;
};

/** A family of resources under an RFC 6570 level-1 template
    (`test://template/{id}/data`): reads get the variables by name. */
struct resource_template
{
    std::string uri_template;
    std::string name;
    std::string title = {};
    std::string description = {};
    std::string mime_type = {};
    std::function<std::vector<resource_contents>(std::string const& uri,
        std::map<std::string, std::string> const& vars)>
        read;
};

struct prompt_argument
{
    std::string name;
    std::string description = {};
    bool required = false;
};

/// What a prompt that asks the client for input gives: its messages, or the
/// inputs it still needs (keys to `{"method", "params"}`, as mcp::input_required).
struct prompt_result
{
    json::array messages;
    std::optional<json::object> input_requests = {};
};

/// A prompt template: its `messages` for the given arguments (strings).
struct prompt
{
    std::string name;
    std::string title = {};
    std::string description = {};
    std::vector<prompt_argument> arguments = {};
    std::function<json::array(std::map<std::string, std::string> const& args)> get = {};

    /// Instead of `get`, for a prompt that needs input from the client first
    /// (multi-round input): called with the answers so far, by key.
    std::function<prompt_result(std::map<std::string, std::string> const& args, json::object const& input_responses)>
        get_with_input = {};
};

/// Completion: the `ref` ({"type":"ref/prompt","name"} or {"type":"ref/resource","uri"}),
/// the argument's name and partial value; the candidate values.
using completion_function = std::function<std::vector<std::string>(json::object const& ref, std::string const& argument,
    std::string const& value)>;

/** Serves a tool catalog over MCP.

    `handle` takes one incoming message of a session and returns the
    response to send, if any (none for notifications and for the client's
    answers). It may be called concurrently for messages of one session:
    a long tool call does not hold up `ping` or the `notifications/cancelled`
    that stops it. The messages of one session must be handled on one
    strand (cancellation signals are emitted where the call runs).

    This class holds all of the protocol and sees the tools through a
    @ref tool_catalog_ref, so that it is compiled once (see
    agentio/config.hpp); @ref server adds the catalog's type and its
    compile-time checks.
*/
class server_base
{
public:
    /// Serves `tools`, which must outlive the server.
    explicit server_base(tool_catalog_ref tools, server_options options = {});

    /// Registers resources, templates, prompts and completion (before serving):
    /// the matching capabilities are declared only when something is registered.
    void add_resource(resource r) { resources_.push_back(std::move(r)); }
    void add_resource_template(resource_template t) { templates_.push_back(std::move(t)); }
    void add_prompt(prompt p) { prompts_.push_back(std::move(p)); }
    void set_completion(completion_function f) { complete_ = std::move(f); }

    /** One parsed message.

        @param channel where this request's own notifications (progress) go
        before its response: the POST's stream on HTTP. Empty: the session's.
        @param traceparent the W3C trace context the transport received with
        the message (the HTTP request's `traceparent` header): the parent of a
        `tools/call` whose `params._meta` carries no valid one. It must stay
        valid until the handling completes.
    */
    asio::awaitable<std::optional<json::object>> handle(session& s, json::value message,
        session::send_function channel = {}, std::string_view traceparent = {}) const;

    /** Checks a 2026-07-28 request before it is served: its `_meta`
        (-32602), its version (-32022, with the versions supported), and that
        the method still exists (-32601: `initialize`, `ping`,
        `logging/setLevel` and the resource subscriptions are gone). The error
        to answer, or nothing. (What an HTTP transport's headers must say of
        the body, it checks itself: mcp/http.hpp.)
    */
    std::optional<json::object> check_stateless(json::object const& request) const;

    /** Serves one 2026-07-28 request on its own: capabilities, client and
        log level from its `_meta`, nothing kept. `s` is the transport's
        session (stdio's process, or a request's on HTTP): its calls can be
        cancelled through it, and `channel` (or its send function) carries the
        request's notifications; `traceparent` is the transport's, as for
        `handle`. `handle` routes here by itself a request whose `_meta` names
        a protocol version, and `server/discover`.
    */
    asio::awaitable<std::optional<json::object>> handle_stateless(session& s, json::object request,
        session::send_function channel = {}, std::string_view traceparent = {}) const;

    /// One message as text: a parse error is answered with -32700 and a null id.
    asio::awaitable<std::optional<json::object>> handle_text(session& s, std::string_view text) const;

    server_options const& options() const noexcept { return options_; }

private:
    asio::awaitable<std::optional<json::object>> dispatch(session& s, json::object const& msg,
        session::send_function channel, std::string_view traceparent) const;
    json::object capabilities(bool stateless) const;
    json::object discover(json::value const& id) const;
    json::object initialize(session& s, json::object const& params, json::value const& id) const;
    json::object list_tools(json::object const& params, json::value const& id) const;
    asio::awaitable<std::optional<json::object>> call_tool(session& s, json::object const& params, json::value id,
        session::send_function channel, std::string_view transport_traceparent) const;
    asio::awaitable<std::optional<json::object>> run_tool_call(session& s, json::object const& params, json::value id,
        session::send_function channel, std::string_view traceparent) const;
    json::object tool_result_json(session const& s, tool_result const& r) const;
    json::object read_resource(json::object const& params, json::value const& id) const;
    asio::awaitable<json::object> get_prompt(session& s, json::object const& params, json::value const& id,
        session::send_function channel) const;
    json::object complete(json::object const& params, json::value const& id) const;

    tool_catalog_ref tools_;
    server_options options_;
    detail::state_key state_key_; // signs tools' requestState (SEP-2322)
    std::vector<resource> resources_;
    std::vector<resource_template> templates_;
    std::vector<prompt> prompts_;
    completion_function complete_;
};

/** Serves a tool catalog over MCP: a @ref server_base that knows the
    catalog's type.

    @tparam Tools a @ref tool_catalog; it must outlive the server. The
    `Mcp-Param` headers of its static tools are checked at compile time.
*/
template<tool_catalog Tools>
class server : public server_base
{
    static_assert(detail::param_headers_valid_in<Tools>(),
        "agentio: the Mcp-Param headers of this toolset are not valid; the errors above say why");

public:
    explicit server(Tools const& tools, server_options options = {})
        : server_base(tool_catalog_ref(tools), std::move(options))
        , typed_tools_(&tools)
    {
    }

    /// The tools served.
    Tools const& tools() const noexcept { return *typed_tools_; }

private:
    Tools const* typed_tools_;
};

} // namespace agentio::mcp

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/mcp/impl/server.ipp>
#endif

#endif
