// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "database.hpp"

#include <boost/asio/use_awaitable.hpp>
#include <boost/throw_exception.hpp>

#include <sqlite3.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

namespace sqlite_mcp {

namespace json = boost::json;
namespace asio = boost::asio;
using agentio::sqlite::quote_identifier;

namespace {

query_error validation(std::string message)
{
    return {"query_validation_failed", std::move(message)};
}

query_error sql_error(sqlite3* db)
{
    return {"sql_error", std::string("SQLite rechazó la consulta: ") + sqlite3_errmsg(db)};
}

struct finalizer
{
    void operator()(sqlite3_stmt* s) const noexcept { sqlite3_finalize(s); }
};
using statement_ptr = std::unique_ptr<sqlite3_stmt, finalizer>;

// Interrupts a statement that runs past its deadline: SQLite calls it every
// thousand virtual machine instructions.
int past_deadline(void* deadline) noexcept
{
    return std::chrono::steady_clock::now() > *static_cast<std::chrono::steady_clock::time_point*>(deadline) ? 1 : 0;
}

// The time limit of one query, lifted when it ends.
class deadline_guard
{
public:
    deadline_guard(sqlite3* db, std::chrono::milliseconds timeout)
        : db_(db)
        , deadline_(std::chrono::steady_clock::now() + timeout)
    {
        sqlite3_progress_handler(db_, 1000, &past_deadline, &deadline_);
    }
    deadline_guard(deadline_guard const&) = delete;
    deadline_guard& operator=(deadline_guard const&) = delete;
    ~deadline_guard() { sqlite3_progress_handler(db_, 0, nullptr, nullptr); }

private:
    sqlite3* db_;
    std::chrono::steady_clock::time_point deadline_;
};

json::value column_value(sqlite3_stmt* s, int i)
{
    switch(sqlite3_column_type(s, i))
    {
    case SQLITE_INTEGER: return sqlite3_column_int64(s, i);
    case SQLITE_FLOAT: return sqlite3_column_double(s, i);
    case SQLITE_TEXT:
        return json::string(reinterpret_cast<char const*>(sqlite3_column_text(s, i)),
            static_cast<std::size_t>(sqlite3_column_bytes(s, i)));
    case SQLITE_BLOB:
    {
        // As SQL writes a blob literal: X'0A1B...'.
        static constexpr char digits[] = "0123456789ABCDEF";
        auto const* p = static_cast<unsigned char const*>(sqlite3_column_blob(s, i));
        auto const n = static_cast<std::size_t>(sqlite3_column_bytes(s, i));
        std::string out = "X'";
        out.reserve(n * 2 + 3);
        for(std::size_t k = 0; k < n; ++k)
        {
            out.push_back(digits[p[k] >> 4]);
            out.push_back(digits[p[k] & 15]);
        }
        out.push_back('\'');
        return json::string(out);
    }
    default: return nullptr;
    }
}

// What a value adds to the JSON of the result, near enough to cap it.
std::size_t json_size(json::value const& v)
{
    if(auto const* s = v.if_string())
        return s->size() + 3;
    return 21;
}

// Prepares our own statement (schema queries) with text arguments.
outcome<statement_ptr> prepare_own(sqlite3* db, char const* sql, std::initializer_list<std::string_view> args)
{
    sqlite3_stmt* raw = nullptr;
    if(sqlite3_prepare_v2(db, sql, -1, &raw, nullptr) != SQLITE_OK)
        return sql_error(db);
    statement_ptr s(raw);
    int i = 0;
    for(auto a : args)
        sqlite3_bind_text(raw, ++i, a.data(), static_cast<int>(a.size()), SQLITE_TRANSIENT);
    return s;
}

// Every row of one of our statements, each as an object keyed by column name.
outcome<json::array> rows_of(sqlite3* db, sqlite3_stmt* s)
{
    json::array out;
    for(;;)
    {
        int const rc = sqlite3_step(s);
        if(rc == SQLITE_DONE)
            break;
        if(rc != SQLITE_ROW)
            return sql_error(db);
        json::object row;
        for(int i = 0; i < sqlite3_column_count(s); ++i)
            row[sqlite3_column_name(s, i)] = column_value(s, i);
        out.push_back(std::move(row));
    }
    return out;
}

outcome<std::vector<std::string>> table_list(sqlite3* db)
{
    auto s = prepare_own(db,
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
        {});
    if(!s)
        return s.error();
    std::vector<std::string> out;
    for(;;)
    {
        int const rc = sqlite3_step(s->get());
        if(rc == SQLITE_DONE)
            break;
        if(rc != SQLITE_ROW)
            return sql_error(db);
        out.emplace_back(reinterpret_cast<char const*>(sqlite3_column_text(s->get(), 0)));
    }
    return out;
}

// The table's name as stored, or the error naming what was asked.
outcome<std::string> known_table(sqlite3* db, std::string_view asked)
{
    auto tables = table_list(db);
    if(!tables)
        return tables.error();
    for(auto const& t : *tables)
        if(sqlite3_stricmp(t.c_str(), std::string(asked).c_str()) == 0)
            return outcome<std::string>(boost::system::in_place_value, t);
    return validation("La tabla '" + std::string(asked) + "' no existe");
}

outcome<json::object> describe_table(sqlite3* db, std::string const& table)
{
    json::object out;
    out["name"] = table;
    // The PRAGMA statements rather than the pragma_* table functions: the
    // read authorizer allows these introspection pragmas by name.
    auto const info_sql = "PRAGMA table_info(" + quote_identifier(table) + ")";
    auto cols = prepare_own(db, info_sql.c_str(), {});
    if(!cols)
        return cols.error();
    json::array columns;
    std::vector<std::pair<std::int64_t, std::string>> key;
    for(;;)
    {
        int const rc = sqlite3_step(cols->get());
        if(rc == SQLITE_DONE)
            break;
        if(rc != SQLITE_ROW)
            return sql_error(db);
        json::object c;
        // cid, name, type, notnull, dflt_value, pk
        c["name"] = column_value(cols->get(), 1);
        c["type"] = column_value(cols->get(), 2);
        c["not_null"] = sqlite3_column_int(cols->get(), 3) != 0;
        c["default"] = column_value(cols->get(), 4);
        auto const pk = sqlite3_column_int64(cols->get(), 5);
        c["primary_key"] = pk > 0;
        if(pk > 0)
            key.emplace_back(pk, c["name"].as_string().c_str());
        columns.push_back(std::move(c));
    }
    std::sort(key.begin(), key.end());
    json::array primary_key;
    for(auto& [_, name] : key)
        primary_key.emplace_back(name);
    out["columns"] = std::move(columns);
    out["primary_key"] = std::move(primary_key);

    auto const fk_sql = "PRAGMA foreign_key_list(" + quote_identifier(table) + ")";
    auto fks = prepare_own(db, fk_sql.c_str(), {});
    if(!fks)
        return fks.error();
    json::array foreign_keys;
    for(;;)
    {
        int const rc = sqlite3_step(fks->get());
        if(rc == SQLITE_DONE)
            break;
        if(rc != SQLITE_ROW)
            return sql_error(db);
        json::object fk;
        // id, seq, table, from, to, on_update, on_delete, match
        fk["column"] = column_value(fks->get(), 3);
        fk["references_table"] = column_value(fks->get(), 2);
        fk["references_column"] = column_value(fks->get(), 4);
        foreign_keys.push_back(std::move(fk));
    }
    out["foreign_keys"] = std::move(foreign_keys);

    auto const count_sql = "SELECT count(*) FROM " + quote_identifier(table);
    auto count = prepare_own(db, count_sql.c_str(), {});
    if(!count)
        return count.error();
    if(sqlite3_step(count->get()) != SQLITE_ROW)
        return sql_error(db);
    out["row_count"] = sqlite3_column_int64(count->get(), 0);
    return out;
}

// A value of the model's `params`, bound to the statement's i-th parameter.
outcome<void> bind_param(sqlite3_stmt* s, int i, json::value const& v)
{
    int rc = SQLITE_OK;
    switch(v.kind())
    {
    case json::kind::null: rc = sqlite3_bind_null(s, i); break;
    case json::kind::bool_: rc = sqlite3_bind_int64(s, i, v.get_bool() ? 1 : 0); break;
    case json::kind::int64: rc = sqlite3_bind_int64(s, i, v.get_int64()); break;
    case json::kind::uint64: rc = sqlite3_bind_double(s, i, static_cast<double>(v.get_uint64())); break;
    case json::kind::double_: rc = sqlite3_bind_double(s, i, v.get_double()); break;
    case json::kind::string:
        rc = sqlite3_bind_text(s, i, v.get_string().data(), static_cast<int>(v.get_string().size()), SQLITE_TRANSIENT);
        break;
    default:
        return validation("params[" + std::to_string(i - 1) + "]: se esperaba un número, un texto, true/false o null");
    }
    if(rc != SQLITE_OK)
        return validation("params[" + std::to_string(i - 1) + "]: " + sqlite3_errstr(rc));
    return {};
}

outcome<select_result> run_select(sqlite3* db, std::string const& sql, json::array const& params, std::int64_t max_rows,
    limits const& l)
{
    if(sql.size() > static_cast<std::size_t>(l.max_sql_bytes))
        return validation("La consulta ocupa " + std::to_string(sql.size()) + " bytes; el máximo es " +
            std::to_string(l.max_sql_bytes));
    sqlite3_stmt* raw = nullptr;
    char const* tail = nullptr;
    int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), 0, &raw, &tail);
    statement_ptr stmt(raw);
    // The authorizer refused it while it was prepared (SQLite reports a
    // refused function as a plain error, with this message).
    if(rc == SQLITE_AUTH || std::string_view(sqlite3_errmsg(db)).starts_with("not authorized"))
        return validation(std::string("La consulta no es de solo lectura (") + sqlite3_errmsg(db) + ")");
    if(rc == SQLITE_TOOBIG)
        return validation(std::string("La consulta es demasiado grande (") + sqlite3_errmsg(db) + ")");
    if(rc != SQLITE_OK)
        return sql_error(db);
    if(!raw)
        return validation("La consulta está vacía");
    // Exactly one statement: whatever follows may only be spaces and comments.
    {
        sqlite3_stmt* next = nullptr;
        char const* end = sql.data() + sql.size();
        int const next_rc = sqlite3_prepare_v3(db, tail, static_cast<int>(end - tail), 0, &next, nullptr);
        statement_ptr second(next);
        if(next_rc != SQLITE_OK || next)
            return validation("Se admite una sola sentencia; la consulta contiene más de una");
    }
    if(sqlite3_stmt_isexplain(raw))
        return validation("EXPLAIN no está permitido; envíe la consulta SELECT");
    if(!sqlite3_stmt_readonly(raw))
        return validation("La consulta modificaría la base de datos; solo se admiten consultas de lectura");
    if(sqlite3_column_count(raw) == 0)
        return validation("La sentencia no devuelve filas; solo se admiten consultas SELECT");
    int const expected = sqlite3_bind_parameter_count(raw);
    if(static_cast<std::size_t>(expected) != params.size())
        return validation("La consulta espera " + std::to_string(expected) + " parámetros y se recibieron " +
            std::to_string(params.size()));
    for(std::size_t i = 0; i < params.size(); ++i)
        if(auto b = bind_param(raw, static_cast<int>(i + 1), params[i]); !b)
            return b.error();

    select_result out;
    int const columns = sqlite3_column_count(raw);
    for(int i = 0; i < columns; ++i)
        out.columns.emplace_back(sqlite3_column_name(raw, i));
    std::size_t bytes = 0;
    deadline_guard deadline(db, l.timeout);
    for(;;)
    {
        rc = sqlite3_step(raw);
        if(rc == SQLITE_DONE)
            break;
        if(rc == SQLITE_INTERRUPT)
            return query_error{"query_timeout",
                "La consulta superó el tiempo máximo de " + std::to_string(l.timeout.count()) + " ms"};
        if(rc == SQLITE_TOOBIG)
            return query_error{"result_too_large",
                "Un valor del resultado supera el máximo de " + std::to_string(l.max_value_bytes) + " bytes"};
        if(rc != SQLITE_ROW)
            return sql_error(db);
        if(static_cast<std::int64_t>(out.rows.size()) == max_rows)
        {
            out.truncated = true;
            break;
        }
        json::array row;
        row.reserve(static_cast<std::size_t>(columns));
        for(int i = 0; i < columns; ++i)
        {
            row.push_back(column_value(raw, i));
            bytes += json_size(row.back());
        }
        if(bytes > l.max_result_bytes)
            return query_error{"result_too_large",
                "El resultado supera " + std::to_string(l.max_result_bytes) +
                    " bytes; pida menos filas o menos columnas"};
        out.rows.push_back(std::move(row));
    }
    return out;
}

std::vector<agentio::sqlite::connection> open_connections(std::filesystem::path const& path, limits const& l,
    std::string& error)
{
    std::vector<agentio::sqlite::connection> out;
    for(std::size_t i = 0; i < std::max<std::size_t>(l.connections, 1); ++i)
    {
        auto c = agentio::sqlite::connection::open(path, agentio::sqlite::open_mode::read_only);
        if(!c)
        {
            error = "no se puede abrir " + path.string() + " como base de datos SQLite: " + c.error().message();
            return {};
        }
        sqlite3* db = c->native_handle();
        sqlite3_limit(db, SQLITE_LIMIT_LENGTH, l.max_value_bytes);
        sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, l.max_sql_bytes);
        sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 200);
        sqlite3_limit(db, SQLITE_LIMIT_COMPOUND_SELECT, 100);
        sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, 999);
        sqlite3_limit(db, SQLITE_LIMIT_FUNCTION_ARG, 32);
        sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 10000);
        sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
        sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
        out.push_back(std::move(*c));
    }
    return out;
}

} // namespace

json::object to_json(query_error const& e)
{
    json::object o;
    o["error_code"] = e.code;
    o["message"] = e.message;
    return o;
}

void throw_exception_from_error(query_error const& e, boost::source_location const& loc)
{
    boost::throw_exception(std::runtime_error(e.code + ": " + e.message), loc);
}

boost::system::result<std::unique_ptr<database>, std::string> database::open(std::filesystem::path const& path,
    limits const& l)
{
    std::error_code ec;
    if(!std::filesystem::is_regular_file(path, ec))
        return boost::system::result<std::unique_ptr<database>, std::string>(boost::system::in_place_error,
            "no existe el fichero " + path.string());
    std::string error;
    auto connections = open_connections(path, l, error);
    if(connections.empty())
        return boost::system::result<std::unique_ptr<database>, std::string>(boost::system::in_place_error, error);
    return std::unique_ptr<database>(new database(std::move(connections), l));
}

database::database(std::vector<agentio::sqlite::connection> connections, limits const& l)
    : pool_(std::move(connections))
    , limits_(l)
{
}

asio::awaitable<outcome<json::array>> database::schema(std::optional<std::string> table) const
{
    return pool_.async_run(
        [table = std::move(table)](agentio::sqlite::connection& c) -> outcome<json::array> {
            sqlite3* db = c.native_handle();
            agentio::sqlite::read_transaction snapshot(c); // every count from the same version of the file
            std::vector<std::string> names;
            if(table)
            {
                auto known = known_table(db, *table);
                if(!known)
                    return known.error();
                names.push_back(std::move(*known));
            }
            else
            {
                auto all = table_list(db);
                if(!all)
                    return all.error();
                names = std::move(*all);
            }
            json::array out;
            for(auto const& name : names)
            {
                auto t = describe_table(db, name);
                if(!t)
                    return t.error();
                out.push_back(std::move(*t));
            }
            return out;
        },
        asio::use_awaitable);
}

asio::awaitable<outcome<json::array>> database::table_names() const
{
    return pool_.async_run(
        [](agentio::sqlite::connection& c) -> outcome<json::array> {
            auto all = table_list(c.native_handle());
            if(!all)
                return all.error();
            json::array out;
            for(auto const& name : *all)
                out.push_back(json::object{{"name", name}});
            return out;
        },
        asio::use_awaitable);
}

asio::awaitable<outcome<json::array>> database::describe(std::string table) const
{
    return pool_.async_run(
        [table = std::move(table)](agentio::sqlite::connection& c) -> outcome<json::array> {
            sqlite3* db = c.native_handle();
            auto known = known_table(db, table);
            if(!known)
                return known.error();
            auto const sql = "PRAGMA table_info(" + quote_identifier(*known) + ")";
            auto s = prepare_own(db, sql.c_str(), {});
            if(!s)
                return s.error();
            return rows_of(db, s->get());
        },
        asio::use_awaitable);
}

asio::awaitable<outcome<select_result>> database::select(std::string sql, json::array params,
    std::int64_t max_rows) const
{
    return pool_.async_run(
        [this, sql = std::move(sql), params = std::move(params),
            max_rows](agentio::sqlite::connection& c) -> outcome<select_result> {
            return run_select(c.native_handle(), sql, params, std::clamp<std::int64_t>(max_rows, 1, limits_.max_rows),
                limits_);
        },
        asio::use_awaitable);
}

} // namespace sqlite_mcp
