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
#include <agentio/trace.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace agentio::agent {

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

    /** Whether anything listens. A tracer that is off still passes the
        `traceparent` it was given on to the calls (a trace crosses a process
        that does not record it). */
    bool active() const noexcept { return observer || tracer; }
};

} // namespace agentio::agent

#endif
