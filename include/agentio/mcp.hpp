//
// agentio/mcp.hpp
// ~~~~~~~~~~~~~~~
//
// Model Context Protocol servers: JSON-RPC framing, the protocol core that
// serves a tool catalog, and the stdio and Streamable HTTP transports.
//

#ifndef AGENTIO_MCP_HPP
#define AGENTIO_MCP_HPP

#include <agentio/mcp/http.hpp>
#include <agentio/mcp/jsonrpc.hpp>
#include <agentio/mcp/server.hpp>
#include <agentio/mcp/stdio.hpp>

#endif
