//
// agentio/ag_ui/protocol.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// AG-UI 1.0 (the event stream from an agent to a user interface) over the
// models of chat_completions/: a `RunAgentInput` read into the request a
// model answers, and a model's outputs written as AG-UI events, in the order
// the official client (`@ag-ui/client`'s verifier) requires: every message,
// reasoning span and tool call opened before it is used and closed before
// `RUN_FINISHED`; optional fields omitted, never null; timestamps integer
// milliseconds; agentio's own fields only under `metadata.agentio`.
//
// The reference this follows, with what the client checks, is
// docs/notes/ag-ui-a2a.md.
//

#ifndef AGENTIO_AG_UI_PROTOCOL_HPP
#define AGENTIO_AG_UI_PROTOCOL_HPP

#include <agentio/chat_completions/model.hpp>
#include <agentio/chat_completions/request.hpp>
#include <agentio/config.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/system/result.hpp>

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::ag_ui {

namespace json = boost::json;

/// The AG-UI version these events follow (`RUN_STARTED.protocolVersion`).
inline constexpr std::string_view protocol_version = "1.0";

/** Why a `RunAgentInput` was refused: the field at fault, as a path into the
    body (`messages[2].toolCallId`), and a sentence that names it. Sent as
    the protocol's own error, a `RUN_ERROR` with code `invalid_input`. */
struct input_error
{
    std::string field = {};
    std::string message = {};
};

/// A fact the client gives the run (`context[]`): joined to the system prompt.
struct context_item
{
    std::string description = {};
    std::string value = {};
};

/** The client's answer to an interrupt of the previous run (`resume[]`).
    For an approval (`reason` `tool_call`) a `resolved` payload is
    `{approved: bool, reason?: string}` (@ref approval_schema) and
    `cancelled` is a no; @ref parse_run_input puts each in
    `request.decisions`. */
struct resume_answer
{
    std::string interrupt_id = {};
    /// `resolved` (an answer in `payload`), or false for `cancelled` (abandoned).
    bool resolved = true;
    json::value payload = {};
};

/// What a `RunAgentInput` asks.
struct run_input
{
    std::string thread_id = {};
    std::string run_id = {};
    /// Branching from an earlier run; read, not acted on.
    std::optional<std::string> parent_run_id = {};
    /// The client's application state (null when it sent none).
    json::value state = {};
    /** The conversation as a Chat Completions model takes it: system and
        developer messages, then the `context` items, in `request.system`;
        the others in `request.messages` (consecutive messages of a role
        merged); the client's tools in `request.tools`; `stream` set. */
    chat_completions::request request = {};
    std::vector<context_item> context = {};
    std::vector<resume_answer> resume = {};
    /** Passed through from the front end. When an object, its members are
        also the request's own fields (`request.extra`), as the
        OpenAI-compatible door's unknown fields are: `{"agent_type":
        "react"}` forces a strategy_model's strategy. */
    json::value forwarded_props = {};
};

/// Bounds on what a `RunAgentInput` may hold.
struct input_limits
{
    std::size_t max_messages = 2048;
    std::size_t max_tools = 128;
    std::size_t max_context = 64;
    /// Of `threadId` and `runId`.
    std::size_t max_id_bytes = 256;
};

/** Reads a `RunAgentInput` (its JSON, parsed).

    @return the input, or the first field at fault: not an object, a
    missing or mistyped `threadId`, `runId` or `messages`, an unknown role,
    a `tool` message answering no call of an earlier assistant message, a
    content part other than text or an image given as data, a tool without
    a name. `reasoning` and `activity` messages are the client's own record
    and are skipped; an empty `messages` is accepted (a run on the thread
    as it stands). */
AGENTIO_DECL boost::system::result<run_input, input_error> parse_run_input(json::value const& body,
    input_limits const& limits = {});

/** The `responseSchema` of an approval interrupt: `{approved: boolean,
    reason?: string}`. */
AGENTIO_DECL json::object approval_schema();

/** One event as the SSE frame the client reads: `data: <json>\n\n` (LF
    only: `@ag-ui/client` does not split frames on CRLF). */
AGENTIO_DECL std::string frame(json::object const& event);

/** A `RUN_ERROR` for input that could not be read: `message` names the
    field, `code` is `invalid_input`, and `metadata.agentio.field` holds it. */
AGENTIO_DECL json::object input_error_event(input_error const& e);

/** `MESSAGES_SNAPSHOT`: a conversation as AG-UI messages, for a client to
    take in place of its own (a run on a stored thread: the thread's
    messages). Text of a user turn is a `user` message (`content` parts when
    it holds images), each tool result a `tool` message (`error` set when
    the call failed), an assistant turn one `assistant` message with its
    text and `toolCalls`; reasoning is left out. Ids are `id_prefix`
    followed by the message's index and, for tool results, the call's id,
    so that a snapshot taken again names the same messages alike. */
AGENTIO_DECL json::object messages_snapshot(std::vector<llm::message> const& messages, std::string_view id_prefix);

/** A model's outputs (@ref chat_completions::output) as the AG-UI events
    of one run, in the order the client verifies.

    - text: `TEXT_MESSAGE_START` (one message per stretch of text), `_CONTENT`, `_END`;
    - reasoning: `REASONING_START`, `REASONING_MESSAGE_START/_CONTENT/_END`, `REASONING_END`;
    - the agent's own tools (@ref chat_completions::tool_activity):
      `TOOL_CALL_START`, `_ARGS`, `_END` and `TOOL_CALL_RESULT`;
    - the client's tools: `TOOL_CALL_START/_ARGS/_END` without a result, the
      run then ending `RUN_FINISHED` with `outcome.pendingToolCallIds`;
    - `finished`: whatever is open closed, then `RUN_FINISHED` with the usage;
    - `awaiting_approval`: the turn's calls closed, then `RUN_FINISHED` with
      `outcome.type` `interrupt`, one interrupt per call (`reason`
      `tool_call`, `id` and `toolCallId` the call's, `message` the question,
      `responseSchema` @ref approval_schema, `metadata.agentio` the tool and
      its arguments); the next run's `resume` answers them;
    - `failed`: `RUN_ERROR` with the message and a code;
    - steps (@ref chat_completions::step_boundary): `STEP_STARTED` and
      `STEP_FINISHED` with the step's name; a step that begins ends the one
      open, and the run's end ends it too, so every step is closed;
    - state (@ref chat_completions::state_update): the first as
      `STATE_SNAPSHOT`, each later one as `STATE_DELTA`, the JSON Patch
      (RFC 6902) from the state before (none when nothing changed).

    After `RUN_FINISHED` or `RUN_ERROR` nothing more is written. */
class run_events
{
public:
    /// @param usage_provider, usage_model what `RUN_FINISHED.usage` names (may be empty).
    AGENTIO_DECL run_events(std::string thread_id, std::string run_id, std::string usage_provider = {},
        std::string usage_model = {});

    /// `RUN_STARTED`.
    AGENTIO_DECL json::object started() const;

    /// The events `o` gives, appended to `out` (none once the run has ended).
    AGENTIO_DECL void take(chat_completions::output o, std::vector<json::object>& out);

    /// Whether `RUN_FINISHED` or `RUN_ERROR` was written.
    bool ended() const noexcept { return ended_; }

    /** Ends a run whose model stopped without saying how (it returned, or
        was cancelled): what is open closed, then `RUN_FINISHED` with
        `outcome.type` `cancelled` when `cancelled`, else a `RUN_ERROR`. */
    AGENTIO_DECL void end_abruptly(bool cancelled, std::vector<json::object>& out);

private:
    json::array usage(llm::usage const& u) const;
    void close_text(std::vector<json::object>& out);
    void close_reasoning(std::vector<json::object>& out);
    void close_calls(std::vector<json::object>& out);
    void close_step(std::vector<json::object>& out);
    std::string const& assistant_message(std::vector<json::object>& out);
    std::string next_id(std::string_view kind);

    std::string thread_id_;
    std::string run_id_;
    std::string usage_provider_;
    std::string usage_model_;
    std::size_t counter_ = 0;
    std::string text_id_;      // the text message open; empty: none
    std::string reasoning_id_; // the reasoning span open; empty: none
    std::string last_message_; // the assistant message the calls belong to
    std::set<std::string, std::less<>> open_calls_;
    std::set<std::string, std::less<>> begun_calls_;
    std::vector<std::string> pending_calls_; // the client's, to run
    std::string open_step_;                  // the step begun and not yet finished; empty: none
    std::optional<json::value> state_;       // the state the client was last sent
    bool ended_ = false;
};

} // namespace agentio::ag_ui

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/ag_ui/impl/protocol.ipp>
#endif

#endif
