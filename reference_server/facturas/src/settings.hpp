// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The invoice agent's configuration, read from the environment once at start-up.
#pragma once

#include <agentio/llm/environment.hpp>
#include <agentio/log.hpp>
#include <agentio/trace.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <agentio/threads.hpp>

#include <boost/system/result.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace facturas {

struct settings
{
    agentio::llm::model_settings model; // AGENT_PROVIDER, ANTHROPIC_*, OPENAI_*, AGENT_MODEL
    agentio::log::settings log;         // AGENTIO_LOG_LEVEL or LOGURU_LEVEL, AGENTIO_LOG_FORMAT, AGENTIO_LOG_FILE
    agentio::trace::settings trace;     // OTEL_*: traces to an OTLP/HTTP collector
    std::optional<boost::asio::ip::tcp::endpoint> metrics_address; // AGENTIO_METRICS_ADDRESS

    // AGENT_BUSY_POLICY: a question while its session answers another is refused (409), waits, or interrupts.
    agentio::threads::busy_policy busy_policy = agentio::threads::busy_policy::reject;
    unsigned max_history_turns = 5;                 // INVOICE_AGENT_MAX_HISTORY_TURNS
    unsigned sql_max_rows = 200;                    // INVOICE_AGENT_SQL_MAX_ROWS: LIMIT forced on every query
    std::chrono::seconds mcp_timeout{30};           // INVOICE_AGENT_MCP_TIMEOUT
    std::chrono::seconds schema_ttl{300};           // INVOICE_AGENT_SCHEMA_TTL: how long the schema is reused
    std::string mcp_command;                        // INVOICE_AGENT_MCP_COMMAND; empty: agentio-sqlite-mcp --db DB
    std::string mcp_url;                            // INVOICE_AGENT_MCP_URL: a Streamable HTTP server instead
    std::string store = "data/facturas_threads.db"; // INVOICE_AGENT_STORE: the conversations (SQLite, or postgresql://)
    /// INVOICE_AGENT_APPROVAL_TABLES: a query that reads one of these tables (personal data: `Customer,Employee`)
    /// waits for a person's approval before it runs, over AG-UI (an interrupt) and A2A (INPUT_REQUIRED); empty: none.
    std::vector<std::string> approval_tables;

    /// Reads the variables; a malformed value is an error naming it.
    static boost::system::result<settings, std::string> from_environment();

    /// Why the model cannot be called, or nothing.
    std::optional<std::string> llm_unavailable_reason() const;

    /// AGENT_MODEL, else the provider's default.
    std::string effective_model() const;
};

} // namespace facturas
