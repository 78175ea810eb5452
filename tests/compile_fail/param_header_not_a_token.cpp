// expect: param_header_is_not_an_http_token<buscar::args, 0, false>
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A header name cannot hold a space.
#include <agentio/mcp/server.hpp>
#include <agentio/tool.hpp>

#include <boost/describe.hpp>

#include <string>

struct buscar
{
    static constexpr std::string_view name = "buscar";
    static constexpr std::string_view description = "Busca iniciativas";
    struct args
    {
        std::string region;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(buscar::args, (), (region))

template<>
struct agentio::field_traits<buscar::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "region", .description = "Región", .annotation = agentio::mcp::param_header("Mi Region")}};
};

int main()
{
    agentio::toolset<buscar> tools;
    agentio::mcp::server<agentio::toolset<buscar>> server(tools);
    return static_cast<int>(agentio::schema_of<buscar::args>.size() == 0);
}
