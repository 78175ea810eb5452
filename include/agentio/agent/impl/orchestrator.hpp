//
// agentio/agent/impl/orchestrator.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_AGENT_IMPL_ORCHESTRATOR_HPP
#define AGENTIO_AGENT_IMPL_ORCHESTRATOR_HPP

#include <agentio/text.hpp>

#include <boost/json/parse.hpp>

#include <stdexcept>

namespace agentio::agent {

namespace detail {

// The provider's own count of a request (llm::context_plan::count_tokens).
template<class Provider>
struct provider_count
{
    Provider* provider;
    asio::awaitable<boost::system::result<std::uint64_t, llm::error>> operator()(llm::request const& r) const
    {
        return provider->count_tokens(r);
    }
};

inline void append_shortened(std::string& out, std::string_view s, std::size_t max_chars)
{
    if(out.size() >= max_chars)
        return;
    out.append(s.substr(0, max_chars - out.size()));
}

inline void shorten(std::string& s, std::size_t max_chars)
{
    if(s.size() <= max_chars)
        return;
    s.resize(agentio::utf8_byte_prefix(s, max_chars));
    s += "…";
}

inline llm::tool_result_block to_result_block(std::string const& id, tool_result const& r)
{
    llm::tool_result_block b{id, {}, r.is_error};
    for(auto const& c : r.content)
    {
        if(auto const* t = std::get_if<text_content>(&c))
            b.content.emplace_back(llm::text_block{t->text});
        else if(auto const* img = std::get_if<image_content>(&c))
            b.content.emplace_back(llm::image_block{img->mime_type, img->base64_data});
        else if(auto const* res = std::get_if<resource_content>(&c))
            b.content.emplace_back(llm::text_block{res->text ? "[" + res->uri + "]\n" + *res->text
                                                             : "[" + res->uri + ": " + res->mime_type + ", binary]"});
        else if(auto const* audio = std::get_if<audio_content>(&c))
            b.content.emplace_back(llm::text_block{"[audio " + audio->mime_type + " omitted]"});
    }
    return b;
}

// A typed answer's schema, parsed and compiled once per type.
template<class T>
struct answer_schema
{
    json::object schema;
    schema_validator validator;

    static answer_schema const& get()
    {
        static answer_schema const instance = [] {
            auto parsed = json::parse(schema_of<T>).as_object();
            auto compiled = schema_validator::compile(parsed);
            if(!compiled) // every schema the type machinery writes compiles; this is a library bug
                throw std::logic_error("agentio: a typed answer's schema does not compile: " + compiled.error());
            return answer_schema{std::move(parsed), std::move(*compiled)};
        }();
        return instance;
    }
};

} // namespace detail

inline std::string summarize_input(json::value const& input, std::size_t max_chars)
{
    std::string out;
    if(auto const* o = input.if_object())
    {
        for(auto const& kv : *o)
        {
            if(!out.empty())
                out += ", ";
            out += kv.key();
            out += '=';
            if(auto const* s = kv.value().if_string())
                out.append(s->data(), s->size());
            else
                out += to_json_text(kv.value());
            if(out.size() > max_chars)
                break;
        }
    }
    else
        out = to_json_text(input);
    detail::shorten(out, max_chars);
    return out;
}

inline std::string summarize_result(tool_result const& result, std::size_t max_chars)
{
    std::string out = result.summary.empty() ? result.joined_text() : result.summary;
    if(result.is_error && result.summary.empty())
    {
        // The reason is the point of an error (which argument, why): all of
        // it, its lines joined, rather than a first line that only names the tool.
        for(auto& c : out)
            if(c == '\n')
                c = ' ';
        return out;
    }
    if(auto const nl = out.find('\n'); nl != std::string::npos)
        out.resize(nl);
    detail::shorten(out, max_chars);
    return out;
}

template<llm::provider Provider, tool_catalog Tools>
asio::awaitable<typename orchestrator<Provider, Tools>::call_outcome>
orchestrator<Provider, Tools>::call_tool(llm::tool_use_block const& call, call_scope const& scope) const
{
    auto const started = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started);
    };
    if(call.input.is_null())
        co_return call_outcome{
            tool_result::error(format_message(texts().arguments_not_json, {{"input", call.raw_input}})), elapsed()};
    auto const timeout = options_.limits.tool_timeout;
    // Recorded before it runs: a call the journal cannot record does not run.
    if(scope.journal && !co_await scope.journal->started(call, scope.round))
        co_return call_outcome{tool_result::error(format_message(texts().call_not_recorded, {{"tool", call.name}})),
            elapsed()};
    std::string const key = scope.idempotency_scope.empty() ? std::string()
                                                            : std::string(scope.idempotency_scope) + "/" + call.id;
    tool_context ctx{.tool_name = call.name,
        .call_id = call.id,
        .idempotency_key = key,
        .deadline = started + timeout,
        .progress = {}};
    tool_result r = co_await detail::call_with_timeout(tools_, call.name, call.input, ctx, timeout, texts(),
        scope.report);
    // A call cut short by the run's cancellation may or may not have acted:
    // it stays started, in doubt, rather than recorded with a result.
    asio::cancellation_state const state = co_await asio::this_coro::cancellation_state;
    if(scope.journal && state.cancelled() == asio::cancellation_type::none)
        co_await scope.journal->finished(call, r);
    co_return call_outcome{std::move(r), elapsed()};
}

template<llm::provider Provider, tool_catalog Tools>
asio::awaitable<std::vector<typename orchestrator<Provider, Tools>::call_outcome>>
orchestrator<Provider, Tools>::run_tools(std::vector<llm::tool_use_block const*> const& calls,
    std::span<approval_decision const> decisions, call_scope const& scope) const
{
    std::vector<call_outcome> outcomes(calls.size());
    // A call a person rejected is not run: its result says why, for the model.
    std::vector<bool> decided(calls.size(), false);
    for(std::size_t i = 0; i < calls.size(); ++i)
    {
        if(!requires_approval(calls[i]->name))
            continue;
        auto const d = std::find_if(decisions.begin(), decisions.end(),
            [&](approval_decision const& x) { return x.tool_call_id == calls[i]->id; });
        if(d != decisions.end() && d->approved)
            continue;
        decided[i] = true;
        std::string reason = d == decisions.end() ? std::string() : d->reason;
        outcomes[i].result = tool_result::error(reason.empty()
                ? format_message(texts().approval_rejected_without_reason, {{"tool", calls[i]->name}})
                : format_message(texts().approval_rejected, {{"tool", calls[i]->name}, {"reason", reason}}));
    }
    std::vector<llm::tool_use_block const*> to_run;
    std::vector<std::size_t> where;
    for(std::size_t i = 0; i < calls.size(); ++i)
        if(!decided[i])
        {
            to_run.push_back(calls[i]);
            where.push_back(i);
        }
    if(to_run.size() != calls.size())
    {
        auto ran = co_await run_tools(to_run, {}, scope);
        for(std::size_t k = 0; k < ran.size(); ++k)
            outcomes[where[k]] = std::move(ran[k]);
        co_return outcomes;
    }
    if(calls.empty())
        co_return outcomes;
    if(calls.size() == 1)
    {
        outcomes[0] = co_await call_tool(*calls[0], scope);
        co_return outcomes;
    }
    // A few workers take the calls in order; each result lands at its call's
    // index, so the model gets them in call order whatever finishes first.
    std::size_t next = 0;
    auto worker = [&]() -> asio::awaitable<void> {
        while(next < calls.size())
        {
            std::size_t const i = next++;
            outcomes[i] = co_await call_tool(*calls[i], scope);
        }
    };
    auto const ex = co_await asio::this_coro::executor;
    std::size_t const workers = std::clamp<std::size_t>(options_.limits.max_parallel_tools, 1, calls.size());
    using op_type = decltype(asio::co_spawn(ex, worker(), asio::deferred));
    std::vector<op_type> ops;
    for(std::size_t w = 0; w < workers; ++w)
        ops.push_back(asio::co_spawn(ex, worker(), asio::deferred));
    auto [order, exceptions] = co_await asio::experimental::make_parallel_group(std::move(ops))
                                   .async_wait(asio::experimental::wait_for_all(), asio::use_awaitable);
    (void)order;
    for(auto const& e : exceptions)
        if(e)
            std::rethrow_exception(e); // cancellation, or a bug
    co_return outcomes;
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<bool> orchestrator<Provider, Tools>::finish_round(std::vector<llm::message>& conversation, Sink& sink,
    run_result& result, unsigned iteration, std::span<approval_decision const> decisions, run_options const& how,
    bool resumed, detail::run_report const& report) const
{
    std::vector<llm::tool_use_block const*> calls;
    for(auto const& b : conversation.back().content)
        if(auto const* c = std::get_if<llm::tool_use_block>(&b))
            calls.push_back(c);
    auto const earlier = [&](llm::tool_use_block const* c) -> earlier_call const* {
        for(auto const& e : how.earlier_calls)
            if(e.tool_call_id == c->id)
                return &e;
        return nullptr;
    };
    // Calls in doubt (an earlier attempt started them and died) whose tools
    // are not idempotent wait for a person: nothing runs before the decisions.
    if(resumed)
    {
        approval_required wait{iteration, {}, {}, result.usage};
        for(auto const* c : calls)
            if(auto const* e = earlier(c); e && !e->finished && !is_idempotent(c->name) &&
                std::none_of(decisions.begin(), decisions.end(),
                    [&](approval_decision const& d) { return d.tool_call_id == c->id; }))
                wait.calls.push_back({c->id, c->name, c->input, true});
        if(!wait.calls.empty())
        {
            result.status = run_result::outcome::suspended;
            event const ev = std::move(wait);
            co_await detail::emit_or_stop(sink, ev);
            co_return false;
        }
    }
    else if(how.journal)
        co_await how.journal->calls_ahead(std::span(conversation).last(1), iteration);
    std::string const round_text = conversation.back().text();
    // A call an earlier attempt finished is not run again: its recorded result
    // stands. A call in doubt runs again if it may (idempotent, or approved).
    std::vector<call_outcome> outcomes(calls.size());
    std::vector<llm::tool_use_block const*> to_run;
    std::vector<std::size_t> where;
    for(std::size_t i = 0; i < calls.size(); ++i)
    {
        if(auto const* e = resumed ? earlier(calls[i]) : nullptr)
        {
            if(e->finished)
            {
                outcomes[i].result = e->result;
                continue;
            }
            auto const d = std::find_if(decisions.begin(), decisions.end(),
                [&](approval_decision const& x) { return x.tool_call_id == calls[i]->id; });
            if(!is_idempotent(calls[i]->name) && d != decisions.end() && !d->approved)
            {
                outcomes[i].result = tool_result::error(format_message(texts().call_in_doubt_rejected,
                    {{"tool", calls[i]->name}, {"reason", d->reason}}));
                continue;
            }
        }
        to_run.push_back(calls[i]);
        where.push_back(i);
    }
    call_scope const scope{how.idempotency_scope, how.journal, iteration, &report};
    auto ran = co_await run_tools(to_run, decisions, scope);
    for(std::size_t k = 0; k < ran.size(); ++k)
        outcomes[where[k]] = std::move(ran[k]);
    llm::message results{llm::role::user, {}};
    for(std::size_t i = 0; i < calls.size(); ++i)
    {
        auto const& o = outcomes[i];
        result.tools.push_back({calls[i]->name, o.duration, o.result.is_error});
        event const ev = tool_call{calls[i]->name, summarize_input(calls[i]->input), calls[i]->input, round_text,
            summarize_result(o.result),
            static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(o.duration).count()),
            iteration, o.result.is_error, calls[i]->id};
        results.content.emplace_back(detail::to_result_block(calls[i]->id, o.result));
        co_await detail::emit_or_stop(sink, ev);
    }
    conversation.push_back(std::move(results)); // invalidates `calls`
    co_return true;
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<void> orchestrator<Provider, Tools>::loop(std::vector<llm::message>& conversation, Sink& sink,
    run_result& result, run_options const& how, detail::run_report const& report) const
{
    unsigned completed_rounds = how.completed_rounds;
    auto const decisions = how.decisions;
    auto const started = std::chrono::steady_clock::now();
    // Records the failure; the caller sends the event.
    auto failure = [&](std::string message, error_cause cause) {
        result.status = run_result::outcome::failed;
        result.error_message = message;
        return event{error{std::move(message), cause}};
    };

    // Announces that the round's last `count` messages are in the conversation.
    auto complete = [&](unsigned iteration, std::size_t count) -> asio::awaitable<void> {
        event const ev = round_complete{iteration, std::span(conversation).last(count), result.usage};
        co_await detail::emit_or_stop(sink, ev);
    };

    // The answer's text, the model's reasoning and its calls as they form go to the sink as they stream.
    unsigned streaming_round = 0; // the round being streamed
    auto on_events = [&](std::vector<llm::stream_event>& stream_events) -> asio::awaitable<bool> {
        bool delivered = false;
        for(auto& se : stream_events)
            if(auto* t = std::get_if<llm::text_delta>(&se))
            {
                if(!result.time_to_first_text)
                    result.time_to_first_text = std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::steady_clock::now() - started);
                delivered = true;
                event const delta = text_delta{std::move(t->text)};
                co_await detail::emit_or_stop(sink, delta);
            }
            else if(auto* th = std::get_if<llm::thinking_delta>(&se))
            {
                delivered = true;
                event const delta = thinking_delta{std::move(th->thinking)};
                co_await detail::emit_or_stop(sink, delta);
            }
            else if(auto* begun = std::get_if<llm::tool_use_started>(&se))
            {
                // A call forming is output too: once seen, a failed stream is not retried behind the user's back.
                delivered = true;
                event const forming = tool_call_started{std::move(begun->id), std::move(begun->name), streaming_round};
                co_await detail::emit_or_stop(sink, forming);
            }
            else if(auto* part = std::get_if<llm::tool_input_delta>(&se))
            {
                delivered = true;
                event const delta = tool_input_delta{std::move(part->id), std::move(part->partial_json)};
                co_await detail::emit_or_stop(sink, delta);
            }
        co_return delivered;
    };

    result.rounds = completed_rounds;
    // Resumed after approvals: the stored round ends with the model's calls.
    if(!conversation.empty() && conversation.back().role == llm::role::assistant &&
        std::any_of(conversation.back().content.begin(), conversation.back().content.end(),
            [](llm::content_block const& b) { return std::holds_alternative<llm::tool_use_block>(b); }))
    {
        ++completed_rounds;
        result.rounds = completed_rounds;
        if(!co_await finish_round(conversation, sink, result, completed_rounds, decisions, how, true, report))
            co_return; // calls in doubt wait for decisions
        co_await complete(completed_rounds, 1);
    }
    // The window configured, or the smaller one a provider named before.
    auto window = options_.context.window;
    if(auto const learned = estimator_->learned_window(); learned && (window == 0 || *learned < window))
        window = *learned;
    double room = 0.95;        // of the window, the estimate's margin; less after a refusal for size
    bool size_refused = false; // the provider refused one request for its size (retried once)
    // What stands for the conversation's first messages, as given or as this run compacted it.
    std::optional<llm::conversation_summary> summary = how.summary;
    llm::fitted_context fitted; // the request's views point into it
    for(unsigned iteration = completed_rounds + 1; iteration <= options_.limits.max_rounds; ++iteration)
    {
        streaming_round = iteration;
        bool const must_answer = options_.limits.last_round_answers && iteration == options_.limits.max_rounds;
        llm::request request{.model = options_.model,
            .system = options_.system,
            .messages = conversation,
            .tools = descriptors_,
            .choice = must_answer
                ? std::optional<llm::tool_choice>(llm::tool_choice{.mode = llm::tool_choice::mode::none})
                : std::nullopt,
            .max_tokens = options_.max_tokens,
            .temperature = options_.temperature,
            .thinking_budget = {},
            .stop = options_.stop,
            .output = how.output};
        if(window != 0 || summary)
        {
            // What does not fit is summarized or left out of the request; the conversation keeps it all.
            llm::context_plan plan{.window = window,
                .policy = options_.context.policy,
                .room = room,
                .summary_max_tokens = options_.context.summary_max_tokens,
                .texts = &texts(),
                .count_tokens = {}};
            if constexpr(llm::token_counter<Provider>)
                if(options_.context.count_tokens)
                    plan.count_tokens = detail::provider_count<Provider>{&provider_};
            auto fit = co_await llm::fit_context(provider_, request, conversation, summary ? &*summary : nullptr, plan,
                *estimator_);
            if(!fit)
            {
                auto const tokens = std::to_string(fit.error().tokens);
                auto const readable = std::to_string(fit.error().window);
                event const ev = failure(format_message(texts().context_turn_too_big,
                                             {{"tokens", tokens}, {"window", readable}}),
                    error_cause::context_window);
                co_await detail::emit_or_stop(sink, ev);
                co_return;
            }
            fitted = std::move(*fit);
            fitted.apply(request, conversation);
            if(fitted.compacted)
            {
                summary = fitted.compacted;
                result.summary = fitted.compacted;
                result.usage += fitted.summary_usage;
                event const ev = compacted{*fitted.compacted, fitted.summary_calls, fitted.summary_usage};
                co_await detail::emit_or_stop(sink, ev);
            }
        }
        auto const estimated = llm::token_estimator::raw_tokens(request);
        auto response = co_await detail::stream_call(provider_, request, options_.limits.mid_stream_retries, on_events,
            detail::nothing_to_reset{}, &report);
        if(!response)
        {
            if(auto const overflow = llm::as_context_overflow(response.error()))
            {
                if(overflow->tokens)
                    estimator_->calibrate(estimated, llm::usage{*overflow->tokens, 0, 0, 0});
                if(overflow->limit)
                {
                    // The provider's word on its window beats the configuration's and the table's.
                    estimator_->learn_window(*overflow->limit);
                    if(window == 0 || *overflow->limit < window)
                        window = *overflow->limit;
                }
                if(!size_refused && window != 0)
                {
                    // Once: the estimate learned the provider's count, and keeps a wider margin.
                    size_refused = true;
                    room = 0.85;
                    --iteration;
                    continue;
                }
                event const ev = failure(std::string(texts().context_too_long), error_cause::context_window);
                co_await detail::emit_or_stop(sink, ev);
                co_return;
            }
            std::string message = detail::describe_provider_error(response.error(), texts(), options_.describe_error);
            event const ev = failure(std::move(message), error_cause::provider);
            co_await detail::emit_or_stop(sink, ev);
            co_return;
        }
        estimator_->calibrate(estimated, response->tokens);

        result.rounds = iteration;
        result.usage += response->tokens;
        conversation.push_back(std::move(response->assistant));
        std::vector<llm::tool_use_block const*> calls;
        for(auto const& b : conversation.back().content)
            if(auto const* c = std::get_if<llm::tool_use_block>(&b))
                calls.push_back(c);

        switch(response->stop)
        {
        case llm::stop_reason::tool_use:
            if(calls.empty())
                break; // nothing to run: the answer is complete
            {
                event const end = round_end{iteration, calls};
                co_await detail::emit_or_stop(sink, end);
                // Calls that need a person: the run stops here, its turn kept.
                approval_required wait{iteration, {}, std::span(conversation).last(1), result.usage};
                for(auto const* c : calls)
                    if(requires_approval(c->name))
                        wait.calls.push_back({c->id, c->name, c->input});
                if(!wait.calls.empty())
                {
                    result.status = run_result::outcome::suspended;
                    event const ev = std::move(wait);
                    co_await detail::emit_or_stop(sink, ev);
                    co_return;
                }
                co_await finish_round(conversation, sink, result, iteration, {}, how, false, report);
                co_await complete(iteration, 2);
            }
            continue;
        case llm::stop_reason::pause_turn: // the assistant content went back in; the model resumes
            co_await complete(iteration, 1);
            continue;
        case llm::stop_reason::max_tokens:
        {
            event const ev = failure(std::string(texts().token_limit), error_cause::token_limit);
            co_await detail::emit_or_stop(sink, ev);
            co_return;
        }
        case llm::stop_reason::refusal:
        {
            event const ev = failure(std::string(texts().refused), error_cause::refused);
            co_await detail::emit_or_stop(sink, ev);
            co_return;
        }
        case llm::stop_reason::context_window:
        {
            event const ev = failure(std::string(texts().context_too_long), error_cause::context_window);
            co_await detail::emit_or_stop(sink, ev);
            co_return;
        }
        default: break;
        }
        co_await complete(iteration, 1);
        result.answer = conversation.back().text();
        event const end = done{{result.usage}, result.rounds};
        co_await detail::emit_or_stop(sink, end);
        co_return;
    }
    event const ev = failure(std::string(texts().round_limit), error_cause::round_limit);
    co_await detail::emit_or_stop(sink, ev);
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<run_result> orchestrator<Provider, Tools>::run(std::vector<llm::message>& conversation, Sink sink,
    run_options how) const
{
    run_result result;
    // The conversation is the thread the idempotency keys name, unless the caller names another.
    detail::run_report report(options_.telemetry, "tools", options_.model, detail::provider_name(provider_),
        how.traceparent, how.conversation_id.empty() ? how.idempotency_scope : how.conversation_id);
    auto body = [&] { return loop(conversation, sink, result, how, report); };
    auto const deadline_event = [](std::string const& message) { return event{error{message, error_cause::deadline}}; };
    co_await detail::run_with_deadline(body, sink, result, options_.limits.run_deadline, texts().run_deadline,
        deadline_event);
    report.finish(result, result.rounds);
    co_return result;
}

template<llm::provider Provider, tool_catalog Tools>
template<class T, class Sink>
asio::awaitable<typed_result<T>> orchestrator<Provider, Tools>::run(std::vector<llm::message>& conversation, Sink sink,
    run_options how) const
{
    static_assert(agentio::detail::described_struct<T>,
        "agentio: run<T> answers with a struct described by BOOST_DESCRIBE_STRUCT (its members documented in "
        "agentio::field_traits<T>, as a tool's arguments are)");
    static_assert(std::is_default_constructible_v<T>, "agentio: run<T> needs T to be default-constructible");
    auto const& shape = detail::answer_schema<T>::get();
    how.output = llm::output_format{.name = "answer", .schema = &shape.schema};
    typed_result<T> out;
    // The conversation is the thread the idempotency keys name, unless the caller names another.
    detail::run_report report(options_.telemetry, "tools", options_.model, detail::provider_name(provider_),
        how.traceparent, how.conversation_id.empty() ? how.idempotency_scope : how.conversation_id);
    // Each attempt ends with a `done`; the sink sees one, for the whole run.
    auto attempt_sink = [&sink](event const& e) -> asio::awaitable<bool> {
        if(std::holds_alternative<done>(e))
            co_return true;
        bool const go_on = co_await detail::emit(sink, e);
        co_return go_on;
    };
    // The attempts run under one deadline, and a sink that stops the run
    // (or a cancellation) ends it as `cancelled`, as for `run`.
    auto attempts_body = [&]() -> asio::awaitable<void> {
        unsigned const attempts = options_.limits.answer_retries + 1;
        for(unsigned attempt = 1;; ++attempt)
        {
            run_result attempt_result;
            co_await loop(conversation, attempt_sink, attempt_result, how, report);
            out.usage += attempt_result.usage;
            out.rounds = attempt_result.rounds; // the attempts number their rounds on
            out.tools.insert(out.tools.end(), attempt_result.tools.begin(), attempt_result.tools.end());
            if(!out.time_to_first_text)
                out.time_to_first_text = attempt_result.time_to_first_text;
            if(attempt_result.summary)
                out.summary = how.summary = attempt_result.summary;
            out.answer = std::move(attempt_result.answer);
            if(attempt_result.status != run_result::outcome::completed)
            {
                out.status = attempt_result.status;
                out.error_message = std::move(attempt_result.error_message);
                co_return;
            }
            json::value parsed;
            validation_report problems;
            if(!detail::first_json_object(out.answer, parsed))
                problems.errors.push_back({std::string(), std::string(texts().answer_not_json)});
            else
            {
                validation_options check;
                check.texts = texts();
                problems = shape.validator.validate(parsed, check);
            }
            T value{};
            if(problems.ok() && read_json(parsed, value))
            {
                out.value = std::move(value);
                event const end = done{{out.usage}, out.rounds};
                co_await detail::emit_or_stop(sink, end);
                co_return;
            }
            if(problems.ok()) // valid, yet not convertible: the schema and the type disagree
                problems.errors.push_back({std::string(), std::string(texts().answer_not_json)});
            std::string const errors = format_validation_errors(problems, texts());
            if(attempt == attempts)
            {
                std::string const count = std::to_string(attempts);
                out.status = run_result::outcome::failed;
                out.error_message = format_message(texts().answer_failed, {{"attempts", count}, {"errors", errors}});
                event const ev = error{out.error_message, error_cause::invalid_answer};
                co_await detail::emit_or_stop(sink, ev);
                co_return;
            }
            // The rejected answer stays before the correction: the model sees
            // what it got wrong, and a checkpointing sink stores both, with the
            // round that wrote the answer.
            conversation.push_back(llm::message::user(format_message(texts().answer_invalid, {{"errors", errors}})));
            event const correction = round_complete{out.rounds, std::span(conversation).last(1), out.usage};
            co_await detail::emit_or_stop(sink, correction);
            // The next attempt answers a new message: nothing of a suspended
            // round to resume; its rounds follow the last (the round limit
            // counts them all).
            how.completed_rounds = out.rounds;
            how.decisions = {};
            how.earlier_calls = {};
        }
    };
    auto const deadline_event = [](std::string const& message) { return event{error{message, error_cause::deadline}}; };
    co_await detail::run_with_deadline(attempts_body, sink, out, options_.limits.run_deadline, texts().run_deadline,
        deadline_event);
    report.finish(out, out.rounds);
    if(out.status != run_result::outcome::completed)
        out.value.reset();
    co_return out;
}

} // namespace agentio::agent

#endif
