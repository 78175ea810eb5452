//
// agentio/retrieval/open_searcher.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An opened index made ready for searching by what it stores: its analysis
// profile, its latent-semantic model, the vectors of the query embedder.
// Any program can search an index this way, not only the one that wrote it.
//
//   auto index = retrieval::sqlite_index::open("data/index.db").value();
//   retrieval::open_searcher_options options;   // named: no braced temporary inside co_await (GCC 12)
//   options.embedder = &my_embedder;            // or none: the index's latent-semantic model
//   auto opened = (co_await retrieval::open_searcher(*index, std::move(options))).value();
//   if(!opened.warning.empty())
//       log(opened.warning);                    // e.g. sparse search only, and why
//   auto found = co_await opened.searcher->search(request);
//

#ifndef AGENTIO_RETRIEVAL_OPEN_SEARCHER_HPP
#define AGENTIO_RETRIEVAL_OPEN_SEARCHER_HPP

#include <agentio/config.hpp>
#include <agentio/llm/embeddings.hpp>
#include <agentio/retrieval/analysis.hpp>
#include <agentio/retrieval/analysis_profile.hpp>
#include <agentio/retrieval/index.hpp>
#include <agentio/retrieval/lsa.hpp> // lsa_model_name
#include <agentio/retrieval/searcher.hpp>

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace agentio::retrieval {

/// How @ref open_searcher builds the searcher.
struct open_searcher_options
{
    /** The query embedder of the dense half (an embeddings service the
        application configured); it outlives the opened searcher. Null: the
        latent-semantic model the index stores, if any. */
    llm::embedder* embedder = nullptr;
    /// How the halves and collections weigh.
    search_options search = {};
    /** The analyzer for an index that stores no analysis profile (written
        before profiles existed, or by a writer never given one). None: such
        an index is the error `errc::no_analysis`. A stored profile always
        wins over it. */
    std::optional<analyzer> fallback = {};
    /// Where the index keeps its latent-semantic model.
    std::string lsa_model = std::string(lsa_model_name);
};

/// The dense half after @ref open_searcher, or why there is none.
enum class dense_status
{
    /// An embedder and its vectors: searches are hybrid.
    ready,
    /// No embedder given and no latent-semantic model stored: sparse only.
    no_embedder,
    /// The index holds no vectors of the embedder's model (never embedded with it, or refitted since): sparse only.
    no_vectors,
    /// The stored model is corrupt, or the model or the vectors could not be read: sparse only.
    unreadable
};

/** A searcher over an index with what it was built from: the index's
    analysis, the embedder the index's latent-semantic model makes, the
    vectors, and what the index holds. Movable; the searcher keeps its
    address. The index (and a given embedder) must outlive it. */
struct opened_searcher
{
    /// The embedder made from the index's latent-semantic model (null when one was given, or there is none).
    std::unique_ptr<llm::embedder> own_embedder = {};
    /// The searcher, with the analyzer and the vectors it owns (never null after a successful open).
    std::unique_ptr<retrieval::searcher> searcher = {};
    /// The analysis the index stores; none: the caller's fallback analyzer is used.
    std::optional<analysis_profile> profile = {};
    /// How many chunks, in all and per collection.
    index_stats stats = {};
    /// The laws the index holds, each with its number of chunks.
    std::map<std::string, std::size_t, std::less<>> laws = {};
    /// The dense half's embedder model id; empty when searches are sparse only.
    std::string embedder_id = {};
    /// Whether the dense half is there, and why not.
    dense_status dense = dense_status::no_embedder;
    /** For a log, in English: why the dense half is missing, and that the
        fallback analyzer is used. Empty when the profile and the dense half
        are both there. */
    std::string warning = {};
};

/** Makes `idx` (either backend, opened) ready for searching: reads its
    counts and its analysis profile, builds the analyzer the profile
    describes, the dense half's embedder (`options.embedder`, or one from
    the stored latent-semantic model) and loads that embedder's vectors.

    A dense half that cannot be had (no model, no vectors, unreadable ones)
    leaves a sparse-only searcher, with `dense` and `warning` saying why. An
    index with no chunks is opened too (`stats.chunks` is 0): the caller
    decides what that means.

    @return the opened searcher; or the database's error reading counts or
    the profile, `errc::no_analysis` (no profile and no fallback),
    `errc::unknown_stemmer`, or `errc::corrupt_data` / `errc::schema_too_new`
    for a profile this program cannot read.

    `options` has no default on purpose: a caller names it before the
    `co_await`, as GCC 12 needs (docs/notes/engineering-notes.md).
*/
AGENTIO_DECL asio::awaitable<result<opened_searcher>> open_searcher(index& idx, open_searcher_options options);

} // namespace agentio::retrieval

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/retrieval/impl/open_searcher.ipp>
#endif

#endif
