//
// agentio/retrieval.hpp
// ~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Retrieval for agents that answer from documents: chunks with their place
// in a law (article, paragraph, chapter, the articles they cite), a sparse
// index (SQLite FTS5, BM25) and a dense one (float32 vectors of any
// `llm::embedder`: an embeddings API, or the latent-semantic model fitted
// here on the corpus, which needs no service), fused by weighted
// reciprocal rank. An index stores how its text was analysed, so any
// program opens it for searching (`open_searcher`); `index_writer` is the
// write side of either database, with the ingest's pipelines over it
// (`refresh_lsa_vectors`, `embed_missing_vectors`); `observed_index` times
// and counts an index's reads for Prometheus.
//

#ifndef AGENTIO_RETRIEVAL_HPP
#define AGENTIO_RETRIEVAL_HPP

#include <agentio/retrieval/analysis.hpp>
#include <agentio/retrieval/analysis_profile.hpp>
#include <agentio/retrieval/documents.hpp>
#include <agentio/retrieval/fusion.hpp>
#include <agentio/retrieval/index.hpp>
#include <agentio/retrieval/index_writer.hpp>
#include <agentio/retrieval/lsa.hpp>
#include <agentio/retrieval/observed_index.hpp>
#include <agentio/retrieval/open_searcher.hpp>
#include <agentio/retrieval/searcher.hpp>
#include <agentio/retrieval/sqlite_index.hpp>
#include <agentio/retrieval/vector_store.hpp>

#endif
