//
// agentio/mcp/client/src.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The compiled part of the mcp_client component: the client and its
// transports. Include it in exactly one source file of a program built with
// AGENTIO_SEPARATE_COMPILATION (see <agentio/config.hpp>).
//

#ifndef AGENTIO_MCP_CLIENT_SRC_HPP
#define AGENTIO_MCP_CLIENT_SRC_HPP

#include <agentio/config.hpp>

#ifdef AGENTIO_HEADER_ONLY
#error Define AGENTIO_SEPARATE_COMPILATION in every file of the program that includes this source.
#endif

#include <agentio/mcp/client.hpp>

#include <agentio/mcp/client/impl/client.ipp>
#include <agentio/mcp/client/impl/http_transport.ipp>
#include <agentio/mcp/client/impl/stdio_transport.ipp>

#endif
