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

#include <boost/asio/as_tuple.hpp>
#include <boost/system/system_error.hpp>

namespace agentio::agent {

namespace detail {

// Events are passed as named lvalues: GCC 12 destroys some temporaries
// created inside a co_await expression twice (see docs/engineering-notes.md).
template<class Sink>
asio::awaitable<bool> emit(Sink& sink, event const& e)
{
    static_assert(event_sink<Sink>,
        "agentio: a run's sink is called as sink(agentio::agent::event const&) and returns void, "
        "asio::awaitable<void>, or asio::awaitable<bool> (false stops the run)");
    using returned = std::invoke_result_t<Sink&, event const&>;
    if constexpr(std::is_same_v<returned, asio::awaitable<bool>>)
        co_return co_await sink(e);
    else if constexpr(std::is_same_v<returned, asio::awaitable<void>>)
    {
        co_await sink(e);
        co_return true;
    }
    else
    {
        sink(e);
        co_return true;
    }
}

// The sink said the client is gone: unwind like a cancellation.
[[noreturn]] inline void stop_run()
{
    throw boost::system::system_error(asio::error::operation_aborted);
}

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
std::string orchestrator<Provider, Tools>::describe(llm::error const& e) const
{
    if(options_.describe_error)
        return options_.describe_error(e);
    switch(e.what)
    {
    case llm::error::kind::connection:
    case llm::error::kind::timeout: return format_message(texts().provider_unreachable, {{"message", e.message}});
    case llm::error::kind::http_status:
        return format_message(texts().provider_http_error,
            {{"status", std::to_string(e.status)}, {"message", e.message}});
    case llm::error::kind::stream_error:
        if(e.type == "overloaded_error")
            return std::string(texts().provider_overloaded);
        return format_message(texts().provider_stream_error, {{"message", e.message}});
    case llm::error::kind::protocol: return format_message(texts().provider_answer_cut, {{"message", e.message}});
    case llm::error::kind::cancelled: return std::string(texts().cancelled);
    case llm::error::kind::configuration: return e.message;
    case llm::error::kind::overloaded: return std::string(texts().server_overloaded);
    }
    return e.message;
}

template<llm::provider Provider, tool_catalog Tools>
asio::awaitable<typename orchestrator<Provider, Tools>::call_outcome>
orchestrator<Provider, Tools>::call_tool(llm::tool_use_block const& call) const
{
    using namespace asio::experimental::awaitable_operators;
    auto const started = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started);
    };
    if(call.input.is_null())
        co_return call_outcome{
            tool_result::error(format_message(texts().arguments_not_json, {{"input", call.raw_input}})), elapsed()};
    auto const timeout = options_.limits.tool_timeout;
    tool_context ctx{.tool_name = call.name, .call_id = call.id, .deadline = started + timeout, .progress = {}};
    asio::steady_timer timer(co_await asio::this_coro::executor, timeout);
    auto outcome = co_await (tools_.call(call.name, call.input, ctx) || timer.async_wait(asio::use_awaitable));
    if(outcome.index() == 0)
        co_return call_outcome{std::get<0>(std::move(outcome)), elapsed()};
    auto const seconds = std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count() / 1000.0;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", seconds);
    co_return call_outcome{
        tool_result::error(format_message(texts().tool_timed_out, {{"tool", call.name}, {"seconds", buf}})), elapsed()};
}

template<llm::provider Provider, tool_catalog Tools>
asio::awaitable<std::vector<typename orchestrator<Provider, Tools>::call_outcome>>
orchestrator<Provider, Tools>::run_tools(std::vector<llm::tool_use_block const*> const& calls,
    std::span<approval_decision const> decisions) const
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
        auto ran = co_await run_tools(to_run, {});
        for(std::size_t k = 0; k < ran.size(); ++k)
            outcomes[where[k]] = std::move(ran[k]);
        co_return outcomes;
    }
    if(calls.empty())
        co_return outcomes;
    if(calls.size() == 1)
    {
        outcomes[0] = co_await call_tool(*calls[0]);
        co_return outcomes;
    }
    // A few workers take the calls in order; each result lands at its call's
    // index, so the model gets them in call order whatever finishes first.
    std::size_t next = 0;
    auto worker = [&]() -> asio::awaitable<void> {
        while(next < calls.size())
        {
            std::size_t const i = next++;
            outcomes[i] = co_await call_tool(*calls[i]);
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
asio::awaitable<void> orchestrator<Provider, Tools>::finish_round(std::vector<llm::message>& conversation, Sink& sink,
    run_result& result, unsigned iteration, std::span<approval_decision const> decisions) const
{
    std::vector<llm::tool_use_block const*> calls;
    for(auto const& b : conversation.back().content)
        if(auto const* c = std::get_if<llm::tool_use_block>(&b))
            calls.push_back(c);
    std::string const round_text = conversation.back().text();
    auto const outcomes = co_await run_tools(calls, decisions);
    llm::message results{llm::role::user, {}};
    for(std::size_t i = 0; i < calls.size(); ++i)
    {
        auto const& o = outcomes[i];
        result.tools.push_back({calls[i]->name, o.duration, o.result.is_error});
        event const ev = tool_call{calls[i]->name, summarize_input(calls[i]->input), calls[i]->input, round_text,
            summarize_result(o.result),
            static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(o.duration).count()),
            iteration, o.result.is_error};
        results.content.emplace_back(detail::to_result_block(calls[i]->id, o.result));
        if(!co_await detail::emit(sink, ev))
            detail::stop_run();
    }
    conversation.push_back(std::move(results)); // invalidates `calls`
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<void> orchestrator<Provider, Tools>::loop(std::vector<llm::message>& conversation, Sink& sink,
    run_result& result, unsigned completed_rounds, std::span<approval_decision const> decisions) const
{
    auto const started = std::chrono::steady_clock::now();
    std::vector<llm::stream_event> events;
    // Records the failure; the caller sends the event.
    auto failure = [&](std::string message, error_cause cause) {
        result.status = run_result::outcome::failed;
        result.error_message = message;
        return event{error{std::move(message), cause}};
    };

    // Announces that the round's last `count` messages are in the conversation.
    auto complete = [&](unsigned iteration, std::size_t count) -> asio::awaitable<void> {
        event const ev = round_complete{iteration, std::span(conversation).last(count), result.usage};
        if(!co_await detail::emit(sink, ev))
            detail::stop_run();
    };

    result.rounds = completed_rounds;
    // Resumed after approvals: the stored round ends with the model's calls.
    if(!conversation.empty() && conversation.back().role == llm::role::assistant &&
        std::any_of(conversation.back().content.begin(), conversation.back().content.end(),
            [](llm::content_block const& b) { return std::holds_alternative<llm::tool_use_block>(b); }))
    {
        ++completed_rounds;
        result.rounds = completed_rounds;
        co_await finish_round(conversation, sink, result, completed_rounds, decisions);
        co_await complete(completed_rounds, 1);
    }
    for(unsigned iteration = completed_rounds + 1; iteration <= options_.limits.max_rounds; ++iteration)
    {
        bool const must_answer = options_.limits.last_round_answers && iteration == options_.limits.max_rounds;
        llm::request const request{.model = options_.model,
            .system = options_.system,
            .messages = conversation,
            .tools = descriptors_,
            .choice = must_answer
                ? std::optional<llm::tool_choice>(llm::tool_choice{.mode = llm::tool_choice::mode::none})
                : std::nullopt,
            .max_tokens = options_.max_tokens,
            .temperature = options_.temperature,
            .thinking_budget = {},
            .stop = options_.stop};
        std::optional<llm::response> response;
        std::string round_text;
        for(unsigned attempt = 0;; ++attempt)
        {
            auto opened = co_await provider_.open(request);
            if(!opened)
            {
                event const ev = failure(describe(opened.error()), error_cause::provider);
                if(!co_await detail::emit(sink, ev))
                    detail::stop_run();
                co_return;
            }
            auto stream = std::move(*opened);
            bool delivered = false;
            std::optional<llm::error> stream_failure;
            round_text.clear();
            while(!stream.done() && !stream_failure)
            {
                events.clear();
                stream_failure = co_await stream.read(events);
                for(auto& ev : events)
                    if(auto* t = std::get_if<llm::text_delta>(&ev))
                    {
                        if(!result.time_to_first_text)
                            result.time_to_first_text = std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::steady_clock::now() - started);
                        round_text += t->text;
                        delivered = true;
                        event const delta = text_delta{std::move(t->text)};
                        if(!co_await detail::emit(sink, delta))
                            detail::stop_run();
                    }
            }
            if(!stream_failure)
            {
                llm::error f;
                response = stream.finish(f);
                if(!response)
                    stream_failure = std::move(f);
            }
            if(!stream_failure)
                break;
            if(stream_failure->what == llm::error::kind::cancelled)
                detail::stop_run();
            // Retrying is invisible to the user only while they have seen nothing.
            if(stream_failure->retryable && !delivered && attempt < options_.limits.mid_stream_retries)
            {
                auto const server_delay = stream_failure->retry_after;
                co_await provider_.backoff(attempt, server_delay);
                continue;
            }
            event const ev = failure(describe(*stream_failure), error_cause::provider);
            if(!co_await detail::emit(sink, ev))
                detail::stop_run();
            co_return;
        }

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
                if(!co_await detail::emit(sink, end))
                    detail::stop_run();
                // Calls that need a person: the run stops here, its turn kept.
                approval_required wait{iteration, {}, std::span(conversation).last(1), result.usage};
                for(auto const* c : calls)
                    if(requires_approval(c->name))
                        wait.calls.push_back({c->id, c->name, c->input});
                if(!wait.calls.empty())
                {
                    result.status = run_result::outcome::suspended;
                    event const ev = std::move(wait);
                    if(!co_await detail::emit(sink, ev))
                        detail::stop_run();
                    co_return;
                }
                co_await finish_round(conversation, sink, result, iteration, {});
                co_await complete(iteration, 2);
            }
            continue;
        case llm::stop_reason::pause_turn: // the assistant content went back in; the model resumes
            co_await complete(iteration, 1);
            continue;
        case llm::stop_reason::max_tokens:
        {
            event const ev = failure(std::string(texts().token_limit), error_cause::token_limit);
            if(!co_await detail::emit(sink, ev))
                detail::stop_run();
            co_return;
        }
        case llm::stop_reason::refusal:
        {
            event const ev = failure(std::string(texts().refused), error_cause::refused);
            if(!co_await detail::emit(sink, ev))
                detail::stop_run();
            co_return;
        }
        case llm::stop_reason::context_window:
        {
            event const ev = failure(std::string(texts().context_too_long), error_cause::context_window);
            if(!co_await detail::emit(sink, ev))
                detail::stop_run();
            co_return;
        }
        default: break;
        }
        co_await complete(iteration, 1);
        event const finished = done{result.usage, result.rounds};
        if(!co_await detail::emit(sink, finished))
            detail::stop_run();
        co_return;
    }
    event const ev = failure(std::string(texts().round_limit), error_cause::round_limit);
    if(!co_await detail::emit(sink, ev))
        detail::stop_run();
}

template<llm::provider Provider, tool_catalog Tools>
template<class Sink>
asio::awaitable<run_result> orchestrator<Provider, Tools>::run(std::vector<llm::message>& conversation, Sink sink,
    unsigned completed_rounds, std::span<approval_decision const> decisions) const
{
    using namespace asio::experimental::awaitable_operators;
    run_result result;
    // Neither branch of the race throws: `||` waits for the first branch to
    // succeed, so a throwing branch would leave the other running (a bug in
    // a tool would wait for the deadline; a cancellation would surface as
    // multiple_exceptions).
    auto guarded_loop = [&]() -> asio::awaitable<std::exception_ptr> {
        try
        {
            co_await loop(conversation, sink, result, completed_rounds, decisions);
        }
        catch(...)
        {
            co_return std::current_exception();
        }
        co_return nullptr;
    };
    asio::steady_timer deadline(co_await asio::this_coro::executor, options_.limits.run_deadline);
    auto cancelled = [](std::exception_ptr const& e) {
        try
        {
            std::rethrow_exception(e);
        }
        catch(boost::system::system_error const& se)
        {
            return se.code() == asio::error::operation_aborted;
        }
        catch(...)
        {
            return false;
        }
    };
    try
    {
        auto winner = co_await (guarded_loop() || deadline.async_wait(asio::as_tuple(asio::use_awaitable)));
        if(winner.index() == 0)
        {
            if(auto const failure = std::get<0>(winner))
            {
                if(!cancelled(failure))
                    std::rethrow_exception(failure); // a bug: the caller's co_spawn handler logs it
                result.status = run_result::outcome::cancelled;
            }
        }
        else if(std::get<0>(std::get<1>(winner)))
            result.status = run_result::outcome::cancelled; // the timer was cancelled: so was the run
        else
        {
            result.status = run_result::outcome::failed;
            result.error_message = texts().run_deadline;
            event const ev = error{result.error_message, error_cause::deadline};
            co_await detail::emit(sink, ev);
        }
    }
    catch(boost::system::system_error const& e)
    {
        if(e.code() != asio::error::operation_aborted)
            throw;
        result.status = run_result::outcome::cancelled;
    }
    co_return result;
}

} // namespace agentio::agent

#endif
