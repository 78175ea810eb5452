//
// agentio/retrieval/sqlite_index.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An index in one SQLite file: chunks, an FTS5 table of their analysed text
// ranked by BM25, vectors as float32 blobs per embedder, and stored models.
// Written by `sqlite_index_writer` (ingest, a read-write connection), read by
// `sqlite_index` (read-only connections on worker threads: a search never
// blocks a network thread and can never write).
// `sqlite_index_async_writer` is the writer behind the `index_writer`
// interface both databases implement.
//
//   auto writer = sqlite_index_writer::open("data/index.db", profile.make_analyzer().value()).value();
//   auto report = writer.replace("normativa", "Estatuto de los Trabajadores", chunks).value();
//   writer.store_analysis(profile).value();
//   auto index = sqlite_index::open("data/index.db").value();
//   auto hits = co_await index->sparse(analyzer.terms("vacaciones"), {}, 30);
//

#ifndef AGENTIO_RETRIEVAL_SQLITE_INDEX_HPP
#define AGENTIO_RETRIEVAL_SQLITE_INDEX_HPP

#include <agentio/retrieval/analysis.hpp>
#include <agentio/retrieval/analysis_profile.hpp>
#include <agentio/retrieval/index.hpp>
#include <agentio/retrieval/index_writer.hpp>
#include <agentio/sqlite.hpp>

#include <boost/asio/thread_pool.hpp>

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::retrieval {

/** The write side: creates the schema, replaces a law's chunks, stores
    vectors and models. Synchronous: ingest is a command, not a request.
    Behind the backend-neutral @ref index_writer it is
    @ref sqlite_index_async_writer. */
class sqlite_index_writer
{
public:
    /// The schema version this library writes.
    static constexpr int schema_version = 1;

    /** Opens (creating if needed) the index at `path`. `text` analyses what
        the sparse index stores; searches must analyse queries the same way. */
    AGENTIO_DECL static result<sqlite_index_writer> open(std::filesystem::path const& path, analyzer text);

    /** Makes the chunks of (`collection`, `law`) exactly `chunks`, in one
        transaction: a key already stored keeps its id (its row rewritten
        only if its content changed, and then its vectors dropped), new keys
        are added, keys no longer given are removed. Sets each chunk's `id`. */
    AGENTIO_DECL result<ingest_report> replace(std::string_view collection, std::string_view law,
        std::span<chunk> chunks);

    /** Removes every chunk of (`collection`, `law`) with its vectors (a
        `replace` with no chunks); returns how many. */
    AGENTIO_DECL result<std::size_t> remove(std::string_view collection, std::string_view law);

    /// Every chunk, by id (for fitting a model on the whole corpus).
    AGENTIO_DECL result<std::vector<chunk>> all_chunks();

    /// Ids of the chunks with no vector of `model_id`.
    AGENTIO_DECL result<std::vector<std::int64_t>> missing_vectors(std::string_view model_id);

    /** Stores vectors of `model_id`: row `i` of `values` (`dimensions` floats)
        for `ids[i]`, in one transaction. With `replace_all`, the model's other
        vectors are dropped first (a refitted model makes them meaningless). */
    AGENTIO_DECL result<void> store_vectors(std::string_view model_id, std::span<std::int64_t const> ids,
        std::span<float const> values, std::size_t dimensions, bool replace_all);

    /// The embedder model ids the index holds vectors of, each with its number of vectors.
    AGENTIO_DECL result<std::map<std::string, std::size_t, std::less<>>> vector_models();

    /// Drops every vector of `model_id`; returns how many.
    AGENTIO_DECL result<std::size_t> drop_vectors(std::string_view model_id);

    /// Stores a model's bytes under `name`, replacing any.
    AGENTIO_DECL result<void> store_model(std::string_view name, std::span<std::byte const> bytes);

    /// A stored model's bytes.
    AGENTIO_DECL result<std::optional<std::string>> load_model(std::string_view name);

    /** Stores how the index's text is analysed (its JSON, as the model
        @ref analysis_model_name), replacing any: what `open_searcher` and
        `load_analysis` read, so a program that did not write the index
        analyses its queries alike. It must describe the analyzer the writer
        was opened with; the writer cannot check (a stemmer is a function). */
    AGENTIO_DECL result<void> store_analysis(analysis_profile const& profile);

    /// The analyzer the writer was opened with.
    analyzer const& text_analyzer() const noexcept { return text_; }

    /// The read-write connection, for what the writer does not do.
    sqlite::connection& connection() noexcept { return conn_; }

private:
    sqlite_index_writer(sqlite::connection conn, analyzer text) noexcept
        : conn_(std::move(conn))
        , text_(std::move(text))
    {
    }

    sqlite::connection conn_;
    analyzer text_;
};

/** A @ref sqlite_index_writer as an @ref index_writer: each call runs the
    synchronous writer's operation on a worker thread of its own (as the
    SQLite thread store writes) and completes on the caller's executor, so
    a server's threads never wait on the disk.

    Not movable (the worker holds its address): opened into a `unique_ptr`.
    It must outlive every call made on it.

    @code
    auto writer = retrieval::sqlite_index_async_writer::open("data/index.db", text).value();
    auto report = (co_await writer->replace("normativa", "Estatuto de los Trabajadores", chunks)).value();
    @endcode
*/
class sqlite_index_async_writer final : public index_writer
{
public:
    /** Opens (creating if needed) the index at `path` with
        `sqlite_index_writer::open`; its folder must exist. */
    AGENTIO_DECL static result<std::unique_ptr<sqlite_index_async_writer>> open(std::filesystem::path const& path,
        analyzer text);

    /// Over an opened writer, which it owns from now on.
    AGENTIO_DECL explicit sqlite_index_async_writer(sqlite_index_writer writer);

    sqlite_index_async_writer(sqlite_index_async_writer const&) = delete;
    sqlite_index_async_writer& operator=(sqlite_index_async_writer const&) = delete;

    /// Joins the worker thread.
    AGENTIO_DECL ~sqlite_index_async_writer() override;

    // The operations of index_writer, documented there.
    analyzer const& text_analyzer() const noexcept override { return writer_.text_analyzer(); }
    AGENTIO_DECL asio::awaitable<result<ingest_report>> replace(std::string_view collection, std::string_view law,
        std::span<chunk> chunks) override;
    AGENTIO_DECL asio::awaitable<result<std::size_t>> remove(std::string_view collection,
        std::string_view law) override;
    AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> all_chunks() override;
    AGENTIO_DECL asio::awaitable<result<std::vector<std::int64_t>>> missing_vectors(std::string_view model_id) override;
    AGENTIO_DECL asio::awaitable<result<std::map<std::string, std::size_t, std::less<>>>> vector_models() override;
    AGENTIO_DECL asio::awaitable<result<void>> store_vectors(std::string_view model_id,
        std::span<std::int64_t const> ids, std::span<float const> values, std::size_t dimensions,
        bool replace_all) override;
    AGENTIO_DECL asio::awaitable<result<std::size_t>> drop_vectors(std::string_view model_id) override;
    AGENTIO_DECL asio::awaitable<result<void>> store_model(std::string_view name,
        std::span<std::byte const> bytes) override;
    AGENTIO_DECL asio::awaitable<result<std::optional<std::string>>> load_model(std::string_view name) override;
    AGENTIO_DECL asio::awaitable<result<void>> store_analysis(analysis_profile const& profile) override;

private:
    sqlite_index_writer writer_;
    asio::thread_pool worker_{1}; // destroyed (joined) before the writer
};

/** The read side over read-only connections, one worker thread each. */
class sqlite_index final : public index
{
public:
    /** Opens an index written by `sqlite_index_writer`. A missing file or
        one without the schema is an error: an application says how to ingest. */
    AGENTIO_DECL static result<std::unique_ptr<sqlite_index>> open(std::filesystem::path const& path,
        std::size_t connections = 2);

    AGENTIO_DECL asio::awaitable<result<std::vector<ranked>>> sparse(std::vector<std::string> terms,
        std::vector<std::string> collections, std::size_t limit) override;
    AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> chunks(std::vector<std::int64_t> ids) override;
    AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> article(std::string law, std::string article_number,
        std::string paragraph) override;
    AGENTIO_DECL asio::awaitable<result<std::map<std::string, std::size_t, std::less<>>>> laws() override;
    AGENTIO_DECL asio::awaitable<result<index_stats>> stats() override;
    AGENTIO_DECL asio::awaitable<result<dense_corpus>> load_vectors(std::string model_id) override;
    AGENTIO_DECL asio::awaitable<result<std::optional<std::string>>> load_model(std::string name) override;

    explicit sqlite_index(std::vector<sqlite::connection> readers) : readers_(std::move(readers)) {}

private:
    sqlite::query_pool readers_;
};

} // namespace agentio::retrieval

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/retrieval/impl/sqlite_index.ipp>
#endif

#endif
