//
// agentio/chat_completions/model.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// What the endpoint serves: a model is anything that turns a request into
// a sequence of outputs — content and reasoning as they stream, the calls of
// the client's tools, and one end (finished or failed). An agent, a plain
// provider, another server: the endpoint writes the same wire for all.
//

#ifndef AGENTIO_CHAT_COMPLETIONS_MODEL_HPP
#define AGENTIO_CHAT_COMPLETIONS_MODEL_HPP

#include <agentio/chat_completions/error.hpp>
#include <agentio/chat_completions/request.hpp>
#include <agentio/http/server.hpp>
#include <agentio/llm/context.hpp>
#include <agentio/llm/conversation.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace agentio::chat_completions {

/// Text of the answer (`delta.content`).
struct content_delta
{
    std::string text = {};
};

/** What the model does on the way (`delta.reasoning_content`, as DeepSeek,
    vLLM and llama.cpp stream reasoning): its thinking, and the server-side
    tools it runs. Clients that do not know the field ignore it. */
struct reasoning_delta
{
    std::string text = {};
    /** A line about the agent's own tools ("→ contar(…)"), not the model's
        thinking: a client shown @ref tool_activity skips it. */
    bool activity = false;
};

/** One of the agent's own tool calls as it forms, runs and ends: for
    clients that show calls as such (AG-UI's `TOOL_CALL_*`). The
    OpenAI-compatible endpoint sends nothing for it: its `activity` reasoning
    lines tell the same. */
struct tool_activity
{
    enum class phase
    {
        begun,     ///< the model began writing the call
        arguments, ///< a fragment of its arguments (`arguments` holds it)
        ready,     ///< the call is whole and about to run (`arguments` holds them all)
        finished   ///< it ran (`result`, `is_error`)
    };
    phase what = phase::begun;
    std::string id = {};
    std::string name = {};
    /// The arguments' JSON text: a fragment (`arguments`), or all of it (`ready`).
    std::string arguments = {};
    /// What the call gave, in a line (with `finished`).
    std::string result = {};
    bool is_error = false;
};

/// A call of one of the client's tools (`delta.tool_calls`); the client runs
/// it and sends the result back in a `tool` message.
struct tool_call_output
{
    std::string id = {};
    std::string name = {};
    /// The arguments, JSON text.
    std::string arguments = {};
};

/** A call of the client's tools as the model begins it: streamed at once as
    `delta.tool_calls[{index, id, type, function: {name, arguments: ""}}]`,
    as OpenAI streams calls; its arguments follow as @ref tool_call_arguments,
    and its @ref tool_call_output (still required) then adds nothing to the
    stream. Optional: a model that sends only `tool_call_output` is streamed
    each call whole. */
struct tool_call_begun
{
    std::string id = {};
    std::string name = {};
};

/// A fragment of a begun call's arguments, JSON text as the model writes it.
struct tool_call_arguments
{
    std::string id = {};
    std::string delta = {};
};

/// Why the answer ended (`finish_reason`).
enum class finish_reason
{
    stop,          ///< the answer is complete, or a stop sequence came
    length,        ///< the token limit cut it
    tool_calls,    ///< the client's tools must run
    content_filter ///< the model refused
};

/// The wire name of a finish reason.
constexpr std::string_view to_string(finish_reason r) noexcept
{
    switch(r)
    {
    case finish_reason::stop: return "stop";
    case finish_reason::length: return "length";
    case finish_reason::tool_calls: return "tool_calls";
    case finish_reason::content_filter: return "content_filter";
    }
    return "stop";
}

/// The answer ended normally.
struct finished
{
    finish_reason reason = finish_reason::stop;
    llm::usage usage = {};
};

/// The answer failed: before any output, the error is the HTTP answer; in
/// a stream that has begun, a last `data:` line with the error object.
struct failed
{
    api_error error = {};
};

/// One of the agent's own calls that waits for a person's decision.
struct approval_call
{
    std::string id = {};
    std::string name = {};
    /// The arguments, JSON text.
    std::string arguments = {};
    /// What to ask the person ("Approve the call of 'delete'?").
    std::string question = {};
    /** The call had begun when the process running it died, and its tool is
        not idempotent: it may or may not have acted. */
    bool in_doubt = false;
};

/** The answer stops for a person's decisions on some of the agent's own
    calls (its tools that need approval): the last output, in place of
    `finished`. The next request resumes it: its conversation ends with this
    turn (the text written so far and `turn`, all of the turn's calls: those
    that need no approval run on resumption), and `request::decisions`
    answer `calls`. A door that cannot ask a person (the OpenAI-compatible
    endpoint) answers an error instead. */
struct awaiting_approval
{
    /// The calls that need a decision.
    std::vector<approval_call> calls = {};
    /// Every call of the model's turn, in order.
    std::vector<tool_call_output> turn = {};
    llm::usage usage = {};
};

/// One output of a model, in order; `finished`, `failed` or `awaiting_approval` comes last.
/** A step of the agent's work begins or ends (an iteration of ReAct, a step
    of a plan): for clients that show steps (AG-UI's `STEP_STARTED` and
    `STEP_FINISHED`). The OpenAI-compatible endpoint sends nothing for it:
    its activity lines tell the same. A step ends under the name it began. */
struct step_boundary
{
    std::string name = {};
    bool finished = false;
};

/** The agent's state as it is now (a plan and how far it has got): for
    clients that keep one (AG-UI's `STATE_SNAPSHOT`). Each is whole, not a
    change. The OpenAI-compatible endpoint sends nothing for it. */
struct state_update
{
    json::value snapshot = {};
};

using output = std::variant<content_delta, reasoning_delta, tool_call_output, finished, failed, tool_call_begun,
    tool_call_arguments, tool_activity, awaiting_approval, step_boundary, state_update>;

/// Where a model writes its outputs. It never blocks: the endpoint queues.
using output_sink = std::function<void(output)>;

/// How `/v1/models` lists a model.
struct model_card
{
    std::string id = {};
    std::string owned_by = "agentio";
    /// Unix time, seconds.
    std::int64_t created = 0;
    /// Extra fields of the listing (a description, the context length).
    json::object extra = {};
};

/** Who asked, as a Chat Completions model's tools find it in
    `tool_context::extensions` (`ctx.extensions.find<chat_completions::caller>()`):
    a tool that keeps data per user (uploaded files) answers for this user only. */
struct caller
{
    /// The authenticated user (empty when the endpoint does not authenticate).
    std::string user = {};
    /// The session the request named (empty: none).
    std::string session = {};
};

/// Who asks, and over what HTTP request.
struct call_context
{
    /// The authenticated user (empty when the endpoint does not authenticate).
    std::string user = {};
    /// The session the request named (empty: none), for logs.
    std::string session = {};
    /// The HTTP request (headers such as `X-Session-Id`), valid during `complete`.
    http::request const* http = nullptr;
    /** The session's summary, standing for what comes before the request's
        messages (or for their first `covers`): a model that keeps requests
        within a window reads it instead (`agent::run_options::summary`). */
    std::optional<llm::conversation_summary> summary = {};
    /** Where a model that summarized the request's older messages
        (`agent::run_result::summary`) leaves the summary, for the session
        to keep; null without a session. */
    std::optional<llm::conversation_summary>* compacted = nullptr;

    /** The request's `traceparent` (the server span's, when the router
        traces): the parent of the run's spans, and sent on by its calls. */
    std::string_view traceparent() const
    {
        if(!http)
            return {};
        auto const it = http->find("traceparent");
        return it == http->end() ? std::string_view() : std::string_view(it->value().data(), it->value().size());
    }
};

/** A model the endpoint serves.

    `complete` is called once per request, on the connection's executor; it
    writes outputs to the sink and ends with exactly one `finished`,
    `failed` or `awaiting_approval` (the endpoint supplies a `failed` if it
    returns without one).
    Cancellation through the awaiting coroutine's slot means the client has
    gone: stop promptly, output is no longer read.
*/
class model
{
public:
    virtual ~model() = default;

    /// The listing; `card().id` is the name clients ask for.
    virtual model_card const& card() const noexcept = 0;

    /// Answers `r`.
    virtual asio::awaitable<void> complete(request r, call_context const& ctx, output_sink sink) = 0;
};

} // namespace agentio::chat_completions

#endif
