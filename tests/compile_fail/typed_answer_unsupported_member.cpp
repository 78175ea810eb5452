// expect: member_type_has_no_json_schema<&respuesta::cuando, false>
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A typed answer with a member the schema machinery cannot describe.
#include <agentio/agent/orchestrator.hpp>
#include <agentio/llm/any_provider.hpp>

#include <boost/describe.hpp>

#include <chrono>

struct respuesta
{
    int total = 0;
    std::chrono::seconds cuando{};
    static constexpr agentio::field_info fields[] = {{.description = "Total"}, {.description = "Cuándo"}};
};
BOOST_DESCRIBE_STRUCT(respuesta, (), (total, cuando))

boost::asio::awaitable<void> preguntar(agentio::llm::any_provider& provider)
{
    agentio::agent::orchestrator agent{provider, agentio::toolset<>{}, {}};
    std::vector<agentio::llm::message> conversation;
    auto r = co_await agent.run<respuesta>(conversation, [](agentio::agent::event const&) {});
}

int main() {}
