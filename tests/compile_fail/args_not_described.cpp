// expect: a tool's `args` must be described with BOOST_DESCRIBE_STRUCT
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Arguments that Boost.Describe does not know.
#include <agentio/tool.hpp>

#include <boost/describe.hpp>

struct contar
{
    static constexpr std::string_view name = "contar";
    static constexpr std::string_view description = "Cuenta iniciativas";
    struct args
    {
        int limite = 0;
    };
    boost::asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const;
};

using tools = agentio::toolset<contar>;
static_assert(tools::size == 1);
int main() {}
