// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "tools.hpp"

#include <agentio/json_text.hpp>

#include <muParser.h>

#include <cmath>
#include <cstdio>

namespace platform {

namespace asio = boost::asio;
namespace json = boost::json;

boost::system::result<double, std::string> evaluate(std::string const& expression)
{
    try
    {
        // One parser per call: muParser objects are not thread-safe, and
        // building one costs microseconds.
        mu::Parser parser;
        parser.SetExpr(expression);
        double const value = parser.Eval();
        if(!std::isfinite(value))
            return std::string("the result is not a finite number");
        return value;
    }
    catch(mu::Parser::exception_type const& e)
    {
        return e.GetMsg();
    }
}

asio::awaitable<agentio::tool_result> math_calc::operator()(args a, agentio::tool_context&) const
{
    auto value = evaluate(a.expression);
    if(!value)
        co_return agentio::tool_result::error("Cannot evaluate '" + a.expression + "': " + value.error());
    char text[64];
    std::snprintf(text, sizeof text, "%.15g", *value);
    auto r = agentio::tool_result::json(json::object{{"expression", a.expression}, {"result", *value}});
    r.summary = a.expression + " = " + text;
    co_return r;
}

asio::awaitable<agentio::tool_result> sql_query::operator()(args a, agentio::tool_context& ctx) const
{
    if(!resources->sql)
        co_return agentio::tool_result::error(
            "No database is configured on this server (PLATFORM_SQL_DB): answer without SQL.");
    auto client = *resources->sql;
    agentio::mcp::call_options o;
    o.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::max(ctx.deadline - std::chrono::steady_clock::now(), std::chrono::steady_clock::duration(0)));
    if(ctx.deadline == std::chrono::steady_clock::time_point::max())
        o.timeout = std::chrono::seconds(30);
    json::value const arguments = json::object{{"sql", a.query}, {"max_rows", resources->sql_max_rows}};
    std::string failure;
    agentio::tool_result r;
    try
    {
        r = co_await client.call_tool("sqlite_run_select", arguments, o);
    }
    catch(agentio::mcp::client_error const& e)
    {
        failure = e.what();
    }
    if(!failure.empty())
        co_return agentio::tool_result::error("The database server failed: " + failure);
    co_return r; // rows, or the server's refusal (a write, two statements, a syntax error) as an error result
}

asio::awaitable<agentio::tool_result> rag_retrieval::operator()(args a, agentio::tool_context&) const
{
    if(!resources->search)
        co_return agentio::tool_result::error(
            "No document index is configured on this server (PLATFORM_RAG_INDEX): answer without documents.");
    agentio::retrieval::search_request request;
    request.text = a.query;
    request.top_k = static_cast<std::size_t>(a.top_k);
    auto found = co_await resources->search->search(request);
    if(!found)
        co_return agentio::tool_result::error("The search failed: " + found.error().message);
    json::array passages;
    for(auto const& h : found->hits)
    {
        std::string source = h.item.law;
        if(!h.item.article_number.empty())
            source.append(source.empty() ? "" : ", ").append("art. ").append(h.item.article_number);
        if(!h.item.paragraph.empty())
            source.append(".").append(h.item.paragraph);
        passages.push_back(json::object{{"source", source}, {"title", h.item.title}, {"text", h.item.text},
            {"score", std::round(h.score * 1000) / 1000}});
    }
    auto r = agentio::tool_result::json(std::move(passages));
    r.summary = std::to_string(found->hits.size()) + " passages";
    co_return r;
}

asistente_tools make_tools(tool_resources const& resources)
{
    return asistente_tools{math_calc{}, sql_query{{&resources}}, rag_retrieval{{&resources}}};
}

} // namespace platform
