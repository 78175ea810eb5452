// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// `agentio-portfolio mcp`: the portfolio tools served over MCP (docs/apps/portfolio/mcp.md), by
// the library's MCP server and transports. The same compile-time toolset as
// the chat agent: one registration, one schema.
#pragma once

#include "agent/settings.hpp"

#include <boost/system/result.hpp>

#include <chrono>
#include <cstdint>
#include <string>

namespace portfolio {

/// The MCP server's settings (MCP_*, API_*, LOG_*, *_QUERY_ROWS), plus the chart ones.
struct mcp_settings
{
    std::string transport = "stdio";                           // MCP_TRANSPORT: stdio | http | sse
    std::string host = "127.0.0.1";                            // MCP_HOST
    unsigned short port = 8001;                                // MCP_PORT
    std::string api_base_url = "http://127.0.0.1:8080/api/v1"; // API_BASE_URL
    unsigned api_timeout_s = 30;                               // API_TIMEOUT
    std::string log_level = "INFO";                            // LOG_LEVEL: DEBUG, INFO, WARNING, ERROR
    std::string log_file;                                      // LOG_FILE (empty: stderr only)
    std::int64_t max_rows = 500;                               // MAX_QUERY_ROWS
    std::int64_t default_rows = 50;                            // DEFAULT_QUERY_ROWS
    agent::chart_settings charts{};

    /// Reads the variables; a malformed value is an error naming it.
    static boost::system::result<mcp_settings, std::string> from_environment();
};

/// Serves until stdin ends (stdio) or a signal (http, sse). Returns the exit status.
int run_mcp(mcp_settings const& settings);

} // namespace portfolio
