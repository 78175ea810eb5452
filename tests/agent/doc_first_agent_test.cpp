// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The code of docs/guide/02-first-agent.md. Each region between tag:: and end::
// markers appears verbatim in the page (CTest docs.first_agent_snippets checks
// it), and the tests below run them: the short form against the page's own
// scenario file, served by the fake LLM as `agentio-fake-llm` would.
#include <boost/test/unit_test.hpp>

// tag::short_includes[]
#include <agentio/agent.hpp>

#include <iostream>
// end::short_includes[]

#include <agentio/testing/fake_llm.hpp>

#include "test_paths.hpp"

#include <cstdlib>
#include <sstream>
#include <thread>

namespace page { // the page's program; its main() is called by the test

// tag::short_form[]
struct add_args
{
    double a = 0, b = 0;
    static constexpr agentio::field_info fields[] = {{.description = "First term"}, {.description = "Second term"}};
};
BOOST_DESCRIBE_STRUCT(add_args, (), (a, b))

boost::asio::awaitable<agentio::tool_result> add(add_args x, agentio::tool_context&)
{
    co_return agentio::tool_result::json({{"sum", x.a + x.b}});
}

int main()
{
    auto answer = agentio::agent::ask<agentio::function_tool<"add", "Adds two numbers.", add>>("What is 2 + 40?");
    std::cout << answer.text << '\n';
    return answer.ok() ? 0 : 1;
}
// end::short_form[]

} // namespace page

// tag::first_agent[]
#include <agentio/agent/orchestrator.hpp> // agent::orchestrator, agent::event
#include <agentio/llm/anthropic.hpp>      // llm::anthropic_provider
#include <agentio/testing/fake_llm.hpp>   // a wire-exact stand-in for the Anthropic API
#include <agentio/tool.hpp>

#include <boost/asio.hpp>
#include <boost/describe.hpp>
#include <boost/json.hpp>

#include <iostream>
#include <string>

namespace asio = boost::asio;
namespace agent = agentio::agent;
namespace llm = agentio::llm;

struct add_args
{
    double a = 0;
    double b = 0;
};
BOOST_DESCRIBE_STRUCT(add_args, (), (a, b))
template<>
struct agentio::field_traits<add_args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "a", .description = "First term"},
        {.name = "b", .description = "Second term"},
    };
};

struct add
{
    static constexpr std::string_view name = "add";
    static constexpr std::string_view description = "Adds two numbers.";
    using args = add_args;
    asio::awaitable<agentio::tool_result> operator()(args x, agentio::tool_context&) const
    {
        co_return agentio::tool_result::json({{"sum", x.a + x.b}});
    }
};

// What the stand-in model does: call `add`, then answer with the tool's result.
constexpr char const* script = R"({"name": "adder", "turns": [
    {"tool_calls": [{"name": "add", "input": {"a": 2, "b": 40}}]},
    {"text": "The sum is {{last_tool_result}}."}]})";

std::string first_agent()
{
    asio::io_context ioc;
    agentio::testing::fake_llm fake(ioc.get_executor());
    fake.add_scenario(agentio::testing::parse_scenario(boost::json::parse(script)));
    fake.start().value();

    agentio::http::client http(ioc.get_executor());
    llm::anthropic_provider provider(http, {.api_key = "any", .base_url = fake.anthropic_base_url()});
    agent::orchestrator orchestrator(provider, agentio::toolset<add>{}, {.model = "adder"});

    std::vector<llm::message> conversation{llm::message::user("What is 2 + 40?")};
    std::string answer;
    auto sink = [&](agent::event const& e) {
        if(auto const* t = std::get_if<agent::text_delta>(&e))
            answer += t->text;
        else if(auto const* call = std::get_if<agent::tool_call>(&e))
            std::cout << call->tool << "(" << call->input_summary << ") -> " << call->result_summary << '\n';
    };
    asio::co_spawn(ioc, orchestrator.run(conversation, sink), [&](std::exception_ptr, agent::run_result r) {
        std::cout << "outcome: " << r.status << '\n';
        ioc.stop();
    });
    ioc.run();
    return answer; // "The sum is {"sum":42}."
}
// end::first_agent[]

BOOST_AUTO_TEST_SUITE(doc_first_agent)

BOOST_AUTO_TEST_CASE(the_short_form_answers_with_the_provider_the_environment_names)
{
    // The fake LLM on its own thread, loaded with the page's scenario file.
    asio::io_context fake_ioc;
    agentio::testing::fake_llm fake(fake_ioc.get_executor());
    fake.load_scenarios(AGENTIO_FIRST_AGENT_SCENARIO);
    fake.start().value();
    std::thread server([&] { fake_ioc.run(); });
    ::setenv("AGENT_PROVIDER", "anthropic", 1);
    ::setenv("ANTHROPIC_BASE_URL", fake.anthropic_base_url().c_str(), 1);
    ::setenv("ANTHROPIC_API_KEY", "any", 1);
    ::setenv("AGENT_MODEL", "adder", 1);
    std::ostringstream out;
    auto* const saved = std::cout.rdbuf(out.rdbuf());
    int const status = page::main();
    std::cout.rdbuf(saved);
    fake.stop();
    fake_ioc.stop();
    server.join();
    for(char const* name : {"AGENT_PROVIDER", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "AGENT_MODEL"})
        ::unsetenv(name);
    BOOST_TEST(status == 0);
    BOOST_TEST(out.str() == "The sum is {\"sum\":42}.\n");
}

BOOST_AUTO_TEST_CASE(a_missing_key_is_named_before_anything_is_sent)
{
    ::unsetenv("ANTHROPIC_API_KEY");
    ::setenv("AGENT_PROVIDER", "anthropic", 1);
    using add = agentio::function_tool<"add", "Adds two numbers.", page::add>;
    BOOST_CHECK_EXCEPTION(agentio::agent::ask<add>("2 + 40?"), std::invalid_argument,
        [](std::invalid_argument const& e) { return std::string(e.what()).starts_with("ANTHROPIC_API_KEY"); });
    ::setenv("AGENT_PROVIDER", "gemini", 1);
    BOOST_CHECK_EXCEPTION(agentio::agent::ask("hola"), std::invalid_argument,
        [](std::invalid_argument const& e) { return std::string(e.what()).starts_with("AGENT_PROVIDER"); });
    ::unsetenv("AGENT_PROVIDER");
}

BOOST_AUTO_TEST_CASE(the_first_agent_calls_its_tool_and_answers)
{
    BOOST_TEST(first_agent() == R"(The sum is {"sum":42}.)");
}

BOOST_AUTO_TEST_SUITE_END()
