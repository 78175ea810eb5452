//
// agentio/agent/react.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// ReAct (Yao et al., 2022) for models without native tool calling: the tools
// are described in the system prompt, and the model writes its steps as text
// in the shape of LangChain's "hwchase17/react" prompt,
//
//   Thought: ...
//   Action: <tool name>
//   Action Input: <a JSON object>
//   Observation: <the tool's result, written by us>
//   ...
//   Final Answer: ...
//
// Each call stops at "\nObservation" (a stop sequence); the reply is parsed
// (tolerating what models do: their own Observation, two actions, fences,
// numbering), the tool runs, and its result goes back as the Observation.
// A reply that does not follow the format goes back too, as an Observation
// that says what is wrong, and the run goes on.
//
// The scratchpad is kept as chat turns: each step is an assistant message
// (the step rewritten in the canonical form) and a user message
// `Observation: ...`. The caller's conversation only gets the final answer;
// the steps are in the run's trace.
//

#ifndef AGENTIO_AGENT_REACT_HPP
#define AGENTIO_AGENT_REACT_HPP

#include <agentio/agent/detail/run_support.hpp>
#include <agentio/agent/vocabulary.hpp>
#include <agentio/config.hpp>
#include <agentio/llm/compaction.hpp>
#include <agentio/llm/conversation.hpp>
#include <agentio/llm/provider.hpp>
#include <agentio/messages.hpp>
#include <agentio/tool/toolset.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <concepts>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace agentio::agent::react {

namespace asio = boost::asio;
namespace json = boost::json;

// --- the protocol ----------------------------------------------------------

/// The reply asks for a tool.
struct action
{
    /// What the model wrote before `Action:`, without the `Thought:` marker.
    std::string thought = {};
    /// The tool's name, without backticks, brackets or quotes around it.
    std::string tool = {};
    /// The first JSON value after `Action Input:`.
    json::value input = {};
    /// That value as the model wrote it.
    std::string raw_input = {};
};

/// The reply answers the question.
struct final_answer
{
    /// What the model wrote before `Final Answer:`, without the `Thought:` marker.
    std::string thought = {};
    /// The answer: the text after `Final Answer:`, trimmed.
    std::string text = {};
};

/// What is wrong with a reply that does not follow the format.
enum class format_error
{
    missing_action,       ///< neither `Action:` nor `Final Answer:`
    missing_tool,         ///< `Action:` names no tool
    missing_action_input, ///< `Action:` without `Action Input:` (or with nothing after it)
    input_not_json,       ///< what follows `Action Input:` is not JSON
    action_and_answer,    ///< an `Action:` and, after it, a `Final Answer:`
    empty_answer          ///< `Final Answer:` with nothing after it
};

/// A reply that does not follow the format.
struct malformed
{
    format_error error = format_error::missing_action;
    /// What the model is told (the Observation), from @ref messages.
    std::string reason = {};
    /// The reply, up to where it started writing its own Observation.
    std::string raw = {};
};

/// A model's reply, parsed.
using reply = std::variant<action, final_answer, malformed>;

/** Parses a model's ReAct reply.

    Markers start a line: `Thought:`, `Action:`, `Action Input:`,
    `Observation:`, `Final Answer:` (and `Question:`), in any case, with
    spaces, a step number (`Action 1:`) or markdown emphasis (`**Action:**`)
    around their words. Inside a code fence (```` ``` ```` or `~~~`) nothing
    is a marker. What models do besides the format is handled so:

    @li a line starting with `Observation:` and everything after it is
        ignored (the model went on with an observation of its own);
    @li of several actions, the first is taken (with its own `Action Input`);
    @li the tool's name may be wrapped in backticks, brackets or quotes;
    @li `Action Input` is the first JSON value after the marker, also inside
        a ```` ```json ```` fence; text after it is ignored (comments and
        trailing commas are accepted);
    @li an action and a final answer: as LangChain, an error when the action
        comes first (the model answered a question it had not asked yet);
        when the final answer comes first, it wins and ends at the next
        marker line (the rest is the model rambling on);
    @li a final answer ends at the next marker line.

    @param text the model's reply
    @param texts the sentences of a @ref malformed reply
    @return the action, the final answer, or what is wrong
*/
reply parse(std::string_view text, messages const& texts = {});

/** The ReAct system prompt: the tools (name, description and compact JSON
    Schema of the input), then the format, in the shape of LangChain's
    "hwchase17/react" prompt. The instructions come from `texts` (the
    `react_*` members); the markers are the protocol and stay as they are.

    @param tools the tools the model may use
    @param texts the instructions' wording
*/
std::string render_prompt(std::span<tool_descriptor const> tools, messages const& texts = {});

/// The stop sequence each call is made with: the model stops where our Observation goes.
inline constexpr std::string_view observation_stop = "\nObservation";

// --- a run -------------------------------------------------------------------

/// What the agent asks of the model, and its bounds.
struct options
{
    std::string model = {};
    /// Instructions of the application, written before the ReAct prompt.
    std::string system = {};
    unsigned max_tokens = 4096;
    std::optional<double> temperature = {};
    /** Model calls that may use tools. When they are spent without a final
        answer, one more call asks the model to answer from the observations
        so far (@ref messages::react_out_of_steps). */
    unsigned max_iterations = 5;
    /// Longest a tool call may take; it then becomes an error observation.
    std::chrono::steady_clock::duration tool_timeout = std::chrono::seconds(30);
    /// Longest a whole run may take.
    std::chrono::steady_clock::duration run_deadline = std::chrono::minutes(5);
    /// Retries of a call whose stream failed before any of the answer reached the sink.
    unsigned mid_stream_retries = 2;
    /** Stop sequences sent with each call. Empty for models that refuse them
        (OpenAI's reasoning models): the parser ignores a model's own
        Observation anyway, the stop only saves its tokens. */
    std::vector<std::string> stop = {std::string(observation_stop)};
    /// The prompt's instructions, the format errors the model reads, and a run's failures.
    messages texts = {};
    /// Turns a provider error into the message the user sees; empty: the generic messages.
    std::function<std::string(llm::error const&)> describe_error = {};
    /** The context window each call must fit, as for the orchestrator: the
        conversation's oldest whole turns are left out or summarized (the
        summary lasts the run; the scratchpad of the current question always
        stays). */
    context_limits context = {};
    /// Where runs report (metrics, logs, spans); empty: nowhere.
    agentio::agent::telemetry telemetry = {};
};

/// What a run tells its sink, in this order within an iteration.
namespace events {

/// The model's reasoning before its action or final answer.
struct thought
{
    unsigned iteration = 0;
    std::string text = {};
};

/// A tool is about to run.
struct action
{
    unsigned iteration = 0;
    std::string tool = {};
    json::value input = {};
};

/// A tool's result (or error), as the model reads it.
struct observation
{
    unsigned iteration = 0;
    std::string tool = {};
    std::string text = {};
    bool is_error = false;
};

/// The reply did not follow the format; `reason` went back to the model.
struct malformed
{
    unsigned iteration = 0;
    format_error error = format_error::missing_action;
    std::string reason = {};
};

/// Text of the final answer, as it streams (what follows `Final Answer:`): the shared @ref agentio::agent::text_delta.
using answer_delta = agentio::agent::text_delta;

/// The run finished with an answer: @ref agentio::agent::finished (its usage) and the model calls.
struct done : agentio::agent::finished
{
    /// Model calls of the run (the summarizing one included).
    unsigned iterations = 0;
};

/** The run failed; `message` is for the user: the shared
    @ref agentio::agent::error (`cause`: `provider`, `token_limit`, `refused`,
    `context_window`, `round_limit` or `deadline`). */
using error = agentio::agent::error;

} // namespace events

/** One of the @ref events. `answer_delta`, `done` and `error` are the events
    every strategy sends (@ref agentio::agent::visit_shared). */
using event = std::variant<events::thought, events::action, events::observation, events::malformed,
    events::answer_delta, events::done, events::error>;

/** What a run can report to: called as `sink(event)` for each @ref event.

    It returns `void`, `asio::awaitable<void>` (the run waits for it), or
    `asio::awaitable<bool>` (and `false` stops the run, as when its client
    has gone).
*/
template<class Sink>
concept event_sink = agentio::agent::detail::sink_for<Sink, event>;

/// One step of a run: an action and its observation, or a malformed reply.
struct step
{
    unsigned iteration = 0;
    std::string thought = {};
    /// The tool called; empty for a malformed reply.
    std::string tool = {};
    json::value input = {};
    /// What the model read: the tool's result, or what was wrong with its reply.
    std::string observation = {};
    bool is_error = false;
    /// The reply did not follow the format (`observation` says why).
    bool malformed = false;
    std::chrono::microseconds duration{};
};

/** What a run did: the @ref agentio::agent::run_summary (`status`, `usage`,
    `answer`: the final answer, `error_message`) and ReAct's own trace. The
    status is never `outcome::suspended`. */
struct run_result : agentio::agent::run_summary
{
    /// The thought the model wrote before the answer.
    std::string thought = {};
    /// Model calls (the summarizing one included).
    unsigned iterations = 0;
    /// Every action and malformed reply, in order.
    std::vector<step> trace = {};
    /// The answer came from the summarizing call after `max_iterations`.
    bool out_of_steps = false;
};

/// `react::to_string(run_result::outcome)` as before the outcome was shared: @ref agentio::agent::to_string.
using agentio::agent::to_string;

/** Runs the ReAct loop with a model and tools.

    @tparam Provider an @ref llm::provider
    @tparam Tools a @ref tool_catalog (a toolset, dynamic or combined tools)

    @code
    agentio::agent::react::agent agent{provider, tools, {.model = "llama3.1:8b"}};
    auto result = co_await agent.run("How many initiatives are running?",
        [&](agentio::agent::react::event const& e) { log(e); });
    // result.answer, result.trace
    @endcode

    Each iteration is one model call (text only: no native tools are sent),
    its reply parsed (@ref parse), and the action's tool run; unknown tools,
    invalid input and malformed replies become Observations and the run goes
    on. The provider is held by reference, the tools by value. `run` may be
    called concurrently.
*/
template<llm::provider Provider, tool_catalog Tools>
class agent
{
public:
    /** @param provider held by reference: it must outlive the agent
        @param tools the tools the prompt lists and the actions call
        @param opts the model, the bounds and the texts; the system prompt is rendered here, once
    */
    agent(Provider& provider, Tools tools, react::options opts);

    Tools const& tools() const noexcept { return tools_; }
    react::options const& options() const noexcept { return options_; }

    /// The system prompt each call is made with (`options().system`, then @ref render_prompt).
    std::string const& system_prompt() const noexcept { return system_; }

    /** Runs the loop until a final answer.

        @param conversation the messages so far, the last one the user's
        question (sent as `Question: ...`); the final answer is appended as
        an assistant message, the steps are not (see `run_result::trace`)
        @param sink an @ref event_sink, called for each @ref event
        @return what happened. Cancellation (through the awaiting
        coroutine's cancellation slot) ends the run promptly with
        `outcome::cancelled`; nothing is sent to the sink after it.
    */
    template<class Sink>
    asio::awaitable<run_result> run(std::vector<llm::message>& conversation, Sink sink) const;

    /// Runs the loop on one question.
    template<class Sink>
    asio::awaitable<run_result> run(std::string question, Sink sink) const;

private:
    // The run with its deadline and cancellation; the sink stays in the caller's frame.
    template<class Sink>
    asio::awaitable<run_result> run_on(std::vector<llm::message>& conversation, Sink& sink) const;

    template<class Sink>
    asio::awaitable<void> loop(std::vector<llm::message>& conversation, Sink& sink, run_result& result,
        detail::run_report const& report) const;

    // One model call, a final answer streamed to the sink as it arrives: the
    // reply's text, or nothing once the failure was reported.
    template<class Sink>
    asio::awaitable<std::optional<std::string>> ask(std::vector<llm::message> const& turns, Sink& sink,
        run_result& result, unsigned iteration, llm::stop_reason& stop,
        std::optional<llm::conversation_summary>& summary, std::size_t question,
        detail::run_report const& report) const;

    template<class Sink>
    asio::awaitable<void> fail(Sink& sink, run_result& result, std::string const& message,
        agentio::agent::error_cause cause) const;

    asio::awaitable<tool_result> call_tool(std::string const& tool, json::value const& input, unsigned iteration,
        detail::run_report const& report) const;

    messages const& texts() const noexcept { return options_.texts; }

    Provider& provider_;
    Tools tools_;
    react::options options_;
    std::vector<tool_descriptor> descriptors_;
    std::string system_;
    std::shared_ptr<llm::token_estimator> estimator_;
};

template<class Provider, class Tools>
agent(Provider&, Tools, options) -> agent<Provider, Tools>;

} // namespace agentio::agent::react

#include <agentio/agent/impl/react.hpp>
#ifdef AGENTIO_HEADER_ONLY
#include <agentio/agent/impl/react.ipp>
#endif

#endif
