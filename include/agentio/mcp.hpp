//
// agentio/mcp.hpp
// ~~~~~~~~~~~~~~~
//
// Model Context Protocol servers: JSON-RPC framing, the protocol core that
// serves a tool catalog, and the stdio, Streamable HTTP and (2024-11-05)
// HTTP+SSE transports.
//

#ifndef AGENTIO_MCP_HPP
#define AGENTIO_MCP_HPP

#include <agentio/mcp/http.hpp>
#include <agentio/mcp/jsonrpc.hpp>
#include <agentio/mcp/legacy_sse.hpp>
#include <agentio/mcp/server.hpp>
#include <agentio/mcp/stdio.hpp>

#endif
