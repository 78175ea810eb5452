//
// agentio/agent/impl/plan_execute.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_AGENT_IMPL_PLAN_EXECUTE_HPP
#define AGENTIO_AGENT_IMPL_PLAN_EXECUTE_HPP

namespace agentio::agent::plan_execute {

namespace detail {

// What the strategies share (agent/detail/run_support.hpp): emit_or_stop, stream_call...
using namespace agentio::agent::detail;

// Defined in impl/plan_execute.ipp.

// The options of the steps' orchestrator.
agentio::agent::options executor_options(options const& o);
// The tools as the planner reads them, one a line.
std::string tool_list(std::span<tool_descriptor const> tools, messages const& texts);
std::string plan_prompt(std::string_view request, std::string_view tools, options const& o);
std::string replan_prompt(std::string_view request, std::string_view tools, revision const& previous, options const& o);
// What the planner reads after a reply that is not a plan.
std::string plan_correction(std::string_view errors, options const& o);
std::string step_prompt(std::string_view request, revision const& current, unsigned index, messages const& texts);
std::string answer_prompt(std::string_view request, revision const& current, messages const& texts);
std::string verify_prompt(std::string_view request, revision const& current, verdict_tokens const& tokens,
    messages const& texts);
// The model's reply and what is wrong with it join the conversation.
void add_correction(std::vector<llm::message>& turns, std::string reply, std::string correction);

} // namespace detail

template<llm::provider Provider, tool_catalog Tools>
agent<Provider, Tools>::agent(Provider& provider, Tools tools, plan_execute::options opts)
    : provider_(provider)
    , options_(std::move(opts))
    , executor_(provider, std::move(tools), detail::executor_options(options_))
{
    auto const d = executor_.tools().descriptors();
    std::vector<tool_descriptor> const all(d.begin(), d.end());
    tool_list_ = detail::tool_list(all, options_.texts);
    plan_output_ = plan_schema(options_.min_steps, options_.max_steps).as_object();
    plan_output_["additionalProperties"] = false;
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<void> agent<Provider, Tools>::fail(Sink& sink, run_result& result, std::string const& message,
    agentio::agent::error_cause cause) const
{
    return detail::fail_run<event>(sink, result, message, cause);
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<std::optional<llm::response>> agent<Provider, Tools>::ask(std::string_view model,
    std::vector<llm::message> const& turns, Sink& sink, run_result& result, std::optional<unsigned> stream,
    json::object const* output, detail::run_report const& report) const
{
    llm::request const request{.model = model,
        .system = options_.system,
        .messages = turns,
        .tools = {},
        .choice = {},
        .max_tokens = options_.max_tokens,
        .temperature = options_.temperature,
        .thinking_budget = {},
        .stop = {},
        .output = output ? std::optional<llm::output_format>(llm::output_format{.name = "plan", .schema = output})
                         : std::nullopt};
    // The text goes to the sink as it arrives when the call is streamed.
    auto on_events = [&](std::vector<llm::stream_event>& stream_events) -> asio::awaitable<bool> {
        bool delivered = false;
        if(stream)
            for(auto& se : stream_events)
                if(auto* t = std::get_if<llm::text_delta>(&se); t && !t->text.empty())
                {
                    delivered = true;
                    event const delta = events::answer_delta{{std::move(t->text)}, *stream};
                    co_await detail::emit_or_stop(sink, delta);
                }
        co_return delivered;
    };
    auto response = co_await detail::stream_call(provider_, request, options_.mid_stream_retries, on_events,
        detail::nothing_to_reset{}, &report);
    if(!response)
    {
        std::string const message = detail::describe_provider_error(response.error(), texts(), options_.describe_error);
        co_await fail(sink, result, message, agentio::agent::error_cause::provider);
        co_return std::nullopt;
    }
    result.usage += response->tokens;
    if(response->stop == llm::stop_reason::refusal || response->stop == llm::stop_reason::context_window)
    {
        bool const refused = response->stop == llm::stop_reason::refusal;
        std::string const message(refused ? texts().refused : texts().context_too_long);
        co_await fail(sink, result, message,
            refused ? agentio::agent::error_cause::refused : agentio::agent::error_cause::context_window);
        co_return std::nullopt;
    }
    std::optional<llm::response> answered(std::move(*response));
    co_return answered;
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<bool> agent<Provider, Tools>::make_plan(std::string const& request, revision const* previous,
    unsigned number, Sink& sink, run_result& result, std::vector<std::string>& steps,
    detail::run_report const& report) const
{
    std::vector<llm::message> turns{
        llm::message::user(previous ? detail::replan_prompt(request, tool_list_, *previous, options_)
                                    : detail::plan_prompt(request, tool_list_, options_))};
    std::string errors;
    unsigned const attempts = std::max(1u, options_.max_plan_attempts);
    for(unsigned attempt = 1; attempt <= attempts; ++attempt)
    {
        std::optional<unsigned> const silent;
        auto response = co_await ask(model_of(options_.planner_model), turns, sink, result, silent,
            options_.structured_plan ? &plan_output_ : nullptr, report);
        if(!response)
            co_return false;
        std::string reply = response->assistant.text();
        auto parsed = parse_plan(reply, options_.min_steps, options_.max_steps, texts());
        if(parsed.ok())
        {
            steps = std::move(parsed.steps);
            co_return true;
        }
        errors = format_validation_errors(parsed.problems, texts());
        event const ev = events::plan_rejected{number, attempt, errors};
        co_await detail::emit_or_stop(sink, ev);
        if(attempt < attempts)
            detail::add_correction(turns, std::move(reply), detail::plan_correction(errors, options_));
    }
    std::string const count = std::to_string(attempts);
    std::string const message = format_message(texts().plan_failed, {{"attempts", count}, {"errors", errors}});
    co_await fail(sink, result, message, agentio::agent::error_cause::invalid_plan);
    co_return false;
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<std::optional<std::string>> agent<Provider, Tools>::run_step(std::string const& request,
    revision const& current, unsigned index, Sink& sink, run_result& result, detail::run_report const& report) const
{
    std::vector<llm::message> conversation{llm::message::user(detail::step_prompt(request, current, index, texts()))};
    unsigned const number = current.number;
    // The step's events reach the sink wrapped; a sink that stops the run
    // stops the step's run, which then ends as cancelled. A step's failure
    // is the run's, with its cause.
    auto cause = agentio::agent::error_cause::provider;
    auto forward = [&sink, &cause, number, index](agentio::agent::event const& e) -> asio::awaitable<bool> {
        if(auto const* failure = std::get_if<agentio::agent::error>(&e))
            cause = failure->cause;
        event const ev = events::step_event{number, index, e};
        bool const go_on = co_await detail::emit(sink, ev);
        co_return go_on;
    };
    // The step's run is a child of the plan's (its spans nest; the observer counts the plan's run only).
    std::string const parent = trace::format_traceparent(report.context());
    agentio::agent::run_options how;
    how.traceparent = parent;
    agentio::agent::run_result const sub = co_await executor_.run(conversation, forward, how);
    result.usage += sub.usage;
    switch(sub.status)
    {
    case agentio::agent::outcome::completed: break;
    case agentio::agent::outcome::cancelled: detail::stop_run();
    case agentio::agent::outcome::failed:
    {
        std::string const message = sub.error_message;
        co_await fail(sink, result, message, cause);
        co_return std::nullopt;
    }
    case agentio::agent::outcome::suspended:
    {
        std::string const position = std::to_string(index + 1);
        std::string const message = format_message(texts().plan_step_needs_approval,
            {{"index", position}, {"step", current.steps[index]}});
        co_await fail(sink, result, message, agentio::agent::error_cause::needs_approval);
        co_return std::nullopt;
    }
    }
    std::optional<std::string> answer = sub.answer;
    co_return answer;
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<void> agent<Provider, Tools>::loop(std::string const& request, Sink& sink, run_result& result,
    detail::run_report const& report) const
{
    unsigned const revisions = options_.max_replans + 1;
    for(unsigned number = 1; number <= revisions; ++number)
    {
        revision const* previous = result.trace.empty() ? nullptr : &result.trace.back();
        if(previous)
        {
            event const ev = events::replan{number};
            co_await detail::emit_or_stop(sink, ev);
        }
        std::vector<std::string> steps;
        bool const planned = co_await make_plan(request, previous, number, sink, result, steps, report);
        if(!planned)
            co_return;
        result.trace.push_back(revision{.number = number,
            .steps = std::move(steps),
            .results = {},
            .answer = {},
            .verdict = verdict::unparseable,
            .verdict_text = {}});
        revision& current = result.trace.back();
        {
            event const ev = events::plan{number, current.steps};
            co_await detail::emit_or_stop(sink, ev);
        }

        for(unsigned i = 0; i < current.steps.size(); ++i)
        {
            {
                event const ev = events::step_started{number, i, current.steps[i]};
                co_await detail::emit_or_stop(sink, ev);
            }
            auto step_result = co_await run_step(request, current, i, sink, result, report);
            if(!step_result)
                co_return;
            current.results.push_back(*step_result);
            event const ev = events::step_finished{number, i, std::move(*step_result)};
            co_await detail::emit_or_stop(sink, ev);
        }

        std::vector<llm::message> const answer_turns{
            llm::message::user(detail::answer_prompt(request, current, texts()))};
        std::optional<unsigned> const streamed = number;
        auto answered = co_await ask(model_of(options_.answer_model), answer_turns, sink, result, streamed, nullptr,
            report);
        if(!answered)
            co_return;
        if(answered->stop == llm::stop_reason::max_tokens)
        {
            std::string const message(texts().token_limit);
            co_await fail(sink, result, message, agentio::agent::error_cause::token_limit);
            co_return;
        }
        current.answer = answered->assistant.text();
        result.answer = current.answer;

        std::vector<llm::message> const verify_turns{
            llm::message::user(detail::verify_prompt(request, current, options_.tokens, texts()))};
        std::optional<unsigned> const silent;
        auto judged = co_await ask(model_of(options_.verifier_model), verify_turns, sink, result, silent, nullptr,
            report);
        if(!judged)
            co_return;
        current.verdict_text = judged->assistant.text();
        current.verdict = parse_verdict(current.verdict_text, options_.tokens);
        {
            event const ev = events::verification{number, current.verdict, current.verdict_text};
            co_await detail::emit_or_stop(sink, ev);
        }
        if(current.verdict == verdict::yes)
        {
            result.verified = true;
            break;
        }
    }
    event const end = events::done{{result.usage}, result.verified, static_cast<unsigned>(result.trace.size())};
    co_await detail::emit_or_stop(sink, end);
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<run_result> agent<Provider, Tools>::run(std::string request, Sink sink) const
{
    run_result result;
    detail::run_report report(options_.telemetry, "plan_execute", options_.model, detail::provider_name(provider_));
    auto body = [&] { return loop(request, sink, result, report); };
    auto const deadline_event = [](std::string const& message) {
        return event{events::error{message, agentio::agent::error_cause::deadline}};
    };
    co_await detail::run_with_deadline(body, sink, result, options_.run_deadline, texts().run_deadline, deadline_event);
    report.finish(result, static_cast<unsigned>(result.trace.size()));
    co_return result;
}

} // namespace agentio::agent::plan_execute

#endif
