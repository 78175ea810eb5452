//
// agentio/a2a/client.hpp
// ~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The A2A 1.0 client, as the MCP client is one: a remote agent's card
// resolved, a message sent and its task followed (streamed when the agent
// streams), the task read or cancelled; a deadline on each exchange, and a
// caller that stops cancels the remote task. Over it, a remote agent as a
// tool of a toolset and as a Chat Completions model.
//

#ifndef AGENTIO_A2A_CLIENT_HPP
#define AGENTIO_A2A_CLIENT_HPP

#include <agentio/a2a/protocol.hpp>
#include <agentio/chat_completions/model.hpp>
#include <agentio/config.hpp>
#include <agentio/http/client.hpp>
#include <agentio/tool/toolset.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/fields.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/system/result.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::a2a {

namespace asio = boost::asio;
namespace beast = boost::beast;

/// What went wrong talking to a remote agent.
enum class remote_failure
{
    transport,    ///< the network (refused, reset, TLS): `message` says which
    http_status,  ///< an HTTP status other than 2xx (`code` holds it: 401, 404, 503…)
    rpc,          ///< the agent answered a JSON-RPC error (`code` holds it: -32001…)
    bad_response, ///< what came back is not A2A (not JSON, a frame of another request, no card interface)
    timeout,      ///< the exchange outlasted `client_options::timeout` (the task was cancelled)
    cancelled     ///< the caller stopped waiting (the task was cancelled)
};

/// A failed call: its kind, the status or JSON-RPC code, and a sentence naming the agent.
struct remote_error
{
    remote_failure kind = remote_failure::transport;
    int code = 0;
    std::string message = {};
};

/// How to reach a remote agent.
struct client_options
{
    /** The agent's base URL (its card at `{url}/.well-known/agent-card.json`),
        or the card's own URL (ending in `.json`). */
    std::string url = {};
    /// Sent with every request: `Authorization`, an API-key header.
    beast::http::fields headers = {};
    /// One exchange whole: a message sent and its task followed to its end (or a pause).
    std::chrono::steady_clock::duration timeout = std::chrono::minutes(5);
    /// How long the `CancelTask` sent for a caller that stopped (or a deadline) may take.
    std::chrono::steady_clock::duration cancel_timeout = std::chrono::seconds(5);
};

/// What a remote agent's card says, as the client uses it.
struct remote_card
{
    std::string name = {};
    std::string description = {};
    std::string version = {};
    /// The JSON-RPC interface's URL (the first `JSONRPC` one at protocol version 1.x).
    std::string endpoint = {};
    /// `capabilities.streaming`: messages are sent with `SendStreamingMessage`.
    bool streaming = false;
    std::vector<skill> skills = {};
    /// The card as served.
    json::object card = {};
};

/** Reads an agent card.

    @return the card, or why it cannot be used: no `name`, no JSON-RPC
    interface at protocol version 1.x. */
AGENTIO_DECL boost::system::result<remote_card, std::string> read_card(json::object card);

/** A remote task as the client has seen it: the fold of `SendMessage`'s
    result and of the stream responses (`task`, `message`, `statusUpdate`,
    `artifactUpdate`), in the order the agent sent them. A direct `message`
    answer (an agent that makes no task) reads as a completed task whose
    text is the message's. */
class remote_task
{
public:
    std::string const& id() const noexcept { return id_; }
    std::string const& context_id() const noexcept { return context_id_; }
    task_state state() const noexcept { return state_; }

    /// The status as last sent (`state`, `message`, `timestamp`).
    json::object const& status() const noexcept { return status_; }

    /// The text parts of the status's message (a failure's reason, an input asked for).
    AGENTIO_DECL std::string status_text() const;

    /// The status message's data parts (an approval's calls: `{"approvals": […]}`).
    AGENTIO_DECL json::array status_data() const;

    /// The artifacts, each with its parts as appended.
    json::array const& artifacts() const noexcept { return artifacts_; }

    /// The artifacts' text parts, in order; for a direct message, its text.
    AGENTIO_DECL std::string text() const;

    /// Whether anything was taken yet.
    bool empty() const noexcept { return id_.empty() && !direct_; }

    /** Takes a `SendMessage` result or a stream response.

        @return an error naming what is not A2A: none of the four members, a
        task or update without its ids, an update of another task, an
        unknown state. */
    AGENTIO_DECL boost::system::result<void, std::string> take(json::object const& response);

private:
    void take_task(json::object const& task);
    void take_artifact(json::object const& artifact, bool append);

    std::string id_;
    std::string context_id_;
    task_state state_ = task_state::submitted;
    json::object status_;
    json::array artifacts_;
    bool direct_ = false;
    std::string direct_text_;
};

/// What the message sent says, beside its text.
struct message_options
{
    /// The conversation to continue (empty: the agent starts one).
    std::string context_id = {};
    /// The task to continue (an `INPUT_REQUIRED` one; empty: a new task).
    std::string task_id = {};
    /// More parts after the text (`{"data": {"decisions": […]}}`).
    json::array parts = {};
    /// `configuration.historyLength` of the task returned.
    std::optional<std::size_t> history_length = {};
    /// The caller's trace context (W3C `traceparent`), sent on so the agent's spans join its trace.
    std::string traceparent = {};
};

/// Called with the task as each stream response leaves it, and the response.
using update_handler = std::function<void(remote_task const& task, json::object const& response)>;

namespace detail {
struct a2a_client_state;
} // namespace detail

/** A remote A2A agent.

    Copies share the agent: its card, read once (`card`, or the first
    message), and the HTTP client, which outlives them. Every request is a
    JSON-RPC `POST` with `A2A-Version: 1.0` and the options' headers.

    Deadlines and cancellation: `send` lasts at most `client_options::timeout`;
    when it runs out, or the awaiting coroutine is cancelled through its slot
    (the `||` of awaitable operators, a client that left), the remote task
    is cancelled with `CancelTask` (sent on a coroutine of its own, within
    `cancel_timeout`) and the call completes at once with `timeout` or
    `cancelled`: nothing is left running remotely for an answer nobody
    reads. Only a streamed task can be cancelled so: an agent that does not
    stream names its task only when it answers.
*/
class client
{
public:
    AGENTIO_DECL client(http::client& http, client_options options);

    AGENTIO_DECL client_options const& options() const noexcept;

    /** The agent's card, fetched once (again with `refresh`; an unchanged
        card is a `304` to its `ETag`). */
    AGENTIO_DECL asio::awaitable<boost::system::result<remote_card, remote_error>> card(bool refresh = false);

    /** Sends a user message with `text` (may be empty when `options.parts`
        has parts) and follows its task to an end or a pause: streamed
        (`SendStreamingMessage`, `on_update` called for each response) when
        the card says the agent streams, else `SendMessage` answered when the
        task ends.

        @return the task as it ended, or paused (`INPUT_REQUIRED`,
        `AUTH_REQUIRED`): a `FAILED` or `REJECTED` task is a task, not an
        error; an error for what kept the task from being followed. */
    AGENTIO_DECL asio::awaitable<boost::system::result<remote_task, remote_error>> send(std::string text,
        message_options options = {}, update_handler on_update = {});

    /// `GetTask`: the task as the agent has it now.
    AGENTIO_DECL asio::awaitable<boost::system::result<remote_task, remote_error>> get_task(std::string id,
        std::optional<std::size_t> history_length = {});

    /// `CancelTask`: the task as cancelled (`-32002` when it had ended otherwise).
    AGENTIO_DECL asio::awaitable<boost::system::result<remote_task, remote_error>> cancel_task(std::string id);

private:
    std::shared_ptr<detail::a2a_client_state> state_;
};

/// How a remote agent is offered as a tool.
struct agent_tool_options
{
    /// The tool's name (empty: the card's name, made a valid tool name).
    std::string name = {};
    /// What the model reads (empty: the card's description and skills).
    std::string description = {};
    /// A call waits for a person's approval.
    bool requires_approval = false;
};

/** A remote agent as a runtime tool: arguments `{message, contextId?}`; the
    result the task's artifacts' text, with `taskId` and `contextId` as
    structured content (a later call passes `contextId` to go on with the
    same conversation). A task that ends `FAILED`, `REJECTED` or `CANCELED`,
    or pauses for input (the remote agent's approvals, which the calling
    agent cannot give for a person), is an error result that says so and
    names the task; so is a call that cannot reach the agent. The call's
    cancellation cancels the remote task. */
AGENTIO_DECL dynamic_tools::definition agent_tool(client remote, std::string name, std::string description,
    bool requires_approval = false);

/** Reads the agent's card and adds it to `tools` as @ref agent_tool, named
    and described from the card unless `options` say otherwise.

    @return the tool's name, or why not: the card could not be had, or
    `tools` refused the name. */
template<class Tools>
asio::awaitable<boost::system::result<std::string, std::string>> add_agent(client remote, Tools& tools,
    agent_tool_options options = {});

/// A tool name from an agent's name: `[A-Za-z0-9_-]`, other characters as `_`, at most 64.
AGENTIO_DECL std::string tool_name_of(std::string_view agent_name);

/// The card's description followed by its skills, for a model deciding when to call the agent.
AGENTIO_DECL std::string describe(remote_card const& card);

/// How a remote agent is served as a Chat Completions model.
struct remote_model_options
{
    chat_completions::model_card card = {};
    /** Earlier turns of the request, when it has them, go first as one text
        part that begins with this line (the remote agent starts a new
        conversation for each request: a Chat Completions request carries
        its whole history). */
    std::string transcript_heading = "Conversation so far:";
};

/** A remote A2A agent as a Chat Completions model: each request a new
    task, its last user message the text, earlier turns as a transcript;
    the artifacts' text streamed as content, the remote calls as activity
    lines, the end as `finished`. A task that fails, is rejected or
    cancelled, or pauses for input it cannot be given here, is `failed`
    (502, `remote_agent_error`, naming the task); a client that leaves
    cancels the remote task. */
class remote_model final : public chat_completions::model
{
public:
    AGENTIO_DECL remote_model(client remote, remote_model_options options);

    chat_completions::model_card const& card() const noexcept override { return options_.card; }

    AGENTIO_DECL asio::awaitable<void> complete(chat_completions::request r, chat_completions::call_context const& ctx,
        chat_completions::output_sink sink) override;

private:
    client remote_;
    remote_model_options options_;
};

} // namespace agentio::a2a

#include <agentio/a2a/impl/client.hpp>

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/a2a/impl/client.ipp>
#endif

#endif
