// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The platform's configuration, read from the environment once at start-up.
#pragma once

#include <agentio/llm/environment.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <agentio/log.hpp>
#include <agentio/trace.hpp>
#include <agentio/threads.hpp>
#include <agentio/tools/environment.hpp>

#include <boost/system/result.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platform {

/// A variable the platform reads: its name, its default (empty: none) and what it does, in one line.
struct variable_doc
{
    std::string_view name;
    std::string_view default_value;
    std::string_view explanation;
};

/// Every variable the platform reads, in the order `env-template` prints them.
std::vector<variable_doc> const& documented_variables();

/// A `.env` to start from: each variable with its default and a comment saying what it does.
std::string env_template();

/// The web tools as the platform speaks: Wikipedia in Spanish, places and the sky in Spanish words.
agentio::tools::web_tools_settings spanish_web_tools();

struct settings
{
    agentio::llm::model_settings model; // AGENT_PROVIDER, ANTHROPIC_*, OPENAI_*, AGENT_MODEL
    agentio::log::settings log;         // AGENTIO_LOG_LEVEL, AGENTIO_LOG_FORMAT, AGENTIO_LOG_FILE
    agentio::trace::settings trace;     // OTEL_*: traces to an OTLP/HTTP collector
    std::optional<boost::asio::ip::tcp::endpoint> metrics_address; // AGENTIO_METRICS_ADDRESS
    // AGENT_BUSY_POLICY: a message while its session answers another is refused (409), waits, or interrupts.
    agentio::threads::busy_policy busy_policy = agentio::threads::busy_policy::reject;

    std::string jwt_secret;     // PLATFORM_JWT_SECRET: HS256
    std::string jwt_public_key; // PLATFORM_JWT_PUBLIC_KEY: RS256/ES256, PEM text or a file
    std::string jwt_issuer;     // PLATFORM_JWT_ISSUER: the `iss` required, if set
    std::string jwt_audience;   // PLATFORM_JWT_AUDIENCE: the `aud` required, if set

    std::string store = "data/platform_threads.db"; // PLATFORM_STORE: SQLite path or postgresql://…
    bool memory = true;                             // PLATFORM_MEMORY (on/off)
    unsigned memory_messages = 40;                  // PLATFORM_MEMORY_MESSAGES: stored messages attached

    std::string sql_db;          // PLATFORM_SQL_DB: the database sql_query reads
    std::string sqlite_mcp;      // PLATFORM_SQLITE_MCP: the server program; empty: next to this one
    unsigned sql_max_rows = 200; // PLATFORM_SQL_MAX_ROWS
    std::string rag_index;       // PLATFORM_RAG_INDEX: a retrieval index (agentio-normativa ingest)

    /// The sibling agents served as models: PLATFORM_AGENT_PORTFOLIO, _FACTURAS,
    /// _NORMATIVA, each the base URL of its OpenAI-compatible API (…/v1).
    std::map<std::string, std::string> upstreams;

    bool route_by_model = true; // PLATFORM_ROUTER: model (a classification call, keywords as fallback) | keywords
    std::string router_model;   // PLATFORM_ROUTER_MODEL: the model that classifies; empty: AGENT_MODEL

    std::string uploads = "data/uploads"; // PLATFORM_UPLOADS: where uploaded files' bytes are kept
    // PLATFORM_DOCUMENTS_INDEX: the index of uploaded documents (rag_retrieval), a SQLite file or a
    // PostgreSQL URL; "off": none.
    std::string documents_index = "data/platform_documents.db";
    std::uint64_t max_upload_bytes = 20 * 1024 * 1024; // PLATFORM_MAX_UPLOAD_BYTES: the largest file (413 beyond)

    bool sandbox = true;               // PLATFORM_SANDBOX (on/off): python_code and symbolic math_calc
    unsigned sandbox_seconds = 10;     // PLATFORM_SANDBOX_SECONDS: wall clock of one python_code run
    unsigned sandbox_memory_mb = 1024; // PLATFORM_SANDBOX_MEMORY_MB: address space of each of its processes
    unsigned sandbox_max_running = 4;  // PLATFORM_SANDBOX_MAX_RUNNING: sandboxes at once (the rest wait)

    /// The web tools: TAVILY_API_KEY, TAVILY_BASE_URL, WEB_SEARCH_FALLBACK_URL, WIKIPEDIA_API_URL,
    /// OPEN_METEO_GEOCODING_URL, OPEN_METEO_FORECAST_URL; PLATFORM_WIKIPEDIA_LANGUAGE (es) the Wikipedia read
    /// when the model names none; places and the weather in Spanish.
    agentio::tools::web_tools_settings web = spanish_web_tools();

    /// PLATFORM_APPROVAL_TOOLS: the asistente's tools whose calls wait for a person's approval (comma-separated;
    /// over AG-UI an interrupt, resumed by the next run; the OpenAI door answers 409 approval_required).
    std::vector<std::string> approval_tools;

    /// PLATFORM_A2A_AGENTS: remote A2A agents (name, base URL), each served as a model and a tool of the asistente.
    std::vector<std::pair<std::string, std::string>> a2a_agents;
    /// PLATFORM_A2A_TOKEN: sent to them as `Authorization: Bearer`; empty: nothing.
    std::string a2a_token;

    unsigned max_rounds = 8;     // PLATFORM_MAX_ROUNDS: model calls of a tool loop
    unsigned max_iterations = 5; // PLATFORM_MAX_ITERATIONS: ReAct steps

    /// Reads the variables; a malformed value is an error naming it.
    static boost::system::result<settings, std::string>
    from_environment(agentio::environment_lookup const& lookup = agentio::process_environment);

    /// Whether requests need a JWT.
    bool authenticates() const { return !jwt_secret.empty() || !jwt_public_key.empty(); }
};

} // namespace platform
