//
// agentio/agent/vocabulary.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What the three strategies (the orchestrator, react, plan_execute) say in the
// same words: how a run ended (`outcome`), the part of a result they share
// (`run_summary`, the base of each `run_result`), and the events they share
// (`text_delta`, `finished`, `error`), which are alternatives, or the bases of
// alternatives, of each strategy's event variant. A program that runs more
// than one strategy handles the shared part once: `visit_shared` on any
// strategy's event, a function of `run_summary const&` on any result.
//

#ifndef AGENTIO_AGENT_VOCABULARY_HPP
#define AGENTIO_AGENT_VOCABULARY_HPP

#include <agentio/llm/context.hpp>
#include <agentio/llm/conversation.hpp>

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace agentio::agent {

// --- how a run ended -------------------------------------------------------------

/** How a run of any strategy ended: `run_result::outcome` of each.

    Only the orchestrator suspends (@ref approval_required); ReAct and
    plan-and-execute end in one of the other three.
*/
enum class outcome
{
    completed, ///< the run answered (or, for the orchestrator, the model ended its turn)
    failed,    ///< the run stopped on a failure; its `error` event and `error_message` say which
    cancelled, ///< the awaiting coroutine was cancelled, or the sink stopped the run
    suspended  ///< the run waits for a person's decision on tool calls (the orchestrator only)
};

/// The outcome's name: "completed", "failed", "cancelled" or "suspended".
constexpr std::string_view to_string(outcome o) noexcept
{
    switch(o)
    {
    case outcome::completed: return "completed";
    case outcome::failed: return "failed";
    case outcome::cancelled: return "cancelled";
    case outcome::suspended: return "suspended";
    }
    return "unknown";
}

/// Writes the outcome's name.
inline std::ostream& operator<<(std::ostream& os, outcome o)
{
    return os << to_string(o);
}

/** What every strategy's `run_result` holds: each one derives from it, so a
    function of `run_summary const&` handles the result of any strategy.

    @code
    void report(agent::run_summary const& r)
    {
        if(r.status == agent::outcome::completed)
            std::cout << r.answer << '\n';
        else
            std::cerr << r.status << ": " << r.error_message << '\n';
    }
    @endcode
*/
struct run_summary
{
    /// `run_result::outcome` of each strategy, whose values it keeps spelling.
    using outcome = agent::outcome;

    /// How the run ended.
    agent::outcome status = outcome::completed;
    /// Tokens of every model call of the run.
    llm::usage usage = {};
    /** The answer: the text of the model's last turn (the orchestrator), the
        final answer (ReAct), the last revision's answer (plan-and-execute).
        Empty when the run ended before one was written. */
    std::string answer = {};
    /// Why the run failed, for the user; empty unless `status` is `outcome::failed`.
    std::string error_message = {};
};

// --- the events every strategy sends ----------------------------------------------

/** Text for the user, as it streams: the orchestrator's text (the answer,
    and what the model writes before it calls tools), ReAct's final answer
    (`react::events::answer_delta`), plan-and-execute's answer of a revision
    (`plan_execute::events::answer_delta`, which a later revision replaces). */
struct text_delta
{
    std::string text = {};
};

/** The run finished normally: the part every strategy's `done` event shares
    (each derives from it and adds its own counts). */
struct finished
{
    /// Tokens of the run.
    llm::usage usage = {};
};

/// Why a run failed.
enum class error_cause
{
    provider,       ///< the model could not be reached, or its stream failed
    token_limit,    ///< the answer reached `max_tokens`
    refused,        ///< the model declined to answer
    context_window, ///< the conversation filled the model's context
    round_limit,    ///< `max_rounds` (ReAct: `max_iterations` and the summarizing call) came without an answer
    deadline,       ///< `run_deadline` passed
    invalid_plan,   ///< plan-and-execute: no reply of the planner was a plan, `max_plan_attempts` times
    needs_approval, ///< plan-and-execute: a step called a tool that needs a person's approval
    invalid_answer  ///< a typed run (`run<T>`): no answer followed the schema, `answer_retries + 1` times
};

/// The run failed; `message` is for the user. The same type in every strategy's events.
struct error
{
    std::string message = {};
    error_cause cause = error_cause::provider;
};

/// Keeping each request within the model's context window.
struct context_limits
{
    /** The window in tokens (`llm::context_window_for` gives a model's);
        0: the conversation is sent whole, however long. With a window, the
        oldest whole turns are left out of a request that would not fit
        (never out of the conversation, which keeps them), and a provider's
        refusal for size is retried once with less. */
    std::uint64_t window = 0;
    /** What happens to the turns that no longer fit: left out of the
        request (`trim`), or summarized by the model into a summary that
        stands for them from then on (`compact`, reported by a
        @ref compacted event for the thread to keep). A summary that cannot
        be written falls back to trimming. */
    llm::context_policy policy = llm::context_policy::compact;
    /// The summary's `max_tokens`.
    unsigned summary_max_tokens = 1024;
    /** Ask the provider for its exact count of a request near the window's
        edge (Anthropic's `count_tokens`; a provider that cannot count is not
        asked): one more call for such requests, an estimate that learns
        faster, and no refusal for size. */
    bool count_tokens = false;
    /** Estimates a request's size and learns from each answer's usage: one
        shared by an application's runs learns fastest. Null: the
        orchestrator makes its own. */
    std::shared_ptr<llm::token_estimator> estimator = {};
};

namespace detail {

template<class... Fs>
struct overloaded : Fs...
{
    using Fs::operator()...;
};
template<class... Fs>
overloaded(Fs...) -> overloaded<Fs...>;

template<class T>
inline constexpr bool is_variant_v = false;
template<class... Ts>
inline constexpr bool is_variant_v<std::variant<Ts...>> = true;

// An event variant of any strategy (or any std::variant).
template<class T>
concept event_variant = is_variant_v<T>;

// Calls `f` with `x` when it takes it; else does nothing.
template<class F, class T>
void call_if_invocable(F& f, T const& x)
{
    if constexpr(std::is_invocable_v<F&, T const&>)
        f(x);
}

} // namespace detail

/** Calls, of `handlers`, the one that takes `e`'s alternative; an
    alternative no handler takes is ignored.

    @param e an event of any strategy: @ref event, `react::event`,
    `plan_execute::event`

    The event variants gain alternatives as the library grows (before 1.0 in
    a minor version, never in a patch; CHANGELOG.md names each one). A
    `std::visit` with one handler per alternative is exhaustive on purpose and
    stops compiling when one is added; a program that wants only some events
    handles them here and keeps compiling:

    @code
    agent::visit_event(e,
        [](agent::text_delta const& d) { std::cout << d.text; },
        [](agent::error const& f) { std::cerr << f.message << '\n'; });
    @endcode

    @see visit_shared, for the events every strategy sends
*/
template<detail::event_variant Event, class... Handlers>
void visit_event(Event const& e, Handlers&&... handlers)
{
    detail::overloaded all{std::forward<Handlers>(handlers)...};
    std::visit([&all](auto const& alternative) { detail::call_if_invocable(all, alternative); }, e);
}

/** Calls, of `handlers`, the one that takes the shared part of `e`: a
    `text_delta const&`, a `finished const&` or an `error const&`, for an
    alternative that is, or derives from, that type. Other alternatives (a
    strategy's own events) are ignored, as are shared ones no handler takes.

    A generic handler is called with the shared type, never with the
    strategy's own: one set of handlers serves every strategy.

    @param e an event of any strategy: @ref event, `react::event`,
    `plan_execute::event`

    @code
    auto shared = [&](auto const& e) {
        agent::visit_shared(e,
            [&](agent::text_delta const& d) { out << d.text; },
            [&](agent::finished const& f) { log(f.usage); },
            [&](agent::error const& f) { err << f.message; });
    };
    // shared(orchestrator_event); shared(react_event); shared(plan_event);
    @endcode
*/
template<detail::event_variant Event, class... Handlers>
void visit_shared(Event const& e, Handlers&&... handlers)
{
    detail::overloaded all{std::forward<Handlers>(handlers)...};
    std::visit(
        [&all](auto const& alternative) {
            using alt = std::remove_cvref_t<decltype(alternative)>;
            if constexpr(std::is_base_of_v<text_delta, alt>)
                detail::call_if_invocable(all, static_cast<text_delta const&>(alternative));
            else if constexpr(std::is_base_of_v<finished, alt>)
                detail::call_if_invocable(all, static_cast<finished const&>(alternative));
            else if constexpr(std::is_base_of_v<error, alt>)
                detail::call_if_invocable(all, static_cast<error const&>(alternative));
        },
        e);
}

} // namespace agentio::agent

#endif
