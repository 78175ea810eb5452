//
// agentio/mcp.hpp
// ~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Model Context Protocol servers: JSON-RPC framing, the protocol core that
// serves a tool catalog, and the stdio, Streamable HTTP and (2024-11-05)
// HTTP+SSE transports.
//

#ifndef AGENTIO_MCP_HPP
#define AGENTIO_MCP_HPP

#include <agentio/mcp/http.hpp>
#include <agentio/mcp/http_endpoints.hpp>
#include <agentio/mcp/jsonrpc.hpp>
#include <agentio/mcp/legacy_sse.hpp>
#include <agentio/mcp/server.hpp>
#include <agentio/mcp/stdio.hpp>

#endif
