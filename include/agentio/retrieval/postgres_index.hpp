//
// agentio/retrieval/postgres_index.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An index in PostgreSQL, for replicas that share one database: chunks with
// a `tsvector` under a GIN index (PostgreSQL's full-text search, ranked by
// BM25 computed in SQL), vectors as float32 `bytea` per embedder, and stored
// models.
// Written by `postgres_index_writer`, read by `postgres_index`, both over an
// `agentio::postgres::pool` (non-blocking libpq: no worker threads).
// Not included by <agentio/retrieval.hpp>, so SQLite-only programs need no
// libpq headers.
//
//   auto writer = (co_await postgres_index_writer::open(pool, analyzer)).value();
//   auto report = (co_await writer.replace("normativa", "Estatuto de los Trabajadores", chunks)).value();
//   postgres_index index(pool);
//   auto hits = co_await index.sparse(analyzer.terms("vacaciones"), {}, 30);
//

#ifndef AGENTIO_RETRIEVAL_POSTGRES_INDEX_HPP
#define AGENTIO_RETRIEVAL_POSTGRES_INDEX_HPP

#include <agentio/config.hpp>
#include <agentio/postgres.hpp>
#include <agentio/retrieval/analysis.hpp>
#include <agentio/retrieval/analysis_profile.hpp>
#include <agentio/retrieval/index.hpp>
#include <agentio/retrieval/index_writer.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace agentio::retrieval {

/// How a PostgreSQL index analyses text; fixed when the index is created.
struct postgres_index_options
{
    /** PostgreSQL's own analysis in this language: chunks and query terms go
        through a text search configuration `agentio_<language>`, a copy of
        `pg_catalog.<language>` with `unaccent` before its Snowball stemmer
        (the database owner may create the `unaccent` extension: it is
        trusted since PostgreSQL 13). Empty: the analyzer's own terms
        (`analyzer::indexed_text`) in a `simple` tsvector, what the SQLite
        index matches on; no extension is needed then. */
    std::string language = "spanish";
};

/** A tsquery text (for `to_tsquery`) matching any of `terms`, each once:
    every run of ASCII letters and digits and non-ASCII bytes is a quoted
    operand, everything else separates, so no term is ever read as tsquery
    syntax (`&`, `|`, `!`, `<->`, `:*`, parentheses, quotes). Empty when
    there are no words. */
AGENTIO_DECL std::string tsquery_any_of(std::span<std::string const> terms);

/** The write side: creates or migrates the schema, replaces a law's chunks,
    stores vectors and models; the PostgreSQL @ref index_writer. Every
    operation is a coroutine on the pool; strings are copied when it is
    called, spans must live until it completes (`co_await` it where it is
    called). */
class postgres_index_writer final : public index_writer
{
public:
    /// The schema version this library writes.
    static constexpr int schema_version = 1;

    /** Creates or migrates the schema (under an advisory lock: replicas may
        start together) and, at creation, the text search configuration of
        `options.language`. `text` analyses what the index stores when
        `options.language` is empty; searches must analyse queries the same way.

        @return `errc::schema_too_new`, or `errc::model_mismatch` when the
        index was created with another language.
    */
    AGENTIO_DECL static asio::awaitable<result<postgres_index_writer>> open(postgres::pool& db, analyzer text,
        postgres_index_options options = {});

    /** As the other `open`, with a writer that shares the ownership of its
        pool (what `open_index_writer` returns: the pool lives as long as
        the writer). */
    AGENTIO_DECL static asio::awaitable<result<postgres_index_writer>> open(std::shared_ptr<postgres::pool> db,
        analyzer text, postgres_index_options options = {});

    /// Copies and moves write to the same database (and share the pool a shared `open` gave).
    // Out of line: inlined, GCC 12 sees a free of a non-heap object where a
    // result<postgres_index_writer> is moved from and destroyed (-Wfree-nonheap-object).
    AGENTIO_DECL postgres_index_writer(postgres_index_writer const&);
    AGENTIO_DECL postgres_index_writer(postgres_index_writer&&) noexcept;
    AGENTIO_DECL postgres_index_writer& operator=(postgres_index_writer const&);
    AGENTIO_DECL postgres_index_writer& operator=(postgres_index_writer&&) noexcept;
    AGENTIO_DECL ~postgres_index_writer() override;

    /// The analyzer the writer was opened with.
    analyzer const& text_analyzer() const noexcept override { return text_; }

    /** Makes the chunks of (`collection`, `law`) exactly `chunks`, in one
        transaction: a key already stored keeps its id (its row rewritten
        only if its content changed, and then its vectors dropped), new keys
        are added, keys no longer given are removed. Two chunks with one key
        are refused before anything is written; a key another law holds is
        refused by the database (SQLSTATE 23505) and the call rolled back.
        Sets each chunk's `id`, `collection` and `law`. */
    AGENTIO_DECL asio::awaitable<result<ingest_report>> replace(std::string_view collection, std::string_view law,
        std::span<chunk> chunks) override;

    /** Removes every chunk of (`collection`, `law`) with its vectors (a
        `replace` with no chunks); returns how many. */
    AGENTIO_DECL asio::awaitable<result<std::size_t>> remove(std::string_view collection,
        std::string_view law) override;

    /// Every chunk, by id (for fitting a model on the whole corpus).
    AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> all_chunks() override;

    /// Ids of the chunks with no vector of `model_id`, in order.
    AGENTIO_DECL asio::awaitable<result<std::vector<std::int64_t>>> missing_vectors(std::string_view model_id) override;

    /// The embedder model ids the index holds vectors of, each with its number of vectors.
    AGENTIO_DECL asio::awaitable<result<std::map<std::string, std::size_t, std::less<>>>> vector_models() override;

    /** Stores vectors of `model_id`: row `i` of `values` (`dimensions` floats)
        for `ids[i]`, in one transaction (an id given twice: its last row).
        With `replace_all`, the model's other vectors are dropped first. An
        id that is no chunk's is an error (a foreign key), and nothing is stored. */
    AGENTIO_DECL asio::awaitable<result<void>> store_vectors(std::string_view model_id,
        std::span<std::int64_t const> ids, std::span<float const> values, std::size_t dimensions,
        bool replace_all) override;

    /// Drops every vector of `model_id`; returns how many.
    AGENTIO_DECL asio::awaitable<result<std::size_t>> drop_vectors(std::string_view model_id) override;

    /// Stores a model's bytes under `name`, replacing any.
    AGENTIO_DECL asio::awaitable<result<void>> store_model(std::string_view name,
        std::span<std::byte const> bytes) override;

    /// A stored model's bytes.
    AGENTIO_DECL asio::awaitable<result<std::optional<std::string>>> load_model(std::string_view name) override;

    /** Stores how queries must be analysed (its JSON, as the model
        @ref analysis_model_name), replacing any: what `open_searcher` and
        `load_analysis` read. It must describe the analyzer the writer was
        opened with (the C++ analysis of queries and of the latent-semantic
        model, whatever `text_search()` is). The profile is copied when called. */
    AGENTIO_DECL asio::awaitable<result<void>> store_analysis(analysis_profile const& profile) override;

    /// The text search configuration of the tsvectors: `agentio_<language>` or `simple`.
    std::string const& text_search() const noexcept { return config_; }

    postgres::pool& pool() noexcept { return *db_; }

private:
    // The public operations take views and copy them into these coroutines
    // when called: a caller builds no std::string temporary inside its
    // co_await expression (what GCC 12 mishandles, docs/notes/engineering-notes.md)
    // and its strings need not outlive the call. A braced temporary there
    // (`{.language = ...}`) is still the caller's to name first.
    AGENTIO_DECL static asio::awaitable<result<postgres_index_writer>> do_open(postgres::pool& db, analyzer text,
        std::string language);
    AGENTIO_DECL asio::awaitable<result<ingest_report>> do_replace(std::string collection, std::string law,
        std::span<chunk> chunks);
    AGENTIO_DECL asio::awaitable<result<std::size_t>> do_remove(std::string collection, std::string law);
    AGENTIO_DECL static asio::awaitable<result<postgres_index_writer>>
    do_open_shared(std::shared_ptr<postgres::pool> db, analyzer text, std::string language);
    AGENTIO_DECL asio::awaitable<result<std::vector<std::int64_t>>> do_missing_vectors(std::string model_id);
    AGENTIO_DECL asio::awaitable<result<std::size_t>> do_drop_vectors(std::string model_id);
    AGENTIO_DECL asio::awaitable<result<void>> do_store_vectors(std::string model_id, std::span<std::int64_t const> ids,
        std::span<float const> values, std::size_t dimensions, bool replace_all);
    AGENTIO_DECL asio::awaitable<result<void>> do_store_model(std::string name, std::span<std::byte const> bytes);
    AGENTIO_DECL asio::awaitable<result<void>> do_store_text(std::string name, std::string text);
    AGENTIO_DECL asio::awaitable<result<std::optional<std::string>>> do_load_model(std::string name);

    postgres_index_writer(postgres::pool& db, analyzer text, std::string config) noexcept
        : db_(&db)
        , text_(std::move(text))
        , config_(std::move(config))
    {
    }

    postgres::pool* db_;
    analyzer text_;
    std::string config_;
    std::shared_ptr<postgres::pool> owned_; // set by the open that shares the pool
};

/** The read side: every call is one statement on the pool.

    Sparse relevance is BM25 (k1 = 1.2, b = 0.75, a word of the title
    counting twice), computed in SQL from the tsvectors, as the SQLite
    index's FTS5 ranks: each query word's document frequency is counted
    among the chunks the GIN index finds, so a search costs in proportion to
    the chunks that hold any of its words. PostgreSQL's own `ts_rank` and
    `ts_rank_cd` know no document frequency and ranked clearly worse on the
    labour-law questions (docs/guide/09-retrieval.md). Only ranks are fused.
*/
class postgres_index final : public index
{
public:
    /** Checks that the database holds an index written by
        `postgres_index_writer` and not newer than this program. */
    AGENTIO_DECL static asio::awaitable<result<std::unique_ptr<postgres_index>>> open(postgres::pool& db);

    /// As the other `open`, with an index that shares the ownership of its pool (what `open_index` returns).
    AGENTIO_DECL static asio::awaitable<result<std::unique_ptr<postgres_index>>>
    open(std::shared_ptr<postgres::pool> db);

    /// Over `db` (outlives the index), without checking the schema.
    explicit postgres_index(postgres::pool& db) noexcept : db_(&db) {}

    AGENTIO_DECL asio::awaitable<result<std::vector<ranked>>> sparse(std::vector<std::string> terms,
        std::vector<std::string> collections, std::size_t limit) override;
    AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> chunks(std::vector<std::int64_t> ids) override;
    AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> article(std::string law, std::string article_number,
        std::string paragraph) override;
    AGENTIO_DECL asio::awaitable<result<std::map<std::string, std::size_t, std::less<>>>> laws() override;
    AGENTIO_DECL asio::awaitable<result<index_stats>> stats() override;
    AGENTIO_DECL asio::awaitable<result<dense_corpus>> load_vectors(std::string model_id) override;
    AGENTIO_DECL asio::awaitable<result<std::optional<std::string>>> load_model(std::string name) override;

    postgres::pool& pool() noexcept { return *db_; }

private:
    // The overrides are not coroutines (as sqlite_index's are not): they move
    // their arguments into these.
    AGENTIO_DECL asio::awaitable<result<std::vector<ranked>>> do_sparse(std::vector<std::string> terms,
        std::vector<std::string> collections, std::size_t limit);
    AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> do_chunks(std::vector<std::int64_t> ids);
    AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> do_article(std::string law, std::string article_number,
        std::string paragraph);
    AGENTIO_DECL asio::awaitable<result<dense_corpus>> do_load_vectors(std::string model_id);
    AGENTIO_DECL asio::awaitable<result<std::optional<std::string>>> do_load_model(std::string name);

    postgres::pool* db_;
    std::shared_ptr<postgres::pool> owned_; // set by the open that shares the pool
};

} // namespace agentio::retrieval

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/retrieval/impl/postgres_index.ipp>
#endif

#endif
