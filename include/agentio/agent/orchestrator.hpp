//
// agentio/agent/orchestrator.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The model's tool-use loop as one coroutine, generic over the provider and
// the tools. Each round streams the model's answer (text reaches the sink as
// it arrives), then — when the model stops to use tools — runs the round's
// calls in parallel under a cap and a per-tool timeout, and sends the results
// back in call order. The loop is driven by the stop reason, never by "some
// text was seen".
//
// Failures the model can act on (unknown tool, invalid arguments, a tool that
// threw or timed out) go back to it as error results and the run goes on.
// Failures it cannot (the provider is down, the round limit, the deadline)
// end the run with an `error` event. Cancelling the run (the client left)
// stops the provider stream and the running tools at once.
//

#ifndef AGENTIO_AGENT_ORCHESTRATOR_HPP
#define AGENTIO_AGENT_ORCHESTRATOR_HPP

#include <agentio/agent/detail/json_reply.hpp>
#include <agentio/agent/detail/run_support.hpp>
#include <agentio/agent/vocabulary.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/compaction.hpp>
#include <agentio/llm/context.hpp>
#include <agentio/llm/conversation.hpp>
#include <agentio/llm/provider.hpp>
#include <agentio/messages.hpp>
#include <agentio/tool/schema.hpp>
#include <agentio/tool/toolset.hpp>
#include <agentio/tool/validator.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace agentio::agent {

namespace asio = boost::asio;
namespace json = boost::json;

/// Bounds of a run.
struct limits
{
    /// Model calls in a run (`AGENT_MAX_TOOL_ROUNDS`); the run fails beyond.
    unsigned max_rounds = 10;
    /** The last of `max_rounds` offers the tools with `tool_choice` none:
        the model answers from what it has found instead of the run failing
        at the limit (so at most `max_rounds - 1` rounds run tools). */
    bool last_round_answers = false;
    /// Tool calls of a round running at once.
    std::size_t max_parallel_tools = 4;
    /// Longest a tool call may take; it then becomes an error result.
    std::chrono::steady_clock::duration tool_timeout = std::chrono::seconds(30);
    /// Longest a whole run may take.
    std::chrono::steady_clock::duration run_deadline = std::chrono::minutes(5);
    /// Retries of a round whose stream failed before anything reached the
    /// client (an `overloaded_error` mid-stream, a dropped connection). The
    /// SDKs do not retry these; nothing is lost by doing so while the user
    /// has seen nothing.
    unsigned mid_stream_retries = 2;
    /** A typed run (`run<T>`) whose answer does not follow the schema sends
        it back with the validation errors, this many times, before it fails
        with `error_cause::invalid_answer`. */
    unsigned answer_retries = 2;
};

/// What the orchestrator asks of the model, and how it behaves.
struct options
{
    std::string model = {};
    std::string system = {};
    unsigned max_tokens = 4096;
    std::optional<double> temperature = {};
    /// Stop sequences sent with each model call (at most four for OpenAI).
    std::vector<std::string> stop = {};
    agent::limits limits = {};
    /// The sentences the orchestrator itself writes (a run's failure, a tool
    /// that timed out); the tools' own validation messages come with them.
    messages texts = {};
    /// Turns a provider error into the message the user sees; empty: a
    /// generic message with the provider's text. Applications use it to
    /// point at their own settings (a wrong model name, a wrong key).
    std::function<std::string(llm::error const&)> describe_error = {};
    /// Whether a call of this tool waits for a person's approval, besides the
    /// tools that say so themselves (`static constexpr bool requires_approval`).
    std::function<bool(std::string_view tool)> requires_approval = {};
    /// The context window each request must fit.
    context_limits context = {};
    /** Where runs report (metrics, logs, spans); empty: nowhere, at the
        cost of a null test per call. */
    agent::telemetry telemetry = {};
};

/** The model's own reasoning, as it streams: Anthropic's extended thinking,
    the `reasoning_content` of OpenAI-compatible servers (DeepSeek, vLLM,
    llama.cpp, and our own endpoints). Not part of the answer; a client shows
    it apart, or not at all. */
struct thinking_delta
{
    std::string text = {};
};

/// The model stopped to use tools: what streamed so far was its reasoning.
struct round_end
{
    unsigned iteration = 0;
    /// The calls about to run, in the model's order (valid during the call):
    /// what a client shows as "searching…" before any result exists.
    std::span<llm::tool_use_block const* const> calls = {};
};

/** The model began a tool call: its arguments stream next, as
    @ref tool_input_delta, and @ref round_end lists the round's calls once
    they are whole. What a client shows as a call forming. */
struct tool_call_started
{
    /// The call's id (Anthropic `tool_use.id`, OpenAI `tool_call.id`), as `round_end` and `tool_call` give it.
    std::string tool_call_id = {};
    std::string tool = {};
    unsigned iteration = 0;
};

/** A fragment of a forming call's arguments: JSON text as the model writes
    it. The fragments of a call, joined, are its arguments' text; they need
    not be valid JSON until the call is whole. */
struct tool_input_delta
{
    std::string tool_call_id = {};
    std::string partial_json = {};
};

/// A tool call finished.
struct tool_call
{
    std::string tool = {};
    std::string input_summary = {};
    json::value input_raw = {};
    /// The text the model wrote in the round before calling (its reasoning).
    std::string thinking = {};
    std::string result_summary = {};
    std::uint64_t duration_ms = 0;
    unsigned iteration = 0;
    bool is_error = false;
    /// The call's id, as `tool_call_started` and `round_end` give it.
    std::string tool_call_id = {};
};

/** A round's messages have joined the conversation: the model's turn and,
    when it used tools, their results. What a checkpoint stores: a run
    resumed from here does not run these tools again. Sent after the
    round's other events, before `done` for the last round; not sent for a
    round that failed. */
struct round_complete
{
    unsigned iteration = 0;
    /// The round's messages, at the end of the conversation (valid during the call).
    std::span<llm::message const> messages = {};
    /// Tokens of the run so far.
    llm::usage usage = {};
};

/** The conversation's older turns were summarized to fit the window
    (`context_policy::compact`): from now on the summary stands for the
    conversation's first `summary.covers` messages. A thread keeps it beside
    its messages (which stay as they were) and gives it to the next run
    (@ref run_options::summary). Sent before the model call it made room for. */
struct compacted
{
    llm::conversation_summary summary = {};
    /// Model calls the summary took, and their tokens.
    unsigned calls = 0;
    llm::usage usage = {};
};

/// A tool call waiting for a person's decision.
struct approval_request
{
    std::string tool_call_id = {};
    std::string tool = {};
    json::value input = {};
    /** The call had started when the process running it died, and its tool
        is not idempotent: it may or may not have acted. Approved, it runs
        again; rejected, the model learns it was not run again. */
    bool in_doubt = false;
};

/** The model called tools that need a person's approval: the run stops after
    this event (`run_result::outcome::suspended`), holding nothing. The model's
    turn is at the end of the conversation; `run` with the decisions resumes it.
    Sent after `round_end`. */
struct approval_required
{
    unsigned iteration = 0;
    /// The calls that need a decision (others of the round run on resumption).
    std::vector<approval_request> calls = {};
    /// The model's turn with the calls, at the end of the conversation (valid
    /// during the call): what a checkpoint stores before the run sleeps.
    std::span<llm::message const> messages = {};
    /// Tokens of the run so far.
    llm::usage usage = {};
};

/// A person's decision on a call that needed approval.
struct approval_decision
{
    std::string tool_call_id = {};
    bool approved = false;
    /// Why not: goes back to the model in the call's error result.
    std::string reason = {};
};

/// The run finished normally: @ref finished (its usage) and the rounds.
struct done : finished
{
    /// Rounds of the run.
    unsigned rounds = 0;
};

/** What a run tells its sink, in order. `text_delta`, `done` (a
    @ref finished) and `error` are the events every strategy sends
    (@ref visit_shared). */
using event = std::variant<text_delta, thinking_delta, round_end, tool_call, round_complete, approval_required, done,
    error, compacted, tool_call_started, tool_input_delta>;

/** @ref visit_event for an event given as one of its alternatives (an
    `agent::text_delta{...}`), which the generic overload does not convert. */
template<class... Handlers>
void visit_event(event const& e, Handlers&&... handlers)
{
    detail::overloaded all{std::forward<Handlers>(handlers)...};
    std::visit([&all](auto const& alternative) { detail::call_if_invocable(all, alternative); }, e);
}

/** What a run can report to: called as `sink(event)` for each @ref event.

    It returns `void` (it cannot wait), `asio::awaitable<void>` (the run
    waits for it: a slow client slows the run), or `asio::awaitable<bool>`
    (and `false` stops the run, as when its client has gone).
*/
template<class Sink>
concept event_sink = detail::sink_for<Sink, event>;

/// Latency of one tool call.
struct tool_timing
{
    std::string tool = {};
    std::chrono::microseconds duration{};
    bool is_error = false;
};

/** What a run did: the @ref run_summary (`status`, `usage`, `answer`,
    `error_message`) and the orchestrator's own counts. `outcome::suspended`:
    waiting for approvals (see @ref approval_required). */
struct run_result : run_summary
{
    /// Rounds of the run (a resumed run counts the checkpoint's too).
    unsigned rounds = 0;
    std::vector<tool_timing> tools = {};
    /// Time from the start of the run to the first text delta.
    std::optional<std::chrono::microseconds> time_to_first_text = {};
    /// The last summary this run wrote (see @ref compacted), if it wrote one.
    std::optional<llm::conversation_summary> summary = {};
};

/// Where a run starts.
/** A call of the round a run resumes that an earlier attempt at the run had
    started (from its runner's journal, @ref call_journal). */
struct earlier_call
{
    std::string tool_call_id = {};
    /// Its result was recorded: the call is not run again, this result stands.
    bool finished = false;
    tool_result result = {};
};

/** What a durable runner records around a run's tool calls, so that after a
    crash no call acts twice unbeknownst: a call is recorded before it runs
    and again with its result; the model's turn is kept before its calls run,
    so that a resumed run runs those calls rather than asking the model anew. */
class call_journal
{
public:
    virtual ~call_journal() = default;
    /// The model's turn at the end of the conversation, whose calls are about to run (none has yet).
    virtual asio::awaitable<void> calls_ahead(std::span<llm::message const> model_turn, unsigned round) = 0;
    /// A call is about to run; false when that cannot be recorded: then it is not run.
    virtual asio::awaitable<bool> started(llm::tool_use_block const& call, unsigned round) = 0;
    /// A call returned.
    virtual asio::awaitable<void> finished(llm::tool_use_block const& call, tool_result const& result) = 0;
};

struct run_options
{
    /** Rounds a resumed run already did: the conversation holds what they
        wrote, and the next round is numbered `completed_rounds + 1`. */
    unsigned completed_rounds = 0;
    /// Decisions on the calls a suspended run waits for (see @ref approval_required).
    std::span<approval_decision const> decisions = {};
    /** The summary that stands for the conversation's first messages (the
        last @ref compacted of an earlier run): the model reads it instead
        of them. */
    std::optional<llm::conversation_summary> summary = {};
    /** Names the conversation for the tools' idempotency keys (a stored
        thread's id, typically): each call gets `scope + "/" + call id` in
        `tool_context::idempotency_key`. Empty: no key. */
    std::string idempotency_scope = {};
    /// Records the calls as they run (a durable runner's); null: none.
    call_journal* journal = nullptr;
    /** For a run resumed with its model's turn at the end of the
        conversation: the calls of that turn an earlier attempt started.
        Finished ones are not run again; one in doubt (started, never
        finished) runs again if its tool is idempotent, and otherwise waits
        for a decision (@ref approval_request::in_doubt). */
    std::span<earlier_call const> earlier_calls = {};
    /** Asks the model for an answer in JSON that follows a schema (see
        @ref llm::output_format): every model call of the run carries it.
        `run<T>` sets it from `T`; set by hand, the caller validates the answer. */
    std::optional<llm::output_format> output = {};
    /// The parent of this run's span, overriding `options::telemetry`'s (a `traceparent` header); empty: that one.
    std::string_view traceparent = {};
    /// `gen_ai.conversation.id` of this run, overriding `options::telemetry`'s; empty: that one.
    std::string_view conversation_id = {};
};

/** What a typed run (`orchestrator::run<T>`) did: the @ref run_result, over
    all its attempts, and the answer converted. `value` is set exactly when
    the run completed; `answer` then holds the JSON text it came from. */
template<class T>
struct typed_result : run_result
{
    std::optional<T> value = {};
};

/** Runs conversations with a model and tools.

    @tparam Provider an @ref llm::provider
    @tparam Tools a @ref tool_catalog (a toolset, dynamic or combined tools)

    @code
    agentio::agent::orchestrator agent{provider, portfolio_tools{api}, {.model = "claude-sonnet-4-5"}};
    auto result = co_await agent.run(messages, [&](agentio::agent::event const& e) -> asio::awaitable<void> {
        co_await write_sse(e);
    });
    @endcode

    The provider is held by reference, the tools by value. `run` may be
    called concurrently for different conversations.
*/
template<llm::provider Provider, tool_catalog Tools>
class orchestrator
{
public:
    orchestrator(Provider& provider, Tools tools, agent::options opts)
        : provider_(provider)
        , tools_(std::move(tools))
        , options_(std::move(opts))
        , descriptors_(make_descriptors(tools_))
        , estimator_(options_.context.estimator ? options_.context.estimator : std::make_shared<llm::token_estimator>())
    {
    }

    Tools const& tools() const noexcept { return tools_; }
    agent::options const& options() const noexcept { return options_; }

    /** Runs the loop on a conversation until the model's final answer.

        @param conversation the messages so far (the last one the user's);
        the model's turns and the tool results are appended
        @param sink an @ref event_sink, called for each @ref event; one
        returning `asio::awaitable<bool>` stops the run by returning false
        @return what happened. Cancellation (through the awaiting
        coroutine's cancellation slot) ends the run promptly with
        `outcome::cancelled`; nothing is sent to the sink after it.
    */
    template<class Sink>
    asio::awaitable<run_result> run(std::vector<llm::message>& conversation, Sink sink) const
    {
        return run(conversation, std::move(sink), run_options{});
    }

    /** Resumes a run after its checkpoint: `conversation` holds what the
        first `completed_rounds` rounds wrote, and the next round is
        numbered `completed_rounds + 1` (the round limit counts them all).

        When the conversation ends with the model's tool calls (a run that
        stopped for approvals), that round's calls run first: those that
        needed approval as `decisions` say (a rejected one becomes an error
        result naming the reason), the others as usual.
    */
    template<class Sink>
    asio::awaitable<run_result> run(std::vector<llm::message>& conversation, Sink sink, unsigned completed_rounds,
        std::span<approval_decision const> decisions = {}) const
    {
        return run(conversation, std::move(sink), run_options{completed_rounds, decisions, {}});
    }

    /** Runs, or resumes, as `how` says: after a checkpoint, with decisions,
        or with the summary that stands for the conversation's first messages. */
    template<class Sink>
    asio::awaitable<run_result> run(std::vector<llm::message>& conversation, Sink sink, run_options how) const;

    /** Runs the loop for an answer of type `T`: the model is asked for JSON
        that follows `T`'s schema (the provider's structured output, see
        @ref llm::output_format), the answer is validated against it and
        converted; an answer that does not follow it goes back to the model
        with the validation errors, `limits::answer_retries` times, before
        the run fails with `error_cause::invalid_answer`.

        @tparam T a struct described with `BOOST_DESCRIBE_STRUCT`, each
        member documented in its `field_traits` as a tool's arguments are; a
        member type without a JSON Schema is a compile error naming it
        @param conversation as for `run`; a rejected answer and the
        correction stay in it, so the model sees what it got wrong
        @param sink as for `run`: it sees every attempt's events, and one
        `done` (or `error`) at the end
        @param how as for `run`; `output` is set from `T`

        @code
        auto r = co_await agent.run<invoice_summary>(conversation, sink);
        if(r.value)
            std::cout << r.value->total << '\n';
        @endcode
    */
    template<class T, class Sink>
    asio::awaitable<typed_result<T>> run(std::vector<llm::message>& conversation, Sink sink, run_options how) const;

    /// A typed run as `how` says nothing: `run<T>(conversation, sink, run_options{})`.
    template<class T, class Sink>
    asio::awaitable<typed_result<T>> run(std::vector<llm::message>& conversation, Sink sink) const
    {
        // Not a default argument: GCC 12 destroys a coroutine's defaulted
        // class-type argument twice (docs/notes/engineering-notes.md).
        return run<T>(conversation, std::move(sink), run_options{});
    }

    /** One question in a conversation of its own, its events unseen: the
        answer's text is the result's `answer`. */
    asio::awaitable<run_result> ask(std::string question) const
    {
        std::vector<llm::message> conversation{llm::message::user(std::move(question))};
        auto const ignore = [](event const&) {};
        auto result = co_await run(conversation, ignore);
        co_return result;
    }

    /// One question whose answer is a `T` (see `run<T>`), in a conversation of its own.
    template<class T>
    asio::awaitable<typed_result<T>> ask(std::string question) const
    {
        std::vector<llm::message> conversation{llm::message::user(std::move(question))};
        auto const ignore = [](event const&) {};
        auto result = co_await run<T>(conversation, ignore);
        co_return result;
    }

    /// Whether a call of `tool` waits for approval.
    bool requires_approval(std::string_view tool) const
    {
        for(auto const& d : descriptors_)
            if(d.name == tool && d.requires_approval)
                return true;
        return options_.requires_approval && options_.requires_approval(tool);
    }

private:
    struct call_outcome
    {
        tool_result result = {};
        std::chrono::microseconds duration{};
    };

    static std::vector<tool_descriptor> make_descriptors(Tools const& tools)
    {
        auto const d = tools.descriptors();
        return std::vector<tool_descriptor>(d.begin(), d.end());
    }

    template<class Sink>
    asio::awaitable<void> loop(std::vector<llm::message>& conversation, Sink& sink, run_result& result,
        run_options const& how, detail::run_report const& report) const;

    // Runs the calls of the model's turn at the end of `conversation`,
    // reports them, and appends their results. False when the run must wait
    // for decisions on calls in doubt (sent as approval_required).
    template<class Sink>
    asio::awaitable<bool> finish_round(std::vector<llm::message>& conversation, Sink& sink, run_result& result,
        unsigned iteration, std::span<approval_decision const> decisions, run_options const& how, bool resumed,
        detail::run_report const& report) const;

    // How the calls of a round run: their idempotency keys, the journal, the round.
    struct call_scope
    {
        std::string_view idempotency_scope;
        call_journal* journal;
        unsigned round;
        detail::run_report const* report;
    };

    asio::awaitable<call_outcome> call_tool(llm::tool_use_block const& call, call_scope const& scope) const;

    asio::awaitable<std::vector<call_outcome>> run_tools(std::vector<llm::tool_use_block const*> const& calls,
        std::span<approval_decision const> decisions, call_scope const& scope) const;

    // Whether a call in doubt may simply run again.
    bool is_idempotent(std::string_view tool) const
    {
        for(auto const& d : descriptors_)
            if(d.name == tool)
                return d.idempotent;
        return false;
    }

    messages const& texts() const noexcept { return options_.texts; }

    Provider& provider_;
    Tools tools_;
    agent::options options_;
    std::vector<tool_descriptor> descriptors_;
    std::shared_ptr<llm::token_estimator> estimator_;
};

template<class Provider, class Tools>
orchestrator(Provider&, Tools, options) -> orchestrator<Provider, Tools>;

/// A short `key=value, ...` view of a tool's arguments, for a UI.
std::string summarize_input(json::value const& input, std::size_t max_chars = 120);

/// The first line of a result's text, shortened, for a UI.
std::string summarize_result(tool_result const& result, std::size_t max_chars = 120);

} // namespace agentio::agent

#include <agentio/agent/impl/orchestrator.hpp>

#endif
