//
// agentio/retrieval/searcher.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Hybrid search: the sparse index's BM25 ranking and the dense vectors'
// cosine ranking, fused by weighted reciprocal rank, each collection's
// results scaled by its weight. A dense half that fails (an embedding
// service down) leaves the sparse half answering, and says so.
//
//   retrieval::searcher search{index, text, &embedder, std::move(vectors)};
//   auto found = co_await search.search({.text = "vacaciones anuales", .top_k = 8});
//

#ifndef AGENTIO_RETRIEVAL_SEARCHER_HPP
#define AGENTIO_RETRIEVAL_SEARCHER_HPP

#include <agentio/llm/embeddings.hpp>
#include <agentio/retrieval/analysis.hpp>
#include <agentio/retrieval/fusion.hpp>
#include <agentio/retrieval/index.hpp>
#include <agentio/retrieval/lsa.hpp>
#include <agentio/trace.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace agentio::retrieval {

/// Which halves a search uses.
enum class search_mode
{
    hybrid,
    sparse,
    dense
};

/// How the halves and collections weigh.
struct search_options
{
    double sparse_weight = 1;
    double dense_weight = 1;
    rrf_options fusion = {};
    /// A collection's results are scaled by its weight (absent: 1).
    std::map<std::string, double, std::less<>> collection_weights = {};
    /** Records each search as a span (the GenAI conventions' `retrieval`:
        `retrieval {data_source}`, `gen_ai.data_source.id`,
        `gen_ai.request.top_k`, the hits; the query and the documents' ids
        and scores only with `capture_message_content`), the child of the
        request's `traceparent`. Null: nothing is recorded. Outlives the searcher. */
    trace::tracer* tracer = nullptr;
    /// `gen_ai.data_source.id` of the spans: what this index is ("estatuto", "documents").
    std::string data_source = {};
};

/// One search.
struct search_request
{
    std::string text = {};
    std::size_t top_k = 8;
    /// Only these collections; empty: all.
    std::vector<std::string> collections = {};
    search_mode mode = search_mode::hybrid;
    /// The caller's span (a tool's `tool_context::traceparent`): the parent of the search's span.
    std::string traceparent = {};
};

/// A ranked id with its fused score in (0, 1] and its rank in each half (0: absent).
struct ranked_hit
{
    std::int64_t id = 0;
    double score = 0;
    std::uint32_t sparse_rank = 0;
    std::uint32_t dense_rank = 0;
};

/// What a ranking found.
struct ranking
{
    std::vector<ranked_hit> hits = {};
    /// Why the dense half was left out, when it failed (the sparse half still answered).
    std::optional<std::string> dense_failure = {};
};

/// A chunk found, with how it ranked.
struct hit
{
    chunk item = {};
    double score = 0;
    std::uint32_t sparse_rank = 0;
    std::uint32_t dense_rank = 0;
};

/// What a search found.
struct search_result
{
    std::vector<hit> hits = {};
    std::optional<std::string> dense_failure = {};
};

/** Searches an index with both halves. Safe for concurrent searches when the
    index and the embedder are. */
class searcher
{
public:
    /** @param idx the index (outlives the searcher)
        @param text the analyzer the index was written with
        @param embed the query embedder, of the model of `dense` (may be null: sparse only)
        @param dense the stored vectors of that model */
    AGENTIO_DECL searcher(index& idx, analyzer text, llm::embedder* embed, dense_corpus dense,
        search_options options = {});

    /// Ids only, best first, at most `request.top_k`: what quality measures read.
    AGENTIO_DECL asio::awaitable<result<ranking>> rank(search_request const& request);

    /// The chunks, best first.
    AGENTIO_DECL asio::awaitable<result<search_result>> search(search_request const& request);

    index& source() noexcept { return *index_; }
    analyzer const& text_analyzer() const noexcept { return text_; }
    /// Whether dense search is available (vectors and an embedder).
    bool has_dense() const noexcept { return embed_ && dense_.vectors && dense_.vectors->size() > 0; }

private:
    asio::awaitable<result<ranking>> rank_hits(search_request const& request);
    trace::span start_span(search_request const& request) const;

    index* index_;
    analyzer text_;
    llm::embedder* embed_;
    dense_corpus dense_;
    search_options options_;
};

/** The latent-semantic model as an `llm::embedder`: texts analysed as the
    index's text was, projected on the model. Synchronous and local; its
    `model_id` names the model's bytes, so vectors of a refitted model
    never meet queries of the old one. */
class lsa_embedder final : public llm::embedder
{
public:
    AGENTIO_DECL lsa_embedder(std::shared_ptr<lsa_model const> model, analyzer text);

    std::string model_id() const override { return id_; }
    AGENTIO_DECL asio::awaitable<boost::system::result<llm::embeddings, llm::error>>
    embed(std::span<std::string const> texts) override;

    /// The vectors of `texts`, without a coroutine (ingest).
    AGENTIO_DECL llm::embeddings embed_now(std::span<std::string const> texts) const;

    lsa_model const& model() const noexcept { return *model_; }

private:
    std::shared_ptr<lsa_model const> model_;
    analyzer text_;
    std::string id_;
};

} // namespace agentio::retrieval

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/retrieval/impl/searcher.ipp>
#endif

#endif
