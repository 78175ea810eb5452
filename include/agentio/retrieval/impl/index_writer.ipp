//
// agentio/retrieval/impl/index_writer.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_RETRIEVAL_IMPL_INDEX_WRITER_IPP
#define AGENTIO_RETRIEVAL_IMPL_INDEX_WRITER_IPP

#include <agentio/retrieval/index_writer.hpp>
#include <agentio/retrieval/searcher.hpp> // lsa_embedder

#include <algorithm>
#include <memory>
#include <utility>

namespace agentio::retrieval {

namespace detail {

// What a model is fitted on and embeds: a chunk's heading and its text.
inline std::string embedded_text(chunk const& c)
{
    return c.title + "\n" + c.text;
}

// The model ids lsa_embedder gives: "lsa:<hash>@<dimensions>".
inline constexpr std::string_view lsa_model_id_prefix = "lsa:";

} // namespace detail

AGENTIO_DECL asio::awaitable<result<lsa_refresh>> refresh_lsa_vectors(index_writer& writer, lsa_refresh_options options)
{
    auto chunks = co_await writer.all_chunks();
    if(!chunks)
        co_return chunks.error();
    analyzer const& text = writer.text_analyzer();
    std::vector<std::vector<std::string>> documents;
    documents.reserve(chunks->size());
    for(auto const& c : *chunks)
        documents.push_back(text.terms(detail::embedded_text(c)));
    auto model = std::make_shared<lsa_model const>(lsa_model::fit(documents, options.fit));

    lsa_refresh out;
    if(!model->empty())
    {
        auto const bytes = model->serialize();
        auto stored = co_await writer.store_model(options.model_name, std::as_bytes(std::span(bytes)));
        if(!stored)
            co_return stored.error();
        out.model_id = lsa_embedder(model, text).model_id();
        out.dimensions = model->dimensions();
        out.chunks = chunks->size();
        std::vector<std::int64_t> ids;
        ids.reserve(chunks->size());
        std::vector<float> values;
        values.reserve(chunks->size() * model->dimensions());
        for(std::size_t i = 0; i < chunks->size(); ++i)
        {
            ids.push_back((*chunks)[i].id);
            auto const v = model->embed(documents[i]);
            values.insert(values.end(), v.begin(), v.end());
        }
        auto vectors = co_await writer.store_vectors(out.model_id, ids, values, model->dimensions(), true);
        if(!vectors)
            co_return vectors.error();
    }

    // After the new vectors are in: a failure before leaves the old fit searchable.
    auto models = co_await writer.vector_models();
    if(!models)
        co_return models.error();
    for(auto const& [id, count] : *models)
    {
        if(!id.starts_with(detail::lsa_model_id_prefix) || id == out.model_id)
            continue;
        auto dropped = co_await writer.drop_vectors(id);
        if(!dropped)
            co_return dropped.error();
        out.dropped += *dropped;
    }
    co_return out;
}

AGENTIO_DECL asio::awaitable<result<std::size_t>> embed_missing_vectors(index_writer& writer, llm::embedder& embed,
    embed_missing_options options)
{
    auto const model_id = embed.model_id();
    auto missing = co_await writer.missing_vectors(model_id);
    if(!missing)
        co_return missing.error();
    if(missing->empty())
        co_return std::size_t(0);
    auto chunks = co_await writer.all_chunks();
    if(!chunks)
        co_return chunks.error();
    // Both lists are in id order.
    std::vector<std::string> texts;
    std::vector<std::int64_t> ids;
    for(auto const& c : *chunks)
        if(std::binary_search(missing->begin(), missing->end(), c.id))
        {
            ids.push_back(c.id);
            texts.push_back(detail::embedded_text(c));
        }
    if(ids.empty()) // removed since they were listed
        co_return std::size_t(0);
    if(options.before_embedding)
        options.before_embedding(ids.size());
    auto vectors = co_await embed.embed(texts);
    if(!vectors)
        co_return error{make_error_code(errc::embedding_failed), vectors.error().message};
    if(vectors->size() != ids.size())
        co_return error{make_error_code(errc::embedding_failed),
            model_id + " gave " + std::to_string(vectors->size()) + " vectors for " + std::to_string(ids.size()) +
                " texts"};
    auto stored = co_await writer.store_vectors(model_id, ids, vectors->values, vectors->dimensions, false);
    if(!stored)
        co_return stored.error();
    co_return ids.size();
}

} // namespace agentio::retrieval

#endif
