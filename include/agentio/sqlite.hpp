//
// agentio/sqlite.hpp
// ~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// SQLite for coroutine servers: RAII connection and statement handles with
// errors as values, a per-connection cache of prepared statements, rows written
// straight to JSON text, and a pool of worker threads (one connection each)
// whose results complete on the caller's executor, so a network thread never
// waits on the database.
//

#ifndef AGENTIO_SQLITE_HPP
#define AGENTIO_SQLITE_HPP

#include <agentio/config.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/system/error_code.hpp>
#include <boost/system/result.hpp>

#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace agentio::sqlite {

namespace asio = boost::asio;
namespace system = boost::system;

/// The error category of SQLite result codes (`SQLITE_BUSY`, `SQLITE_READONLY`, ...).
system::error_category const& error_category() noexcept;

/// Makes an error_code from an SQLite result code.
inline system::error_code make_error_code(int sqlite_result) noexcept
{
    return {sqlite_result, error_category()};
}

/** Process-wide SQLite settings for servers that use it from many threads.

    Turns off SQLite's memory statistics, which take a global mutex on every
    allocation (about 12 % more aggregate queries per second in
    bench/rest_bench.sh). Call it first, before any other use of SQLite.

    @return `false` when SQLite was already initialized: nothing changed.
*/
bool configure_for_concurrency() noexcept;

/** `identifier` as an SQL quoted identifier: in double quotes, each `"`
    doubled. Any name SQLite allows (spaces, quotes, keywords) then reads as a
    name, never as SQL, where a statement must name a table or column it cannot
    bind as a parameter.
*/
inline std::string quote_identifier(std::string_view identifier)
{
    std::string out;
    out.reserve(identifier.size() + 2);
    out.push_back('"');
    for(char c : identifier)
    {
        if(c == '"')
            out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
    return out;
}

/** How a connection opens its file.

    Either way the connection runs in SQLite's defensive mode
    (`SQLITE_DBCONFIG_DEFENSIVE`): SQL cannot corrupt the file on purpose
    (no writes to `sqlite_schema` or shadow tables, no `writable_schema`).
*/
enum class open_mode
{
    /** Read-only, enforced by SQLite itself: the file is opened with
        `SQLITE_OPEN_READONLY` and an authorizer refuses every statement that
        is not a read (including `ATTACH`, which could open another file).
        No keyword filtering is involved. */
    read_only,

    /** Read-only for a program's own SQL: `SQLITE_OPEN_READONLY`,
        `query_only`, no `ATTACH`, as `read_only`, but no authorizer, since
        virtual tables need what it refuses (FTS5 declares its table by
        rewriting the schema row in memory when it connects). Never for SQL
        that comes from outside the program. */
    read_only_trusted,

    /// Read-write; the file is created if it does not exist.
    read_write_create
};

/// The type of a column value, as SQLite stores it.
enum class value_type
{
    integer = SQLITE_INTEGER,
    real = SQLITE_FLOAT,
    text = SQLITE_TEXT,
    blob = SQLITE_BLOB,
    null = SQLITE_NULL
};

/** A prepared statement.

    Move-only. Owns its `sqlite3_stmt` unless it was leased from a
    connection's statement cache, in which case destruction only resets it
    and clears its bindings so that the next lease starts clean.
*/
class statement
{
public:
    statement() = default;
    statement(statement&& other) noexcept;
    statement& operator=(statement&& other) noexcept;
    ~statement();

    /// The underlying handle, for what this class does not wrap.
    sqlite3_stmt* native_handle() const noexcept { return handle_; }

    /// Binds a parameter; `index` counts from 1 as in SQLite.
    /// @{
    system::result<void> bind_null(int index) noexcept;
    system::result<void> bind(int index, std::int64_t value) noexcept;
    system::result<void> bind(int index, double value) noexcept;
    system::result<void> bind(int index, std::string_view value) noexcept;
    /// Binds bytes as a BLOB (a `string_view` binds TEXT).
    system::result<void> bind_blob(int index, std::span<std::byte const> value) noexcept;
    /// @}

    /** Advances to the next row.

        @return `true` when a row is available, `false` when the statement is
        done, or the error SQLite reported.
    */
    system::result<bool> step() noexcept;

    /// Rewinds the statement to run again with the same bindings.
    void reset() noexcept;

    int column_count() const noexcept;
    std::string_view column_name(int column) const noexcept;
    value_type column_type(int column) const noexcept;
    std::int64_t column_int64(int column) const noexcept;
    double column_double(int column) const noexcept;
    std::string_view column_text(int column) const noexcept;
    /** The bytes of a BLOB column (empty for NULL), valid until the next
        step, reset or column conversion. SQLite does not align them: copy
        (`std::memcpy`) before reading them as anything but bytes. */
    std::span<std::byte const> column_blob(int column) const noexcept;

    /// Appends one value of the current row as JSON: integers and reals as
    /// numbers, text as a string, NULL (and blobs) as null.
    void append_column_json(std::string& out, int column) const;

    /// Appends the current row as a JSON object, keys in column order.
    /// Integers and reals become numbers, text strings, NULL null, blobs null.
    void append_row_json(std::string& out) const;

private:
    friend class connection;
    statement(sqlite3_stmt* handle, bool cached) noexcept : handle_(handle), cached_(cached) {}

    sqlite3_stmt* handle_ = nullptr;
    bool cached_ = false;
};

/** Writes the rows of one statement as JSON objects.

    The keys (column names, escaped, with their separators) are prepared once
    when the writer is made, so a result of many rows costs only its values.

    @code
    sqlite::json_row_writer writer(stmt);
    while(stmt.step().value())
        writer.append(out);   // {"id":1,"name":"Ana"}
    @endcode
*/
class json_row_writer
{
public:
    /// Prepares the keys of `stmt`'s columns; `stmt` must outlive the writer.
    explicit json_row_writer(statement const& stmt);

    /// Appends the statement's current row as a JSON object.
    void append(std::string& out) const;

private:
    statement const* stmt_;
    std::vector<std::string> keys_; // {"name":  ,"name":  ...
};

/** A database connection.

    Move-only; not safe for concurrent use (it is opened with
    `SQLITE_OPEN_NOMUTEX`), but may be handed from one thread to another.
    @see query_pool for using one from coroutines.
*/
class connection
{
public:
    /** Opens a database file.

        @param path The file. With `open_mode::read_only` it must exist.
        @param mode How to open it.
        @return The connection, or the error; `last_open_error` style details
        are part of the error's message through `error_category()`.
    */
    static system::result<connection> open(std::filesystem::path const& path, open_mode mode);

    connection() = default;
    connection(connection&&) noexcept;
    connection& operator=(connection&&) noexcept;
    ~connection();

    sqlite3* native_handle() const noexcept { return handle_; }

    /// Prepares a statement owned by the caller.
    system::result<statement> prepare(std::string_view sql);

    /** Leases a statement from this connection's cache of prepared statements,
        preparing it on first use. The lease resets the statement when it is
        destroyed. Only one lease of the same SQL may be alive at a time.
    */
    system::result<statement> cached(std::string_view sql);

    /// Runs one or more statements that return no rows.
    system::result<void> execute(char const* sql);

    /// The message of the last failed call on this connection (`sqlite3_errmsg`).
    std::string last_error_message() const;

private:
    struct finalizer
    {
        void operator()(sqlite3_stmt* s) const noexcept { sqlite3_finalize(s); }
    };
    struct string_hash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    using cache_map =
        std::unordered_map<std::string, std::unique_ptr<sqlite3_stmt, finalizer>, string_hash, std::equal_to<>>;

    explicit connection(sqlite3* handle) noexcept : handle_(handle) {}
    void close() noexcept;

    sqlite3* handle_ = nullptr;
    std::unique_ptr<cache_map> cache_ = std::make_unique<cache_map>();
};

/** A read transaction: every statement run while it lives sees one snapshot.

    Without one, each statement is its own transaction, and SQLite checks the
    file (locks, a hot journal) before each: a request of many statements
    pays that many times over, and its counts and pages may come from
    different versions of the data.

    @code
    sqlite::read_transaction snapshot(conn);
    auto total = count(conn);   // both from the same version of the file
    auto page = rows(conn);
    @endcode
*/
class read_transaction
{
public:
    /// Begins a deferred transaction (the snapshot starts at the first read).
    explicit read_transaction(connection& conn) noexcept;
    read_transaction(read_transaction const&) = delete;
    read_transaction& operator=(read_transaction const&) = delete;
    /// Ends it; nothing was written, so there is nothing to lose.
    ~read_transaction();

    /// Whether BEGIN succeeded (false only inside another transaction).
    bool active() const noexcept { return active_; }

private:
    connection* conn_;
    bool active_;
};

/** Worker threads, each owning one connection, for running SQLite work off the
    network threads.

    `async_run(f, token)` runs `f(connection&)` on one of the workers and
    completes with its result on the executor associated with the completion
    handler (for `use_awaitable`, the coroutine's own executor), so a
    coroutine can simply write:

    @code
    auto rows = co_await pool.async_run([](sqlite::connection& c) { return count_rows(c); },
                                        asio::use_awaitable);
    @endcode

    The completion signature is `void(std::exception_ptr, R)` where `R` is
    the result type of `f`; with `use_awaitable` an exception thrown by `f`
    is rethrown in the coroutine. Expected failures should be part of `R`
    (e.g. `system::result<T>`), exceptions are for bugs.
*/
class query_pool
{
public:
    /// Starts one worker thread per connection. At least one connection is required.
    explicit query_pool(std::vector<connection> connections);

    query_pool(query_pool const&) = delete;
    query_pool& operator=(query_pool const&) = delete;

    /// Stops and joins the workers; queued work that has not started is dropped.
    ~query_pool();

    std::size_t size() const noexcept { return threads_.size(); }

    /// Runs `f(connection&)` on a worker. @see query_pool
    template<class Function, class CompletionToken,
        class Result = std::invoke_result_t<std::decay_t<Function>&, connection&>>
    auto async_run(Function&& f, CompletionToken&& token);

private:
    asio::io_context context_;
    std::vector<connection> connections_;
    std::vector<std::thread> threads_;
};

} // namespace agentio::sqlite

#include <agentio/sqlite/impl/sqlite.hpp>
#ifdef AGENTIO_HEADER_ONLY
#include <agentio/sqlite/impl/sqlite.ipp>
#endif

#endif
