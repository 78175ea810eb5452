// expect: a function_tool's function is
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A function_tool's function takes its arguments and the context, and is a coroutine.
#include <agentio/tool.hpp>

#include <boost/describe.hpp>

struct echo_args
{
    std::string text;
    static constexpr agentio::field_info fields[] = {{.description = "What to echo"}};
};
BOOST_DESCRIBE_STRUCT(echo_args, (), (text))

agentio::tool_result echo(echo_args); // not a coroutine, no context
using echo_tool = agentio::function_tool<"echo", "Echoes its text.", echo>;

int main()
{
    agentio::toolset<echo_tool> tools;
    return static_cast<int>(tools.size);
}
