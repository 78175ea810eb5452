// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The server's tools: sqlite_get_schema and sqlite_run_select, and the
// reference SQLite server's list_tables and describe_table for clients
// written for it. A refused or failed query is a tool error whose content is
// {"error_code", "message"}: a stable code and a Spanish message.
#pragma once

#include "database.hpp"

#include <agentio/tool.hpp>

#include <boost/describe.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sqlite_mcp {

struct tool_base
{
    database const* db = nullptr;
};

struct sqlite_get_schema : tool_base
{
    static constexpr std::string_view name = "sqlite_get_schema";
    static constexpr std::string_view description =
        "Esquema de la base de datos: tablas, columnas con su tipo, claves primarias, claves foráneas y número de "
        "filas. Sin argumentos devuelve todas las tablas; con `table`, solo esa.";

    struct args
    {
        std::optional<std::string> table;
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(sqlite_get_schema::args, (), (table))

struct sqlite_run_select : tool_base
{
    static constexpr std::string_view name = "sqlite_run_select";
    static constexpr std::string_view description =
        "Ejecuta una única consulta de lectura (SELECT o WITH … SELECT) y devuelve sus columnas y filas. Los valores "
        "variables van en `params` y se enlazan a los marcadores `?` en orden. Se devuelven como mucho `max_rows` "
        "filas (`truncated` indica si había más).";

    struct args
    {
        std::string sql;
        std::optional<std::vector<boost::json::value>> params;
        std::int64_t max_rows = 500;
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(sqlite_run_select::args, (), (sql, params, max_rows))

struct list_tables : tool_base
{
    static constexpr std::string_view name = "list_tables";
    static constexpr std::string_view description = "Lista las tablas de la base de datos.";

    struct args
    {
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(list_tables::args, (), ())

struct describe_table : tool_base
{
    static constexpr std::string_view name = "describe_table";
    static constexpr std::string_view description =
        "Columnas de una tabla, como las describe PRAGMA table_info (cid, name, type, notnull, dflt_value, pk).";

    struct args
    {
        std::string table_name;
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(describe_table::args, (), (table_name))

using sqlite_tools = agentio::toolset<sqlite_get_schema, sqlite_run_select, list_tables, describe_table>;

/// The tools, reading `db` (which must outlive them).
sqlite_tools make_tools(database const& db);

} // namespace sqlite_mcp

template<>
struct agentio::field_traits<sqlite_mcp::sqlite_get_schema::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "table", .description = "Nombre de una tabla: solo su esquema", .min_length = 1, .max_length = 256},
    };
};

template<>
struct agentio::field_traits<sqlite_mcp::sqlite_run_select::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "sql",
            .description = "Una sola consulta SELECT (o WITH … SELECT), con `?` donde van los parámetros",
            .min_length = 1,
            .max_length = 100000},
        {.name = "params",
            .description = "Valores de los `?` de la consulta, en orden (números, textos, true/false o null)",
            .max_items = 999},
        {.name = "max_rows",
            .description = "Máximo de filas devueltas (por defecto 500)",
            .minimum = 1,
            .maximum = 10000,
            .default_value = "500"},
    };
};

template<>
struct agentio::field_traits<sqlite_mcp::describe_table::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "table_name", .description = "Nombre de la tabla", .min_length = 1, .max_length = 256},
    };
};
