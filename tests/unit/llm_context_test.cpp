// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What fits in a context window: the table of windows, the estimate and its
// calibration, which turns to leave out, and the providers' own refusals
// read from their real error bodies.

#include <agentio/llm/anthropic_codec.hpp>
#include <agentio/llm/context.hpp>
#include <agentio/llm/openai_codec.hpp>

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

namespace llm = agentio::llm;
namespace json = boost::json;

namespace {

llm::message question(std::size_t bytes)
{
    return llm::message::user(std::string(bytes, 'q'));
}

llm::message answer(std::size_t bytes)
{
    return llm::message::assistant(std::string(bytes, 'a'));
}

llm::message call(std::string id)
{
    llm::message m{llm::role::assistant, {}};
    m.content.emplace_back(llm::tool_use_block{id, "buscar", json::parse(R"({"q":"vacaciones"})"), {}});
    return m;
}

llm::message result(std::string id, std::size_t bytes)
{
    llm::message m{llm::role::user, {}};
    m.content.emplace_back(llm::tool_result_block{std::move(id), {llm::text_block{std::string(bytes, 'r')}}, false});
    return m;
}

} // namespace

BOOST_AUTO_TEST_SUITE(llm_context)

BOOST_AUTO_TEST_CASE(windows_come_from_the_table_or_the_configuration)
{
    BOOST_TEST(llm::known_context_window("claude-sonnet-4-5-20250929").value() == 200000u);
    BOOST_TEST(llm::known_context_window("gpt-4o-mini").value() == 128000u);
    BOOST_TEST(llm::known_context_window("gpt-4.1-nano").value() == 1047576u);
    BOOST_TEST(llm::known_context_window("gpt-4-0613").value() == 8192u); // the longest prefix wins
    BOOST_TEST(llm::known_context_window("o1-mini-2024-09-12").value() == 128000u);
    BOOST_TEST(!llm::known_context_window("llama-3.1-8b").has_value());

    auto const known = llm::context_window_for("claude-haiku-4-5", 4096);
    BOOST_TEST(known.tokens == 200000u);
    BOOST_TEST(known.input_budget() == 200000u - 4096u);
    BOOST_TEST(llm::context_window_for("llama", 1000).tokens == llm::default_context_window);
    auto const configured = llm::context_window_for("claude-haiku-4-5", 2000, 16000);
    BOOST_TEST(configured.tokens == 16000u);
    BOOST_TEST(configured.input_budget() == 14000u);
    BOOST_TEST(llm::context_window_for("x", 5000, 4000).input_budget() == 0u);
}

BOOST_AUTO_TEST_CASE(the_estimate_grows_with_the_text_and_learns_from_usage)
{
    auto const short_one = llm::token_estimator::raw_tokens(question(40));
    auto const long_one = llm::token_estimator::raw_tokens(question(4000));
    BOOST_TEST(long_one - short_one == 990u); // four bytes a token
    BOOST_TEST(llm::token_estimator::raw_tokens(call("t1")) > llm::token_estimator::raw_tokens(answer(0)));
    llm::message picture{llm::role::user, {llm::image_block{"image/png", "iVBOR"}}};
    BOOST_TEST(llm::token_estimator::raw_tokens(picture) >= 1600u);

    std::vector<llm::message> const messages{question(400), answer(800)};
    llm::request r;
    r.system = std::string_view("Eres un asistente.");
    r.messages = messages;
    auto const raw = llm::token_estimator::raw_tokens(r);
    BOOST_TEST(raw > llm::token_estimator::raw_tokens(messages[0]) + llm::token_estimator::raw_tokens(messages[1]));

    llm::token_estimator e;
    BOOST_TEST(e.tokens(r) == raw);
    // The provider counts half again as many: the first count sets the factor.
    e.calibrate(raw, llm::usage{raw, 10, raw / 2, 0});
    BOOST_TEST(e.factor() == 1.5, boost::test_tools::tolerance(0.01));
    // One odd count moves it only part of the way; a steady one brings it there.
    e.calibrate(raw, llm::usage{raw * 3, 0, 0, 0});
    BOOST_TEST(e.factor() > 1.5);
    BOOST_TEST(e.factor() < 2.5);
    for(int i = 0; i < 12; ++i)
        e.calibrate(raw, llm::usage{raw, 10, raw / 2, 0});
    BOOST_TEST(e.factor() == 1.5, boost::test_tools::tolerance(0.01));
    BOOST_TEST(e.tokens(r) >= raw * 3 / 2);
    // Nothing to learn from zeros; an absurd count moves it no further than the clamp.
    e.calibrate(0, llm::usage{100, 0, 0, 0});
    e.calibrate(100, llm::usage{});
    BOOST_TEST(e.factor() == 1.5, boost::test_tools::tolerance(0.01));
    for(int i = 0; i < 40; ++i)
        e.calibrate(10, llm::usage{100000, 0, 0, 0});
    BOOST_TEST(e.factor() == 4.0, boost::test_tools::tolerance(0.01));
}

BOOST_AUTO_TEST_CASE(only_whole_turns_are_left_out)
{
    // Three turns; the second has a tool call and its result.
    std::vector<llm::message> const conversation{question(400), answer(400), question(400), call("t1"),
        result("t1", 4000), answer(400), question(400), answer(400)};
    llm::token_estimator e;
    auto size_from = [&](std::size_t i) {
        std::uint64_t n = 0;
        for(; i < conversation.size(); ++i)
            n += e.tokens(conversation[i]);
        return n;
    };
    BOOST_TEST(llm::first_message_that_fits(conversation, size_from(0), e).value() == 0u);
    // Room for all but the first turn: it goes, whole.
    BOOST_TEST(llm::first_message_that_fits(conversation, size_from(2), e).value() == 2u);
    // Room for the tool result but not for the question of its turn: never start at the result.
    BOOST_TEST(llm::first_message_that_fits(conversation, size_from(4), e).value() == 6u);
    BOOST_TEST(llm::first_message_that_fits(conversation, size_from(6), e).value() == 6u);
    // Not even the latest turn.
    BOOST_TEST(!llm::first_message_that_fits(conversation, size_from(6) - 1, e).has_value());
    // A conversation that opens with the assistant's greeting and fits is sent whole.
    std::vector<llm::message> const greeted{answer(100), question(100)};
    BOOST_TEST(llm::first_message_that_fits(greeted, 1000, e).value() == 0u);
    BOOST_TEST(llm::first_message_that_fits({}, 0, e).value() == 0u);
    BOOST_TEST(llm::begins_turn(question(1)));
    BOOST_TEST(!llm::begins_turn(result("t", 1)));
    BOOST_TEST(!llm::begins_turn(answer(1)));
}

BOOST_AUTO_TEST_CASE(a_refusal_for_size_is_recognized_in_both_formats)
{
    // The bodies as the two APIs send them.
    auto const anthropic = llm::anthropic::error_from_body(400,
        R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208437 tokens > 200000 maximum"},"request_id":"req_011"})");
    auto const a = llm::as_context_overflow(anthropic);
    BOOST_TEST_REQUIRE(a.has_value());
    BOOST_TEST(a->tokens.value() == 208437u);
    BOOST_TEST(a->limit.value() == 200000u);

    auto const openai = llm::openai::error_from_body(400,
        R"({"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}})");
    BOOST_TEST(openai.type == "context_length_exceeded");
    auto const o = llm::as_context_overflow(openai);
    BOOST_TEST_REQUIRE(o.has_value());
    BOOST_TEST(o->tokens.value() == 130532u);
    BOOST_TEST(o->limit.value() == 128000u);

    // Other refusals are not this one.
    auto const max_tokens = llm::anthropic::error_from_body(400,
        R"({"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 10000 > 4096, which is the maximum allowed number of output tokens for claude-3-5-sonnet-20240620"}})");
    BOOST_TEST(!llm::as_context_overflow(max_tokens).has_value());
    auto const limited = llm::openai::error_from_body(429,
        R"({"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}})");
    BOOST_TEST(!llm::as_context_overflow(limited).has_value());
    llm::error cut;
    cut.what = llm::error::kind::connection;
    cut.message = "prompt is too long";
    BOOST_TEST(!llm::as_context_overflow(cut).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
