// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The labour-law agent: requests checked, threads found or made, the
// orchestrator run with the four tools (or the fixed pipeline), and what
// happens told as the SSE events tool_status, token, done and error.
#pragma once

#include "settings.hpp"
#include "tools.hpp"

#include <agentio/agent/orchestrator.hpp>
#include <agentio/agent/telemetry.hpp>
#include <agentio/llm/any_provider.hpp>
#include <agentio/sse/relay.hpp>
#include <agentio/llm/context.hpp>
#include <agentio/log.hpp>
#include <agentio/threads.hpp>
#include <agentio/threads/turn.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/assert/source_location.hpp>
#include <boost/system/result.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace normativa {

/// An HTTP error before any event is sent: status and Spanish message.
struct api_error
{
    unsigned status = 400;
    std::string message;
};

/// `result<T, api_error>::value()` throws this on an error.
[[noreturn]] inline void throw_exception_from_error(api_error const& e, boost::source_location const&)
{
    throw std::runtime_error(std::to_string(e.status) + " " + e.message);
}

/// One SSE event, and where events go (sse::relay sends them; a client that
/// leaves cancels the run through its coroutine's cancellation slot).
using sse_event = agentio::sse::relayed_event;
using event_sink = agentio::sse::event_sink;

/// POST /api/rag-agent.
struct agent_request
{
    std::string message;
    std::optional<std::string> thread_id;
    // busyPolicy: while the conversation answers another message (else AGENT_BUSY_POLICY).
    std::optional<agentio::threads::busy_policy> when_busy = {};
    // The request's server span: the thread's reads and writes, and the run, join its trace.
    std::string traceparent = {};
};

/// POST /api/rag-pipeline.
struct pipeline_request
{
    std::vector<agentio::llm::message> messages;
    std::vector<std::int64_t> previous_chunk_ids;
};

boost::system::result<agent_request, api_error> parse_agent_request(std::string_view body, settings const& s);
boost::system::result<pipeline_request, api_error> parse_pipeline_request(std::string_view body, settings const& s);

/// The sources of tool results: {id, law, section ("Art. 48"), chapter, collection}, each id once.
class source_list
{
public:
    /// Reads the JSON arrays of a round's tool results.
    void collect(std::span<agentio::llm::message const> messages);
    void add(boost::json::object const& chunk);
    boost::json::array const& sources() const noexcept { return sources_; }
    std::vector<std::int64_t> ids() const;

private:
    boost::json::array sources_;
    std::set<std::int64_t> seen_;
};

class rag_service
{
public:
    /** `provider` null: no model configured (503 naming the variables).
        `log`, when given, gets one line per answer (`agent.run`,
        `pipeline.run`: outcome, rounds, tokens, time); it outlives the service. */
    rag_service(settings s, agentio::llm::any_provider* provider, agentio::threads::thread_store& store,
        tool_environment const& tools, agentio::log::logger* log = nullptr);
    ~rag_service();

    /// Where the agent's runs report (spans, metrics, log lines); set before serving.
    void set_telemetry(agentio::agent::telemetry t) { telemetry_ = std::move(t); }

    /** A run the HTTP layer may start streaming: its thread exists and is
        held by its turn (a second request on it is 409 until the turn ends). */
    struct prepared
    {
        agentio::threads::turn turn;
        std::string message;
        /// The request's `traceparent` (its server span's): the run's spans join its trace.
        std::string traceparent = {};
        /// Calls of RAG_APPROVAL_TOOLS stop the run for a person (the doors that can ask one set it).
        bool may_pause = false;
        /// A run that goes on after a person decided: the model's turn that waited, after the question.
        std::optional<agentio::llm::message> paused_turn = {};
        /// The decisions on that turn's calls.
        std::vector<agentio::agent::approval_decision> decisions = {};
    };

    /// Checks the request against the store: 404, 409, 503 as api_error.
    boost::asio::awaitable<boost::system::result<std::shared_ptr<prepared>, api_error>> prepare(agent_request request,
        std::string owner);

    /** Runs the agent; every outcome is an event (done or error). `on_agent`,
        when given, sees the agent's own events too (the calls as they form,
        their results), for streams that show more than the page's. */
    boost::asio::awaitable<void> run(std::shared_ptr<prepared> run, event_sink sink,
        std::function<void(agentio::agent::event const&)> on_agent = {});

    /// The fixed pipeline: keywords → search → answer.
    boost::asio::awaitable<void> run_pipeline(pipeline_request request, event_sink sink);

    /// A thread for the page after a reload: its messages' texts and each answer's sources.
    boost::asio::awaitable<boost::system::result<boost::json::object, api_error>> thread_view(std::string id,
        std::string owner);

    settings const& config() const noexcept { return settings_; }

private:
    settings settings_;
    agentio::llm::any_provider* provider_;
    agentio::log::logger* log_;
    agentio::agent::telemetry telemetry_;
    agentio::threads::thread_store& store_;
    tool_environment const& tool_env_;
    normativa_tools tools_;
    std::shared_ptr<agentio::llm::token_estimator> estimator_ = std::make_shared<agentio::llm::token_estimator>();
};

} // namespace normativa
