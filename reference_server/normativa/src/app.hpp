// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The index as the server uses it: opened read-only and made ready for
// searching by the library's `open_searcher` (the analysis the index
// stores, the dense half's embedder: the stored latent-semantic model or
// the embeddings service, and its vectors), the tools' environment built.
// An index that is missing or empty leaves the server running, the tools
// saying how to ingest.
#pragma once

#include "http_api.hpp"
#include "settings.hpp"
#include "tools.hpp"

#include <agentio/http/client.hpp>
#include <agentio/llm/embeddings.hpp>
#include <agentio/metrics.hpp>
#include <agentio/postgres.hpp>
#include <agentio/retrieval.hpp>

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <optional>
#include <string>

namespace normativa {

struct loaded_index
{
    std::unique_ptr<agentio::postgres::pool> database; ///< for an index in PostgreSQL
    std::unique_ptr<agentio::retrieval::index> index;
    std::unique_ptr<agentio::llm::embedder> embedder;          ///< the embeddings service's (RAG_EMBEDDER=openai)
    std::optional<agentio::retrieval::opened_searcher> opened; ///< what open_searcher loaded
    agentio::retrieval::searcher* searcher = nullptr;          ///< `opened`'s; null: nothing to search
    tool_environment tools;
    index_status status;
    /// What the start-up log says when something is missing (empty when all is well).
    std::string warning;
};

/** Opens `path` (a SQLite file, or `postgresql://…`) for searching. `http`
    serves the embeddings service when RAG_EMBEDDER=openai; with a
    `registry`, each read of the index is timed and counted there
    (`agentio_index_*`); with a `tracer`, each search is a `retrieval normativa` span. */
boost::asio::awaitable<std::unique_ptr<loaded_index>> open_index(std::string const& path, settings const& config,
    agentio::http::client& http, agentio::metrics::registry* registry = nullptr,
    agentio::trace::tracer* tracer = nullptr);

} // namespace normativa
