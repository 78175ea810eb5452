// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The invoice agent: a Spanish question becomes SQL, run only through the
// SQLite MCP server, and the rows become a Spanish answer. One coroutine per
// question: history → schema → SQL → check → run (one repair round) → answer
// → the turn saved.
#pragma once

#include "settings.hpp"

#include <agentio/agent/telemetry.hpp>
#include <agentio/llm/any_provider.hpp>
#include <agentio/llm/context.hpp>
#include <agentio/llm/conversation.hpp>
#include <agentio/mcp/client.hpp>
#include <agentio/threads.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace facturas {

/// What /ask answers: `answer` is always there, in Spanish, errors included.
struct ask_result
{
    std::string session_id;
    std::string answer;
    std::string sql;
    boost::json::array columns;
    boost::json::array rows;
    std::int64_t row_count = 0;
    bool truncated = false;
    std::string error_code;    // empty on success
    std::string error_message; // Spanish, for a person
    /// The tables of INVOICE_AGENT_APPROVAL_TABLES the query reads: it was not run, it waits for a person.
    std::vector<std::string> awaiting_approval;

    boost::json::object to_json() const;
};

/// Steps as they happen (the SSE endpoint streams them).
struct ask_observer
{
    std::function<void(std::string_view step, std::string_view message)> on_step;
    std::function<void(std::string const& sql)> on_sql;
    std::function<void(ask_result const& rows)> on_rows;
    std::function<void(std::string_view text)> on_chunk;
    /// The request's `traceparent` (its server span's): the question's spans join its trace.
    std::string traceparent;
    /// A query that reads a table of INVOICE_AGENT_APPROVAL_TABLES stops before it runs (`awaiting_approval`):
    /// for the doors that can ask a person (AG-UI, A2A), not for /ask.
    bool may_pause = false;
};

/// Where the MCP server is: a command to spawn (stdio) or a URL (Streamable HTTP).
struct mcp_endpoint
{
    std::string command;
    std::string url;
};

class invoice_agent
{
public:
    invoice_agent(settings s, mcp_endpoint endpoint, agentio::llm::any_provider& provider,
        agentio::threads::thread_store& store);

    /// Answers one question of a session; never throws for the pipeline's own failures.
    boost::asio::awaitable<ask_result> ask(std::string session_id, std::string question,
        ask_observer const& observer = {})
    {
        return ask(std::move(session_id), std::move(question), observer, std::nullopt);
    }

    /** Answers it with `approved_sql` when there is one: the query a person approved for this question, run as
        it is (validated again, not generated, not repaired). */
    boost::asio::awaitable<ask_result> ask(std::string session_id, std::string question, ask_observer const& observer,
        std::optional<std::string> approved_sql);

    /// The MCP server's schema (cached for INVOICE_AGENT_SCHEMA_TTL).
    boost::asio::awaitable<boost::json::object> schema();

    /// Whether the MCP server answered the last time it was asked.
    bool mcp_connected() const;

    /// Ends the MCP connection (the child process with it).
    boost::asio::awaitable<void> close();

    settings const& config() const noexcept { return settings_; }

    /// Where each question reports (its spans, the model and MCP calls' metrics); set before serving.
    void set_telemetry(agentio::agent::telemetry t) { telemetry_ = std::move(t); }

private:
    // A past question of the session, as the model sees it again.
    struct exchange
    {
        std::string question;
        std::string answer;
        std::string sql;
    };

    boost::asio::awaitable<agentio::mcp::client> mcp();
    void forget_mcp(agentio::mcp::client const& broken);
    std::vector<exchange> history(std::vector<agentio::threads::item> const& items) const;
    boost::asio::awaitable<std::string> complete(std::string const& system,
        std::vector<agentio::llm::message> const& messages, std::function<void(std::string_view)> const* on_text,
        agentio::agent::run_reporter const& report);
    boost::asio::awaitable<boost::json::object> run_query(std::string const& sql,
        agentio::agent::run_reporter const& report);

    settings settings_;
    mcp_endpoint endpoint_;
    agentio::llm::any_provider& provider_;
    agentio::threads::thread_store& store_;
    std::string model_;
    agentio::llm::token_estimator estimator_; // the requests' sizes, learned from the answers' usage
    agentio::agent::telemetry telemetry_;

    mutable std::mutex mutex_; // the two below: requests run on several threads
    std::optional<agentio::mcp::client> mcp_;
    std::optional<boost::json::object> schema_;
    std::chrono::steady_clock::time_point schema_at_{};
};

/// The Spanish sentence a person reads for an error code.
std::string answer_for_error(std::string_view code);

// The error_message of each failure is a Spanish sentence; words we cannot translate (SQLite's, the MCP server's,
// a library's, often English) are quoted inside it: «no such column: Foo».

/// `detail` as a quote: in «», on one line, at most about 500 bytes.
std::string quote(std::string_view detail);

/// The MCP server refused a query with `code` and `message` (its own words).
std::string refusal_message(std::string_view code, std::string_view message);

/// The MCP client failed while doing what `doing` says ("No se pudo conectar con el servidor MCP").
std::string mcp_failure_message(std::string_view doing, agentio::mcp::client_error const& e);

/// The model's provider failed.
std::string model_failure_message(agentio::llm::error const& e);

/// A tool's result as an object: its structuredContent, or its text content parsed (a server that sends the JSON
/// only as text, as MCP servers did before structuredContent); nothing when neither is an object.
std::optional<boost::json::object> result_object(agentio::tool_result const& r);

} // namespace facturas
