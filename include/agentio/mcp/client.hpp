//
// agentio/mcp/client.hpp
// ~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The MCP client (CMake component mcp_client): mcp::client, its transports
// (a child process on stdio, Streamable HTTP, HTTP+SSE) and its errors.
//

#ifndef AGENTIO_MCP_CLIENT_UMBRELLA_HPP
#define AGENTIO_MCP_CLIENT_UMBRELLA_HPP

#include <agentio/mcp/client/client.hpp>
#include <agentio/mcp/client/error.hpp>
#include <agentio/mcp/client/transport.hpp>

#endif
