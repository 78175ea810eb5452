//
// agentio/agent/impl/react.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_AGENT_IMPL_REACT_HPP
#define AGENTIO_AGENT_IMPL_REACT_HPP

namespace agentio::agent::react {

namespace detail {

// What the strategies share (agent/detail/run_support.hpp): emit_or_stop, stream_call...
using namespace agentio::agent::detail;

// Defined in impl/react.ipp.

// `parse`, also on the unfinished text of a streamed reply (`complete`
// false): a last line that may still become a marker is left out, and only a
// final answer is worked out (the rest needs the whole reply).
reply parse_reply(std::string_view text, bool complete, messages const& texts);

// The final answer sent so far during one model call.
struct answer_stream
{
    std::string sent = {};
    bool started = false;
    /// Whether anything reached the sink (a retry would then repeat it).
    bool delivered = false;

    // The events that bring the sink up to `answer`: its thought first, then
    // the text not sent yet.
    void advance(final_answer const& answer, unsigned iteration, std::vector<event>& out);
};

// What the model reads of a tool's result (the text; notes for what text cannot carry).
std::string observation_text(tool_result const& result);
// The assistant turn of an action, in the canonical form.
std::string action_turn(action const& a);
// The conversation as the first request sends it: the last user message as `Question: ...`.
std::vector<llm::message> first_turns(std::span<llm::message const> conversation);
// Adds text for the model: to the last user message, or as a new one.
void append_user_text(std::vector<llm::message>& turns, std::string text);
// A tool's name as the catalog spells it when only the case differs.
std::string match_tool(std::span<tool_descriptor const> tools, std::string_view name);
// A reply without markers read as an answer (the `Thought:` markers dropped).
std::string prose_answer(std::string_view raw);

} // namespace detail

template<llm::provider Provider, tool_catalog Tools>
agent<Provider, Tools>::agent(Provider& provider, Tools tools, react::options opts)
    : provider_(provider)
    , tools_(std::move(tools))
    , options_(std::move(opts))
{
    estimator_ = options_.context.estimator ? options_.context.estimator : std::make_shared<llm::token_estimator>();
    auto const d = tools_.descriptors();
    descriptors_.assign(d.begin(), d.end());
    system_ = options_.system.empty() ? render_prompt(descriptors_, options_.texts)
                                      : options_.system + "\n\n" + render_prompt(descriptors_, options_.texts);
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<void> agent<Provider, Tools>::fail(Sink& sink, run_result& result, std::string const& message,
    agentio::agent::error_cause cause) const
{
    return detail::fail_run<event>(sink, result, message, cause);
}

template<llm::provider Provider, tool_catalog Tools>
asio::awaitable<tool_result> agent<Provider, Tools>::call_tool(std::string const& tool, json::value const& input,
    unsigned iteration, detail::run_report const& report) const
{
    auto const timeout = options_.tool_timeout;
    std::string const call_id = "react-" + std::to_string(iteration);
    tool_context ctx{.tool_name = tool,
        .call_id = call_id,
        .deadline = std::chrono::steady_clock::now() + timeout,
        .progress = {}};
    tool_result r = co_await detail::call_with_timeout(tools_, tool, input, ctx, timeout, texts(), &report);
    co_return r;
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<std::optional<std::string>> agent<Provider, Tools>::ask(std::vector<llm::message> const& turns,
    Sink& sink, run_result& result, unsigned iteration, llm::stop_reason& stop,
    std::optional<llm::conversation_summary>& summary, std::size_t question, detail::run_report const& report) const
{
    llm::request request{.model = options_.model,
        .system = system_,
        .messages = turns,
        .tools = {},
        .choice = {},
        .max_tokens = options_.max_tokens,
        .temperature = options_.temperature,
        .thinking_budget = {},
        .stop = options_.stop};
    llm::fitted_context fitted; // the request's views point into it
    if(options_.context.window != 0 || summary)
    {
        llm::context_plan const plan{.window = options_.context.window,
            .policy = options_.context.policy,
            .room = 0.95,
            .summary_max_tokens = options_.context.summary_max_tokens,
            .texts = &texts(),
            .count_tokens = {},
            .keep_from = question};
        auto fit = co_await llm::fit_context(provider_, request, turns, summary ? &*summary : nullptr, plan,
            *estimator_);
        if(!fit)
        {
            auto const tokens = std::to_string(fit.error().tokens);
            auto const window = std::to_string(fit.error().window);
            // Named: GCC 12 cannot keep a braced list inside a co_await's operands.
            std::string const message = format_message(texts().context_turn_too_big,
                {{"tokens", tokens}, {"window", window}});
            co_await fail(sink, result, message, agentio::agent::error_cause::context_window);
            co_return std::nullopt;
        }
        fitted = std::move(*fit);
        fitted.apply(request, turns);
        result.usage += fitted.summary_usage;
        if(fitted.compacted)
            summary = fitted.compacted; // for the run's next calls
    }
    auto const estimated = llm::token_estimator::raw_tokens(request);
    std::vector<event> to_send;
    detail::answer_stream answer;
    std::string text;
    // Sends what the reply's final answer has added since the last time.
    auto send = [&](bool complete) -> asio::awaitable<void> {
        auto const parsed = detail::parse_reply(text, complete, texts());
        auto const* f = std::get_if<final_answer>(&parsed);
        if(!f)
            co_return;
        to_send.clear();
        answer.advance(*f, iteration, to_send);
        for(auto const& ev : to_send)
            co_await detail::emit_or_stop(sink, ev);
    };
    auto on_events = [&](std::vector<llm::stream_event>& stream_events) -> asio::awaitable<bool> {
        bool grew = false;
        for(auto const& se : stream_events)
            if(auto const* t = std::get_if<llm::text_delta>(&se))
            {
                text += t->text;
                grew = true;
            }
        if(grew)
            co_await send(false);
        co_return answer.delivered;
    };
    // Nothing of a failed attempt reached the sink: the next one starts afresh.
    auto on_retry = [&] {
        answer = detail::answer_stream{};
        text.clear();
    };
    auto response = co_await detail::stream_call(provider_, request, options_.mid_stream_retries, on_events, on_retry,
        &report);
    if(!response)
    {
        std::string const message = detail::describe_provider_error(response.error(), texts(), options_.describe_error);
        co_await fail(sink, result, message, agentio::agent::error_cause::provider);
        co_return std::nullopt;
    }
    estimator_->calibrate(estimated, response->tokens);
    result.usage += response->tokens;
    stop = response->stop;
    text = response->assistant.text();
    co_await send(true);
    co_return std::optional<std::string>(std::move(text));
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<void> agent<Provider, Tools>::loop(std::vector<llm::message>& conversation, Sink& sink,
    run_result& result, detail::run_report const& report) const
{
    // Ends the run with its answer.
    auto answered = [&](std::string const& answer, std::string const& thought) -> asio::awaitable<void> {
        result.answer = answer;
        result.thought = thought;
        conversation.push_back(llm::message::assistant(answer));
        event const ev = events::done{{result.usage}, result.iterations};
        co_await detail::emit_or_stop(sink, ev);
    };

    std::vector<llm::message> turns = detail::first_turns(conversation);
    std::optional<llm::conversation_summary> summary; // written when the turns outgrow the window
    std::size_t const question = conversation.empty() ? 0 : conversation.size() - 1; // and the scratchpad after it
    for(unsigned iteration = 1;; ++iteration)
    {
        bool const out_of_steps = iteration > options_.max_iterations;
        if(out_of_steps)
            detail::append_user_text(turns, std::string(texts().react_out_of_steps));
        llm::stop_reason stop = llm::stop_reason::unknown;
        auto const text = co_await ask(turns, sink, result, iteration, stop, summary, question, report);
        if(!text)
            co_return;
        result.iterations = iteration;
        result.out_of_steps = out_of_steps;
        if(stop == llm::stop_reason::refusal || stop == llm::stop_reason::context_window)
        {
            bool const refused = stop == llm::stop_reason::refusal;
            std::string const message(refused ? texts().refused : texts().context_too_long);
            co_await fail(sink, result, message,
                refused ? agentio::agent::error_cause::refused : agentio::agent::error_cause::context_window);
            co_return;
        }
        auto parsed = detail::parse_reply(*text, true, texts());

        if(auto* f = std::get_if<final_answer>(&parsed))
        {
            // Its text streamed in `ask`; an answer cut by the token limit is not one.
            if(stop == llm::stop_reason::max_tokens)
            {
                std::string const message(texts().token_limit);
                co_await fail(sink, result, message, agentio::agent::error_cause::token_limit);
                co_return;
            }
            co_await answered(f->text, f->thought);
            co_return;
        }

        if(out_of_steps)
        {
            // Asked for an answer, the model wrote one without the marker: take
            // it as it is. Another action, or a broken one, fails the run.
            auto const* m = std::get_if<malformed>(&parsed);
            std::string const answer = m && m->error == format_error::missing_action ? detail::prose_answer(m->raw)
                                                                                     : std::string();
            if(answer.empty())
            {
                std::string const message(texts().round_limit);
                co_await fail(sink, result, message, agentio::agent::error_cause::round_limit);
                co_return;
            }
            event const delta = events::answer_delta{answer};
            co_await detail::emit_or_stop(sink, delta);
            std::string const no_thought;
            co_await answered(answer, no_thought);
            co_return;
        }

        if(auto* a = std::get_if<action>(&parsed))
        {
            a->tool = detail::match_tool(descriptors_, a->tool);
            step s{.iteration = iteration,
                .thought = a->thought,
                .tool = a->tool,
                .input = a->input,
                .observation = {},
                .is_error = false,
                .malformed = false,
                .duration = {}};
            if(!s.thought.empty())
            {
                event const ev = events::thought{iteration, s.thought};
                co_await detail::emit_or_stop(sink, ev);
            }
            {
                event const ev = events::action{iteration, s.tool, s.input};
                co_await detail::emit_or_stop(sink, ev);
            }
            auto const started = std::chrono::steady_clock::now();
            tool_result const outcome = co_await call_tool(s.tool, s.input, iteration, report);
            s.duration = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                started);
            s.observation = detail::observation_text(outcome);
            s.is_error = outcome.is_error;
            {
                event const ev = events::observation{iteration, s.tool, s.observation, s.is_error};
                co_await detail::emit_or_stop(sink, ev);
            }
            turns.push_back(llm::message::assistant(detail::action_turn(*a)));
            turns.push_back(llm::message::user("Observation: " + s.observation));
            result.trace.push_back(std::move(s));
            continue;
        }

        // Malformed: what is wrong is the Observation, and the model tries again.
        auto& m = std::get<malformed>(parsed);
        {
            event const ev = events::malformed{iteration, m.error, m.reason};
            co_await detail::emit_or_stop(sink, ev);
        }
        // An empty assistant turn is refused by the APIs: the reason then joins the last user turn.
        if(m.raw.find_first_not_of(" \t\r\n") != std::string::npos)
            turns.push_back(llm::message::assistant(m.raw));
        detail::append_user_text(turns, "Observation: " + m.reason);
        step s;
        s.iteration = iteration;
        s.observation = std::move(m.reason);
        s.is_error = true;
        s.malformed = true;
        result.trace.push_back(std::move(s));
    }
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<run_result> agent<Provider, Tools>::run(std::string question, Sink sink) const
{
    std::vector<llm::message> conversation{llm::message::user(std::move(question))};
    run_result result = co_await run_on(conversation, sink);
    co_return result;
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<run_result> agent<Provider, Tools>::run(std::vector<llm::message>& conversation, Sink sink) const
{
    run_result result = co_await run_on(conversation, sink);
    co_return result;
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<run_result> agent<Provider, Tools>::run_on(std::vector<llm::message>& conversation, Sink& sink) const
{
    run_result result;
    detail::run_report report(options_.telemetry, "react", options_.model, detail::provider_name(provider_));
    auto body = [&] { return loop(conversation, sink, result, report); };
    auto const deadline_event = [](std::string const& message) {
        return event{events::error{message, agentio::agent::error_cause::deadline}};
    };
    co_await detail::run_with_deadline(body, sink, result, options_.run_deadline, texts().run_deadline, deadline_event);
    report.finish(result, result.iterations);
    co_return result;
}

} // namespace agentio::agent::react

#endif
