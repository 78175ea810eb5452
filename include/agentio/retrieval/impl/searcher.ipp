//
// agentio/retrieval/impl/searcher.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_RETRIEVAL_IMPL_SEARCHER_IPP
#define AGENTIO_RETRIEVAL_IMPL_SEARCHER_IPP

#include <agentio/retrieval/searcher.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <unordered_map>

namespace agentio::retrieval {

AGENTIO_DECL searcher::searcher(index& idx, analyzer text, llm::embedder* embed, dense_corpus dense,
    search_options options)
    : index_(&idx)
    , text_(std::move(text))
    , embed_(embed)
    , dense_(std::move(dense))
    , options_(std::move(options))
{
}

namespace detail {

inline std::string_view mode_name(search_mode mode) noexcept
{
    switch(mode)
    {
    case search_mode::sparse: return "sparse";
    case search_mode::dense: return "dense";
    case search_mode::hybrid: break;
    }
    return "hybrid";
}

// What a search found, on its span; the documents only when contents are captured.
template<class Hits>
void record_hits(trace::span& span, trace::tracer const& tracer, Hits const& hits,
    std::optional<std::string> const& dense_failure)
{
    if(!span.recording())
        return;
    span.set("agentio.retrieval.hits", static_cast<std::int64_t>(hits.size()));
    if(dense_failure)
        span.set("agentio.retrieval.dense_failure", *dense_failure);
    if(!tracer.config().capture_message_content)
        return;
    boost::json::array documents;
    for(auto const& h : hits)
    {
        std::int64_t id = 0;
        if constexpr(requires { h.item.id; })
            id = h.item.id;
        else
            id = h.id;
        documents.push_back(boost::json::object{{"id", std::to_string(id)}, {"score", h.score}});
    }
    span.set("gen_ai.retrieval.documents", boost::json::serialize(documents));
}

} // namespace detail

AGENTIO_DECL trace::span searcher::start_span(search_request const& request) const
{
    if(options_.tracer == nullptr || !options_.tracer->enabled())
        return {};
    std::string name = "retrieval";
    if(!options_.data_source.empty())
        name += " " + options_.data_source;
    auto span = options_.tracer->start(name, trace::span_kind::internal, std::string_view(request.traceparent));
    if(!span.recording())
        return span;
    span.set(trace::gen_ai::operation_name, std::string_view("retrieval"));
    if(!options_.data_source.empty())
        span.set("gen_ai.data_source.id", options_.data_source);
    span.set("gen_ai.request.top_k", static_cast<double>(request.top_k));
    span.set("agentio.retrieval.mode", detail::mode_name(request.mode));
    if(options_.tracer->config().capture_message_content)
        span.set("gen_ai.retrieval.query.text", request.text);
    return span;
}

AGENTIO_DECL asio::awaitable<result<ranking>> searcher::rank(search_request const& request)
{
    auto span = start_span(request);
    auto ranked = co_await rank_hits(request);
    if(!ranked)
        span.fail("index_error", ranked.error().message);
    else if(span.recording())
        detail::record_hits(span, *options_.tracer, ranked->hits, ranked->dense_failure);
    co_return ranked;
}

AGENTIO_DECL asio::awaitable<result<ranking>> searcher::rank_hits(search_request const& request)
{
    ranking out;
    auto const depth = std::max<std::size_t>({options_.fusion.depth, request.top_k, 30});
    bool const use_sparse = request.mode != search_mode::dense;
    bool const use_dense = request.mode != search_mode::sparse && has_dense();

    std::vector<ranked> sparse_hits;
    if(use_sparse)
    {
        // Arguments named: GCC 12 may destroy twice a temporary made inside a co_await expression.
        auto terms = text_.terms(request.text);
        auto collections = request.collections;
        auto found = co_await index_->sparse(std::move(terms), std::move(collections), depth);
        if(!found)
            co_return found.error();
        sparse_hits = std::move(*found);
    }

    std::vector<ranked> dense_hits;
    if(use_dense)
    {
        std::string const texts[1] = {request.text};
        auto vectors = co_await embed_->embed(texts);
        if(!vectors)
            out.dense_failure = vectors.error().message;
        else if(vectors->size() != 1 || vectors->dimensions != dense_.vectors->dimensions())
            out.dense_failure = "the embedder's vectors have " + std::to_string(vectors->dimensions) +
                " dimensions, the index's " + std::to_string(dense_.vectors->dimensions());
        else
        {
            // Collections by index, looked up once per search.
            std::vector<char> wanted(dense_.collections.size(), request.collections.empty() ? 1 : 0);
            for(std::size_t i = 0; i < dense_.collections.size(); ++i)
                for(auto const& c : request.collections)
                    if(dense_.collections[i] == c)
                        wanted[i] = 1;
            std::function<bool(std::int64_t)> keep;
            if(!request.collections.empty())
                keep = [this, &wanted](std::int64_t id) {
                    auto it = dense_.collection_of.find(id);
                    return it != dense_.collection_of.end() && wanted[it->second];
                };
            dense_hits = dense_.vectors->top((*vectors)[0], depth, keep);
            // A cosine of zero or less shares nothing with the question.
            std::erase_if(dense_hits, [](ranked const& r) { return r.score <= 0; });
        }
    }

    fusion_input const inputs[2] = {{sparse_hits, options_.sparse_weight}, {dense_hits, options_.dense_weight}};
    auto fused_hits = reciprocal_rank_fusion(inputs, options_.fusion);
    // Scores in (0, 1]: 1 is first in every half that ran.
    double const best = ((use_sparse ? options_.sparse_weight : 0) +
                            (use_dense && !out.dense_failure ? options_.dense_weight : 0)) /
        (options_.fusion.k + 1);
    out.hits.reserve(fused_hits.size());
    for(auto const& f : fused_hits)
        out.hits.push_back({f.id, best > 0 ? f.score / best : 0, f.ranks[0], f.ranks[1]});

    if(!options_.collection_weights.empty() && !out.hits.empty())
    {
        // The sparse half's collections come from the chunks: fetched for the
        // ids the dense map does not know.
        std::vector<std::int64_t> unknown;
        for(auto const& h : out.hits)
            if(!dense_.collection_of.contains(h.id))
                unknown.push_back(h.id);
        std::unordered_map<std::int64_t, std::string> collection;
        if(!unknown.empty())
        {
            auto rows = co_await index_->chunks(std::move(unknown));
            if(!rows)
                co_return rows.error();
            for(auto& c : *rows)
                collection.emplace(c.id, std::move(c.collection));
        }
        for(auto& h : out.hits)
        {
            std::string_view name;
            if(auto it = dense_.collection_of.find(h.id); it != dense_.collection_of.end())
                name = dense_.collections[it->second];
            else if(auto jt = collection.find(h.id); jt != collection.end())
                name = jt->second;
            if(auto w = options_.collection_weights.find(name); w != options_.collection_weights.end())
                h.score *= w->second;
        }
        std::stable_sort(out.hits.begin(), out.hits.end(),
            [](ranked_hit const& a, ranked_hit const& b) { return a.score > b.score; });
    }
    if(out.hits.size() > request.top_k)
        out.hits.resize(request.top_k);
    co_return out;
}

AGENTIO_DECL asio::awaitable<result<search_result>> searcher::search(search_request const& request)
{
    auto span = start_span(request);
    auto ranked_ids = co_await rank_hits(request);
    if(!ranked_ids)
    {
        span.fail("index_error", ranked_ids.error().message);
        co_return ranked_ids.error();
    }
    std::vector<std::int64_t> ids;
    for(auto const& h : ranked_ids->hits)
        ids.push_back(h.id);
    auto rows = co_await index_->chunks(std::move(ids));
    if(!rows)
    {
        span.fail("index_error", rows.error().message);
        co_return rows.error();
    }
    search_result out;
    out.dense_failure = std::move(ranked_ids->dense_failure);
    std::unordered_map<std::int64_t, std::size_t> at;
    for(std::size_t i = 0; i < rows->size(); ++i)
        at.emplace((*rows)[i].id, i);
    for(auto const& h : ranked_ids->hits)
        if(auto it = at.find(h.id); it != at.end())
            out.hits.push_back({std::move((*rows)[it->second]), h.score, h.sparse_rank, h.dense_rank});
    if(span.recording())
        detail::record_hits(span, *options_.tracer, out.hits, out.dense_failure);
    co_return out;
}

// ---------------------------------------------------------------------------
// lsa_embedder

AGENTIO_DECL lsa_embedder::lsa_embedder(std::shared_ptr<lsa_model const> model, analyzer text)
    : model_(std::move(model))
    , text_(std::move(text))
{
    // FNV-1a of the model's bytes: the same model, the same id, in every process.
    std::uint64_t h = 0xcbf29ce484222325ull;
    for(unsigned char c : model_->serialize())
        h = (h ^ c) * 0x100000001b3ull;
    static constexpr char digits[] = "0123456789abcdef";
    id_ = "lsa:";
    for(int shift = 60; shift >= 0; shift -= 4)
        id_ += digits[(h >> shift) & 0xf];
    id_ += "@" + std::to_string(model_->dimensions());
}

AGENTIO_DECL llm::embeddings lsa_embedder::embed_now(std::span<std::string const> texts) const
{
    llm::embeddings out;
    out.dimensions = model_->dimensions();
    out.values.reserve(texts.size() * out.dimensions);
    for(auto const& t : texts)
    {
        auto const terms = text_.terms(t);
        out.prompt_tokens += terms.size();
        auto const v = model_->embed(terms);
        out.values.insert(out.values.end(), v.begin(), v.end());
    }
    return out;
}

AGENTIO_DECL asio::awaitable<boost::system::result<llm::embeddings, llm::error>>
lsa_embedder::embed(std::span<std::string const> texts)
{
    co_return embed_now(texts);
}

} // namespace agentio::retrieval

#endif
