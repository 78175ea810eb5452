//
// agentio/postgres.hpp
// ~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// PostgreSQL for coroutine servers: libpq in non-blocking mode, driven by the
// io_context's reactor (no call that blocks a network thread, no worker
// threads), errors as values carrying the server's SQLSTATE and message,
// LISTEN/NOTIFY, and a pool of connections shared by coroutines on several
// threads, which reconnects by itself after the server comes back.
//

#ifndef AGENTIO_POSTGRES_HPP
#define AGENTIO_POSTGRES_HPP

#include <agentio/config.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/assert/source_location.hpp>
#include <boost/system/error_code.hpp>
#include <boost/system/result.hpp>

#include <libpq-fe.h>

#include <array>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentio::postgres {

namespace asio = boost::asio;
namespace system = boost::system;

/// What went wrong, in the terms a caller acts on.
enum class errc
{
    /// Could not open a connection (refused, bad URI, authentication, ...).
    connection_failed = 1,
    /// The connection died (server restart, socket closed): the statement may
    /// or may not have run. A pool opens a new connection for the next operation.
    connection_lost,
    /// The server refused the statement (`PGRES_FATAL_ERROR`); see `error::sqlstate`.
    /// The connection is still usable.
    query_failed,
    /// The pool was closed.
    pool_closed,
    /// No connection became free within `pool_options::acquire_timeout`, or
    /// none could be opened within `pool_options::connect_timeout`.
    timeout
};

/// The error category of `errc`.
system::error_category const& error_category() noexcept;

/// Makes an error_code from an `errc`.
inline system::error_code make_error_code(errc e) noexcept
{
    return {static_cast<int>(e), error_category()};
}

} // namespace agentio::postgres

template<>
struct boost::system::is_error_code_enum<agentio::postgres::errc> : std::true_type
{
};

namespace agentio::postgres {

/** What went wrong, with the server's words.

    `code` is an `errc`, except for an operation cancelled through its
    coroutine's cancellation slot: `asio::error::operation_aborted`.
*/
struct error
{
    system::error_code code;
    /// The SQLSTATE of a refused statement, e.g. "23505"; empty for connection errors.
    std::string sqlstate;
    /// libpq's message (the primary message of a refused statement), without its trailing newline.
    std::string message;
};

/// A value or the error that prevented it.
template<class T>
using result = system::result<T, error>;

/// Makes `result::value()` throw a `system::system_error` carrying the message
/// (found by argument-dependent lookup).
[[noreturn]] void throw_exception_from_error(error const& e, boost::source_location const& loc);

/** One query parameter, sent in text format, or NULL.

    A string is not copied: the parameter refers to it, so it must outlive the
    query (it does when the parameters are written in the call). Numbers and
    booleans are formatted into the parameter itself and sent with their type
    (`int8`, `float8`, `bool`); strings and NULL leave the type to the server,
    which infers it from the statement (`$1::uuid`, a column, ...).
*/
class param
{
public:
    /// NULL.
    param(std::nullptr_t) noexcept : null_(true) {}
    param(std::string_view text) noexcept : data_(text.data()), size_(text.size()) {}
    param(char const* text) noexcept : param(std::string_view(text)) {}
    param(std::string const& text) noexcept : param(std::string_view(text)) {}
    param(std::int64_t value) noexcept;
    param(int value) noexcept : param(static_cast<std::int64_t>(value)) {}
    /// Other integers (`long long`, `std::size_t`, ...): `int8`, or `numeric`
    /// for unsigned 64-bit values, which may not fit.
    template<class Integer>
    requires(std::is_integral_v<Integer> && !std::is_same_v<Integer, bool> && !std::is_same_v<Integer, char> &&
        !std::is_same_v<Integer, int> && !std::is_same_v<Integer, std::int64_t>) param(Integer value)
    noexcept
    {
        auto end = std::to_chars(buffer_, buffer_ + sizeof buffer_, value).ptr;
        set_inline({buffer_, static_cast<std::size_t>(end - buffer_)},
            std::is_signed_v<Integer> || sizeof(Integer) < 8 ? 20 : 1700);
    }
    /// Shortest round-trip form; NaN and infinities as PostgreSQL spells them.
    param(double value) noexcept;
    param(bool value) noexcept;
    /// `std::nullopt` is NULL.
    template<class T>
    param(std::optional<T> const& value) noexcept(std::is_nothrow_constructible_v<param, T const&>)
        : param(value ? param(*value) : param(nullptr))
    {
    }

    bool is_null() const noexcept { return null_; }
    /// The text sent; empty for NULL.
    std::string_view text() const noexcept { return {inline_ ? buffer_ : data_, size_}; }
    /// The type OID sent with it; 0 lets the server infer it.
    Oid type() const noexcept { return type_; }

private:
    void set_inline(std::string_view text, Oid type) noexcept;

    char const* data_ = nullptr; // unused when inline_
    std::size_t size_ = 0;
    Oid type_ = 0;
    bool null_ = false;
    bool inline_ = false; // the text is in buffer_: text() finds it there, so copies stay right
    char buffer_[32] = {};
};

/** Parameters as an array: `conn.query(sql, postgres::params(id, name))`.

    GCC 12 does not compile a braced list of parameters, `query(sql, {id,
    name})`, inside a coroutine ("array used as initializer", a compiler bug);
    this spelling compiles everywhere. The parameters refer to the strings
    given, so write them in the `co_await` expression.
*/
template<class... Args>
std::array<param, sizeof...(Args)> params(Args const&... args)
{
    return {param(args)...};
}

/** A one-dimensional array literal, the text of a `text[]` or `bigint[]`
    parameter: `conn.query("... unnest($1::text[]) ...", params(array_literal(names)))`.

    `project` maps each element to what is written: something a
    `std::string_view` is made from (written quoted, `"` and `\` escaped,
    so any text survives) or an integer (written as is).
*/
template<class Range, class Project = std::identity>
std::string array_literal(Range const& values, Project project = {})
{
    std::string out = "{";
    bool first = true;
    for(auto const& element : values)
    {
        if(!first)
            out += ',';
        first = false;
        decltype(auto) v = std::invoke(project, element);
        if constexpr(std::is_integral_v<std::remove_cvref_t<decltype(v)>>)
            out += std::to_string(v);
        else
        {
            out += '"';
            for(char c : std::string_view(v))
            {
                if(c == '"' || c == '\\')
                    out += '\\';
                out += c;
            }
            out += '"';
        }
    }
    out += '}';
    return out;
}

/** The rows of a statement (a `PGresult`), values in text format.

    Move-only; frees the result when destroyed. Row and column indexes count
    from 0 and must be in range.
*/
class rows
{
public:
    rows() noexcept = default;
    explicit rows(PGresult* result) noexcept : result_(result) {}
    rows(rows&& other) noexcept : result_(std::exchange(other.result_, nullptr)) {}
    rows& operator=(rows&& other) noexcept;
    ~rows();

    /// The number of rows.
    std::size_t size() const noexcept;
    int columns() const noexcept;
    std::string_view column_name(int column) const noexcept;
    bool is_null(std::size_t row, int column) const noexcept;
    /// The value's text; empty for NULL.
    std::string_view text(std::size_t row, int column) const noexcept;
    /// The value as an integer. @throws system::system_error when it is not one.
    std::int64_t int64(std::size_t row, int column) const;
    /// Whether a `bool` value is true (`t`).
    bool boolean(std::size_t row, int column) const noexcept;
    /// The rows an INSERT, UPDATE, DELETE or SELECT (...) touched or returned
    /// (`PQcmdTuples`); 0 for other commands.
    std::uint64_t affected() const noexcept;

    PGresult* native_handle() const noexcept { return result_; }

private:
    PGresult* result_ = nullptr;
};

/// A message of `NOTIFY channel, 'payload'` (or `pg_notify`).
struct notification
{
    std::string channel;
    std::string payload;
    /// The server process that sent it.
    int backend_pid = 0;
};

/** One PostgreSQL connection, in libpq's non-blocking mode.

    Every wait is an `async_wait` on libpq's socket, so an operation never
    blocks the thread. One operation at a time; not safe for concurrent use.

    Cancelling an operation through its coroutine's cancellation slot (for
    example `co_await (conn.query(sql) || timer.async_wait(use_awaitable))`)
    ends it promptly with `asio::error::operation_aborted` and closes the
    connection, because libpq cannot abandon a statement in flight; a
    cancelled `receive_notification` keeps it open.

    A host name is resolved with Asio's resolver (libpq's own lookup would
    block), and libpq is given its addresses. The server's notices (NOTICE,
    WARNING) are dropped; set another processor on `native_handle()` to see them.
*/
class connection
{
public:
    explicit connection(asio::any_io_executor ex);
    connection(connection const&) = delete;
    connection& operator=(connection const&) = delete;
    /// Closes the connection.
    ~connection();

    /** Opens the connection (closing any previous one).

        @param conninfo A URI (`postgresql://user@host:port/db`) or
        `key=value` pairs, as libpq takes them.
        @return `errc::connection_failed` with libpq's message when it fails.
        No time limit of its own (libpq's `connect_timeout` does not apply
        here): use the other overload, or cancel it.
    */
    asio::awaitable<result<void>> connect(std::string_view conninfo);

    /// As above; `errc::timeout` when the connection is not made within `timeout`.
    asio::awaitable<result<void>> connect(std::string_view conninfo, std::chrono::steady_clock::duration timeout);

    /** Runs one statement with parameters `$1`, `$2`, ... (`PQsendQueryParams`).

        @return Its rows (for a statement without rows, an empty result whose
        `affected()` counts the rows touched); `errc::query_failed` with the
        SQLSTATE when the server refuses it; `errc::connection_lost` when the
        connection dies.
    */
    asio::awaitable<result<rows>> query(std::string_view sql, std::span<param const> params = {});
    /// As above; copies `sql` and the parameters (not the strings they refer
    /// to), so the awaitable may be started after the call's full-expression.
    /// @see params for GCC 12.
    asio::awaitable<result<rows>> query(std::string_view sql, std::initializer_list<param> params);

    /** Runs one or more statements separated by `;`, without parameters
        (`PQsendQuery`), consuming every result. The first refused statement's
        error is returned (the server stops there).
    */
    asio::awaitable<result<void>> execute(std::string_view sql);

    /** The next notification on a channel this connection listens to (`LISTEN`).

        Notifications that arrived during earlier queries are returned first,
        in order. Waits on the socket until one arrives; cancellable.
    */
    asio::awaitable<result<notification>> receive_notification();

    /** Reads what the server sent while the connection was idle, without
        waiting: notifications are kept, and a connection the server closed
        (a restart) stops being open. The pool calls it before reusing one.

        @return `is_open()`.
    */
    bool refresh() noexcept;

    /// Whether the connection is made (`CONNECTION_OK`) and no fatal error was seen.
    bool is_open() const noexcept;

    /// Closes the connection; pending notifications are dropped.
    void close() noexcept;

    PGconn* native_handle() const noexcept { return conn_; }
    asio::any_io_executor get_executor() const noexcept { return executor_; }

private:
    asio::awaitable<system::error_code> wait(asio::posix::stream_descriptor& socket,
        asio::posix::stream_descriptor::wait_type what);
    asio::awaitable<system::error_code> wait_once(asio::posix::stream_descriptor::wait_type what);
    asio::awaitable<result<void>> start(std::string_view conninfo);
    asio::awaitable<result<void>> connect_poll();
    asio::awaitable<result<rows>> finish();
    asio::awaitable<result<rows>> query_owned(std::string sql, std::vector<param> params);
    error lost(std::string_view what);
    void keep_notifications() noexcept;

    asio::any_io_executor executor_;
    PGconn* conn_ = nullptr;
    // libpq's socket, registered with the reactor once connected; released
    // (never closed) before libpq closes it.
    std::optional<asio::posix::stream_descriptor> socket_;
    std::deque<notification> notifications_;
    bool broken_ = false;
};

/// How a pool opens and hands out connections.
struct pool_options
{
    /// At most this many connections are open at once.
    std::size_t max_connections = 8;
    /// Opening a connection takes longer → `errc::timeout`.
    std::chrono::steady_clock::duration connect_timeout = std::chrono::seconds(5);
    /// Waiting for a free connection takes longer → `errc::timeout`.
    std::chrono::steady_clock::duration acquire_timeout = std::chrono::seconds(10);
};

namespace detail {
struct pool_state;
} // namespace detail

/** Connections to one database, shared by coroutines on several threads of one
    io_context.

    Idle connections are reused (after `connection::refresh`, so one the server
    closed while idle is replaced, not used); up to `max_connections` are open;
    beyond that, callers wait in order of arrival. A connection that fails
    (`errc::connection_lost`, a cancelled operation) or is returned inside a
    transaction is dropped, and a later operation opens a new one: when the
    database comes back, so does the pool. An operation is never retried, as
    it may have run.
*/
class pool
{
public:
    pool(asio::any_io_executor ex, std::string conninfo, pool_options options = {});
    pool(pool const&) = delete;
    pool& operator=(pool const&) = delete;
    /// Closes the pool; leases still out stay valid and are closed when returned.
    ~pool();

    /// Opens one connection now, so that a server can refuse to start when the database is unreachable.
    asio::awaitable<result<void>> check();

    /// Runs one statement on a free connection. @see connection::query
    asio::awaitable<result<rows>> query(std::string_view sql, std::span<param const> params = {});
    /// As above, copying `sql` and the parameters. @see connection::query
    asio::awaitable<result<rows>> query(std::string_view sql, std::initializer_list<param> params);

    /// Runs statements without parameters on a free connection. @see connection::execute
    asio::awaitable<result<void>> execute(std::string_view sql);

    /** A connection of the pool, for statements that must run on the same
        connection (BEGIN ... COMMIT). Move-only; returns the connection to
        the pool when destroyed (a broken one, or one left inside a
        transaction, is closed instead).
    */
    class lease
    {
    public:
        lease(lease&& other) noexcept = default;
        lease& operator=(lease&& other) noexcept;
        ~lease();

        connection& operator*() const noexcept { return *conn_; }
        connection* operator->() const noexcept { return conn_.get(); }
        connection& get() const noexcept { return *conn_; }

    private:
        friend class pool;
        lease(std::shared_ptr<detail::pool_state> state, std::unique_ptr<connection> conn) noexcept
            : state_(std::move(state))
            , conn_(std::move(conn))
        {
        }
        void reset() noexcept;

        std::shared_ptr<detail::pool_state> state_;
        std::unique_ptr<connection> conn_;
    };

    /** A connection for the caller alone until the lease is destroyed.

        @return `errc::timeout` after `acquire_timeout` without a free
        connection, `errc::pool_closed`, or the error of opening one.
    */
    asio::awaitable<result<lease>> acquire();

    /// Closes the idle connections; waiting and later operations fail with `errc::pool_closed`.
    void close();

    std::string const& conninfo() const noexcept;

private:
    asio::awaitable<result<std::unique_ptr<connection>>> open_connection();
    asio::awaitable<result<rows>> query_owned(std::string sql, std::vector<param> params);

    std::shared_ptr<detail::pool_state> state_;
};

} // namespace agentio::postgres

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/postgres/impl/postgres.ipp>
#endif

#endif
