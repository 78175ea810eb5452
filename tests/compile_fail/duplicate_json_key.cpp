// expect: json_keys_must_be_unique<contar::args, false>
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Two members renamed to the same JSON key.
#include <agentio/tool.hpp>

#include <boost/describe.hpp>

struct contar
{
    static constexpr std::string_view name = "contar";
    static constexpr std::string_view description = "Cuenta iniciativas";
    struct args
    {
        int limite = 0;
        int tope = 0;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(contar::args, (), (limite, tope))

template<>
struct agentio::field_traits<contar::args>
{
    static constexpr agentio::field_info fields[] = {{.name = "limite", .description = "Máximo", .minimum = 1},
        {.name = "tope", .json_name = "limite", .description = "x"}};
};

using tools = agentio::toolset<contar>;
static_assert(tools::size == 1);
int main()
{
    return static_cast<int>(agentio::schema_of<contar::args>.size() == 0);
}
