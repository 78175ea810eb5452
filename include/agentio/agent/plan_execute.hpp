//
// agentio/agent/plan_execute.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Plan and execute, with verification: the LangGraph tutorial's strategy with
// the failures it is known for fixed.
//
//   planner    one call: a plan of 2 to 4 steps as JSON, checked against a
//              JSON Schema; a reply that is not one goes back to the model
//              with its errors (JSON Pointer and message), a few times
//   executor   each step a run of the orchestrator (native tool calling),
//              with the request and the previous steps' results as context
//   answer     one call: the answer from the request and the results, streamed
//   verifier   one call: does the answer answer the request? one token,
//              parsed exactly (anything else is not a yes)
//   replanner  on a no: a new plan from the old one, its results and the
//              verdict, and again; when replans run out, the last answer
//              stands, marked as not verified
//
// The tutorial's planner returns free text that a second parser turns into
// steps, its executor is a ReAct agent whose answer is taken whatever it is,
// and its "replanner" decides on its own whether to stop: here the plan is
// validated, the steps use the orchestrator's loop (driven by stop reasons),
// and the decision to stop is a separate check with an exact verdict.
//

#ifndef AGENTIO_AGENT_PLAN_EXECUTE_HPP
#define AGENTIO_AGENT_PLAN_EXECUTE_HPP

#include <agentio/agent/detail/run_support.hpp>
#include <agentio/agent/orchestrator.hpp>
#include <agentio/agent/vocabulary.hpp>
#include <agentio/config.hpp>
#include <agentio/tool/validator.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace agentio::agent::plan_execute {

namespace asio = boost::asio;
namespace json = boost::json;

// --- the plan ------------------------------------------------------------------

/** The JSON Schema a plan must match: an object whose `steps` (required) is
    an array of `min_steps` to `max_steps` non-empty strings. Other members
    are allowed (a model may add a title).
*/
json::value plan_schema(unsigned min_steps = 2, unsigned max_steps = 4);

/// A model's plan, parsed: its steps, or why it is not a plan.
struct parsed_plan
{
    /// The steps, trimmed; empty when `problems` is not.
    std::vector<std::string> steps = {};
    /// What is wrong, each at its JSON Pointer (the root: not a JSON object).
    validation_report problems = {};

    /// Whether the reply is a plan.
    bool ok() const noexcept { return problems.ok(); }
};

/** Parses a planner's reply.

    The plan is the first JSON object of the reply: text around it and a
    ```` ```json ```` fence are ignored (comments and trailing commas are
    accepted). It must match @ref plan_schema; besides, a step of only
    spaces counts as empty.

    @param reply the model's text
    @param min_steps, max_steps the plan's bounds
    @param texts the sentences of the problems (the schema validator's, and
    @ref messages::plan_not_json when there is no JSON object)
    @return the steps, or the problems (JSON Pointer and message each), for
    the model to read
*/
parsed_plan parse_plan(std::string_view reply, unsigned min_steps = 2, unsigned max_steps = 4,
    messages const& texts = {});

// --- the verdict ---------------------------------------------------------------

/// What the verifier said.
enum class verdict
{
    yes,        ///< the answer answers the request
    no,         ///< it does not
    unparseable ///< neither token: counts as a no
};

/// The verdict's name: "yes", "no" or "unparseable".
constexpr std::string_view to_string(verdict v) noexcept
{
    switch(v)
    {
    case verdict::yes: return "yes";
    case verdict::no: return "no";
    case verdict::unparseable: return "unparseable";
    }
    return "unknown";
}

/// Writes the verdict's name.
inline std::ostream& operator<<(std::ostream& os, verdict v)
{
    return os << to_string(v);
}

/** The two words the verifier answers with. The language of the
    application's prompts decides them (an English one sets `YES`).
*/
struct verdict_tokens
{
    std::string yes = "SI";
    std::string no = "NO";
    /** Whether case matters. When it does not (the default), ASCII letters
        and the accented Latin letters of UTF-8 (`À`–`Þ`, `à`–`þ`) compare
        without case: `si` is `SI`, `sÍ` is `SÍ`; but an accent is a letter
        of its own, so `Sí` is not `SI`. */
    bool case_sensitive = false;
};

/** Parses the verifier's reply, exactly.

    Spaces and line breaks around the reply are dropped, then one final
    period (and the spaces before it); what is left must be one of the two
    tokens. Anything else — `Yes, but...`, `SI, aunque`, `**SI**`, an empty
    reply — is @ref verdict::unparseable, never a yes: a verdict that
    qualifies itself is not one.

    @param reply the model's text
    @param tokens the words and how they compare
*/
verdict parse_verdict(std::string_view reply, verdict_tokens const& tokens = {});

// --- a run ---------------------------------------------------------------------

/// What the strategy asks of the models, and its bounds.
struct options
{
    /// The model of every call whose role does not name one below.
    std::string model = {};
    /// The planner's (and replanner's) model; empty: `model`.
    std::string planner_model = {};
    /// The model of the steps' runs; empty: `model`.
    std::string executor_model = {};
    /// The model that writes the answer; empty: `model`.
    std::string answer_model = {};
    /// The verifier's model; empty: `model`.
    std::string verifier_model = {};
    /// Instructions of the application, the system prompt of every call.
    std::string system = {};
    unsigned max_tokens = 4096;
    std::optional<double> temperature = {};
    /// The plan's bounds: steps at least and at most.
    unsigned min_steps = 2;
    unsigned max_steps = 4;
    /// Planner calls for one plan, the first included; the run fails beyond.
    unsigned max_plan_attempts = 3;
    /** Ask for the plan as the provider's structured output (the plan's
        schema: OpenAI `response_format`, Anthropic `output_config`). Off for
        a model or server that refuses those fields (models before Claude
        Sonnet 4.5, gpt-4 and older); the plan is checked the same either way. */
    bool structured_plan = true;
    /// New plans after a verdict that is not a yes; then the last answer stands.
    unsigned max_replans = 2;
    /// The verifier's words.
    verdict_tokens tokens = {};
    /// Bounds of each step's run (its rounds, tool timeout, deadline).
    agentio::agent::limits step_limits = {};
    /// Longest a whole run may take.
    std::chrono::steady_clock::duration run_deadline = std::chrono::minutes(15);
    /// Retries of a planner, answer or verifier call whose stream failed
    /// before any of its text reached the sink.
    unsigned mid_stream_retries = 2;
    /** The prompts (the `plan_*` members), the planner's errors, and a run's
        failures; also given to the steps' runs. */
    messages texts = {};
    /// Turns a provider error into the message the user sees; empty: the generic messages.
    std::function<std::string(llm::error const&)> describe_error = {};
    /** Where runs report (metrics, logs, spans); empty: nowhere. The steps'
        runs report their calls, and their spans, under the plan's run. */
    agentio::agent::telemetry telemetry = {};
};

/** What a run tells its sink. In order, for each revision: `replan` (from
    the second), `plan_rejected` for each reply that was not a plan, `plan`;
    per step `step_started`, its run's `step_event`s, `step_finished`; the
    `answer_delta`s; `verification`. Then `done`, or `error` where the run
    failed. */
namespace events {

/** A plan to carry out: the first (`revision` 1) or a replan. */
struct plan
{
    unsigned revision = 0;
    std::vector<std::string> steps = {};
};

/** The planner's reply was not a plan; the errors went back to it and it
    is asked again (before the attempts run out). */
struct plan_rejected
{
    unsigned revision = 0;
    /// The planner call that failed, from 1.
    unsigned attempt = 0;
    /// The problems, one a line (`pointer: message`), as the model read them.
    std::string errors = {};
};

/// A step's run starts.
struct step_started
{
    unsigned revision = 0;
    /// The step's position in the plan, from 0.
    unsigned index = 0;
    std::string text = {};
};

/** An event of a step's run, as the orchestrator sent it: its reasoning and
    text (`text_delta`), the tools it calls (`round_end`, `tool_call`), its
    checkpoints, and its own `done` or `error`. All are forwarded, so that a
    client shows what it wants (most show `tool_call`s); spans in them are
    valid during the call only. The strategy's end is its own `done` or
    `error`. */
struct step_event
{
    unsigned revision = 0;
    unsigned index = 0;
    agentio::agent::event event = {};
};

/// A step's run finished; `result` is its answer, the next steps' context.
struct step_finished
{
    unsigned revision = 0;
    unsigned index = 0;
    std::string result = {};
};

/** Text of a revision's answer, as it streams: the shared
    @ref agentio::agent::text_delta and its revision. A later revision's
    answer replaces it (after `verification` and `replan`). */
struct answer_delta : agentio::agent::text_delta
{
    unsigned revision = 0;
};

/// The verifier's verdict on the revision's answer; `raw` is its reply.
struct verification
{
    unsigned revision = 0;
    plan_execute::verdict verdict = plan_execute::verdict::unparseable;
    std::string raw = {};
};

/// The answer was not verified and a new plan is asked for, revision `revision`.
struct replan
{
    unsigned revision = 0;
};

/** The run finished with an answer, verified or not (replans ran out):
    @ref agentio::agent::finished (its usage), the verdict and the plans. */
struct done : agentio::agent::finished
{
    bool verified = false;
    /// Plans carried out.
    unsigned revisions = 0;
};

/** The run failed; `message` is for the user: the shared
    @ref agentio::agent::error. Its `cause` is the failed step's own, or
    `provider`, `refused`, `context_window`, `token_limit` (the answer was
    cut), `invalid_plan`, `needs_approval` or `deadline`. */
using error = agentio::agent::error;

} // namespace events

/** One of the @ref events. `answer_delta`, `done` and `error` are the events
    every strategy sends (@ref agentio::agent::visit_shared). */
using event = std::variant<events::plan, events::plan_rejected, events::step_started, events::step_event,
    events::step_finished, events::answer_delta, events::verification, events::replan, events::done, events::error>;

/** What a run can report to: called as `sink(event)` for each @ref event.

    It returns `void`, `asio::awaitable<void>` (the run waits for it), or
    `asio::awaitable<bool>` (and `false` stops the run, as when its client
    has gone).
*/
template<class Sink>
concept event_sink = agentio::agent::detail::sink_for<Sink, event>;

/// One plan and what came of it.
struct revision
{
    /// From 1.
    unsigned number = 0;
    std::vector<std::string> steps = {};
    /// The results of the steps that ran, in order (all of them unless the run failed).
    std::vector<std::string> results = {};
    /// The answer written from them; empty if the run failed before.
    std::string answer = {};
    /// The verifier's verdict and its reply (unparseable and empty if it was not asked).
    plan_execute::verdict verdict = plan_execute::verdict::unparseable;
    std::string verdict_text = {};
};

/** What a run did: the @ref agentio::agent::run_summary (`status`, `usage`,
    `answer`: the last revision's, `error_message`) and the plans. The status
    is never `outcome::suspended`. */
struct run_result : agentio::agent::run_summary
{
    /// Whether the verifier said yes to the answer.
    bool verified = false;
    /// Every plan, in order: its steps, their results, the answer and the verdict.
    std::vector<revision> trace = {};
};

/// `plan_execute::to_string(run_result::outcome)` as before the outcome was shared: @ref agentio::agent::to_string.
using agentio::agent::to_string;

/** Answers a request by planning, executing the plan's steps with tools,
    writing the answer, and verifying it.

    @tparam Provider an @ref llm::provider
    @tparam Tools a @ref tool_catalog (a toolset, dynamic or combined tools)

    @code
    agentio::agent::plan_execute::agent agent{provider, tools, {.model = "gpt-4.1-mini"}};
    auto result = co_await agent.run("Compare the budgets of the running initiatives",
        [&](agentio::agent::plan_execute::event const& e) { log(e); });
    // result.answer, result.verified, result.trace
    @endcode

    Calls (each a fresh conversation): the planner (again, with its errors,
    while its reply is not a plan), a run of an @ref orchestrator per step,
    the answer (streamed), the verifier; after a verdict that is not a yes,
    the planner with the previous plan, and the rest again. Provider
    failures, a step's failure and a plan that never comes end the run with
    `events::error`; so does a step that calls a tool needing a person's
    approval (a plan cannot wait for one). The provider is held by
    reference, the tools by value (in the steps' orchestrator). `run` may be
    called concurrently.
*/
template<llm::provider Provider, tool_catalog Tools>
class agent
{
public:
    agent(Provider& provider, Tools tools, plan_execute::options opts);

    Tools const& tools() const noexcept { return executor_.tools(); }
    plan_execute::options const& options() const noexcept { return options_; }

    /** Runs the strategy on one request until its answer.

        @param request the user's request (a conversation's history, if it
        matters, is the application's to write into it)
        @param sink an @ref event_sink, called for each @ref event
        @return what happened. Cancellation (through the awaiting
        coroutine's cancellation slot) ends the run promptly with
        `outcome::cancelled`, the running step's tools included; nothing is
        sent to the sink after it.
    */
    template<class Sink>
    asio::awaitable<run_result> run(std::string request, Sink sink) const;

private:
    template<class Sink>
    asio::awaitable<void> loop(std::string const& request, Sink& sink, run_result& result,
        detail::run_report const& report) const;

    // A plan for `number`, asked again while the reply is not one; false once
    // the failure was reported.
    template<class Sink>
    asio::awaitable<bool> make_plan(std::string const& request, revision const* previous, unsigned number, Sink& sink,
        run_result& result, std::vector<std::string>& steps, detail::run_report const& report) const;

    // The step `index` of `current` as a run of the orchestrator: its answer,
    // or nothing once the failure was reported.
    template<class Sink>
    asio::awaitable<std::optional<std::string>> run_step(std::string const& request, revision const& current,
        unsigned index, Sink& sink, run_result& result, detail::run_report const& report) const;

    // One model call (no tools), its text streamed as `answer_delta` when
    // `stream` is set, in JSON that follows `output` when given: the
    // response, or nothing once the failure was reported.
    template<class Sink>
    asio::awaitable<std::optional<llm::response>> ask(std::string_view model, std::vector<llm::message> const& turns,
        Sink& sink, run_result& result, std::optional<unsigned> stream, json::object const* output,
        detail::run_report const& report) const;

    template<class Sink>
    asio::awaitable<void> fail(Sink& sink, run_result& result, std::string const& message,
        agentio::agent::error_cause cause) const;

    std::string_view model_of(std::string const& role) const noexcept
    {
        return role.empty() ? std::string_view(options_.model) : std::string_view(role);
    }
    messages const& texts() const noexcept { return options_.texts; }

    Provider& provider_;
    plan_execute::options options_;
    orchestrator<Provider, Tools> executor_;
    // The tools as the planner reads them (name and description, one a line).
    std::string tool_list_;
    // What the planner's calls ask for (the provider's structured output):
    // the plan's schema, closed, which every answer it allows also passes.
    json::object plan_output_;
};

template<class Provider, class Tools>
agent(Provider&, Tools, options) -> agent<Provider, Tools>;

} // namespace agentio::agent::plan_execute

#include <agentio/agent/impl/plan_execute.hpp>
#ifdef AGENTIO_HEADER_ONLY
#include <agentio/agent/impl/plan_execute.ipp>
#endif

#endif
