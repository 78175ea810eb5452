// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// A small agent built against the installed package: its own tool, the
// OpenAI-compatible provider, the orchestrator, and the fake LLM on a loopback
// port scripted to call the tool and answer with its result.
#include <agentio/agent/orchestrator.hpp>
#include <agentio/llm/openai.hpp>
#include <agentio/testing/fake_llm.hpp>
#include <agentio/tool.hpp>

#include <boost/asio.hpp>
#include <boost/describe.hpp>
#include <boost/json.hpp>

#include <cstdio>
#include <string>

namespace asio = boost::asio;

struct word_count_args
{
    std::string text;
};
BOOST_DESCRIBE_STRUCT(word_count_args, (), (text))
template<>
struct agentio::field_traits<word_count_args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "text", .description = "The text to count", .min_length = 1}};
};

struct word_count
{
    static constexpr std::string_view name = "word_count";
    static constexpr std::string_view description = "Counts the words of a text.";
    using args = word_count_args;
    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const
    {
        int words = 0;
        bool in_word = false;
        for(char c : a.text)
        {
            bool const space = c == ' ' || c == '\n' || c == '\t';
            words += !space && !in_word;
            in_word = !space;
        }
        co_return agentio::tool_result::json({{"words", words}});
    }
};

int main()
{
    asio::io_context ioc;
    agentio::testing::fake_llm fake(ioc.get_executor());
    fake.add_scenario(agentio::testing::parse_scenario(boost::json::parse(R"({"name": "counter", "turns": [
        {"tool_calls": [{"name": "word_count", "input": {"text": "one two three"}}]},
        {"text": "Counted: {{last_tool_result}}"}]})")));
    fake.start().value();

    agentio::http::client http(ioc.get_executor());
    agentio::llm::openai_provider provider(http, {.api_key = "k", .base_url = fake.openai_base_url()});
    agentio::agent::orchestrator agent(provider, agentio::toolset<word_count>{}, {.model = "counter"});
    std::vector<agentio::llm::message> conversation{agentio::llm::message::user("How many words?")};
    std::string answer;
    agentio::agent::run_result result;
    asio::co_spawn(ioc,
        agent.run(conversation,
            [&](agentio::agent::event const& e) {
                if(auto const* t = std::get_if<agentio::agent::text_delta>(&e))
                    answer += t->text;
            }),
        [&](std::exception_ptr, agentio::agent::run_result r) {
            result = std::move(r);
            ioc.stop();
        });
    ioc.run();
    std::printf("%s: %s\n", std::string(to_string(result.status)).c_str(), answer.c_str());
    return result.status == agentio::agent::run_result::outcome::completed && answer == R"(Counted: {"words":3})" ? 0
                                                                                                                  : 1;
}
