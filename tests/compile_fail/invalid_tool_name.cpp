// expect: tool name is 1 to 64 characters of \[A-Za-z0-9_.-\]
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A tool name MCP would refuse.
#include <agentio/tool.hpp>

#include <boost/describe.hpp>

struct contar
{
    static constexpr std::string_view name = "contar iniciativas";
    static constexpr std::string_view description = "Cuenta iniciativas";
    struct args
    {
        int limite = 0;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(contar::args, (), (limite))

template<>
struct agentio::field_traits<contar::args>
{
    static constexpr agentio::field_info fields[] = {{.name = "limite", .description = "Máximo", .minimum = 1}};
};

using tools = agentio::toolset<contar>;
static_assert(tools::size == 1);
int main()
{
    return static_cast<int>(agentio::schema_of<contar::args>.size() == 0);
}
