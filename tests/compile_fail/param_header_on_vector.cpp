// expect: constraint_does_not_apply_to_member_type<&buscar::args::regiones, false>
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An Mcp-Param header mirrors one scalar, not a list.
#include <agentio/mcp/server.hpp>
#include <agentio/tool.hpp>

#include <boost/describe.hpp>

#include <string>
#include <vector>

struct buscar
{
    static constexpr std::string_view name = "buscar";
    static constexpr std::string_view description = "Busca iniciativas";
    struct args
    {
        std::vector<std::string> regiones;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(buscar::args, (), (regiones))

template<>
struct agentio::field_traits<buscar::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "regiones", .description = "Regiones", .annotation = agentio::mcp::param_header("Region")}};
};

int main()
{
    agentio::toolset<buscar> tools;
    agentio::mcp::server<agentio::toolset<buscar>> server(tools);
    return static_cast<int>(agentio::schema_of<buscar::args>.size() == 0);
}
