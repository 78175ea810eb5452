// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// ReAct: the parser on replies shaped like what models write, and the loop
// with the real providers and HTTP client against the fake LLM on loopback.
//
// The fake answers every ReAct call as round 0 (each Observation is a new
// user message), so a scenario is one turn whose alternatives are chosen by
// the last user message: the question, or the latest Observation.
#include <agentio/json_text.hpp>
#include <agentio/agent/react.hpp>

#include <agentio/llm/anthropic.hpp>
#include <agentio/llm/openai.hpp>
#include <agentio/testing/fake_llm.hpp>
#include <agentio/tool.hpp>

#include "summaries.hpp"
#include "provider_bench.hpp"
#include "run_on.hpp"
#include "spanish_messages.hpp"
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/describe.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;
namespace react = agentio::agent::react;
namespace testing = agentio::testing;
using namespace std::chrono_literals;

namespace react_test {

struct counters
{
    std::atomic<int> calls{0};
    std::atomic<bool> cancelled{false};
};

struct weather_args
{
    std::string city;
};
BOOST_DESCRIBE_STRUCT(weather_args, (), (city))

struct get_weather
{
    static constexpr std::string_view name = "get_weather";
    static constexpr std::string_view description = "The current weather in a city";
    using args = weather_args;
    counters* count = nullptr;
    std::chrono::milliseconds delay{0};

    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const
    {
        ++count->calls;
        if(delay > 0ms)
        {
            asio::steady_timer t(co_await asio::this_coro::executor, delay);
            try
            {
                co_await t.async_wait(asio::use_awaitable);
            }
            catch(boost::system::system_error const&)
            {
                count->cancelled = true;
                throw;
            }
        }
        co_return agentio::tool_result::text("21 °C and sunny in " + a.city);
    }
};

} // namespace react_test

template<>
struct agentio::field_traits<react_test::weather_args>
{
    static constexpr agentio::field_info fields[] = {{.name = "city", .description = "The city"}};
};

namespace {

using react_test::counters;
using react_test::get_weather;
using weather_tools = agentio::toolset<get_weather>;

// The replies of the scenarios.
constexpr char const* weather_action =
    "Thought: I need the current weather in Paris.\nAction: get_weather\nAction Input: {\"city\": \"Paris\"}";
constexpr char const* weather_answer = "Thought: I now know the final answer\nFinal Answer: It is 21 °C and sunny in "
                                       "Paris, a fine day for a walk along the Seine.";
constexpr char const* answer_text = "It is 21 °C and sunny in Paris, a fine day for a walk along the Seine.";
constexpr char const* observation_text = "21 °C and sunny in Paris";

react::action action_of(react::reply const& r)
{
    auto const* a = std::get_if<react::action>(&r);
    BOOST_TEST_REQUIRE(a != nullptr);
    return *a;
}

react::final_answer answer_of(react::reply const& r)
{
    auto const* f = std::get_if<react::final_answer>(&r);
    BOOST_TEST_REQUIRE(f != nullptr);
    return *f;
}

react::malformed malformed_of(react::reply const& r)
{
    auto const* m = std::get_if<react::malformed>(&r);
    BOOST_TEST_REQUIRE(m != nullptr);
    return *m;
}

testing::scripted_response says(std::string text, std::string when_user_says = {})
{
    testing::scripted_response r;
    r.text = std::move(text);
    r.when_user_message_contains = std::move(when_user_says);
    return r;
}

// One turn, its alternatives tried in order.
testing::scenario scenario_of(std::string name, std::vector<testing::scripted_response> alternatives)
{
    testing::scenario s;
    s.name = std::move(name);
    s.turns.push_back(std::move(alternatives));
    // Paced, so that a read gets a piece at a time and the answer visibly streams.
    s.token_interval = 1ms;
    return s;
}

// The text of a recorded message's content (a string, or blocks of text).
std::string text_of(json::value const& message)
{
    auto const& content = message.at("content");
    if(auto const* s = content.if_string())
        return std::string(*s);
    std::string out;
    for(auto const& b : content.as_array())
        if(auto const* t = b.as_object().if_contains("text"))
            out += t->as_string();
    return out;
}

template<class Provider>
struct bench : agent_test::provider_bench<Provider>
{
    counters count;

    struct outcome : agent_test::event_log<react::event>
    {
        react::run_result result;
        std::vector<llm::message> conversation;

        // One letter an event; a run of answer deltas is one S.
        std::string kinds() const
        {
            std::string out;
            for(auto const& e : events)
            {
                char const k = "TAOMSDE"[e.index()];
                if(k == 'S' && !out.empty() && out.back() == 'S')
                    continue;
                out += k;
            }
            return out;
        }

        std::string streamed() const
        {
            std::string out;
            for(auto const& d : all<react::events::answer_delta>())
                out += d.text;
            return out;
        }
    };

    outcome run(std::string const& model, react::options opts = {}, std::chrono::milliseconds tool_delay = 0ms,
        std::vector<llm::message> conversation = {llm::message::user("What's the weather in Paris?")},
        asio::cancellation_slot slot = {})
    {
        opts.model = model;
        react::agent agent{*this->provider, weather_tools{get_weather{&count, tool_delay}}, opts};
        outcome out;
        out.conversation = std::move(conversation);
        auto sink = out.recorder();
        auto work = [&]() -> asio::awaitable<void> { out.result = co_await agent.run(out.conversation, sink); };
        this->run_to_end(work, slot);
        return out;
    }
};

// The scenario most tests start from: the tool, then the answer from its result.
testing::scenario weather(std::string name = "weather")
{
    return scenario_of(std::move(name), {says(weather_answer, "Observation: 21 °C"), says(weather_action)});
}

} // namespace

// --- the parser ----------------------------------------------------------------

BOOST_AUTO_TEST_SUITE(react_parser)

BOOST_AUTO_TEST_CASE(an_action)
{
    auto const a = action_of(react::parse(weather_action));
    BOOST_TEST(a.thought == "I need the current weather in Paris.");
    BOOST_TEST(a.tool == "get_weather");
    BOOST_TEST(a.input == json::parse(R"({"city": "Paris"})"));
    BOOST_TEST(a.raw_input == R"({"city": "Paris"})");
}

BOOST_AUTO_TEST_CASE(a_final_answer)
{
    auto const f = answer_of(react::parse(weather_answer));
    BOOST_TEST(f.thought == "I now know the final answer");
    BOOST_TEST(f.text == answer_text);

    // Several lines, a list: all of it, trimmed.
    auto const g =
        answer_of(react::parse("Thought: I have both.\nFinal Answer:\n\nTwo cities:\n- Paris: 21 °C\n- Rome: "
                               "25 °C\n\n"));
    BOOST_TEST(g.text == "Two cities:\n- Paris: 21 °C\n- Rome: 25 °C");
}

BOOST_AUTO_TEST_CASE(the_models_own_observation_is_cut)
{
    // The model did not stop at "\nObservation" and imagined the rest of the run.
    std::string const reply = std::string(weather_action) +
        "\nObservation: It is 30 °C in Paris.\nThought: I now know the final answer\nFinal Answer: It is 30 °C.";
    auto const a = action_of(react::parse(reply));
    BOOST_TEST(a.tool == "get_weather");
    BOOST_TEST(a.raw_input == R"({"city": "Paris"})");

    // A malformed reply keeps only what came before the observation.
    auto const m = malformed_of(react::parse("Thought: I will look it up.\nObservation: 30 °C"));
    BOOST_TEST(m.raw == "Thought: I will look it up.\n");
}

BOOST_AUTO_TEST_CASE(of_two_actions_the_first_runs)
{
    auto const a = action_of(react::parse("Thought: I need Paris and Rome.\n"
                                          "Action: get_weather\nAction Input: {\"city\": \"Paris\"}\n"
                                          "Action: get_weather\nAction Input: {\"city\": \"Rome\"}"));
    BOOST_TEST(a.input.at("city") == "Paris");

    // The first action's input is its own, not the second one's.
    auto const m = malformed_of(react::parse("Action: get_weather\nAction: get_weather\nAction Input: {}"));
    BOOST_TEST((m.error == react::format_error::missing_action_input));
}

BOOST_AUTO_TEST_CASE(markers_in_code_fences_are_not_markers)
{
    auto const a = action_of(react::parse("Thought: The format asks for\n```\nAction: example_tool\nAction Input: {}\n"
                                          "```\nso I write:\nAction: get_weather\nAction Input: {\"city\": \"Oslo\"}"));
    BOOST_TEST(a.tool == "get_weather");
    BOOST_TEST(a.thought.find("example_tool") != std::string::npos);

    // Nor inside an answer: the fenced block stays in it.
    auto const f = answer_of(react::parse("Final Answer: Call it like this:\n~~~\nAction: get_weather\nObservation: "
                                          "x\n~~~\nThat is all."));
    BOOST_TEST(f.text == "Call it like this:\n~~~\nAction: get_weather\nObservation: x\n~~~\nThat is all.");
}

BOOST_AUTO_TEST_CASE(a_missing_action_input)
{
    auto const m = malformed_of(react::parse("Thought: I need the weather.\nAction: get_weather"));
    BOOST_TEST((m.error == react::format_error::missing_action_input));
    BOOST_TEST(m.reason == "Invalid Format: Missing 'Action Input:' after 'Action:'");
    BOOST_TEST(m.raw == "Thought: I need the weather.\nAction: get_weather");

    // The marker with nothing after it is as missing.
    auto const empty = malformed_of(react::parse("Action: get_weather\nAction Input:   \n"));
    BOOST_TEST((empty.error == react::format_error::missing_action_input));
}

BOOST_AUTO_TEST_CASE(a_missing_action)
{
    auto const m = malformed_of(react::parse("I think the weather in Paris is usually mild in spring."));
    BOOST_TEST((m.error == react::format_error::missing_action));
    BOOST_TEST(m.reason == "Invalid Format: Missing 'Action:' after 'Thought:'");

    auto const thought_only = malformed_of(react::parse("Thought: I should check the weather."));
    BOOST_TEST((thought_only.error == react::format_error::missing_action));

    auto const nothing = malformed_of(react::parse(""));
    BOOST_TEST((nothing.error == react::format_error::missing_action));

    auto const no_tool = malformed_of(react::parse("Thought: hm\nAction: \nAction Input: {}"));
    BOOST_TEST((no_tool.error == react::format_error::missing_tool));
    BOOST_TEST(no_tool.reason == "Invalid Format: Missing the tool name after 'Action:'");
}

BOOST_AUTO_TEST_CASE(text_after_the_input_is_ignored)
{
    auto const a = action_of(react::parse("Thought: Let me check.\nAction: get_weather\n"
                                          "Action Input: {\"city\": \"Paris\"} (I will wait for the result)\n"
                                          "Then I will answer."));
    BOOST_TEST(a.input == json::parse(R"({"city": "Paris"})"));
    BOOST_TEST(a.raw_input == R"({"city": "Paris"})");

    // A JSON that spans lines, with a comment and a trailing comma.
    auto const b = action_of(react::parse("Action: get_weather\nAction Input: {\n  \"city\": \"Lima\", // the "
                                          "capital\n}\nI hope this works."));
    BOOST_TEST(b.input.at("city") == "Lima");
}

BOOST_AUTO_TEST_CASE(the_input_in_a_json_fence)
{
    auto const a = action_of(react::parse("Thought: I'll call the tool.\nAction: get_weather\nAction Input:\n"
                                          "```json\n{\n  \"city\": \"Paris\"\n}\n```\nThat should do it."));
    BOOST_TEST(a.input.at("city") == "Paris");
    BOOST_TEST(a.raw_input == "{\n  \"city\": \"Paris\"\n}");

    // Opened on the marker's line, and in single backticks.
    auto const b = action_of(react::parse("Action: get_weather\nAction Input: ```json\n{\"city\": \"Rome\"}\n```"));
    BOOST_TEST(b.input.at("city") == "Rome");
    auto const c = action_of(react::parse("Action: get_weather\nAction Input: `{\"city\": \"Bern\"}`"));
    BOOST_TEST(c.input.at("city") == "Bern");
}

BOOST_AUTO_TEST_CASE(numbering_spaces_and_case_of_markers)
{
    auto const a = action_of(react::parse("thought 1: I need the weather.\nACTION 1 :  get_weather\n"
                                          "action input 1: {\"city\": \"Paris\"}"));
    BOOST_TEST(a.thought == "I need the weather.");
    BOOST_TEST(a.tool == "get_weather");
    BOOST_TEST(a.input.at("city") == "Paris");

    auto const b = action_of(react::parse("**Thought:** I need the weather.\n**Action:** get_weather\n"
                                          "**Action Input:** {\"city\": \"Paris\"}"));
    BOOST_TEST(b.thought == "I need the weather.");
    BOOST_TEST(b.tool == "get_weather");

    auto const f = answer_of(react::parse("  Thought 3: done\n  final answer : Sunny."));
    BOOST_TEST(f.text == "Sunny.");
    BOOST_TEST(f.thought == "done");

    // A word that only starts like a marker is not one.
    auto const m = malformed_of(react::parse("Thoughtfully, the actions: none"));
    BOOST_TEST((m.error == react::format_error::missing_action));
}

BOOST_AUTO_TEST_CASE(an_action_and_then_a_final_answer)
{
    // LangChain's rule: the model answered before seeing the observation.
    auto const m = malformed_of(react::parse(std::string(weather_action) + "\nThought: Done.\nFinal Answer: Sunny."));
    BOOST_TEST((m.error == react::format_error::action_and_answer));
    BOOST_TEST(m.reason ==
        "Invalid Format: the reply has both an 'Action:' and a 'Final Answer:'; write either one action or the "
        "final answer");
}

BOOST_AUTO_TEST_CASE(a_final_answer_and_then_an_action)
{
    // The answer came first: it wins, up to where the model rambled on.
    auto const f = answer_of(react::parse("Thought: I know this.\nFinal Answer: Paris is sunny today.\n"
                                          "Thought: maybe I should double check\nAction: get_weather\n"
                                          "Action Input: {\"city\": \"Paris\"}"));
    BOOST_TEST(f.text == "Paris is sunny today.");
    BOOST_TEST(f.thought == "I know this.");
}

BOOST_AUTO_TEST_CASE(a_tool_name_in_backticks_or_brackets)
{
    for(std::string const name :
        {"`get_weather`", "[get_weather]", "\"get_weather\"", "get_weather()", "*get_weather*"})
    {
        BOOST_TEST_CONTEXT(name)
        {
            auto const a = action_of(react::parse("Action: " + name + "\nAction Input: {\"city\": \"Paris\"}"));
            BOOST_TEST(a.tool == "get_weather");
        }
    }
}

BOOST_AUTO_TEST_CASE(an_input_that_is_not_json)
{
    auto const m = malformed_of(react::parse("Thought: I need the weather.\nAction: get_weather\nAction Input: "
                                             "city=Paris"));
    BOOST_TEST((m.error == react::format_error::input_not_json));
    BOOST_TEST(m.reason == "Invalid Format: 'Action Input:' must be followed by a JSON object, not: city=Paris");

    // Cut short (a token limit): not a value either.
    auto const cut = malformed_of(react::parse("Action: get_weather\nAction Input: {\"city\": \"Par"));
    BOOST_TEST((cut.error == react::format_error::input_not_json));
}

BOOST_AUTO_TEST_CASE(an_empty_final_answer)
{
    auto const m = malformed_of(react::parse("Thought: I now know the final answer\nFinal Answer:"));
    BOOST_TEST((m.error == react::format_error::empty_answer));
    BOOST_TEST(m.reason == "Invalid Format: Missing the answer after 'Final Answer:'");
}

BOOST_AUTO_TEST_CASE(the_reasons_come_from_the_messages)
{
    auto const m = malformed_of(react::parse("Pienso que hace sol.", agentio_test::spanish_messages));
    BOOST_TEST(m.reason == "Formato no válido: falta 'Action:' después de 'Thought:'");
    auto const n = malformed_of(react::parse("Action: get_weather\nAction Input: ciudad",
        agentio_test::spanish_messages));
    BOOST_TEST(n.reason == "Formato no válido: 'Action Input:' debe ir seguido de un objeto JSON, no de: ciudad");
}

BOOST_AUTO_TEST_CASE(a_streamed_answer_only_grows)
{
    // What the loop streams: the final answer of each prefix of the reply.
    std::string const reply = "Thought: I know.\nFinal Answer: Sunny.\nThe table:\n```\nThought: x\n```\n"
                              "Thanks\nThought: more\nAction: get_weather\nAction Input: {}";
    std::string sent;
    for(std::size_t n = 0; n <= reply.size(); ++n)
    {
        auto const partial = react::detail::parse_reply(reply.substr(0, n), false, {});
        if(auto const* f = std::get_if<react::final_answer>(&partial))
        {
            BOOST_TEST_REQUIRE(f->text.starts_with(sent), "at " << n << ": '" << f->text << "' after '" << sent << "'");
            sent = f->text;
        }
    }
    BOOST_TEST(sent == answer_of(react::parse(reply)).text);
    BOOST_TEST(sent == "Sunny.\nThe table:\n```\nThought: x\n```\nThanks");

    // A last line that may still become a marker is held back.
    auto const held = react::detail::parse_reply("Final Answer: Sunny.\nThou", false, {});
    BOOST_TEST(answer_of(held).text == "Sunny.");
    auto const still = react::detail::parse_reply("Final Answer: Sunny.\nThough", false, {});
    BOOST_TEST(answer_of(still).text == "Sunny.");
    auto const released = react::detail::parse_reply("Final Answer: Sunny.\nThoughts", false, {});
    BOOST_TEST(answer_of(released).text == "Sunny.\nThoughts");
}

BOOST_AUTO_TEST_CASE(the_prompt)
{
    counters c;
    weather_tools tools{get_weather{&c, 0ms}};
    auto const d = tools.descriptors();
    std::vector<agentio::tool_descriptor> const descriptors(d.begin(), d.end());
    auto const prompt = react::render_prompt(descriptors);
    BOOST_TEST(prompt.starts_with("Answer the following questions as best you can. You have access to the following "
                                  "tools:\n\nget_weather: The current weather in a city\n"
                                  "    Action Input (JSON Schema): {\"type\":\"object\""),
        prompt);
    BOOST_TEST(prompt.find("\"city\"") != std::string::npos);
    BOOST_TEST(prompt.find("\nQuestion: the input question you must answer\nThought: you should always think about "
                           "what to do\nAction: the action to take, should be one of [get_weather]\nAction Input: ") !=
        std::string::npos);
    BOOST_TEST(prompt.find("\nObservation: the result of the action\n") != std::string::npos);
    BOOST_TEST(prompt.find("\nThought: I now know the final answer\nFinal Answer: the final answer to the original "
                           "input question\n") != std::string::npos);
    BOOST_TEST(prompt.ends_with("Begin!"));

    // In Spanish, with the markers as they are.
    auto const es = react::render_prompt(descriptors, agentio_test::spanish_messages);
    BOOST_TEST(es.find("Usa este formato:") != std::string::npos);
    BOOST_TEST(es.find("\nAction: la acción que vas a realizar, una de [get_weather]\n") != std::string::npos);
    BOOST_TEST(es.find("\nFinal Answer: la respuesta final a la pregunta original\n") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

// --- the loop ------------------------------------------------------------------

BOOST_AUTO_TEST_SUITE(react_agent)

BOOST_AUTO_TEST_CASE(two_steps_with_openai)
{
    bench<llm::openai_provider> b;
    b.fake.add_scenario(weather());
    auto const out = b.run("weather");
    BOOST_TEST((out.result.status == react::run_result::outcome::completed), out.result.error_message);
    BOOST_TEST(out.kinds() == "TAOTSD");
    BOOST_TEST(out.result.answer == answer_text);
    BOOST_TEST(out.result.thought == "I now know the final answer");
    BOOST_TEST(out.result.iterations == 2u);
    BOOST_TEST(!out.result.out_of_steps);
    BOOST_TEST(out.result.usage.input_tokens > 0u);
    BOOST_TEST(b.count.calls == 1);

    BOOST_TEST_REQUIRE(out.result.trace.size() == 1u);
    auto const& s = out.result.trace[0];
    BOOST_TEST(s.iteration == 1u);
    BOOST_TEST(s.thought == "I need the current weather in Paris.");
    BOOST_TEST(s.tool == "get_weather");
    BOOST_TEST(s.input == json::parse(R"({"city": "Paris"})"));
    BOOST_TEST(s.observation == observation_text);
    BOOST_TEST(!s.is_error);
    BOOST_TEST(!s.malformed);

    auto const thoughts = out.all<react::events::thought>();
    BOOST_TEST_REQUIRE(thoughts.size() == 2u);
    BOOST_TEST(thoughts[0].iteration == 1u);
    BOOST_TEST(thoughts[1].text == "I now know the final answer");
    BOOST_TEST(thoughts[1].iteration == 2u);
    auto const actions = out.all<react::events::action>();
    BOOST_TEST(actions.at(0).tool == "get_weather");
    BOOST_TEST(actions.at(0).input.at("city") == "Paris");
    auto const observations = out.all<react::events::observation>();
    BOOST_TEST(observations.at(0).text == observation_text);
    BOOST_TEST(!observations.at(0).is_error);
    // The answer streams as it arrives, without its marker.
    BOOST_TEST(out.all<react::events::answer_delta>().size() > 2u);
    BOOST_TEST(out.streamed() == answer_text);
    auto const done = out.all<react::events::done>();
    BOOST_TEST(done.at(0).iterations == 2u);

    // The conversation gets the answer only.
    BOOST_TEST_REQUIRE(out.conversation.size() == 2u);
    BOOST_TEST(out.conversation[1].text() == answer_text);

    // What went over the wire: text only, the stop sequence, the tool menu, the scratchpad as turns.
    auto const requests = b.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 2u);
    for(auto const& r : requests)
    {
        BOOST_TEST(r.target == "/v1/chat/completions");
        BOOST_TEST(r.body.at("stop") == json::parse(R"(["\nObservation"])"));
        BOOST_TEST(!r.body.as_object().contains("tools"));
        BOOST_TEST(!r.body.as_object().contains("tool_choice"));
    }
    auto const& first = requests[0].body.at("messages").as_array();
    BOOST_TEST_REQUIRE(first.size() == 2u);
    BOOST_TEST(first[0].at("role") == "system");
    auto const system = text_of(first[0]);
    BOOST_TEST(system.find("get_weather: The current weather in a city\n    Action Input (JSON Schema): {") !=
        std::string::npos);
    BOOST_TEST(system.find("should be one of [get_weather]") != std::string::npos);
    BOOST_TEST(text_of(first[1]) == "Question: What's the weather in Paris?");
    auto const& second = requests[1].body.at("messages").as_array();
    BOOST_TEST_REQUIRE(second.size() == 4u);
    BOOST_TEST(second[2].at("role") == "assistant");
    BOOST_TEST(text_of(second[2]) == weather_action);
    BOOST_TEST(second[3].at("role") == "user");
    BOOST_TEST(text_of(second[3]) == std::string("Observation: ") + observation_text);
}

BOOST_AUTO_TEST_CASE(anthropic_gets_stop_sequences)
{
    bench<llm::anthropic_provider> b;
    b.fake.add_scenario(weather());
    react::options o;
    o.system = "You are a weather assistant.";
    auto const out = b.run("weather", o);
    BOOST_TEST((out.result.status == react::run_result::outcome::completed), out.result.error_message);
    BOOST_TEST(out.kinds() == "TAOTSD");
    BOOST_TEST(out.streamed() == answer_text);
    auto const requests = b.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 2u);
    BOOST_TEST(requests[0].target == "/v1/messages");
    BOOST_TEST(requests[0].body.at("stop_sequences") == json::parse(R"(["\nObservation"])"));
    BOOST_TEST(!requests[0].body.as_object().contains("tools"));
    auto const system = std::string(requests[0].body.at("system").as_string());
    BOOST_TEST(system.starts_with("You are a weather assistant.\n\nAnswer the following questions"));
    BOOST_TEST(system.find("get_weather: The current weather in a city") != std::string::npos);

    // Without stop sequences (models that refuse them), none is sent.
    bench<llm::anthropic_provider> none;
    none.fake.add_scenario(weather());
    react::options no_stop;
    no_stop.stop.clear();
    auto const out2 = none.run("weather", no_stop);
    BOOST_TEST((out2.result.status == react::run_result::outcome::completed));
    BOOST_TEST(!none.fake.requests().at(0).body.as_object().contains("stop_sequences"));
}

BOOST_AUTO_TEST_CASE(a_conversation_keeps_its_earlier_turns)
{
    bench<llm::openai_provider> b;
    b.fake.add_scenario(weather());
    std::vector<llm::message> conversation{llm::message::user("Hi!"), llm::message::assistant("Hello! How can I help?"),
        llm::message::user("What's the weather in Paris?")};
    auto const out = b.run("weather", {}, 0ms, conversation);
    BOOST_TEST((out.result.status == react::run_result::outcome::completed));
    BOOST_TEST_REQUIRE(out.conversation.size() == 4u);
    BOOST_TEST(out.conversation[2].text() == "What's the weather in Paris?"); // not rewritten
    BOOST_TEST(out.conversation[3].text() == answer_text);
    auto const requests = b.fake.requests();
    auto const& sent = requests.at(0).body.at("messages").as_array();
    BOOST_TEST_REQUIRE(sent.size() == 4u);
    BOOST_TEST(text_of(sent[1]) == "Hi!");
    BOOST_TEST(text_of(sent[3]) == "Question: What's the weather in Paris?");
}

BOOST_AUTO_TEST_CASE(a_reply_with_its_own_observation)
{
    bench<llm::openai_provider> b;
    b.fake.add_scenario(scenario_of("imagines",
        {says(weather_answer, "Observation: 21 °C"),
            says(std::string(weather_action) +
                "\nObservation: It is 30 °C in Paris.\nThought: I now know the final answer\nFinal Answer: It is "
                "30 °C in Paris.")}));
    auto const out = b.run("imagines");
    BOOST_TEST((out.result.status == react::run_result::outcome::completed), out.result.error_message);
    BOOST_TEST(out.kinds() == "TAOTSD");
    BOOST_TEST(b.count.calls == 1);
    BOOST_TEST(out.streamed() == answer_text); // nothing of the imagined answer reached the sink
    BOOST_TEST(out.result.answer == answer_text);
    // The scratchpad holds the step, not the imagined observation.
    auto const requests = b.fake.requests();
    auto const& second = requests.at(1).body.at("messages").as_array();
    BOOST_TEST(text_of(second.at(2)) == weather_action);
    BOOST_TEST(text_of(second.at(3)) == std::string("Observation: ") + observation_text);
}

BOOST_AUTO_TEST_CASE(a_malformed_reply_and_the_recovery)
{
    bench<llm::openai_provider> b;
    b.fake.add_scenario(scenario_of("forgets",
        {says(weather_answer, "Observation: 21 °C"), says(weather_action, "Formato no válido"),
            says("I should look up the weather in Paris first.")}));
    react::options o;
    o.texts = agentio_test::spanish_messages;
    auto const out = b.run("forgets", o);
    BOOST_TEST((out.result.status == react::run_result::outcome::completed), out.result.error_message);
    BOOST_TEST(out.kinds() == "MTAOTSD");
    BOOST_TEST(out.result.iterations == 3u);
    auto const malformed = out.all<react::events::malformed>();
    BOOST_TEST_REQUIRE(malformed.size() == 1u);
    BOOST_TEST(malformed[0].iteration == 1u);
    BOOST_TEST((malformed[0].error == react::format_error::missing_action));
    BOOST_TEST(malformed[0].reason == "Formato no válido: falta 'Action:' después de 'Thought:'");
    BOOST_TEST_REQUIRE(out.result.trace.size() == 2u);
    BOOST_TEST(out.result.trace[0].malformed);
    BOOST_TEST(out.result.trace[0].is_error);
    BOOST_TEST(out.result.trace[0].observation == malformed[0].reason);
    BOOST_TEST(out.result.trace[1].tool == "get_weather");
    BOOST_TEST(out.result.trace[1].iteration == 2u);

    // The model read its reply back, and what was wrong with it, as the Observation.
    auto const requests = b.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 3u);
    auto const& second = requests[1].body.at("messages").as_array();
    BOOST_TEST_REQUIRE(second.size() == 4u);
    BOOST_TEST(text_of(second[0]).find("Usa este formato:") != std::string::npos);
    BOOST_TEST(text_of(second[2]) == "I should look up the weather in Paris first.");
    BOOST_TEST(text_of(second[3]) == "Observation: Formato no válido: falta 'Action:' después de 'Thought:'");
}

BOOST_AUTO_TEST_CASE(an_unknown_tool_and_invalid_input)
{
    bench<llm::openai_provider> b;
    b.fake.add_scenario(scenario_of("misnames",
        {says(weather_answer, "Invalid arguments"),
            says("Thought: Let me use the right name.\nAction: get_weather\nAction Input: {\"town\": \"Paris\"}",
                "unknown tool"),
            says("Thought: I need the weather.\nAction: weather_lookup\nAction Input: {\"city\": \"Paris\"}")}));
    auto const out = b.run("misnames");
    BOOST_TEST((out.result.status == react::run_result::outcome::completed), out.result.error_message);
    BOOST_TEST(out.kinds() == "TAOTAOTSD");
    BOOST_TEST(b.count.calls == 0); // never called with input it cannot trust
    BOOST_TEST_REQUIRE(out.result.trace.size() == 2u);
    BOOST_TEST(out.result.trace[0].is_error);
    BOOST_TEST(!out.result.trace[0].malformed);
    BOOST_TEST(out.result.trace[0].tool == "weather_lookup");
    BOOST_TEST(
        out.result.trace[0].observation.starts_with("unknown tool 'weather_lookup'; available tools: get_weather"),
        out.result.trace[0].observation);
    BOOST_TEST(out.result.trace[1].is_error);
    BOOST_TEST(out.result.trace[1].observation.starts_with("Invalid arguments for tool 'get_weather':"),
        out.result.trace[1].observation);
    auto const observations = out.all<react::events::observation>();
    BOOST_TEST_REQUIRE(observations.size() == 2u);
    BOOST_TEST(observations[0].is_error);
    BOOST_TEST(observations[1].is_error);
}

BOOST_AUTO_TEST_CASE(a_tool_name_in_another_case)
{
    bench<llm::openai_provider> b;
    b.fake.add_scenario(scenario_of("case",
        {says(weather_answer, "Observation: 21 °C"),
            says("Thought: I need the weather.\nAction: `Get_Weather`\nAction Input: {\"city\": \"Paris\"}")}));
    auto const out = b.run("case");
    BOOST_TEST((out.result.status == react::run_result::outcome::completed), out.result.error_message);
    BOOST_TEST(b.count.calls == 1);
    BOOST_TEST(out.result.trace.at(0).tool == "get_weather");
    // The scratchpad shows the step as it ran.
    auto const requests = b.fake.requests();
    auto const& second = requests.at(1).body.at("messages").as_array();
    BOOST_TEST(text_of(second.at(2)) ==
        "Thought: I need the weather.\nAction: get_weather\nAction Input: {\"city\": \"Paris\"}");
}

BOOST_AUTO_TEST_CASE(the_step_limit_then_a_summarizing_call)
{
    react::options o;
    o.max_iterations = 2;
    {
        bench<llm::openai_provider> b;
        b.fake.add_scenario(scenario_of("loops",
            {says("Thought: I now know the final answer\nFinal Answer: From what I found, it is 21 °C in Paris.",
                 "no steps left"),
                says(weather_action)}));
        auto const out = b.run("loops", o);
        BOOST_TEST((out.result.status == react::run_result::outcome::completed), out.result.error_message);
        BOOST_TEST(out.kinds() == "TAOTAOTSD");
        BOOST_TEST(out.result.iterations == 3u);
        BOOST_TEST(out.result.out_of_steps);
        BOOST_TEST(out.result.trace.size() == 2u);
        BOOST_TEST(b.count.calls == 2);
        BOOST_TEST(out.result.answer == "From what I found, it is 21 °C in Paris.");
        auto const requests = b.fake.requests();
        BOOST_TEST_REQUIRE(requests.size() == 3u);
        auto const& last = requests[2].body.at("messages").as_array();
        BOOST_TEST_REQUIRE(last.size() == 6u);
        BOOST_TEST(text_of(last[5]) ==
            std::string("Observation: ") + observation_text +
                "\n\nYou have no steps left. Do not take any more actions: using only the observations above, "
                "write your final answer now, as 'Final Answer: ...'.");
    }
    {
        // The answer without its marker is taken as it is.
        bench<llm::openai_provider> b;
        b.fake.add_scenario(scenario_of("loops",
            {says("Thought: It is 21 °C in Paris.", "no steps left"), says(weather_action)}));
        auto const out = b.run("loops", o);
        BOOST_TEST((out.result.status == react::run_result::outcome::completed), out.result.error_message);
        BOOST_TEST(out.kinds() == "TAOTAOSD");
        BOOST_TEST(out.result.answer == "It is 21 °C in Paris.");
        BOOST_TEST(out.streamed() == "It is 21 °C in Paris.");
    }
    {
        // Another action instead: the run fails.
        bench<llm::openai_provider> b;
        b.fake.add_scenario(scenario_of("loops", {says(weather_action)}));
        auto const out = b.run("loops", o);
        BOOST_TEST((out.result.status == react::run_result::outcome::failed));
        BOOST_TEST(out.kinds() == "TAOTAOE");
        BOOST_TEST(out.result.error_message == "Reached the iteration limit");
        BOOST_TEST(b.count.calls == 2);
    }
}

BOOST_AUTO_TEST_CASE(a_provider_error_ends_the_run)
{
    bench<llm::openai_provider> b;
    auto const out = b.run("no-such-model");
    BOOST_TEST((out.result.status == react::run_result::outcome::failed));
    BOOST_TEST(out.kinds() == "E");
    BOOST_TEST(out.result.error_message.starts_with("The model provider answered with an error (404)"),
        out.result.error_message);

    // The application's own words, from the error.
    react::options o;
    o.describe_error = [](llm::error const& e) { return "status " + std::to_string(e.status); };
    auto const out2 = b.run("no-such-model", o);
    BOOST_TEST(out2.all<react::events::error>().at(0).message == "status 404");

    // After a step: the trace so far stays.
    bench<llm::openai_provider> later;
    auto broken = says(weather_answer, "Observation: 21 °C");
    testing::fault f;
    f.kind = testing::fault_kind::http_error;
    f.status = 500;
    f.x_should_retry = "false";
    broken.faults.push_back(f);
    later.fake.add_scenario(scenario_of("breaks", {broken, says(weather_action)}));
    auto const out3 = later.run("breaks");
    BOOST_TEST((out3.result.status == react::run_result::outcome::failed));
    BOOST_TEST(out3.kinds() == "TAOE");
    BOOST_TEST(out3.result.trace.size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_slow_tool_times_out_and_the_run_goes_on)
{
    bench<llm::openai_provider> b;
    b.fake.add_scenario(scenario_of("slow", {says(weather_answer, "did not answer"), says(weather_action)}));
    react::options o;
    o.tool_timeout = 50ms;
    auto const out = b.run("slow", o, 5000ms);
    BOOST_TEST((out.result.status == react::run_result::outcome::completed), out.result.error_message);
    BOOST_TEST(out.kinds() == "TAOTSD");
    BOOST_TEST(out.result.trace.at(0).is_error);
    BOOST_TEST(out.result.trace.at(0).observation == "The tool 'get_weather' did not answer within 0.05 s");
    BOOST_TEST(b.count.cancelled.load());
}

BOOST_AUTO_TEST_CASE(cancellation_ends_the_run)
{
    // While the tool runs.
    bench<llm::openai_provider> b;
    b.fake.add_scenario(weather());
    asio::cancellation_signal signal;
    asio::steady_timer later(b.ioc, 100ms);
    later.async_wait([&](boost::system::error_code) { signal.emit(asio::cancellation_type::terminal); });
    auto const started = std::chrono::steady_clock::now();
    auto const out = b.run("weather", {}, 10s, {llm::message::user("What's the weather in Paris?")}, signal.slot());
    BOOST_TEST((out.result.status == react::run_result::outcome::cancelled));
    BOOST_TEST(out.kinds() == "TA"); // nothing after the cancellation
    BOOST_TEST(b.count.cancelled.load());
    BOOST_TEST(b.fake.requests().size() == 1u);
    BOOST_TEST((std::chrono::steady_clock::now() - started < 5s));

    // While the model streams its answer.
    bench<llm::openai_provider> s;
    auto stall = says(weather_answer);
    testing::fault f;
    f.kind = testing::fault_kind::stall;
    f.after_events = 4;
    stall.faults.push_back(f);
    s.fake.add_scenario(scenario_of("stalls", {stall}));
    asio::cancellation_signal signal2;
    asio::steady_timer later2(s.ioc, 100ms);
    later2.async_wait([&](boost::system::error_code) { signal2.emit(asio::cancellation_type::terminal); });
    auto const out2 = s.run("stalls", {}, 0ms, {llm::message::user("Weather?")}, signal2.slot());
    BOOST_TEST((out2.result.status == react::run_result::outcome::cancelled));
    BOOST_TEST(out2.all<react::events::done>().empty());
    BOOST_TEST(out2.all<react::events::error>().empty());

    // A sink that says its client has gone.
    bench<llm::openai_provider> g;
    g.fake.add_scenario(weather());
    react::agent agent{*g.provider, weather_tools{get_weather{&g.count, 0ms}}, react::options{.model = "weather"}};
    std::vector<react::event> seen;
    std::optional<react::run_result> result;
    auto sink = [&](react::event const& e) -> asio::awaitable<bool> {
        seen.push_back(e);
        co_return !std::holds_alternative<react::events::action>(e);
    };
    result = agentio_test::run_on(g.ioc, agent.run("What's the weather in Paris?", sink), 10s);
    BOOST_TEST((result->status == react::run_result::outcome::cancelled));
    BOOST_TEST(seen.size() == 2u); // the thought, the action
    BOOST_TEST(g.count.calls == 0);
}

BOOST_AUTO_TEST_CASE(the_run_deadline)
{
    bench<llm::openai_provider> b;
    auto stall = says(weather_answer);
    testing::fault f;
    f.kind = testing::fault_kind::stall;
    f.after_events = 1;
    stall.faults.push_back(f);
    b.fake.add_scenario(scenario_of("forever", {stall}));
    react::options o;
    o.run_deadline = 150ms;
    auto const out = b.run("forever", o);
    BOOST_TEST((out.result.status == react::run_result::outcome::failed));
    BOOST_TEST(out.kinds() == "E");
    BOOST_TEST(out.result.error_message == "The conversation took too long.");
}

BOOST_AUTO_TEST_CASE(a_failure_names_its_cause)
{
    // The shared agent::error: ReAct's failures say which, as the orchestrator's do.
    react::options o;
    o.max_iterations = 2;
    bench<llm::openai_provider> b;
    b.fake.add_scenario(scenario_of("loops", {says(weather_action)}));
    auto const loops = b.run("loops", o);
    BOOST_TEST((loops.result.status == agentio::agent::outcome::failed));
    BOOST_TEST((loops.all<react::events::error>().at(0).cause == agentio::agent::error_cause::round_limit));

    auto const unknown = b.run("no-such-model");
    BOOST_TEST((unknown.all<react::events::error>().at(0).cause == agentio::agent::error_cause::provider));

    auto stall = says(weather_answer);
    testing::fault f;
    f.kind = testing::fault_kind::stall;
    f.after_events = 1;
    stall.faults.push_back(f);
    b.fake.add_scenario(scenario_of("forever", {stall}));
    react::options slow;
    slow.run_deadline = 150ms;
    auto const late = b.run("forever", slow);
    BOOST_TEST((late.all<react::events::error>().at(0).cause == agentio::agent::error_cause::deadline));
}

// A conversation longer than the window: the oldest turns are left out, or summarized (for the run), while the
// question and its scratchpad always stay whole.
BOOST_AUTO_TEST_CASE(a_long_conversation_fits_the_window)
{
    std::vector<llm::message> conversation;
    for(int i = 0; i < 60; ++i)
    {
        conversation.push_back(llm::message::user("Earlier question " + std::to_string(i) + " " +
            std::string(400, 'q')));
        conversation.push_back(llm::message::assistant("Earlier answer " + std::string(400, 'a')));
    }
    conversation.push_back(llm::message::user("What's the weather in Paris?"));
    for(auto const policy : {llm::context_policy::trim, llm::context_policy::compact})
    {
        BOOST_TEST_CONTEXT(llm::to_string(policy))
        {
            bench<llm::anthropic_provider> b;
            auto sc = scenario_of("weather-window",
                {agentio_test::summary_response("SUMMARY: the user asked many things."),
                    says(weather_answer, "Observation: 21 °C"), says(weather_action)});
            sc.context_window = 3000;
            b.fake.add_scenario(sc);
            react::options o;
            o.max_tokens = 300;
            o.context = {.window = 3000, .policy = policy, .summary_max_tokens = 200};
            auto const out = b.run("weather-window", o, 0ms, conversation);
            BOOST_TEST((out.result.status == agentio::agent::outcome::completed), out.result.error_message);
            BOOST_TEST(out.result.answer.find("21 °C") != std::string::npos);
            auto const requests = b.fake.requests();
            std::size_t const summarizing = agentio_test::summary_requests(requests);
            BOOST_TEST(requests.size() - summarizing == 2u); // the action, then the answer: no refusal
            auto const last = agentio::to_json_text(requests.back().body);
            BOOST_TEST(last.find("What's the weather in Paris?") != std::string::npos);
            BOOST_TEST(last.find("Observation: 21 °C") != std::string::npos);
            BOOST_TEST(last.find("Earlier question 0 ") == std::string::npos);
            if(policy == llm::context_policy::compact)
            {
                BOOST_TEST(summarizing >= 1u);
                BOOST_TEST(last.find("SUMMARY: the user asked many things.") != std::string::npos);
            }
            else
                BOOST_TEST(summarizing == 0u);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
