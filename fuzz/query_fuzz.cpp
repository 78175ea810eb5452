// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// libFuzzer target: the REST API's request-to-SQL translation on arbitrary bodies.
//
// Beyond "no crash, no sanitizer report": whatever the body, the answer is a
// 4xx error or SQL whose placeholders match its bound values, and no byte of
// the body's text ever appears in the SQL outside of what the schema names.
#include "api/query.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

using namespace portfolio::api;

namespace {

table_schema const& sample()
{
    static portfolio::table_info const meta{"datos_relevantes", "datos-relevantes", "", true, true};
    static table_schema const t{&meta,
        {{"id", column_kind::integer}, {"portfolio_id", column_kind::text}, {"nombre", column_kind::text},
            {"importe_2025", column_kind::real}, {"anio", column_kind::integer}}};
    return t;
}

void check(sql_query const& q)
{
    if(static_cast<std::size_t>(std::count(q.sql.begin(), q.sql.end(), '?')) != q.params.size())
        std::abort();
    // Only schema identifiers are quoted: a client's text would show up as a quoted identifier.
    for(std::size_t at = 0; (at = q.sql.find('"', at)) != std::string::npos;)
    {
        auto const end = q.sql.find('"', at + 1);
        if(end == std::string::npos)
            std::abort();
        auto const name = q.sql.substr(at + 1, end - at - 1);
        if(name != sample().meta->name && !sample().has_column(name))
            std::abort();
        at = end + 1;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    boost::system::error_code ec;
    auto const body = boost::json::parse(std::string_view(reinterpret_cast<char const*>(data), size), ec);
    if(ec)
        return 0;
    auto s = make_search_query(sample(), body, limits{});
    if(auto const* q = std::get_if<search_query>(&s))
    {
        check(q->count);
        check(q->page);
    }
    else if(std::get<api_error>(s).status / 100 != 4)
        std::abort();
    auto a = make_aggregate_query(sample(), body, limits{});
    if(auto const* q = std::get_if<aggregate_query>(&a))
        check(q->groups);
    else if(std::get<api_error>(a).status / 100 != 4)
        std::abort();
    return 0;
}
