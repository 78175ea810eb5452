//
// agentio/retrieval/open_index_writer.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An index writer, or reader (`open_index`), named the way applications
// configure an index, as `threads::open_store` names a thread store: a PostgreSQL URL
// (`postgresql://…`, `postgres://…`) or a SQLite file (`sqlite:PATH` or a
// bare path, its folder created). Not included by <agentio/retrieval.hpp>:
// it needs libpq's headers.
//
//   retrieval::open_index_writer_options options;   // named: no braced temporary inside co_await (GCC 12)
//   auto writer = (co_await retrieval::open_index_writer(where, text, std::move(options))).value();
//

#ifndef AGENTIO_RETRIEVAL_OPEN_INDEX_WRITER_HPP
#define AGENTIO_RETRIEVAL_OPEN_INDEX_WRITER_HPP

#include <agentio/config.hpp>
#include <agentio/retrieval/analysis.hpp>
#include <agentio/retrieval/index_writer.hpp>
#include <agentio/retrieval/postgres_index.hpp>
#include <agentio/retrieval/sqlite_index.hpp>

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <string_view>

namespace agentio::retrieval {

/// How @ref open_index_writer opens what it is given.
struct open_index_writer_options
{
    /// For an index in PostgreSQL: how it analyses text (fixed when the index is created).
    postgres_index_options postgres = {};
    /// For an index in PostgreSQL: the pool the writer owns.
    postgres::pool_options pool = {};
};

/** Opens (creating or migrating the schema if needed) the index `where`
    names, for writing with `text` as its analyzer.

    A PostgreSQL URL gives a `postgres_index_writer` over a pool of its own
    on the caller's executor (the pool lives as long as the writer); anything
    else is a SQLite file (`sqlite:PATH`, or the path itself; its folder is
    created) and gives a `sqlite_index_async_writer`.

    @return the writer; or the backend's error (its message names the
    cause): a database that cannot be reached or opened, a schema newer than
    this program (`errc::schema_too_new`), an index created with another
    text search language (`errc::model_mismatch`)

    `options` has no default on purpose: a caller names it before the
    `co_await`, as GCC 12 needs (docs/notes/engineering-notes.md).
*/
AGENTIO_DECL asio::awaitable<result<std::unique_ptr<index_writer>>> open_index_writer(std::string_view where,
    analyzer text, open_index_writer_options options);

/** Opens the index `where` names for reading, as @ref open_index_writer
    names it: a PostgreSQL URL gives a `postgres_index` over a pool of its
    own on the caller's executor (`pool` its options); anything else is a
    SQLite file that must exist (`sqlite:PATH`, or the path itself).

    @return the index; or the backend's error: no index there, a database
    that cannot be reached, a schema newer than this program
*/
AGENTIO_DECL asio::awaitable<result<std::unique_ptr<index>>> open_index(std::string_view where,
    postgres::pool_options pool);

} // namespace agentio::retrieval

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/retrieval/impl/open_index_writer.ipp>
#endif

#endif
