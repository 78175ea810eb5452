// expect: param_headers_must_be_unique<buscar::args, false>
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Two arguments in one header (header names ignore case).
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
        std::string zona;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(buscar::args, (), (region, zona))

template<>
struct agentio::field_traits<buscar::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "region", .description = "Región", .annotation = agentio::mcp::param_header("Region")},
        {.name = "zona", .description = "Zona", .annotation = agentio::mcp::param_header("REGION")},
    };
};

int main()
{
    agentio::toolset<buscar> tools;
    agentio::mcp::server<agentio::toolset<buscar>> server(tools);
    return static_cast<int>(agentio::schema_of<buscar::args>.size() == 0);
}
