// expect: run<T> answers with a struct described by BOOST_DESCRIBE_STRUCT
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A typed answer whose type Boost.Describe does not know.
#include <agentio/agent/orchestrator.hpp>
#include <agentio/llm/any_provider.hpp>

struct respuesta
{
    int total = 0;
};

boost::asio::awaitable<void> preguntar(agentio::llm::any_provider& provider)
{
    agentio::agent::orchestrator agent{provider, agentio::toolset<>{}, {}};
    std::vector<agentio::llm::message> conversation;
    auto r = co_await agent.run<respuesta>(conversation, [](agentio::agent::event const&) {});
}

int main() {}
