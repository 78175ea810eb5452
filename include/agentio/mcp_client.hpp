//
// agentio/mcp_client.hpp
// ~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Model Context Protocol clients: use tools this program did not compile.
// A client reaches a server over stdio (a child process), Streamable HTTP or
// the 2024-11-05 HTTP+SSE transport, negotiates the handshake revisions
// (2025-11-25 down to 2024-11-05) or the stateless 2026-07-28 one, lists and
// calls tools, and bridges them into `dynamic_tools` for an orchestrator.
//

#ifndef AGENTIO_MCP_CLIENT_HPP
#define AGENTIO_MCP_CLIENT_HPP

#include <agentio/mcp_client/client.hpp>
#include <agentio/mcp_client/error.hpp>
#include <agentio/mcp_client/transport.hpp>

#endif
