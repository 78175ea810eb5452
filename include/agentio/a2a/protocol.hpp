//
// agentio/a2a/protocol.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A2A 1.0 (agent to agent: an agent card, tasks, streaming) over JSON-RPC:
// the requests read, the errors written in the specification's shapes, the
// agent card, and a task as the view of a run's AG-UI events, so that an
// agent served by ag_ui::endpoint is an A2A task without a second journal.
//
// ProtoJSON as the specification writes it (a2a.proto, package lf.a2a.v1):
// camelCase members, enums by name (`TASK_STATE_COMPLETED`, `ROLE_AGENT`),
// defaults omitted, a `Part` one of `text`, `raw`, `url` or `data`. The
// reference this follows, with what the official JavaScript client checks,
// is docs/notes/ag-ui-a2a.md (sections 3 and 4).
//

#ifndef AGENTIO_A2A_PROTOCOL_HPP
#define AGENTIO_A2A_PROTOCOL_HPP

#include <agentio/chat_completions/request.hpp>
#include <agentio/config.hpp>
#include <agentio/llm/conversation.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/system/result.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::a2a {

namespace json = boost::json;

/// The A2A version served (`A2A-Version`, the card's `protocolVersion`).
inline constexpr std::string_view protocol_version = "1.0";

/// A task's state (`TaskState`).
enum class task_state
{
    submitted,
    working,
    input_required,
    auth_required,
    completed,
    failed,
    canceled,
    rejected
};

/// The wire name: `TASK_STATE_COMPLETED`.
AGENTIO_DECL std::string_view to_string(task_state s) noexcept;

/// The state a wire name names; none for another (`TASK_STATE_UNSPECIFIED` among them).
AGENTIO_DECL std::optional<task_state> parse_task_state(std::string_view name) noexcept;

/// Whether nothing more happens to a task in this state.
constexpr bool is_terminal(task_state s) noexcept
{
    return s == task_state::completed || s == task_state::failed || s == task_state::canceled ||
        s == task_state::rejected;
}

/// JSON-RPC's and A2A's error codes (specification §5.4, §8.1).
namespace error_code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int task_not_found = -32001;
inline constexpr int task_not_cancelable = -32002;
inline constexpr int push_notification_not_supported = -32003;
inline constexpr int unsupported_operation = -32004;
inline constexpr int content_type_not_supported = -32005;
inline constexpr int invalid_agent_response = -32006;
inline constexpr int extended_card_not_configured = -32007;
inline constexpr int extension_support_required = -32008;
inline constexpr int version_not_supported = -32009;
} // namespace error_code

/** A JSON-RPC error: `code`, `message`, and `data`, the `google.rpc`
    details the specification attaches (`ErrorInfo` with the reason,
    `BadRequest` with the field at fault). */
struct rpc_error
{
    int code = error_code::internal_error;
    std::string message = {};
    json::array data = {};
};

/// `-32001`: no such task, or another user's (which must look the same).
AGENTIO_DECL rpc_error task_not_found(std::string_view task_id);
/// `-32002`: the task has ended, and not by a cancel.
AGENTIO_DECL rpc_error task_not_cancelable(std::string_view task_id, task_state state);
/// `-32004`: what the agent does not do (a message to an ended task, an extended card).
AGENTIO_DECL rpc_error unsupported_operation(std::string message);
/// `-32003`: push notifications, which the card says are not supported.
AGENTIO_DECL rpc_error push_notification_not_supported();
/// `-32005`: a part of a media type the agent does not take.
AGENTIO_DECL rpc_error content_type_not_supported(std::string_view field, std::string_view media_type);
/// `-32009`: the `A2A-Version` asked for (empty: the header was absent, which means 0.3).
AGENTIO_DECL rpc_error version_not_supported(std::string_view asked);
/// `-32602`: a parameter at fault, named as a path (`message.parts[0]`).
AGENTIO_DECL rpc_error invalid_params(std::string field, std::string description);

/// A JSON-RPC request read: its `id` (a string, a number, or null), method and params.
struct rpc_request
{
    json::value id = nullptr;
    std::string method = {};
    json::object params = {};
};

/** Reads a JSON-RPC 2.0 request.

    @return the request, or the error to answer: `-32700` for a body that is
    not JSON, `-32600` for one that is not a request (`jsonrpc` other than
    "2.0", no string `method`, an `id` neither string, number nor null,
    `params` not an object). The request's `id` is in `id` when it could be
    read, for the answer. */
AGENTIO_DECL boost::system::result<rpc_request, rpc_error> parse_request(std::string_view body, json::value& id);

/** Checks the `A2A-Version` header's value (§3.6): `1.0`, with or without
    a patch number. Absent or empty means 0.3, which this server does not
    speak. */
AGENTIO_DECL std::optional<rpc_error> check_version(std::optional<std::string_view> header);

/// `{"jsonrpc": "2.0", "id": …, "result": …}`.
AGENTIO_DECL json::object result_response(json::value const& id, json::value result);

/// `{"jsonrpc": "2.0", "id": …, "error": {code, message, data}}`.
AGENTIO_DECL json::object error_response(json::value const& id, rpc_error const& e);

/// What `SendMessage` and `SendStreamingMessage` ask.
struct send_params
{
    std::string message_id = {};
    /// The conversation (empty: a new one); names an agentio thread.
    std::string context_id = {};
    /// The task the message continues (empty: a new task).
    std::string task_id = {};
    /** The message as the model reads it: its text parts, and its data
        parts as JSON text; a user turn. */
    llm::message content = {llm::role::user, {}};
    /** The decisions a data part `{"decisions": [{toolCallId, approved,
        reason?}]}` gives, for a task waiting for approvals. */
    std::vector<chat_completions::approval> decisions = {};
    /// `configuration.historyLength`.
    std::optional<std::size_t> history_length = {};
    /// `configuration.returnImmediately`: answer once the task exists.
    bool return_immediately = false;
    /// The message as the client sent it, for the task's history.
    json::object message = {};
};

/** Reads the params of `SendMessage` or `SendStreamingMessage`.

    @return the params, or `-32602` naming the field: no `message`, a
    message without `messageId`, `role` other than `ROLE_USER`, no parts, a
    part with none or several of `text`, `raw`, `url`, `data`, a malformed
    decision; `-32005` for a `raw` or `url` part (files are not taken). */
AGENTIO_DECL boost::system::result<send_params, rpc_error> parse_send_params(json::object const& params);

/// A skill of the card: one per tool of the agent, or one for an agent without tools.
struct skill
{
    std::string id = {};
    std::string name = {};
    std::string description = {};
    std::vector<std::string> tags = {"tool"};
    std::vector<std::string> examples = {};
};

/** One skill per tool: `descriptors` is a range of tool descriptors (a
    tool catalog's `descriptors()`), each with `name` and `description`. */
template<class Descriptors>
std::vector<skill> skills_of(Descriptors const& descriptors)
{
    std::vector<skill> out;
    for(auto const& d : descriptors)
        out.push_back({std::string(d.name), std::string(d.name), std::string(d.description), {"tool"}, {}});
    return out;
}

/// How the card's security schemes describe the application's authentication.
enum class card_security
{
    none,    ///< no authentication
    api_key, ///< an API-key header (`card_options::api_key_header`), and `Authorization: Bearer <key>`
    jwt      ///< `Authorization: Bearer <JWT>`
};

/// What the agent card (`/.well-known/agent-card.json`) says.
struct card_options
{
    std::string name = {};
    std::string description = {};
    std::string version = {};
    /// The JSON-RPC interface's absolute URL (`supportedInterfaces[0].url`).
    std::string url = {};
    std::string provider_organization = {};
    std::string provider_url = {};
    std::string documentation_url = {};
    card_security security = card_security::none;
    /// With `api_key`: the header that may carry the key (empty: none).
    std::string api_key_header = {};
    /// With `api_key`: whether `Authorization: Bearer <key>` carries it too.
    bool api_key_as_bearer = true;
    std::vector<std::string> input_modes = {"text/plain", "application/json"};
    std::vector<std::string> output_modes = {"text/plain"};
};

/** The agent card: the required members (name, description, version,
    `supportedInterfaces` with the JSON-RPC binding and version 1.0,
    capabilities with `streaming`, the modes, the skills — an agent
    without tools gets one `chat` skill, since the list must not be empty)
    and the security schemes and requirements `security` describes. */
AGENTIO_DECL json::object agent_card(card_options const& options, std::vector<skill> const& skills);

/** A task as the view of its runs' AG-UI events (agentio's journal).

    `take` reads each event in order and appends the A2A stream responses it
    gives: the answer's text as `artifactUpdate`s of the artifact `answer`,
    each call and result as a `WORKING` status whose message carries it as
    data (`toolCall`, `toolResult`; a step begun or finished as
    `{"step": {name, status}}`), the end as the last artifact chunk and the final status
    (`COMPLETED`, `FAILED` with the error, `CANCELED`), and an approval
    interrupt as `INPUT_REQUIRED` whose message lists the calls
    (`{"approvals": [{toolCallId, tool, input, question, inDoubt?}]}`). A
    task continued by a later message reads that run's events next.
*/
class task_view
{
public:
    AGENTIO_DECL task_view(std::string task_id, std::string context_id);

    std::string const& id() const noexcept { return id_; }
    std::string const& context_id() const noexcept { return context_id_; }
    task_state state() const noexcept { return state_; }

    /// The client's message that starts or continues the task: its history.
    AGENTIO_DECL void asked(json::object message);

    /// The A2A stream responses an AG-UI event gives, appended to `out`.
    AGENTIO_DECL void take(json::object const& event, std::vector<json::object>& out);

    /** The `Task`: id, contextId, status, the artifact `answer` (when
        `artifacts` and there is text), and the history's latest
        `history_length` messages (all when none; omitted when 0). */
    AGENTIO_DECL json::object task(std::optional<std::size_t> history_length = {}, bool artifacts = true) const;

    /** The status's time, ISO 8601 UTC with milliseconds (for `ListTasks`'
        order): the `timestamp` of the event that set it, so that a task
        folded again from its journal keeps its times. */
    std::string const& updated() const noexcept { return updated_; }

    /// The ids of the calls an `INPUT_REQUIRED` task waits for decisions on.
    std::vector<std::string> const& waiting_calls() const noexcept { return waiting_; }

private:
    json::object status_update(json::object status) const;
    json::object status(task_state s, std::optional<json::object> message);
    json::object agent_message(json::array parts) const;
    void set(task_state s, std::optional<json::object> message, std::vector<json::object>& out);
    json::object artifact_update(std::string text, bool append, bool last) const;

    std::string id_;
    std::string context_id_;
    task_state state_ = task_state::submitted;
    json::object status_;
    std::string updated_;
    std::string event_time_; // the `timestamp` of the event being taken; empty: none (now)
    std::string answer_;     // the artifact's text so far
    bool answer_open_ = false;
    json::array history_;
    std::size_t counter_ = 0;
    struct forming_call
    {
        std::string id;
        std::string name;
        std::string arguments;
    };
    std::vector<forming_call> calls_;
    std::vector<std::string> waiting_;
};

/// Now, as A2A writes times: `2026-11-29T19:37:27.279Z`.
AGENTIO_DECL std::string timestamp_now();

/// A time given in milliseconds since the epoch (AG-UI's `timestamp`), as A2A writes times.
AGENTIO_DECL std::string timestamp_at(std::int64_t unix_ms);

} // namespace agentio::a2a

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/a2a/impl/protocol.ipp>
#endif

#endif
