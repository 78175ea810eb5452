//
// agentio/retrieval/index_writer.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The write side of an index, whichever database holds it, and the
// pipelines an ingest runs over it: the latent-semantic vectors refreshed
// after the chunks changed, an embeddings service's vectors for the chunks
// that lack them. Its backends are `sqlite_index_async_writer`
// (<agentio/retrieval/sqlite_index.hpp>) and `postgres_index_writer`
// (<agentio/retrieval/postgres_index.hpp>); `open_index_writer` opens the
// one a string names (<agentio/retrieval/open_index_writer.hpp>).
//
//   auto writer = (co_await retrieval::open_index_writer(where, text, options)).value();
//   auto report = (co_await writer->replace("normativa", "Estatuto de los Trabajadores", chunks)).value();
//   (co_await writer->store_analysis(profile)).value();
//   retrieval::lsa_refresh_options refresh;      // named: no braced temporary inside co_await (GCC 12)
//   if(report.added + report.changed + report.removed > 0)
//       (co_await retrieval::refresh_lsa_vectors(*writer, std::move(refresh))).value();
//

#ifndef AGENTIO_RETRIEVAL_INDEX_WRITER_HPP
#define AGENTIO_RETRIEVAL_INDEX_WRITER_HPP

#include <agentio/config.hpp>
#include <agentio/llm/embeddings.hpp>
#include <agentio/retrieval/analysis.hpp>
#include <agentio/retrieval/analysis_profile.hpp>
#include <agentio/retrieval/index.hpp>
#include <agentio/retrieval/lsa.hpp>

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::retrieval {

/// What a `replace` changed.
struct ingest_report
{
    /// Keys not stored before.
    std::size_t added = 0;
    /// Keys stored before whose content differs (rewritten, their vectors dropped).
    std::size_t changed = 0;
    /// Keys stored before with the same content (untouched, their vectors kept).
    std::size_t unchanged = 0;
    /// Keys of the law no longer given (deleted with their vectors).
    std::size_t removed = 0;
};

/** The write side of an index, with one implementation per database: what
    an ingest does, and nothing that names a table.

    Every call is a coroutine that does not block its caller's thread (the
    SQLite backend runs on a worker thread of its own). Strings are copied
    when a call is made; spans must live until it completes (`co_await` it
    where it is called).

    Each call is one transaction: it is done entirely or not at all. Calls
    are not grouped into larger transactions, since the PostgreSQL backend
    runs each on whichever pooled connection is free; what must be atomic
    is one call (`replace` of a law, `store_vectors` with `replace_all`).
    Calls on one writer must not overlap.
*/
class index_writer
{
public:
    virtual ~index_writer() = default;

    /** The analyzer the writer was opened with: what the sparse index
        stores (unless PostgreSQL analyses in its own language) and what
        @ref refresh_lsa_vectors fits the latent-semantic model on. */
    virtual analyzer const& text_analyzer() const noexcept = 0;

    /** Makes the chunks of (`collection`, `law`) exactly `chunks`: a key
        already stored keeps its id (its row rewritten only if its content
        changed, and then its vectors dropped), new keys are added, keys no
        longer given are removed. Sets each chunk's `id`, `collection` and
        `law`.

        @return what changed; `errc::corrupt_data` when two chunks have one
        key (nothing written), or the database's error (nothing kept)
    */
    virtual asio::awaitable<result<ingest_report>> replace(std::string_view collection, std::string_view law,
        std::span<chunk> chunks) = 0;

    /** Removes every chunk of (`collection`, `law`) with its vectors: a
        `replace` with no chunks.

        @return how many chunks were removed (0 for a law the index lacks)
    */
    virtual asio::awaitable<result<std::size_t>> remove(std::string_view collection, std::string_view law) = 0;

    /// Every chunk, by id (what a model is fitted on).
    virtual asio::awaitable<result<std::vector<chunk>>> all_chunks() = 0;

    /// Ids of the chunks with no vector of `model_id`, in order.
    virtual asio::awaitable<result<std::vector<std::int64_t>>> missing_vectors(std::string_view model_id) = 0;

    /// The embedder model ids the index holds vectors of, each with its number of vectors.
    virtual asio::awaitable<result<std::map<std::string, std::size_t, std::less<>>>> vector_models() = 0;

    /** Stores vectors of `model_id`: row `i` of `values` (`dimensions`
        floats) for `ids[i]`. With `replace_all`, the model's other vectors
        are dropped first, in the same transaction.

        @return `errc::model_mismatch` when `values` is not `ids.size()` rows
        of `dimensions` floats (or `dimensions` is 0), nothing stored
    */
    virtual asio::awaitable<result<void>> store_vectors(std::string_view model_id, std::span<std::int64_t const> ids,
        std::span<float const> values, std::size_t dimensions, bool replace_all) = 0;

    /** Drops every vector of `model_id`.
        @return how many were dropped (0 for a model the index has none of)
    */
    virtual asio::awaitable<result<std::size_t>> drop_vectors(std::string_view model_id) = 0;

    /// Stores a model's bytes under `name`, replacing any.
    virtual asio::awaitable<result<void>> store_model(std::string_view name, std::span<std::byte const> bytes) = 0;

    /// A stored model's bytes; none when nothing is stored under `name`.
    virtual asio::awaitable<result<std::optional<std::string>>> load_model(std::string_view name) = 0;

    /** Stores how the index's text is analysed (its JSON, as the model
        @ref analysis_model_name), replacing any: what `open_searcher` and
        `load_analysis` read. It must describe @ref text_analyzer; the writer
        cannot check (a stemmer is a function). The profile is copied when
        called. */
    virtual asio::awaitable<result<void>> store_analysis(analysis_profile const& profile) = 0;
};

/// How @ref refresh_lsa_vectors fits and stores the latent-semantic model.
struct lsa_refresh_options
{
    /// The name the model is stored under (what `open_searcher_options::lsa_model` reads).
    std::string model_name = std::string(lsa_model_name);
    /// How the model is fitted.
    lsa_options fit = {};
};

/// What @ref refresh_lsa_vectors stored.
struct lsa_refresh
{
    /** The embedder model id of the new vectors (`lsa_embedder::model_id`);
        empty when there was nothing to fit. */
    std::string model_id = {};
    /// Their dimensions (0: nothing to fit, no vector stored).
    std::size_t dimensions = 0;
    /// The chunks the model was fitted on, each given its vector.
    std::size_t chunks = 0;
    /// Vectors of earlier fits dropped.
    std::size_t dropped = 0;
};

/** Fits the latent-semantic model again on every chunk of the index and
    stores it with each chunk's vector: what an ingest runs after the chunks
    changed, since vectors of an older fit mean nothing to the new model.

    Each chunk is analysed as `title + "\n" + text` by the writer's
    @ref index_writer::text_analyzer. The model's bytes are stored under
    `options.model_name`, then the vectors under its `lsa_embedder` model id
    (those of that id replaced), then the vectors of every other
    latent-semantic fit (a model id starting `lsa:`) are dropped: an index
    keeps the vectors of one fit. An index whose chunks give no term (or
    that has none) has nothing to fit: the stale vectors are dropped, no
    model or vector is stored, and the result's `dimensions` is 0.

    Deterministic: the same chunks and options store the same bytes.

    @return what was stored; or the writer's error, at the step it failed
    (an earlier step's work stays: a new model without its vectors is found
    by `open_searcher` as `dense_status::no_vectors`)

    `options` has no default on purpose: a caller names it before the
    `co_await`, as GCC 12 needs (docs/notes/engineering-notes.md).
*/
AGENTIO_DECL asio::awaitable<result<lsa_refresh>> refresh_lsa_vectors(index_writer& writer,
    lsa_refresh_options options);

/// How @ref embed_missing_vectors reports its progress.
struct embed_missing_options
{
    /** Called once the chunks to embed are known and before the embedder is
        asked, with their number (not called when there are none): a program
        says what it is about to pay for. */
    std::function<void(std::size_t chunks)> before_embedding = {};
};

/** Gives every chunk with no vector of `embed.model_id()` one: their texts
    (`title + "\n" + text`) go to `embed` in one call (the embedder batches
    as its service needs), and the vectors are stored in one transaction.
    Vectors already stored are kept.

    @return how many chunks were embedded (0: none lacked a vector, the
    embedder was not called); `errc::embedding_failed` with the embedder's
    message when it fails or returns another number of vectors (nothing
    stored), or the writer's error

    `options` has no default on purpose (GCC 12, as for @ref refresh_lsa_vectors).
*/
AGENTIO_DECL asio::awaitable<result<std::size_t>> embed_missing_vectors(index_writer& writer, llm::embedder& embed,
    embed_missing_options options);

} // namespace agentio::retrieval

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/retrieval/impl/index_writer.ipp>
#endif

#endif
