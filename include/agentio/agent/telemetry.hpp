//
// agentio/agent/telemetry.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What a run says about itself to the operator: each model call, tool call
// and run as a record for an @ref observer (metrics and log lines: the
// application kit's `app::telemetry` has one), and as spans with the
// OpenTelemetry GenAI conventions for a tracer: `invoke_agent {agent}`,
// `chat {model}` and `execute_tool {tool}`, the calls children of the run.
// The strategies (orchestrator, react, plan_execute) take it in their
// options; left empty, it costs a null test per call.
//

#ifndef AGENTIO_AGENT_TELEMETRY_HPP
#define AGENTIO_AGENT_TELEMETRY_HPP

#include <agentio/agent/vocabulary.hpp>
#include <agentio/llm/conversation.hpp>
#include <agentio/llm/provider.hpp>
#include <agentio/tool/tool.hpp>
#include <agentio/trace.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/serialize.hpp>
#include <boost/system/result.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::agent {

namespace asio = boost::asio;
namespace json = boost::json;

/// One model call (a streamed request, with the retries of a stream that failed before it reached anyone).
struct model_call_record
{
    /// The wire's provider (`anthropic`, `openai`); empty when the provider does not say.
    std::string_view provider = {};
    /// The model asked for.
    std::string_view model = {};
    /// `ok`, or why it failed: the `llm::error` kind (`connection`, `timeout`, `http_status`, ...).
    std::string_view outcome = {};
    /// Until the answer ended (or the call failed).
    std::chrono::steady_clock::duration duration = {};
    /// Until the first text, reasoning or tool call arrived; none when nothing did.
    std::optional<std::chrono::steady_clock::duration> time_to_first_token = {};
    /// The call's tokens (zero when it failed).
    llm::usage usage = {};
    /// Streams opened again after failing before anything was delivered.
    unsigned retries = 0;
    /// Why the model stopped (`end_turn`, `tool_use`, ...); empty when it failed.
    std::string_view finish_reason = {};
};

/// One tool call.
struct tool_call_record
{
    std::string_view tool = {};
    std::string_view call_id = {};
    /// `ok`, `error` (the tool's error result) or `timeout`.
    std::string_view outcome = {};
    std::chrono::steady_clock::duration duration = {};
    /// The error result's text, for a log line at DEBUG; empty when `ok`.
    std::string_view error_text = {};
};

/// One run, when it ends.
struct run_record
{
    /// `tools`, `react` or `plan_execute`.
    std::string_view strategy = {};
    std::string_view model = {};
    agent::outcome status = outcome::completed;
    /// Model calls the run made.
    unsigned rounds = 0;
    llm::usage usage = {};
    std::chrono::steady_clock::duration duration = {};
    std::string_view error_message = {};
};

/** Receives what runs did, for metrics and logs. Called on the run's
    executor, possibly from several runs at once on several threads: an
    implementation is thread-safe and never blocks. */
class observer
{
public:
    virtual ~observer() = default;
    /// A run starts (the runs in progress are the starts without a `run_finished`).
    virtual void run_started(std::string_view /*strategy*/) {}
    /// A model call ended.
    virtual void model_call(model_call_record const&) {}
    /// A tool call ended.
    virtual void tool_call(tool_call_record const&) {}
    /// A run ended.
    virtual void run_finished(run_record const&) {}
};

/** Where a strategy reports, and what its runs report under: an observer,
    a tracer, or both; both null: nothing. The strategies' options hold one;
    an application that makes an agent per request (as the Chat Completions
    models do) sets the request's parent and conversation in it. */
struct telemetry
{
    agent::observer* observer = nullptr;
    trace::tracer* tracer = nullptr;
    /// `gen_ai.agent.name`, and the `invoke_agent` span's name.
    std::string agent_name = {};
    /** The parent of each run's `invoke_agent` span, as a `traceparent`
        header (the HTTP request's, or its server span's); empty or
        malformed: each run starts a trace. */
    std::string traceparent = {};
    /// `gen_ai.conversation.id`: a thread's or a session's id; empty: none.
    std::string conversation_id = {};
    /** Whether runs are reported to the observer (`run_started`,
        `run_finished`); their calls always are. Off for runs inside another
        run (a plan's steps), which the outer run counts. */
    bool report_runs = true;
    /** The `strategy` of the runs reported (`chat` for the tool loop
        offered no tools); empty: the strategy's own (`tools`, `react`,
        `plan_execute`, or a pipeline's name). */
    std::string strategy = {};

    /** Whether anything listens. A tracer that is off still passes the
        `traceparent` it was given on to the calls (a trace crosses a process
        that does not record it). */
    bool active() const noexcept { return observer || tracer; }
};

/** One run's reports: its `invoke_agent` span, opened when it starts and
    closed by `finish`, under which its model and tool calls report (their
    spans, and the observer's records). The strategies make one per run; an
    application with a pipeline of its own (calls to `llm::complete`, tools
    called by hand) makes one to report the same way. With no telemetry it
    holds nothing and each report is a test of a null pointer.

    @code
    agent::run_reporter report(options.telemetry, "pipeline", model, provider.name(), request_traceparent, session);
    auto answer = co_await report.complete(provider, request);      // a `chat` span and a model_call record
    auto span = report.start_tool("run_sql", "", args);              // an `execute_tool` span
    ... report.tool_call(span, {"run_sql", "", "ok", elapsed});
    report.finish(summary, 1);                                       // the run's span and record
    @endcode
*/
class run_reporter
{
public:
    /** Starts the run's report (its span, the observer's `run_started`).
        @param strategy its strategy's name, a metric label
        @param traceparent, conversation_id this run's, over the telemetry's when not empty */
    run_reporter(telemetry const& t, std::string_view strategy, std::string_view model, std::string_view provider,
        std::string_view traceparent = {}, std::string_view conversation_id = {})
        : telemetry_(t.active() ? &t : nullptr)
        , strategy_(t.strategy.empty() ? strategy : std::string_view(t.strategy))
        , model_(model)
        , provider_(provider)
        , conversation_id_(conversation_id.empty() ? std::string_view(t.conversation_id) : conversation_id)
    {
        if(!telemetry_)
            return;
        started_ = std::chrono::steady_clock::now();
        if(t.observer && t.report_runs)
            t.observer->run_started(strategy_);
        if(t.tracer)
        {
            std::string_view const parent = traceparent.empty() ? std::string_view(t.traceparent) : traceparent;
            std::string name = "invoke_agent";
            if(!t.agent_name.empty())
                name += " " + t.agent_name;
            span_ = t.tracer->start(name, trace::span_kind::internal, parent);
            if(span_.recording())
            {
                span_.set(trace::gen_ai::operation_name, "invoke_agent");
                if(!provider_.empty())
                    span_.set(trace::gen_ai::provider_name, provider_);
                if(!t.agent_name.empty())
                    span_.set(trace::gen_ai::agent_name, t.agent_name);
                if(!model_.empty())
                    span_.set(trace::gen_ai::request_model, model_);
                if(!conversation_id_.empty())
                    span_.set(trace::gen_ai::conversation_id, conversation_id_);
                span_.set("agentio.strategy", strategy_);
            }
        }
    }

    run_reporter(run_reporter const&) = delete;
    run_reporter& operator=(run_reporter const&) = delete;

    /// Whether anything listens.
    bool active() const noexcept { return telemetry_ != nullptr; }
    /// Whether contents go on the spans (`trace::settings::capture_message_content`).
    bool capture_content() const noexcept
    {
        return span_.recording() && telemetry_->tracer->config().capture_message_content;
    }

    /// A child span of the run's (when traced): for a step of one's own.
    trace::span child(std::string_view name, trace::span_kind kind) const
    {
        if(!telemetry_ || !telemetry_->tracer || !span_.context().valid())
            return {};
        return telemetry_->tracer->start(name, kind, span_.context());
    }

    /// The `chat {model}` span of a model call; send its `traceparent()` with the request.
    trace::span start_chat(llm::request const& r) const
    {
        if(!telemetry_ || !telemetry_->tracer)
            return {};
        auto s = child(std::string("chat ") + std::string(r.model), trace::span_kind::client);
        if(s.recording())
        {
            s.set(trace::gen_ai::operation_name, "chat");
            if(!provider_.empty())
                s.set(trace::gen_ai::provider_name, provider_);
            s.set(trace::gen_ai::request_model, r.model);
            s.set(trace::gen_ai::request_max_tokens, r.max_tokens);
            if(r.temperature)
                s.set(trace::gen_ai::request_temperature, trace::attribute_value(*r.temperature));
            if(!conversation_id_.empty())
                s.set(trace::gen_ai::conversation_id, conversation_id_);
            if(capture_content())
            {
                if(!r.system.empty())
                    s.set(trace::gen_ai::system_instructions, r.system);
                s.set(trace::gen_ai::input_messages, content_json(r.messages));
            }
        }
        return s;
    }

    /// A model call ended (`answer` null when it failed): its span closed and the observer told.
    void model_call(trace::span& s, model_call_record const& rec, llm::response const* answer) const
    {
        if(!telemetry_)
            return;
        if(s.recording())
        {
            if(answer)
            {
                if(!answer->model.empty())
                    s.set(trace::gen_ai::response_model, answer->model);
                if(!answer->id.empty())
                    s.set(trace::gen_ai::response_id, answer->id);
                if(!answer->stop_reason_text.empty())
                    s.set(trace::gen_ai::response_finish_reasons,
                        trace::attribute_value(std::vector<std::string>{answer->stop_reason_text}));
                if(capture_content())
                    s.set(trace::gen_ai::output_messages, content_json(std::span(&answer->assistant, 1)));
            }
            else
                s.fail(rec.outcome);
            set_usage(s, rec.usage);
            if(rec.retries)
                s.set("agentio.retries", rec.retries);
        }
        s.end();
        if(telemetry_->observer)
            telemetry_->observer->model_call(rec);
    }

    /// The `execute_tool {tool}` span of a tool call; give its `traceparent()` to what the tool calls.
    trace::span start_tool(std::string_view tool, std::string_view call_id, json::value const& input) const
    {
        if(!telemetry_ || !telemetry_->tracer)
            return {};
        auto s = child(std::string("execute_tool ") + std::string(tool), trace::span_kind::internal);
        if(s.recording())
        {
            s.set(trace::gen_ai::operation_name, "execute_tool");
            s.set(trace::gen_ai::tool_name, tool);
            s.set(trace::gen_ai::tool_type, "function");
            if(!call_id.empty())
                s.set(trace::gen_ai::tool_call_id, call_id);
            if(capture_content())
                s.set(trace::gen_ai::tool_call_arguments, json::serialize(input));
        }
        return s;
    }

    /// A tool call ended: its span closed and the observer told.
    void tool_call(trace::span& s, tool_call_record const& rec, tool_result const& result) const
    {
        tool_call(s, rec, &result);
    }

    /// As above, without the result (no content captured).
    void tool_call(trace::span& s, tool_call_record const& rec) const { tool_call(s, rec, nullptr); }

    /** One model call with `llm::complete`, reported: its `chat` span (whose
        context goes out as the request's `traceparent`), and the observer's
        record with the time to the first text. */
    template<class Provider>
    asio::awaitable<boost::system::result<llm::response, llm::error>> complete(Provider& provider, llm::request request,
        std::function<void(std::string_view)> on_text = {}) const
    {
        if(!active())
        {
            auto answered = co_await llm::complete(provider, request, std::move(on_text));
            co_return answered;
        }
        auto const started = std::chrono::steady_clock::now();
        auto chat = start_chat(request);
        std::string const traceparent = chat.traceparent();
        if(!traceparent.empty())
            request.traceparent = traceparent;
        std::optional<std::chrono::steady_clock::duration> first_text;
        auto timed = timed_text(std::move(on_text), started, first_text);
        auto answered = co_await llm::complete(provider, request, std::move(timed));
        model_call_record rec;
        if constexpr(requires { std::string_view(provider.name()); })
            rec.provider = provider.name();
        rec.model = request.model;
        rec.outcome = answered ? std::string_view("ok") : llm::to_string(answered.error().what);
        rec.duration = std::chrono::steady_clock::now() - started;
        rec.time_to_first_token = first_text;
        if(answered)
        {
            rec.usage = answered->tokens;
            rec.finish_reason = answered->stop_reason_text;
        }
        model_call(chat, rec, answered ? &*answered : nullptr);
        co_return answered;
    }

private:
    // on_text, noting when the first text came (a lambda made outside the coroutine's frame).
    static std::function<void(std::string_view)> timed_text(std::function<void(std::string_view)> on_text,
        std::chrono::steady_clock::time_point started, std::optional<std::chrono::steady_clock::duration>& first)
    {
        return [on_text = std::move(on_text), started, &first](std::string_view text) {
            if(!first)
                first = std::chrono::steady_clock::now() - started;
            if(on_text)
                on_text(text);
        };
    }

    void tool_call(trace::span& s, tool_call_record const& rec, tool_result const* result) const
    {
        if(!telemetry_)
            return;
        if(s.recording())
        {
            if(rec.outcome != "ok")
                s.fail(rec.outcome == "timeout" ? "timeout" : "tool_error", rec.error_text);
            if(result && capture_content())
                s.set(trace::gen_ai::tool_call_result, result->joined_text());
        }
        s.end();
        if(telemetry_->observer)
            telemetry_->observer->tool_call(rec);
    }

public:
    /// The run ended: its span closed (failed when `r` did) and the observer told.
    void finish(run_summary const& r, unsigned rounds)
    {
        if(!telemetry_)
            return;
        if(span_.recording())
        {
            set_usage(span_, r.usage);
            if(r.status == outcome::failed)
                span_.fail("run_failed", r.error_message);
            else if(r.status != outcome::completed)
                span_.set("agentio.outcome", to_string(r.status));
        }
        span_.end();
        if(telemetry_->observer && telemetry_->report_runs)
        {
            run_record const rec{strategy_, model_, r.status, rounds, r.usage,
                std::chrono::steady_clock::now() - started_, r.error_message};
            telemetry_->observer->run_finished(rec);
        }
    }

    /// The run's span context (for what the run calls); invalid when not traced.
    trace::span_context const& context() const noexcept { return span_.context(); }
    std::string_view provider() const noexcept { return provider_; }

private:
    static void set_usage(trace::span& s, llm::usage const& u)
    {
        s.set(trace::gen_ai::usage_input_tokens, u.input_tokens);
        s.set(trace::gen_ai::usage_output_tokens, u.output_tokens);
        if(u.cache_read_input_tokens)
            s.set(trace::gen_ai::usage_cache_read_input_tokens, u.cache_read_input_tokens);
        if(u.cache_creation_input_tokens)
            s.set(trace::gen_ai::usage_cache_creation_input_tokens, u.cache_creation_input_tokens);
    }

    // Messages as the GenAI conventions' JSON: [{"role", "parts": [{"type": "text", "content"}, ...]}].
    static std::string content_json(std::span<llm::message const> messages)
    {
        json::array out;
        for(auto const& m : messages)
        {
            json::array parts;
            for(auto const& b : m.content)
            {
                if(auto const* t = std::get_if<llm::text_block>(&b))
                    parts.push_back(json::object{{"type", "text"}, {"content", t->text}});
                else if(auto const* c = std::get_if<llm::tool_use_block>(&b))
                    parts.push_back(json::object{{"type", "tool_call"}, {"id", c->id}, {"name", c->name},
                        {"arguments", c->input}});
                else if(auto const* res = std::get_if<llm::tool_result_block>(&b))
                {
                    std::string text;
                    for(auto const& part : res->content)
                        if(auto const* piece = std::get_if<llm::text_block>(&part))
                            text += piece->text;
                    parts.push_back(json::object{{"type", "tool_call_response"}, {"id", res->tool_use_id},
                        {"response", text}});
                }
            }
            bool const tool_results = m.role == llm::role::user && !m.content.empty() &&
                std::holds_alternative<llm::tool_result_block>(m.content.front());
            std::string_view const role = m.role == llm::role::assistant ? "assistant"
                                                                         : (tool_results ? "tool" : "user");
            out.push_back(json::object{{"role", role}, {"parts", std::move(parts)}});
        }
        return json::serialize(out);
    }

    telemetry const* telemetry_;
    std::string_view strategy_;
    std::string_view model_;
    std::string_view provider_;
    std::string_view conversation_id_;
    std::chrono::steady_clock::time_point started_ = {};
    trace::span span_;
};

} // namespace agentio::agent

#endif
