// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "app.hpp"

#include "corpus.hpp"
#include "ingest.hpp"

#include <agentio/llm/openai_embeddings.hpp>
#include <agentio/retrieval/postgres_index.hpp>

#include <boost/asio/this_coro.hpp>

#include <filesystem>

namespace normativa {

namespace asio = boost::asio;
namespace retrieval = agentio::retrieval;

asio::awaitable<std::unique_ptr<loaded_index>> open_index(std::string const& path, settings const& config,
    agentio::http::client& http)
{
    auto out = std::make_unique<loaded_index>();
    if(is_postgres(path))
    {
        // The pool on the caller's executor: the server's io_context.
        auto const ex = co_await asio::this_coro::executor;
        out->database = std::make_unique<agentio::postgres::pool>(ex, path);
        auto opened = co_await retrieval::postgres_index::open(*out->database);
        if(!opened)
        {
            out->warning = "no se puede abrir el índice en PostgreSQL: " + opened.error().message + ". " +
                empty_index_message();
            co_return out;
        }
        out->index = std::move(*opened);
    }
    else
    {
        std::error_code ec;
        if(!std::filesystem::exists(path, ec))
        {
            out->warning = "no hay índice en '" + path + "'. " + empty_index_message();
            co_return out;
        }
        auto opened = retrieval::sqlite_index::open(path);
        if(!opened)
        {
            out->warning = "no se puede abrir el índice '" + path + "': " + opened.error().message + ". " +
                empty_index_message();
            co_return out;
        }
        out->index = std::move(*opened);
    }
    auto stats = co_await out->index->stats();
    auto laws = co_await out->index->laws();
    if(!stats || !laws || stats->chunks == 0)
    {
        out->warning = "el índice '" + path + "' no tiene fragmentos. " + empty_index_message();
        co_return out;
    }
    out->status.chunks = stats->chunks;
    for(auto const& [law, n] : *laws)
        out->status.laws.push_back(law);
    out->tools.laws = out->status.laws;
    out->tools.has_sentencias = stats->per_collection.contains("sentencias");

    // The dense half: its embedder, and the vectors stored for it.
    if(config.embedder == embedder_kind::openai)
    {
        agentio::llm::openai_embedder_options o;
        o.base_url = config.embedding_base_url;
        o.api_key = config.embedding_api_key;
        o.model = config.embedding_model;
        o.dimensions = config.embedding_dimensions;
        out->embedder = std::make_unique<agentio::llm::openai_embedder>(http, std::move(o));
    }
    else
    {
        std::string name = lsa_model_name;
        auto bytes = co_await out->index->load_model(std::move(name));
        if(bytes && *bytes)
            if(auto model = retrieval::lsa_model::parse(**bytes))
                out->embedder = std::make_unique<retrieval::lsa_embedder>(
                    std::make_shared<retrieval::lsa_model const>(std::move(*model)), spanish_analyzer());
    }
    retrieval::dense_corpus dense;
    if(out->embedder)
    {
        auto model_id = out->embedder->model_id();
        auto loaded = co_await out->index->load_vectors(std::move(model_id));
        if(loaded && loaded->vectors)
        {
            dense = std::move(*loaded);
            out->status.embedder = out->embedder->model_id();
        }
        else
            out->warning = "no hay vectores de " + out->embedder->model_id() +
                " en el índice: solo búsqueda léxica (vuelva a ejecutar ingest)";
    }
    retrieval::search_options options;
    options.sparse_weight = config.sparse_weight;
    options.dense_weight = config.dense_weight;
    options.collection_weights = config.collection_weights;
    out->searcher = std::make_unique<retrieval::searcher>(*out->index, spanish_analyzer(),
        out->status.embedder.empty() ? nullptr : out->embedder.get(), std::move(dense), std::move(options));
    out->tools.search = out->searcher.get();
    co_return out;
}

} // namespace normativa
