// expect: fields_must_describe_every_member_in_order<convert_args, 1, 2, false>
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Unnamed entries follow the members' order, one each: one is missing.
#include <agentio/tool.hpp>

#include <boost/describe.hpp>

struct convert_args
{
    double value = 0;
    int decimals = 2;
    static constexpr agentio::field_info fields[] = {{.description = "The temperature to convert"}};
};
BOOST_DESCRIBE_STRUCT(convert_args, (), (value, decimals))

boost::asio::awaitable<agentio::tool_result> convert(convert_args, agentio::tool_context&);
using convert_temperature = agentio::function_tool<"convert_temperature", "Converts a temperature.", convert>;

int main()
{
    agentio::toolset<convert_temperature> tools;
    return static_cast<int>(tools.size);
}
