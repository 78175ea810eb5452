// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "app.hpp"

#include "corpus.hpp"
#include "ingest.hpp"

#include <agentio/llm/openai_embeddings.hpp>
#include <agentio/retrieval/observed_index.hpp>
#include <agentio/retrieval/postgres_index.hpp>

#include <boost/asio/this_coro.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace normativa {

namespace asio = boost::asio;
namespace retrieval = agentio::retrieval;

asio::awaitable<std::unique_ptr<loaded_index>> open_index(std::string const& path, settings const& config,
    agentio::http::client& http, agentio::metrics::registry* registry, agentio::trace::tracer* tracer)
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
    // Each read timed and counted (agentio_index_*), open_searcher's included: it reads through the wrapper.
    if(registry)
        out->index = std::make_unique<retrieval::observed_index>(std::move(out->index), *registry);
    // The dense half's embedder when it is a service; otherwise open_searcher
    // makes one of the latent-semantic model the index stores.
    if(config.embedder == embedder_kind::openai)
    {
        agentio::llm::openai_embedder_options o;
        o.base_url = config.embedding_base_url;
        o.api_key = config.embedding_api_key;
        o.model = config.embedding_model;
        o.dimensions = config.embedding_dimensions;
        out->embedder = std::make_unique<agentio::llm::openai_embedder>(http, std::move(o));
    }
    retrieval::open_searcher_options options;
    options.embedder = out->embedder.get();
    options.search.sparse_weight = config.sparse_weight;
    options.search.dense_weight = config.dense_weight;
    options.search.collection_weights = config.collection_weights;
    options.search.tracer = tracer;
    options.search.data_source = "normativa";
    options.fallback = spanish_analyzer(); // an index ingested before indexes said how their text is analysed
    options.lsa_model = lsa_model_name;
    auto opened = co_await retrieval::open_searcher(*out->index, std::move(options));
    if(!opened)
    {
        out->warning = "no se puede leer el índice '" + path + "': " + opened.error().message + ". " +
            empty_index_message();
        co_return out;
    }
    if(opened->stats.chunks == 0)
    {
        out->warning = "el índice '" + path + "' no tiene fragmentos. " + empty_index_message();
        co_return out;
    }
    out->status.chunks = opened->stats.chunks;
    for(auto const& [law, n] : opened->laws)
        out->status.laws.push_back(law);
    out->tools.laws = out->status.laws;
    out->tools.has_sentencias = opened->stats.per_collection.contains("sentencias");
    out->status.embedder = opened->embedder_id;

    // The library's status in the server's words; no embedder at all (no
    // stored model) leaves the sparse half alone, as it always did, silently.
    std::vector<std::string> missing;
    if(!opened->profile)
        missing.push_back("el índice no guarda cómo se analizó su texto: se usa el análisis en español con raíces "
                          "(vuelva a ejecutar ingest)");
    auto const* embedder = opened->own_embedder ? opened->own_embedder.get() : out->embedder.get();
    if(opened->dense == retrieval::dense_status::no_vectors && embedder)
        missing.push_back("no hay vectores de " + embedder->model_id() +
            " en el índice: solo búsqueda léxica (vuelva a ejecutar ingest)");
    else if(opened->dense == retrieval::dense_status::unreadable)
        missing.push_back("no se puede leer el modelo latente o los vectores del índice: solo búsqueda léxica "
                          "(vuelva a ejecutar ingest)");
    for(auto const& m : missing)
        out->warning += (out->warning.empty() ? "" : "; ") + m;

    out->opened.emplace(std::move(*opened));
    out->searcher = out->opened->searcher.get();
    out->tools.search = out->searcher;
    co_return out;
}

} // namespace normativa
