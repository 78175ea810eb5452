// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "tools.hpp"

#include <agentio/json_text.hpp>

namespace sqlite_mcp {

namespace json = boost::json;

namespace {

agentio::tool_result refused(query_error const& e)
{
    auto body = to_json(e);
    auto r = agentio::tool_result::error(agentio::to_json_text(body));
    r.structured = std::move(body);
    r.summary = e.code;
    return r;
}

template<class T>
agentio::tool_result answer(T&& value, std::string summary)
{
    auto r = agentio::tool_result::json(json::value(std::forward<T>(value)));
    r.summary = std::move(summary);
    return r;
}

// A list as the reference SQLite server answers it (the rows, as text), with
// the structured content MCP wants as an object: {key: rows}.
agentio::tool_result answer_rows(json::array rows, char const* key, std::string summary)
{
    auto r = agentio::tool_result::text(agentio::to_json_text(rows));
    json::object structured;
    structured[key] = std::move(rows);
    r.structured = std::move(structured);
    r.summary = std::move(summary);
    return r;
}

} // namespace

boost::asio::awaitable<agentio::tool_result> sqlite_get_schema::operator()(args a, agentio::tool_context&) const
{
    auto tables = co_await db->schema(std::move(a.table));
    if(!tables)
        co_return refused(tables.error());
    auto const n = tables->size();
    json::object out;
    out["tables"] = std::move(*tables);
    co_return answer(std::move(out), std::to_string(n) + " tablas");
}

boost::asio::awaitable<agentio::tool_result> sqlite_run_select::operator()(args a, agentio::tool_context&) const
{
    json::array params;
    if(a.params)
        for(auto& p : *a.params)
            params.push_back(std::move(p));
    auto rows = co_await db->select(std::move(a.sql), std::move(params), a.max_rows);
    if(!rows)
        co_return refused(rows.error());
    json::object out;
    json::array columns;
    for(auto const& c : rows->columns)
        columns.emplace_back(c);
    auto const count = rows->rows.size();
    out["columns"] = std::move(columns);
    out["rows"] = std::move(rows->rows);
    out["row_count"] = count;
    out["truncated"] = rows->truncated;
    co_return answer(std::move(out), std::to_string(count) + (rows->truncated ? "+ filas" : " filas"));
}

boost::asio::awaitable<agentio::tool_result> list_tables::operator()(args, agentio::tool_context&) const
{
    auto tables = co_await db->table_names();
    if(!tables)
        co_return refused(tables.error());
    auto const n = tables->size();
    co_return answer_rows(std::move(*tables), "tables", std::to_string(n) + " tablas");
}

boost::asio::awaitable<agentio::tool_result> describe_table::operator()(args a, agentio::tool_context&) const
{
    auto columns = co_await db->describe(std::move(a.table_name));
    if(!columns)
        co_return refused(columns.error());
    auto const n = columns->size();
    co_return answer_rows(std::move(*columns), "columns", std::to_string(n) + " columnas");
}

sqlite_tools make_tools(database const& db)
{
    return sqlite_tools{sqlite_get_schema{{&db}}, sqlite_run_select{{&db}}, list_tables{{&db}}, describe_table{{&db}}};
}

} // namespace sqlite_mcp
