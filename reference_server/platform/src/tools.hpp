// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The tools of `asistente`, the platform's general agent:
//   math_calc      numeric expressions, evaluated by muParser (no code runs);
//   sql_query      one read-only SELECT through agentio-sqlite-mcp (read-only
//                  by construction there: a read-only handle, an authorizer);
//   rag_retrieval  hybrid search over a retrieval index (built by
//                  agentio-normativa ingest, say).
// A tool whose resource is not configured answers so, and the model moves on.
#pragma once

#include <agentio/mcp/client.hpp>
#include <agentio/retrieval.hpp>
#include <agentio/tool.hpp>

#include <boost/describe.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace platform {

/// What the tools use; owned by the application, shared by every run.
struct tool_resources
{
    /// The SQLite MCP server's client; empty: no database configured.
    std::optional<agentio::mcp::client> sql;
    /// Rows a query may return.
    unsigned sql_max_rows = 200;
    /// The retrieval index's searcher; null: no index configured.
    agentio::retrieval::searcher* search = nullptr;
};

struct tool_base
{
    tool_resources const* resources = nullptr;
};

struct math_calc
{
    static constexpr std::string_view name = "math_calc";
    static constexpr std::string_view description =
        "Evaluates a numeric expression exactly as written: + - * / ^, parentheses, functions (sqrt, sin, cos, tan, "
        "log, ln, exp, abs, min, max, sum, avg, rint) and the constants _pi and _e. Use it for any arithmetic "
        "instead of computing in your head.";
    struct args
    {
        std::string expression;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(math_calc::args, (), (expression))

struct sql_query : tool_base
{
    static constexpr std::string_view name = "sql_query";
    static constexpr std::string_view description =
        "Runs one read-only SQL SELECT (or WITH … SELECT) on the configured SQLite database and returns its columns "
        "and rows. Ask for the schema first with the query SELECT name, sql FROM sqlite_schema WHERE type = 'table'.";
    struct args
    {
        std::string query;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(sql_query::args, (), (query))

struct rag_retrieval : tool_base
{
    static constexpr std::string_view name = "rag_retrieval";
    static constexpr std::string_view description =
        "Searches the document collection (hybrid: keywords and meaning) and returns the most relevant passages "
        "with their source. Use 3-6 precise keywords.";
    struct args
    {
        std::string query;
        std::int64_t top_k = 5;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(rag_retrieval::args, (), (query, top_k))

using asistente_tools = agentio::toolset<math_calc, sql_query, rag_retrieval>;

/// The tools over `resources` (which must outlive them).
asistente_tools make_tools(tool_resources const& resources);

/// Evaluates `expression` with muParser: the value, or why not.
boost::system::result<double, std::string> evaluate(std::string const& expression);

} // namespace platform

template<>
struct agentio::field_traits<platform::math_calc::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "expression",
            .description = "The expression, e.g. (1250*0.21)+sqrt(2)",
            .min_length = 1,
            .max_length = 1000},
    };
};

template<>
struct agentio::field_traits<platform::sql_query::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "query", .description = "One SELECT statement", .min_length = 1, .max_length = 20000},
    };
};

template<>
struct agentio::field_traits<platform::rag_retrieval::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "query", .description = "Keywords to search for", .min_length = 1, .max_length = 500},
        {.name = "top_k", .description = "How many passages (1-10)", .minimum = 1, .maximum = 10, .default_value = "5"},
    };
};
