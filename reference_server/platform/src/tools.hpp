// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The tools of `asistente`, the platform's general agent:
//   math_calc      numeric expressions, evaluated by muParser (no code runs),
//                  and algebra and calculus by SymPy in the sandbox;
//   python_code    a Python snippet in the sandbox (agentio::sandbox: no
//                  network, nothing of the host, limits, a wall clock);
//   sql_query      one read-only SELECT through agentio-sqlite-mcp (read-only
//                  by construction there: a read-only handle, an authorizer);
//   rag_retrieval  hybrid search over a retrieval index (built by
//                  agentio-normativa ingest, say) and the user's documents;
//   data_analysis  statistics over an uploaded data file, in the sandbox;
//   web_search, wikipedia, weather  the library's ready-made web tools
//                  (agentio::tools), configured by their variables.
// A tool whose resource is not configured answers so, and the model moves on.
#pragma once

#include <agentio/chat_completions/files.hpp>
#include <agentio/mcp/client.hpp>
#include <agentio/retrieval.hpp>
#include <agentio/sandbox.hpp>
#include <agentio/tool.hpp>
#include <agentio/tools.hpp>

#include <boost/describe.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace platform {

/// The users' own documents (their uploads, indexed), searched for one user at a time.
struct user_documents
{
    virtual ~user_documents() = default;
    /// `owner`'s passages for `request`, best first.
    virtual boost::asio::awaitable<boost::system::result<agentio::retrieval::search_result, std::string>>
    search(std::string owner, agentio::retrieval::search_request request) = 0;
};

/// What the tools use; owned by the application, shared by every run.
struct tool_resources
{
    /// The SQLite MCP server's client; empty: no database configured.
    std::optional<agentio::mcp::client> sql;
    /// Rows a query may return.
    unsigned sql_max_rows = 200;
    /// The retrieval index's searcher; null: no index configured.
    agentio::retrieval::searcher* search = nullptr;
    /// Where python_code and math_calc's symbolic operations run; null: nowhere, for `sandbox_missing`.
    agentio::sandbox::runner* sandbox = nullptr;
    std::string sandbox_missing = "the sandbox is turned off (PLATFORM_SANDBOX=off)";
    /// The limits of one python_code run (the wall clock from PLATFORM_SANDBOX_SECONDS).
    agentio::sandbox::limits code_limits;
    /// The users' uploaded files; null: no store keeps them.
    agentio::chat_completions::files_api const* files = nullptr;
    /// The documents they uploaded, indexed; null: none are.
    user_documents* documents = nullptr;
};

struct tool_base
{
    tool_resources const* resources = nullptr;
};

struct math_calc : tool_base
{
    static constexpr std::string_view name = "math_calc";
    static constexpr std::string_view description =
        "Mathematics done exactly instead of in your head. operation 'evaluate' (the default) computes a number: "
        "+ - * / ^, parentheses, sqrt, sin, cos, tan, log, ln, exp, abs, min, max, sum, avg, rint, _pi, _e, and "
        "SymPy's functions (factorial, binomial, gcd, ...). The symbolic operations take SymPy syntax (x**2 or x^2, "
        "2*x or 2x, sqrt, exp, log, sin, pi, E, I, oo): 'simplify', 'expand', 'factor'; 'solve' an equation "
        "(x^2-5x+6=0; an expression means =0) or a system separated by ';' with variable 'x,y'; 'diff' and "
        "'integrate' in variable (x; 'x,0,1' for a definite integral); 'limit' and 'series' at variable 'x->0' "
        "(oo for infinity). The result comes as text and as LaTeX.";
    struct args
    {
        std::string expression;
        std::string operation = "evaluate";
        std::string variable;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(math_calc::args, (), (expression, operation, variable))

struct python_code : tool_base
{
    static constexpr std::string_view name = "python_code";
    static constexpr std::string_view description =
        "Runs a Python 3 snippet in an isolated sandbox (no network, no access to this server, limited time and "
        "memory) with the standard library, numpy and sympy, and returns its stdout, stderr, the value of its last "
        "expression (as a notebook shows it), its exit status and duration. Print what you need to see. Files the "
        "user uploaded are given read-only in the working folder by their ids (file_ids) under their own names.";
    struct args
    {
        std::string code;
        std::vector<std::string> file_ids;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(python_code::args, (), (code, file_ids))

struct data_analysis : tool_base
{
    static constexpr std::string_view name = "data_analysis";
    static constexpr std::string_view description =
        "Statistics over a file the user uploaded (a JSON array of objects, JSON Lines or CSV), computed exactly "
        "(decimal sums): count, sum, mean, min, max, median or the distinct values of one field, optionally per "
        "group_by field and over the rows the filters keep. Name the file by its id, the field and the operation; "
        "an unknown field is answered with the fields there are.";
    struct filter
    {
        std::string field;
        std::string op;
        std::string value;
    };
    struct args
    {
        std::string file_id;
        std::string operation;
        std::string field;
        std::string group_by;
        std::vector<filter> filters;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context& ctx) const;
};
BOOST_DESCRIBE_STRUCT(data_analysis::filter, (), (field, op, value))
BOOST_DESCRIBE_STRUCT(data_analysis::args, (), (file_id, operation, field, group_by, filters))

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
        "Searches the document collection and the documents the user uploaded (PDF, DOCX, text, Markdown, JSON) "
        "(hybrid: keywords and meaning) and returns the most relevant passages with their source (a file's name and "
        "page or section). Use 3-6 precise keywords.";
    struct args
    {
        std::string query;
        std::int64_t top_k = 5;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(rag_retrieval::args, (), (query, top_k))

using asistente_tools = agentio::toolset<math_calc, python_code, data_analysis, sql_query, rag_retrieval,
    agentio::tools::web_search, agentio::tools::wikipedia, agentio::tools::weather>;

/// The tools over `resources` (which must outlive them) and, for the web's, `http` with `web`'s options.
asistente_tools make_tools(tool_resources const& resources, agentio::http::client& http,
    agentio::tools::web_tools_settings const& web);

/// The user's files `ids` (the caller from the tool's context), named for the sandbox, or why not.
boost::asio::awaitable<boost::system::result<std::vector<agentio::sandbox::input_file>, std::string>>
given_files(tool_resources const& resources, std::vector<std::string> const& ids, agentio::tool_context& ctx);

/// Evaluates `expression` with muParser: the value, or why not.
boost::system::result<double, std::string> evaluate(std::string const& expression);

} // namespace platform

template<>
struct agentio::field_traits<platform::math_calc::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "expression",
            .description = "The expression, e.g. (1250*0.21)+sqrt(2), x^2-5x+6=0, sin(x)/x",
            .min_length = 1,
            .max_length = 2000},
        {.name = "operation",
            .description = "What to do with it",
            .one_of = {"evaluate", "simplify", "expand", "factor", "solve", "diff", "integrate", "limit", "series"},
            .default_value = R"("evaluate")"},
        {.name = "variable",
            .description = "The variable (x); x,0,1 for a definite integral; x->0 for a limit or series; x,y for a "
                           "system. Empty: the expression's only symbol",
            .max_length = 200,
            .default_value = R"("")"},
    };
};

template<>
struct agentio::field_traits<platform::python_code::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "code", .description = "The Python 3 source to run", .min_length = 1, .max_length = 100000},
        {.name = "file_ids",
            .description = "Ids of uploaded files (file-...) to give the snippet, read-only",
            .max_items = 10,
            .default_value = "[]"},
    };
};

template<>
struct agentio::field_traits<platform::data_analysis::filter>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "field", .description = "The field the filter reads", .min_length = 1, .max_length = 200},
        {.name = "op",
            .json_name = "operator",
            .description = "How it compares: eq, ne, gt, gte, lt, lte (numbers when both sides are), contains",
            .one_of = {"eq", "ne", "gt", "gte", "lt", "lte", "contains"}},
        {.name = "value", .description = "The value compared with, as text (10.5, north)", .max_length = 1000},
    };
};

template<>
struct agentio::field_traits<platform::data_analysis::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "file_id", .description = "The uploaded file's id (file-...)", .min_length = 6, .max_length = 64},
        {.name = "operation",
            .description = "The statistic",
            .one_of = {"count", "sum", "mean", "min", "max", "median", "distinct"}},
        {.name = "field",
            .description = "The field it is computed on (not needed to count rows)",
            .max_length = 200,
            .default_value = R"("")"},
        {.name = "group_by",
            .description = "A field whose values split the rows into groups; empty: all rows together",
            .max_length = 200,
            .default_value = R"("")"},
        {.name = "filters",
            .description = "Conditions a row must meet to count, all of them",
            .max_items = 20,
            .default_value = "[]"},
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
