// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Turning REST requests into SQL. Everything here is pure: a request body and
// the database schema in, a validated query (SQL text made only of identifiers
// found in the schema, plus bound values) or a 4xx error naming the field out.
#pragma once

#include "portfolio/table_metadata.hpp"

#include <agentio/sqlite.hpp>

#include <boost/json/fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace portfolio::api {

/// How a column's values compare: by its declared SQLite type.
enum class column_kind
{
    integer,
    real,
    text
};

struct column
{
    std::string name;
    column_kind kind;
};

struct table_schema
{
    table_info const* meta = nullptr;
    std::vector<column> columns;

    column const* find(std::string_view name) const noexcept;
    bool has_column(std::string_view name) const noexcept { return find(name) != nullptr; }
};

/// The schema of the 26 tables, read from the database at start-up.
struct database_schema
{
    std::vector<table_schema> tables; // in table_metadata order

    table_schema const* by_prefix(std::string_view prefix) const noexcept;
    table_schema const* by_name(std::string_view name) const noexcept;
};

/// A client mistake, answered with `status` and `{"detail": detail}`.
struct api_error
{
    int status;
    std::string detail;
};

/// A value or the client's mistake.
template<class T>
using checked = std::variant<T, api_error>;

/// Reads the schema with PRAGMA table_info. An error (status 500) names any
/// table of table_metadata.hpp that the database lacks.
checked<database_schema> load_schema(agentio::sqlite::connection& db);

using sql_value = std::variant<std::nullptr_t, std::int64_t, double, std::string>;

/// SQL text plus the values bound to its `?` in order.
struct sql_query
{
    std::string sql;
    std::vector<sql_value> params;
};

/// Binds `q.params` to a prepared statement.
boost::system::result<void> bind_all(agentio::sqlite::statement& stmt, std::vector<sql_value> const& params);

struct limits
{
    std::int64_t default_limit = 50;
    std::int64_t max_limit = 1000;
    std::size_t max_in_values = 1000;
    std::size_t max_filters = 50;
};

/// A validated search: the WHERE clause is shared by the count and the page.
struct search_query
{
    sql_query count;
    sql_query page;
    std::int64_t limit;
    std::int64_t offset;
};

/// GET /{prefix}?limit=&offset= (raw query-string values, absent when not given).
checked<search_query> make_list_query(table_schema const& table, std::optional<std::string_view> limit,
    std::optional<std::string_view> offset, limits const& lim);

/// POST /{prefix}/search with body `{"filters", "order_by", "order_dir", "limit", "offset"}`.
/// `filters` are joined with AND; an element `{"any": [filters]}` matches a row
/// that matches any of its filters (OR), as in every body that takes filters.
checked<search_query> make_search_query(table_schema const& table, boost::json::value const& body, limits const& lim);

/// A validated aggregate: one row per group, first column the group value.
struct aggregate_query
{
    sql_query groups;
    std::optional<std::string> group_by;
    std::vector<std::string> metric_names; // JSON keys of the metric columns, in order
    std::int64_t max_groups;
};

/// POST /{prefix}/aggregate with body `{"group_by", "metrics": [{"op","field"}], "filters"}`.
checked<aggregate_query> make_aggregate_query(table_schema const& table, boost::json::value const& body,
    limits const& lim);

/// A validated distinct-values query: how many distinct values the field has
/// among the matching rows, and one page of them with their counts (columns:
/// value, count), in reading order: numbers by value, then text ignoring ASCII
/// case (bytes break ties), NULL last.
struct distinct_query
{
    std::string field;
    sql_query count;
    sql_query page;
    std::int64_t limit;
    std::int64_t offset;
};

/// GET /{prefix}/distinct?field=&limit=&offset= (raw query-string values, absent when not given).
checked<distinct_query> make_distinct_query(table_schema const& table, std::optional<std::string_view> field,
    std::optional<std::string_view> limit, std::optional<std::string_view> offset, limits const& lim);

/// POST /{prefix}/distinct with body `{"field", "filters", "limit", "offset"}`.
checked<distinct_query> make_distinct_query(table_schema const& table, boost::json::value const& body,
    limits const& lim);

/// GET /tables: one statement, one row, one column per table of `schema`
/// (in its order) holding that table's row count.
sql_query make_table_counts_query(database_schema const& schema);

/// The JSON name of a column kind ("integer", "real", "text").
std::string_view column_kind_name(column_kind k) noexcept;

/// Registers the SQL function casefold(text) used by `ilike`: lower case for
/// ASCII and Latin-1 letters (Á→á, Ñ→ñ), which SQLite's LIKE alone only does for ASCII.
void register_functions(agentio::sqlite::connection& db);

/// Quotes an identifier for SQL ("name", inner quotes doubled).
using agentio::sqlite::quote_identifier;

} // namespace portfolio::api
