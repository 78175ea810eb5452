//
// agentio/sqlite/impl/sqlite.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Non-template bodies of agentio/sqlite.hpp.
//

#ifndef AGENTIO_SQLITE_IMPL_SQLITE_IPP
#define AGENTIO_SQLITE_IMPL_SQLITE_IPP

#include <agentio/config.hpp>
#include <agentio/json_text.hpp>

#include <boost/asio/executor_work_guard.hpp>

#include <utility>

namespace agentio::sqlite {

namespace detail {

class sqlite_category final : public system::error_category
{
public:
    char const* name() const noexcept override { return "agentio.sqlite"; }

    std::string message(int ev) const override { return sqlite3_errstr(ev); }

    char const* message(int ev, char*, std::size_t) const noexcept override { return sqlite3_errstr(ev); }
};

// Pragmas a read-only connection may run: schema introspection, and reading
// (never setting) a few values.
AGENTIO_DECL bool is_introspection_pragma(std::string_view name, char const* value) noexcept
{
    for(std::string_view allowed : {"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo",
            "foreign_key_list", "database_list", "collation_list", "function_list", "pragma_list"})
        if(name == allowed)
            return true;
    if(value)
        return false; // a value means setting it
    for(std::string_view readable :
        {"query_only", "user_version", "schema_version", "page_size", "page_count", "encoding", "data_version"})
        if(name == readable)
            return true;
    return false;
}

// Authorizer of read-only connections: reads only. It runs when a statement is
// prepared, so a refused statement never starts.
AGENTIO_DECL int read_only_authorizer(void*, int action, char const* arg1, char const* arg2, char const*,
    char const*) noexcept
{
    switch(action)
    {
    case SQLITE_FUNCTION:
        // Loading code is off on every connection; refusing it here too means
        // a query calling it never starts.
        return arg2 && sqlite3_stricmp(arg2, "load_extension") == 0 ? SQLITE_DENY : SQLITE_OK;
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
    case SQLITE_TRANSACTION: // BEGIN/COMMIT hold a read snapshot; nothing to write
        return SQLITE_OK;
    case SQLITE_PRAGMA: return arg1 && is_introspection_pragma(arg1, arg2) ? SQLITE_OK : SQLITE_DENY;
    default: return SQLITE_DENY;
    }
}

} // namespace detail

AGENTIO_DECL system::error_category const& error_category() noexcept
{
    static detail::sqlite_category const category;
    return category;
}

AGENTIO_DECL bool configure_for_concurrency() noexcept
{
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
}

// ---------------------------------------------------------------------------
// statement

AGENTIO_DECL statement::statement(statement&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr))
    , cached_(other.cached_)
{
}

AGENTIO_DECL statement& statement::operator=(statement&& other) noexcept
{
    if(this != &other)
    {
        this->~statement();
        handle_ = std::exchange(other.handle_, nullptr);
        cached_ = other.cached_;
    }
    return *this;
}

AGENTIO_DECL statement::~statement()
{
    if(!handle_)
        return;
    if(cached_)
    {
        sqlite3_reset(handle_);
        sqlite3_clear_bindings(handle_);
    }
    else
    {
        sqlite3_finalize(handle_);
    }
}

AGENTIO_DECL system::result<void> statement::bind_null(int index) noexcept
{
    if(int rc = sqlite3_bind_null(handle_, index); rc != SQLITE_OK)
        return make_error_code(rc);
    return {};
}

AGENTIO_DECL system::result<void> statement::bind(int index, std::int64_t value) noexcept
{
    if(int rc = sqlite3_bind_int64(handle_, index, value); rc != SQLITE_OK)
        return make_error_code(rc);
    return {};
}

AGENTIO_DECL system::result<void> statement::bind(int index, double value) noexcept
{
    if(int rc = sqlite3_bind_double(handle_, index, value); rc != SQLITE_OK)
        return make_error_code(rc);
    return {};
}

AGENTIO_DECL system::result<void> statement::bind(int index, std::string_view value) noexcept
{
    // SQLITE_TRANSIENT: SQLite copies, so the caller's buffer may go away.
    if(int rc = sqlite3_bind_text64(handle_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
        rc != SQLITE_OK)
        return make_error_code(rc);
    return {};
}

AGENTIO_DECL system::result<void> statement::bind_blob(int index, std::span<std::byte const> value) noexcept
{
    // A zero-length blob, not NULL: SQLite binds NULL for a null pointer.
    static constexpr std::byte empty{};
    void const* data = value.empty() ? &empty : value.data();
    if(int rc = sqlite3_bind_blob64(handle_, index, data, value.size(), SQLITE_TRANSIENT); rc != SQLITE_OK)
        return make_error_code(rc);
    return {};
}

AGENTIO_DECL system::result<bool> statement::step() noexcept
{
    switch(int rc = sqlite3_step(handle_))
    {
    case SQLITE_ROW: return true;
    case SQLITE_DONE: return false;
    default: return {system::in_place_error, make_error_code(rc)};
    }
}

AGENTIO_DECL void statement::reset() noexcept
{
    sqlite3_reset(handle_);
}

AGENTIO_DECL int statement::column_count() const noexcept
{
    return sqlite3_column_count(handle_);
}

AGENTIO_DECL std::string_view statement::column_name(int column) const noexcept
{
    char const* name = sqlite3_column_name(handle_, column);
    return name ? std::string_view(name) : std::string_view();
}

AGENTIO_DECL value_type statement::column_type(int column) const noexcept
{
    return static_cast<value_type>(sqlite3_column_type(handle_, column));
}

AGENTIO_DECL std::int64_t statement::column_int64(int column) const noexcept
{
    return sqlite3_column_int64(handle_, column);
}

AGENTIO_DECL double statement::column_double(int column) const noexcept
{
    return sqlite3_column_double(handle_, column);
}

AGENTIO_DECL std::string_view statement::column_text(int column) const noexcept
{
    auto const* p = reinterpret_cast<char const*>(sqlite3_column_text(handle_, column));
    // Length after the text conversion above, as the SQLite docs require.
    return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(handle_, column)))
             : std::string_view();
}

AGENTIO_DECL std::span<std::byte const> statement::column_blob(int column) const noexcept
{
    auto const* p = static_cast<std::byte const*>(sqlite3_column_blob(handle_, column));
    // Length after the call above, as the SQLite docs require.
    return p ? std::span<std::byte const>(p, static_cast<std::size_t>(sqlite3_column_bytes(handle_, column)))
             : std::span<std::byte const>();
}

AGENTIO_DECL void statement::append_column_json(std::string& out, int column) const
{
    switch(column_type(column))
    {
    case value_type::integer: append_json_number(out, column_int64(column)); break;
    case value_type::real: append_json_number(out, column_double(column)); break;
    case value_type::text: append_json_string(out, column_text(column)); break;
    case value_type::blob:
    case value_type::null: out.append("null"); break;
    }
}

AGENTIO_DECL void statement::append_row_json(std::string& out) const
{
    json_row_writer(*this).append(out);
}

// ---------------------------------------------------------------------------
// json_row_writer

AGENTIO_DECL json_row_writer::json_row_writer(statement const& stmt) : stmt_(&stmt)
{
    int const n = stmt.column_count();
    keys_.reserve(static_cast<std::size_t>(n));
    for(int i = 0; i < n; ++i)
    {
        std::string key(i == 0 ? "{" : ",");
        append_json_string(key, stmt.column_name(i));
        key.push_back(':');
        keys_.push_back(std::move(key));
    }
}

AGENTIO_DECL void json_row_writer::append(std::string& out) const
{
    if(keys_.empty())
    {
        out.append("{}");
        return;
    }
    for(std::size_t i = 0; i < keys_.size(); ++i)
    {
        out.append(keys_[i]);
        stmt_->append_column_json(out, static_cast<int>(i));
    }
    out.push_back('}');
}

// ---------------------------------------------------------------------------
// connection

AGENTIO_DECL system::result<connection> connection::open(std::filesystem::path const& path, open_mode mode)
{
    int const flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE |
        (mode == open_mode::read_write_create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY);
    sqlite3* handle = nullptr;
    int rc = sqlite3_open_v2(path.c_str(), &handle, flags, nullptr);
    connection c(handle); // closes the handle on every path below, even a failed open
    if(rc != SQLITE_OK)
        return make_error_code(rc);
    if(mode != open_mode::read_write_create)
    {
        if(auto r = c.execute("PRAGMA query_only = ON"); !r)
            return r.error();
        // After the pragma above, which the authorizer would refuse.
        if(mode == open_mode::read_only)
            sqlite3_set_authorizer(handle, &detail::read_only_authorizer, nullptr);
        sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 0);
        // A read-only open of something that is not a database succeeds; the
        // first read is what fails. Fail here instead, with the real reason.
        if(auto r = c.execute("SELECT count(*) FROM sqlite_schema"); !r)
            return r.error();
    }
    sqlite3_db_config(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    return c;
}

AGENTIO_DECL connection::connection(connection&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr))
    , cache_(std::move(other.cache_))
{
}

AGENTIO_DECL connection& connection::operator=(connection&& other) noexcept
{
    if(this != &other)
    {
        close();
        handle_ = std::exchange(other.handle_, nullptr);
        cache_ = std::move(other.cache_);
    }
    return *this;
}

AGENTIO_DECL connection::~connection()
{
    close();
}

AGENTIO_DECL void connection::close() noexcept
{
    if(cache_)
        cache_->clear(); // statements first: sqlite3_close refuses while any is alive
    if(handle_)
        sqlite3_close(handle_);
    handle_ = nullptr;
}

AGENTIO_DECL system::result<statement> connection::prepare(std::string_view sql)
{
    sqlite3_stmt* s = nullptr;
    int rc = sqlite3_prepare_v3(handle_, sql.data(), static_cast<int>(sql.size()), 0, &s, nullptr);
    if(rc != SQLITE_OK)
        return make_error_code(rc);
    return statement(s, false);
}

AGENTIO_DECL system::result<statement> connection::cached(std::string_view sql)
{
    // A plain clear when full keeps this simple; servers build SQL from a
    // small set of shapes, so the cache is rarely anywhere near the cap.
    constexpr std::size_t max_cached = 256;
    if(auto it = cache_->find(sql); it != cache_->end())
        return statement(it->second.get(), true);
    if(cache_->size() >= max_cached)
        cache_->clear();
    sqlite3_stmt* s = nullptr;
    int rc = sqlite3_prepare_v3(handle_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &s,
        nullptr);
    if(rc != SQLITE_OK)
        return make_error_code(rc);
    cache_->emplace(std::string(sql), std::unique_ptr<sqlite3_stmt, finalizer>(s));
    return statement(s, true);
}

AGENTIO_DECL system::result<void> connection::execute(char const* sql)
{
    int rc = sqlite3_exec(handle_, sql, nullptr, nullptr, nullptr);
    if(rc != SQLITE_OK)
        return make_error_code(rc);
    return {};
}

AGENTIO_DECL std::string connection::last_error_message() const
{
    return handle_ ? sqlite3_errmsg(handle_) : "no connection";
}

// ---------------------------------------------------------------------------
// read_transaction

AGENTIO_DECL read_transaction::read_transaction(connection& conn) noexcept
    : conn_(&conn)
    , active_(conn.execute("BEGIN").has_value())
{
}

AGENTIO_DECL read_transaction::~read_transaction()
{
    if(active_)
        (void)conn_->execute("COMMIT");
}

// ---------------------------------------------------------------------------
// query_pool

AGENTIO_DECL query_pool::query_pool(std::vector<connection> connections) : connections_(std::move(connections))
{
    if(connections_.empty())
        throw std::invalid_argument("agentio::sqlite::query_pool needs at least one connection");
    threads_.reserve(connections_.size());
    for(auto& c : connections_)
    {
        threads_.emplace_back([this, conn = &c] {
            detail::worker_connection = conn;
            auto work = asio::make_work_guard(context_);
            context_.run();
        });
    }
}

// Stopping abandons work that has not started: its handlers are destroyed,
// not invoked. Stop the network threads before destroying the pool.
AGENTIO_DECL query_pool::~query_pool()
{
    context_.stop();
    for(auto& t : threads_)
        t.join();
}

} // namespace agentio::sqlite

#endif
