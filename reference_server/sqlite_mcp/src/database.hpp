// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Any SQLite file, read-only by construction: connections opened read-only
// (SQLITE_OPEN_READONLY, query_only, an authorizer that allows reads only,
// no ATTACH, defensive mode), and on top of that, for each query: exactly
// one statement that returns rows and writes nothing, a time limit (the
// progress handler), limits on lengths and depth, and caps on the rows and
// bytes returned. No keyword is looked at: SQLite itself says what a
// statement does.
#pragma once

#include <agentio/sqlite.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/system/result.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sqlite_mcp {

/// What one query may cost.
struct limits
{
    std::int64_t default_rows = 500;         ///< rows of a select that names no max_rows
    std::int64_t max_rows = 10000;           ///< the most a select may ask for
    std::size_t max_result_bytes = 4 << 20;  ///< JSON of the rows returned
    std::chrono::milliseconds timeout{5000}; ///< a query running longer is interrupted
    int max_sql_bytes = 100000;              ///< SQLITE_LIMIT_SQL_LENGTH
    int max_value_bytes = 1 << 20;           ///< SQLITE_LIMIT_LENGTH: a string or blob a query makes
    std::size_t connections = 2;             ///< queries that run at once
};

/// Why a query was not answered: a stable code and a Spanish message.
struct query_error
{
    /// query_validation_failed, query_timeout, result_too_large or sql_error.
    std::string code;
    std::string message;
};

template<class T>
using outcome = boost::system::result<T, query_error>;

/// The rows of a select.
struct select_result
{
    std::vector<std::string> columns;
    boost::json::array rows; ///< arrays of values, in column order
    bool truncated = false;  ///< more rows than max_rows: only the first are here
};

class database
{
public:
    /// Opens the file read-only (it must exist and be a database); the reason otherwise.
    static boost::system::result<std::unique_ptr<database>, std::string> open(std::filesystem::path const& path,
        limits const& l = {});

    limits const& query_limits() const noexcept { return limits_; }

    /// Tables (all, or the one named) with their columns, keys, foreign keys and row counts.
    boost::asio::awaitable<outcome<boost::json::array>> schema(std::optional<std::string> table) const;
    /// The tables' names.
    boost::asio::awaitable<outcome<boost::json::array>> table_names() const;
    /// The table's columns as `PRAGMA table_info` describes them.
    boost::asio::awaitable<outcome<boost::json::array>> describe(std::string table) const;
    /// One query that returns rows, with `params` bound in order.
    boost::asio::awaitable<outcome<select_result>> select(std::string sql, boost::json::array params,
        std::int64_t max_rows) const;

private:
    database(std::vector<agentio::sqlite::connection> connections, limits const& l);

    mutable agentio::sqlite::query_pool pool_;
    limits limits_;
};

/// The error's JSON: {"error_code": ..., "message": ...}.
boost::json::object to_json(query_error const& e);

/// What `outcome::value()` throws on an error: std::runtime_error with the code and message.
[[noreturn]] void throw_exception_from_error(query_error const& e, boost::source_location const& loc);

} // namespace sqlite_mcp
