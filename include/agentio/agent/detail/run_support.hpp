//
// agentio/agent/detail/run_support.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What the three strategies (orchestrator, react, plan_execute) share, over
// their own event variants and results (agent/vocabulary.hpp): reporting to a sink of any of its three
// kinds, the run raced against its deadline, one streamed model call with its
// mid-stream retries, a tool call with its timeout, and the sentences of a
// provider's failure.
//
// The few non-template functions are inline here rather than in an .ipp: the
// orchestrator is header-only and has none, and it must not need the compiled
// part of react or plan_execute.
//

#ifndef AGENTIO_AGENT_DETAIL_RUN_SUPPORT_HPP
#define AGENTIO_AGENT_DETAIL_RUN_SUPPORT_HPP

#include <agentio/detail/cancellation.hpp>
#include <agentio/agent/telemetry.hpp>
#include <agentio/agent/vocabulary.hpp>
#include <agentio/llm/provider.hpp>
#include <agentio/messages.hpp>
#include <agentio/tool/toolset.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>
#include <boost/system/result.hpp>
#include <boost/system/system_error.hpp>

#include <chrono>
#include <concepts>
#include <cstdio>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace agentio::agent {

namespace asio = boost::asio;
namespace json = boost::json;

namespace detail {

// What each strategy's `event_sink` is, over its own event type: called as
// `sink(event)`, returning void, asio::awaitable<void> or asio::awaitable<bool>.
// clang-format off
template<class Sink, class Event>
concept sink_for = std::invocable<Sink&, Event const&>
    && (std::is_void_v<std::invoke_result_t<Sink&, Event const&>>
        || std::is_same_v<std::invoke_result_t<Sink&, Event const&>, asio::awaitable<void>>
        || std::is_same_v<std::invoke_result_t<Sink&, Event const&>, asio::awaitable<bool>>);
// clang-format on

// Sends an event; false when the sink says the run should stop. Events are
// passed as named lvalues: GCC 12 destroys some temporaries created inside a
// co_await expression twice (see docs/notes/engineering-notes.md).
template<class Sink, class Event>
asio::awaitable<bool> emit(Sink& sink, Event const& e)
{
    static_assert(sink_for<Sink, Event>,
        "agentio: a run's sink is called as sink(e), with e the strategy's event (agent::event, "
        "agent::react::event or agent::plan_execute::event) by const reference, and returns void, "
        "asio::awaitable<void>, or asio::awaitable<bool> (false stops the run)");
    using returned = std::invoke_result_t<Sink&, Event const&>;
    if constexpr(std::is_same_v<returned, asio::awaitable<bool>>)
    {
        bool const go_on = co_await sink(e);
        co_return go_on;
    }
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

// Sends an event, and stops the run when the sink says so.
template<class Sink, class Event>
asio::awaitable<void> emit_or_stop(Sink& sink, Event const& e)
{
    bool const go_on = co_await emit(sink, e);
    if(!go_on)
        stop_run();
}

// The run failed: `result` records why, and the `error` event (an
// alternative of every strategy's `Event`) tells the sink.
template<class Event, class Sink>
asio::awaitable<void> fail_run(Sink& sink, run_summary& result, std::string const& message, error_cause cause)
{
    result.status = outcome::failed;
    result.error_message = message;
    Event const ev = error{message, cause};
    co_await emit_or_stop(sink, ev);
}

// A run: `loop()` (an asio::awaitable<void>) raced against `limit`, its end
// written in `result` (its `status` and `error_message`).
// Cancellation, from the awaiting coroutine or a sink that stopped the run,
// ends it as cancelled with nothing more sent; the deadline ends it as failed
// with `deadline_message`, and the sink gets `deadline_event(message)` (the
// strategy's event). Any other exception is a bug and goes to the caller.
template<class Loop, class Sink, class DeadlineEvent>
asio::awaitable<void> run_with_deadline(Loop& loop, Sink& sink, run_summary& result,
    std::chrono::steady_clock::duration limit, std::string_view deadline_message, DeadlineEvent const& deadline_event)
{
    using namespace asio::experimental::awaitable_operators;
    // Neither branch of the race throws: `||` waits for the first branch to
    // succeed, so a throwing branch would leave the other running (a bug in
    // a tool would wait for the deadline; a cancellation would surface as
    // multiple_exceptions).
    auto guarded_loop = [&]() -> asio::awaitable<std::exception_ptr> {
        try
        {
            co_await loop();
        }
        catch(...)
        {
            co_return std::current_exception();
        }
        co_return nullptr;
    };
    asio::steady_timer deadline(co_await asio::this_coro::executor, limit);
    try
    {
        auto winner = co_await (guarded_loop() || deadline.async_wait(asio::as_tuple(asio::use_awaitable)));
        if(winner.index() == 0)
        {
            if(auto const failure = std::get<0>(winner))
            {
                if(!agentio::detail::is_cancellation(failure))
                    std::rethrow_exception(failure); // a bug: the caller's co_spawn handler logs it
                result.status = outcome::cancelled;
            }
        }
        else if(std::get<0>(std::get<1>(winner)))
            result.status = outcome::cancelled; // the timer was cancelled: so was the run
        else
        {
            result.status = outcome::failed;
            result.error_message = deadline_message;
            auto const ev = deadline_event(result.error_message);
            // The run ends here whatever the sink answers.
            [[maybe_unused]] bool const heard = co_await emit(sink, ev);
        }
    }
    catch(boost::system::system_error const& e)
    {
        if(e.code() != asio::error::operation_aborted)
            throw;
        result.status = outcome::cancelled;
    }
}

// The provider's name (`gen_ai.provider.name`) when it says one.
template<class Provider>
std::string_view provider_name(Provider const& provider) noexcept
{
    if constexpr(requires { std::string_view(provider.name()); })
        return provider.name();
    else
        return {};
}

// The run's reports (public as agent::run_reporter, for a pipeline of one's own).
using run_report = agent::run_reporter;

// What a call of `stream_call` without `on_retry` resets: nothing.
struct nothing_to_reset
{
    void operator()() const noexcept {}
};

// One streamed model call: the response, or the failure to report. Each
// read's events go to `on_events(events)`, an asio::awaitable<bool> saying
// whether it delivered anything to the sink. A stream that fails retryably
// before anything was delivered is opened again, after the provider's
// backoff, up to `retries` times; `on_retry()` first clears what the caller
// kept of the failed attempt. A stream cancelled under it stops the run.
template<llm::provider Provider, class OnEvents, class OnRetry = nothing_to_reset>
asio::awaitable<boost::system::result<llm::response, llm::error>> stream_call(Provider& provider,
    llm::request const& request, unsigned retries, OnEvents& on_events, OnRetry on_retry = {},
    run_report const* report = nullptr)
{
    // Reported (when anyone listens) under a `chat` span whose context goes out as the call's traceparent.
    bool const reporting = report && report->active();
    auto const started = reporting ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    std::optional<std::chrono::steady_clock::duration> first_token;
    trace::span chat = reporting ? report->start_chat(request) : trace::span();
    std::string const traceparent = chat.traceparent();
    llm::request traced = request;
    if(!traceparent.empty())
        traced.traceparent = traceparent;
    model_call_record record;
    if(reporting)
    {
        record.provider = provider_name(provider);
        record.model = request.model;
    }
    auto const report_end = [&](std::string_view outcome, llm::response const* answer, unsigned attempts) {
        if(!reporting)
            return;
        record.outcome = outcome;
        record.duration = std::chrono::steady_clock::now() - started;
        record.time_to_first_token = first_token;
        record.retries = attempts;
        if(answer)
        {
            record.usage = answer->tokens;
            record.finish_reason = answer->stop_reason_text;
        }
        report->model_call(chat, record, answer);
    };

    std::vector<llm::stream_event> stream_events;
    for(unsigned attempt = 0;; ++attempt)
    {
        auto opened = co_await provider.open(traced);
        if(!opened)
        {
            report_end(llm::to_string(opened.error().what), nullptr, attempt);
            co_return opened.error();
        }
        auto stream = std::move(*opened);
        bool delivered = false;
        std::optional<llm::error> failure;
        while(!stream.done() && !failure)
        {
            stream_events.clear();
            failure = co_await stream.read(stream_events);
            if(reporting && !first_token && stream.produced_output())
                first_token = std::chrono::steady_clock::now() - started;
            bool const sent = co_await on_events(stream_events);
            delivered = delivered || sent;
        }
        if(!failure)
        {
            llm::error f;
            auto response = stream.finish(f);
            if(response)
            {
                report_end("ok", &*response, attempt);
                co_return std::move(*response);
            }
            failure = std::move(f);
        }
        if(failure->what == llm::error::kind::cancelled)
        {
            report_end("cancelled", nullptr, attempt);
            stop_run();
        }
        // Retrying is invisible to the user only while they have seen nothing.
        if(failure->retryable && !delivered && attempt < retries)
        {
            auto const server_delay = failure->retry_after;
            co_await provider.backoff(attempt, server_delay);
            on_retry();
            continue;
        }
        report_end(llm::to_string(failure->what), nullptr, attempt);
        co_return std::move(*failure);
    }
}

// The error result of a tool call that took longer than `timeout`.
inline std::string tool_timed_out(messages const& texts, std::string_view tool,
    std::chrono::steady_clock::duration timeout)
{
    auto const seconds = std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count() / 1000.0;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", seconds);
    return format_message(texts.tool_timed_out, {{"tool", tool}, {"seconds", buf}});
}

// A tool call raced against `timeout`: its result, or the error result that
// says it timed out (the call is then cancelled). Reported, when anyone
// listens, under an `execute_tool` span whose context the tool gets (`ctx.traceparent`).
template<tool_catalog Tools>
asio::awaitable<tool_result> call_with_timeout(Tools const& tools, std::string_view tool, json::value const& input,
    tool_context& ctx, std::chrono::steady_clock::duration timeout, messages const& texts,
    run_report const* report = nullptr)
{
    using namespace asio::experimental::awaitable_operators;
    bool const reporting = report && report->active();
    auto const started = reporting ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    trace::span span = reporting ? report->start_tool(tool, ctx.call_id, input) : trace::span();
    std::string const traceparent = span.traceparent();
    if(!traceparent.empty())
        ctx.traceparent = traceparent;
    asio::steady_timer timer(co_await asio::this_coro::executor, timeout);
    auto outcome = co_await (tools.call(tool, input, ctx) || timer.async_wait(asio::use_awaitable));
    bool const timed_out = outcome.index() != 0;
    tool_result r = timed_out ? tool_result::error(tool_timed_out(texts, tool, timeout))
                              : std::get<0>(std::move(outcome));
    if(reporting)
    {
        std::string const error_text = r.is_error ? r.joined_text() : std::string();
        tool_call_record const rec{tool, ctx.call_id, timed_out ? "timeout" : (r.is_error ? "error" : "ok"),
            std::chrono::steady_clock::now() - started, error_text};
        report->tool_call(span, rec, r);
    }
    co_return r;
}

// What the user reads of a provider's failure: `custom`'s text when set (an
// application's own, pointing at its settings), else the generic `texts`.
inline std::string describe_provider_error(llm::error const& e, messages const& texts,
    std::function<std::string(llm::error const&)> const& custom = {})
{
    if(custom)
        return custom(e);
    switch(e.what)
    {
    case llm::error::kind::connection:
    case llm::error::kind::timeout: return format_message(texts.provider_unreachable, {{"message", e.message}});
    case llm::error::kind::http_status:
    {
        std::string const status = std::to_string(e.status);
        return format_message(texts.provider_http_error, {{"status", status}, {"message", e.message}});
    }
    case llm::error::kind::stream_error:
        if(e.type == "overloaded_error")
            return std::string(texts.provider_overloaded);
        return format_message(texts.provider_stream_error, {{"message", e.message}});
    case llm::error::kind::protocol: return format_message(texts.provider_answer_cut, {{"message", e.message}});
    case llm::error::kind::cancelled: return std::string(texts.cancelled);
    case llm::error::kind::configuration: return e.message;
    case llm::error::kind::overloaded: return std::string(texts.server_overloaded);
    }
    return e.message;
}

} // namespace detail

} // namespace agentio::agent

#endif
