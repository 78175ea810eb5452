//
// agentio/retrieval/impl/open_searcher.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_RETRIEVAL_IMPL_OPEN_SEARCHER_IPP
#define AGENTIO_RETRIEVAL_IMPL_OPEN_SEARCHER_IPP

#include <agentio/retrieval/lsa.hpp>
#include <agentio/retrieval/open_searcher.hpp>

#include <utility>

namespace agentio::retrieval {

namespace detail {

inline void add_warning(std::string& to, std::string const& what)
{
    if(!to.empty())
        to += "; ";
    to += what;
}

} // namespace detail

AGENTIO_DECL asio::awaitable<result<opened_searcher>> open_searcher(index& idx, open_searcher_options options)
{
    opened_searcher out;
    auto stats = co_await idx.stats();
    if(!stats)
        co_return stats.error();
    out.stats = std::move(*stats);
    auto laws = co_await idx.laws();
    if(!laws)
        co_return laws.error();
    out.laws = std::move(*laws);

    // Queries analysed as the index's text was: its profile, else the caller's word for it.
    auto stored = co_await load_analysis(idx);
    if(!stored)
        co_return stored.error();
    analyzer text;
    if(*stored)
    {
        auto made = (*stored)->make_analyzer();
        if(!made)
            co_return made.error();
        text = std::move(*made);
        out.profile = std::move(**stored);
    }
    else if(options.fallback)
    {
        text = std::move(*options.fallback);
        detail::add_warning(out.warning, "the index stores no analysis profile: queries use the fallback analyzer");
    }
    else
        co_return error{make_error_code(errc::no_analysis),
            "the index stores no analysis profile (\"" + std::string(analysis_model_name) +
                "\") and no fallback analyzer was given: write the index again with one"};

    // The dense half: the caller's embedder, or the index's latent-semantic model.
    llm::embedder* embed = options.embedder;
    if(!embed)
    {
        auto const name = options.lsa_model;
        auto bytes = co_await idx.load_model(std::move(options.lsa_model));
        if(!bytes)
        {
            out.dense = dense_status::unreadable;
            detail::add_warning(out.warning,
                "the latent-semantic model \"" + name + "\" could not be read (" + bytes.error().message +
                    "): sparse search only");
        }
        else if(!*bytes)
        {
            out.dense = dense_status::no_embedder;
            detail::add_warning(out.warning,
                "no embedder was given and the index stores no latent-semantic model (\"" + name +
                    "\"): sparse search only");
        }
        else if(auto model = lsa_model::parse(**bytes); !model)
        {
            out.dense = dense_status::unreadable;
            detail::add_warning(out.warning,
                "the stored latent-semantic model \"" + name + "\" is corrupt: sparse search only");
        }
        else
        {
            out.own_embedder = std::make_unique<lsa_embedder>(std::make_shared<lsa_model const>(std::move(*model)),
                text);
            embed = out.own_embedder.get();
        }
    }
    dense_corpus dense;
    if(embed)
    {
        auto model_id = embed->model_id();
        auto const id = model_id;
        auto loaded = co_await idx.load_vectors(std::move(model_id));
        if(!loaded)
        {
            out.dense = dense_status::unreadable;
            detail::add_warning(out.warning,
                "the vectors of " + id + " could not be read (" + loaded.error().message + "): sparse search only");
        }
        else if(!loaded->vectors || loaded->vectors->size() == 0)
        {
            out.dense = dense_status::no_vectors;
            detail::add_warning(out.warning, "the index holds no vectors of " + id + ": sparse search only");
        }
        else
        {
            dense = std::move(*loaded);
            out.embedder_id = id;
            out.dense = dense_status::ready;
        }
    }
    out.searcher = std::make_unique<searcher>(idx, std::move(text), out.dense == dense_status::ready ? embed : nullptr,
        std::move(dense), std::move(options.search));
    co_return out;
}

} // namespace agentio::retrieval

#endif
