// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The HTTP surface: POST /api/rag-agent and /api/rag-pipeline (SSE),
// GET /api/rag-agent/threads/{id}, GET /health, and the page.
#pragma once

#include "agent.hpp"

#include <agentio/http/api_keys.hpp>
#include <agentio/http/router.hpp>
#include <agentio/http/static_files.hpp>

namespace normativa {

/// What /health reports besides the model.
struct index_status
{
    std::size_t chunks = 0;
    std::vector<std::string> laws;
    std::string embedder; ///< the dense half's model id; empty: sparse only
};

/** The routes, served by an agentio::http::server; `options` as the router
    takes them (`observe`: the access log and the HTTP metrics). */
agentio::http::router<> make_routes(rag_service& service, agentio::http::api_keys const& keys,
    index_status const& status, agentio::http::static_files const* page, agentio::http::router_options options = {});

} // namespace normativa
