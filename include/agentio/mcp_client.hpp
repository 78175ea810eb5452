//
// agentio/mcp_client.hpp
// ~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Where the MCP client was before 0.2: it is <agentio/mcp/client.hpp> now.
// Kept so that programs written against 0.1 compile; new code includes the new header.
//

#ifndef AGENTIO_MCP_CLIENT_HPP
#define AGENTIO_MCP_CLIENT_HPP

#include <agentio/mcp/client.hpp>

#endif
