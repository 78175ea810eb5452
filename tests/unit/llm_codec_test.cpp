// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/llm/anthropic_codec.hpp>

#include <agentio/llm/openai_codec.hpp>
#include <agentio/llm/retry.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include "test_paths.hpp"

namespace llm = agentio::llm;
namespace json = boost::json;

namespace {

std::string fixture(std::string const& name)
{
    std::ifstream in(std::filesystem::path(AGENTIO_WIRE_FIXTURES) / name, std::ios::binary);
    BOOST_TEST_REQUIRE(in.good(), name);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string with_crlf(std::string const& s)
{
    std::string out;
    for(char c : s)
    {
        if(c == '\n')
            out += '\r';
        out += c;
    }
    return out;
}

struct decoded
{
    std::optional<llm::response> response;
    std::optional<llm::error> error;
    std::string streamed_text;
    std::string streamed_thinking;
    std::vector<std::string> started_tools;
    // Each started call's argument fragments, joined; a fragment before its call's start is an error.
    std::map<std::string, std::string> streamed_inputs;
    std::size_t input_fragments = 0;
    bool fragment_before_start = false;
    bool produced_output = false;
};

// The arguments streamed for each call are its raw_input, whole.
void check_streamed_inputs(decoded const& d)
{
    BOOST_TEST(!d.fragment_before_start);
    BOOST_TEST_REQUIRE(d.response.has_value());
    for(auto const* call : d.response->tool_calls())
    {
        auto const it = d.streamed_inputs.find(call->id);
        BOOST_TEST_REQUIRE((it != d.streamed_inputs.end()), call->id);
        BOOST_TEST(it->second == call->raw_input, call->id);
    }
}

// Feeds the bytes through the SSE parser and a decoder, in pieces of `chunk`
// bytes (0: whole).
template<class Decoder>
decoded decode(std::string const& bytes, std::size_t chunk = 0)
{
    agentio::sse::parser parser;
    Decoder decoder;
    decoded d;
    std::vector<llm::stream_event> events;
    auto on_event = [&](agentio::sse::event const& e) {
        if(d.error)
            return;
        d.error = decoder.feed(e, events);
    };
    std::size_t const step = chunk == 0 ? bytes.size() : chunk;
    for(std::size_t at = 0; at < bytes.size(); at += step)
        parser.feed(std::string_view(bytes).substr(at, step), on_event);
    for(auto const& ev : events)
    {
        if(auto const* t = std::get_if<llm::text_delta>(&ev))
            d.streamed_text += t->text;
        else if(auto const* th = std::get_if<llm::thinking_delta>(&ev))
            d.streamed_thinking += th->thinking;
        else if(auto const* s = std::get_if<llm::tool_use_started>(&ev))
        {
            d.started_tools.push_back(s->name);
            d.streamed_inputs.emplace(s->id, std::string());
        }
        else if(auto const* part = std::get_if<llm::tool_input_delta>(&ev))
        {
            ++d.input_fragments;
            auto const it = d.streamed_inputs.find(part->id);
            if(it == d.streamed_inputs.end())
                d.fragment_before_start = true;
            else
                it->second += part->partial_json;
        }
    }
    d.produced_output = decoder.produced_output();
    if(!d.error)
    {
        llm::error failure;
        d.response = decoder.finish(failure);
        if(!d.response)
            d.error = failure;
    }
    return d;
}

std::string summary(llm::response const& r)
{
    std::string out = r.stop_reason_text + " in=" + std::to_string(r.tokens.input_tokens) +
        " out=" + std::to_string(r.tokens.output_tokens);
    for(auto const& b : r.assistant.content)
    {
        if(auto const* t = std::get_if<llm::text_block>(&b))
            out += " | text:" + t->text;
        else if(auto const* th = std::get_if<llm::thinking_block>(&b))
            out += " | thinking:" + th->thinking + " sig:" + th->signature;
        else if(auto const* u = std::get_if<llm::tool_use_block>(&b))
            out += " | tool_use:" + u->id + " " + u->name + " " +
                (u->input.is_null() ? "null(" + u->raw_input + ")" : json::serialize(u->input));
    }
    return out;
}

// Whole, split at every byte boundary, one byte at a time, and with CRLF:
// all give the same result.
template<class Decoder>
decoded decode_every_way(std::string const& name)
{
    auto const bytes = fixture(name);
    auto const whole = decode<Decoder>(bytes);
    auto same = [&](decoded const& other, std::string const& how) {
        BOOST_TEST(whole.response.has_value() == other.response.has_value(), name << " " << how);
        if(whole.response && other.response)
            BOOST_TEST(summary(*whole.response) == summary(*other.response), name << " " << how);
        BOOST_TEST(whole.streamed_text == other.streamed_text, name << " " << how);
        BOOST_TEST((whole.streamed_inputs == other.streamed_inputs), name << " " << how);
        BOOST_TEST(whole.error.has_value() == other.error.has_value(), name << " " << how);
    };
    for(std::size_t chunk : {1u, 2u, 3u, 7u, 64u})
        same(decode<Decoder>(bytes, chunk), "chunk " + std::to_string(chunk));
    same(decode<Decoder>(with_crlf(bytes), 5), "crlf");
    // Every split point of the stream in two.
    for(std::size_t split = 1; split < bytes.size(); ++split)
    {
        agentio::sse::parser parser;
        Decoder decoder;
        std::vector<llm::stream_event> events;
        bool failed = false;
        auto on_event = [&](agentio::sse::event const& e) { failed = failed || decoder.feed(e, events).has_value(); };
        parser.feed(std::string_view(bytes).substr(0, split), on_event);
        parser.feed(std::string_view(bytes).substr(split), on_event);
        llm::error failure;
        auto r = failed ? std::nullopt : decoder.finish(failure);
        if(whole.response && !(r && summary(*r) == summary(*whole.response)))
        {
            BOOST_ERROR(name << ": differs when split at byte " << split);
            break;
        }
    }
    return whole;
}

} // namespace

BOOST_AUTO_TEST_SUITE(anthropic_codec)

BOOST_AUTO_TEST_CASE(every_fixture_decodes_to_the_expected_response)
{
    using decoder = llm::anthropic::stream_decoder;
    auto text = decode_every_way<decoder>("anthropic-text-only.sse");
    BOOST_TEST_REQUIRE(text.response.has_value());
    BOOST_TEST(summary(*text.response) ==
        "end_turn in=612 out=41 | text:Hay **12 iniciativas en ejecución** de un total "
        "de 47 en la cartera. Además, 9 están planificadas, 21 finalizadas y 5 canceladas.");
    BOOST_TEST(text.streamed_text == text.response->assistant.text());
    BOOST_TEST((text.response->stop == llm::stop_reason::end_turn));
    BOOST_TEST(text.response->id == "msg_01TxtEjecucion7Rk2Qb9Lm4Vw");

    auto tool = decode_every_way<decoder>("anthropic-tool-use.sse");
    BOOST_TEST_REQUIRE(tool.response.has_value());
    BOOST_TEST(summary(*tool.response) ==
        "tool_use in=498 out=73 | text:Voy a contar las iniciativas de la cartera "
        "agrupadas por estado. | tool_use:toolu_01Kq7WcNf3Hx9Tb2Lm5Pr8Vd contar_iniciativas "
        R"({"campo_agrupacion":"estado_de_la_iniciativa"})");
    BOOST_TEST(tool.started_tools == std::vector<std::string>{"contar_iniciativas"});
    check_streamed_inputs(tool);
    BOOST_TEST(tool.input_fragments > 1u); // as the model wrote them, not at the end

    auto two = decode_every_way<decoder>("anthropic-two-parallel-tools.sse");
    BOOST_TEST_REQUIRE(two.response.has_value());
    auto calls = two.response->tool_calls();
    BOOST_TEST_REQUIRE(calls.size() == 2u);
    BOOST_TEST(calls[1]->name == "sumar_presupuesto");
    BOOST_TEST(calls[1]->input ==
        json::parse(R"({"campo_agrupacion":"estado_de_la_iniciativa","campo_importe":"presupuesto_aprobado"})"));
    BOOST_TEST(two.response->tokens.output_tokens == 128u);
    check_streamed_inputs(two);

    auto thinking = decode_every_way<decoder>("anthropic-thinking-tool-use.sse");
    BOOST_TEST_REQUIRE(thinking.response.has_value());
    auto const& th = std::get<llm::thinking_block>(thinking.response->assistant.content.at(0));
    BOOST_TEST(th.thinking ==
        "El usuario quiere saber cuántas iniciativas están en ejecución. Agruparé por "
        "estado_de_la_iniciativa con contar_iniciativas.");
    BOOST_TEST(th.signature == "RXJhc2VVbmFGaXJtYUZpY3RpY2lhUGFyYVBydWViYXNTb2xvMDE=");
    BOOST_TEST(thinking.streamed_thinking == th.thinking);
    BOOST_TEST(thinking.response->assistant.content.size() == 3u);

    // Cut by max_tokens: no content_block_stop, incomplete arguments kept raw.
    auto cut = decode_every_way<decoder>("anthropic-max-tokens.sse");
    BOOST_TEST_REQUIRE(cut.response.has_value());
    BOOST_TEST((cut.response->stop == llm::stop_reason::max_tokens));
    BOOST_TEST(summary(*cut.response) ==
        "max_tokens in=498 out=20 | text:Voy a contar las iniciativas. | "
        R"(tool_use:toolu_01Zx5Lc2Wq8Fn4Ty7Hk3Md9R contar_iniciativas null({"campo_agrupacion": "est))");
}

BOOST_AUTO_TEST_CASE(an_error_event_mid_stream)
{
    auto d = decode<llm::anthropic::stream_decoder>(fixture("anthropic-overloaded-midstream.sse"));
    BOOST_TEST_REQUIRE(d.error.has_value());
    BOOST_TEST((d.error->what == llm::error::kind::stream_error));
    BOOST_TEST(d.error->type == "overloaded_error");
    BOOST_TEST(d.error->message == "Overloaded");
    BOOST_TEST(d.error->retryable);
}

BOOST_AUTO_TEST_CASE(a_stream_without_message_stop_is_an_error)
{
    auto bytes = fixture("anthropic-text-only.sse");
    bytes.resize(bytes.rfind("event: message_stop"));
    auto d = decode<llm::anthropic::stream_decoder>(bytes);
    BOOST_TEST_REQUIRE(d.error.has_value());
    BOOST_TEST(d.error->message == "the stream ended before message_stop");
    BOOST_TEST(!d.response.has_value());
    BOOST_TEST(d.produced_output);
}

BOOST_AUTO_TEST_CASE(events_out_of_order_are_refused)
{
    auto d = decode<llm::anthropic::stream_decoder>(
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n");
    BOOST_TEST_REQUIRE(d.error.has_value());
    BOOST_TEST(d.error->message == "unexpected event order: 'content_block_start' before 'message_start'");
    auto bad = decode<llm::anthropic::stream_decoder>("event: message_start\ndata: {not json\n\n");
    BOOST_TEST_REQUIRE(bad.error.has_value());
    BOOST_TEST(bad.error->message == "malformed data in a 'message_start' event");
}

BOOST_AUTO_TEST_CASE(the_non_streaming_body_and_error_bodies)
{
    llm::error failure;
    auto r = llm::anthropic::parse_response_body(fixture("anthropic-tool-use.json"), failure);
    BOOST_TEST_REQUIRE(r.has_value());
    BOOST_TEST(summary(*r) ==
        "tool_use in=498 out=73 | text:Voy a contar las iniciativas de la cartera agrupadas por "
        "estado. | tool_use:toolu_01Kq7WcNf3Hx9Tb2Lm5Pr8Vd contar_iniciativas "
        R"({"campo_agrupacion":"estado_de_la_iniciativa"})");

    auto overloaded = llm::anthropic::error_from_body(529, fixture("anthropic-error-overloaded-529.json"));
    BOOST_TEST(overloaded.type == "overloaded_error");
    BOOST_TEST(overloaded.request_id == "req_011CTestOverloaded00000001");
    BOOST_TEST(overloaded.retryable);
    auto invalid = llm::anthropic::error_from_body(400, fixture("anthropic-error-invalid-request-400.json"));
    BOOST_TEST(!invalid.retryable);
    BOOST_TEST(invalid.message.starts_with("messages.2: Did not find 1 tool_result block(s)"));
    auto html = llm::anthropic::error_from_body(502, "<html>Bad gateway</html>");
    BOOST_TEST(html.message == "HTTP 502: <html>Bad gateway</html>");
    BOOST_TEST(html.retryable);
}

BOOST_AUTO_TEST_CASE(the_request_body_of_a_tool_round)
{
    json::object const schema = json::parse(
        R"({"type":"object","properties":{"campo_agrupacion":{"type":"string"}},"required":["campo_agrupacion"]})")
                                    .as_object();
    std::vector<agentio::tool_descriptor> tools{{"contar_iniciativas", "Cuenta", "", &schema, nullptr}};
    std::vector<llm::message> messages{llm::message::user("¿Cuántas iniciativas hay en ejecución?"),
        {llm::role::assistant,
            {llm::text_block{"Voy a contar."},
                llm::tool_use_block{"toolu_01", "contar_iniciativas", json::parse(R"({"campo_agrupacion":"estado"})"),
                    ""}}},
        {llm::role::user, {llm::tool_result_block{"toolu_01", {llm::text_block{"Campo desconocido"}}, true}}}};
    llm::request r{.model = "claude-sonnet-4-5",
        .system = "Eres un asistente.",
        .messages = messages,
        .tools = tools,
        .choice = llm::tool_choice{},
        .max_tokens = 1024,
        .temperature = 0.3};
    auto const body = llm::anthropic::make_request_body(r, llm::anthropic::api_version::v2023_06_01);
    BOOST_TEST(body ==
        json::parse(R"({"model":"claude-sonnet-4-5","max_tokens":1024,"system":"Eres un asistente.",
        "messages":[{"role":"user","content":[{"type":"text","text":"¿Cuántas iniciativas hay en ejecución?"}]},
          {"role":"assistant","content":[{"type":"text","text":"Voy a contar."},
            {"type":"tool_use","id":"toolu_01","name":"contar_iniciativas","input":{"campo_agrupacion":"estado"}}]},
          {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01",
            "content":[{"type":"text","text":"Campo desconocido"}],"is_error":true}]}],
        "tools":[{"name":"contar_iniciativas","description":"Cuenta","input_schema":
          {"type":"object","properties":{"campo_agrupacion":{"type":"string"}},"required":["campo_agrupacion"]}}],
        "tool_choice":{"type":"auto"},"temperature":0.3,"stream":true})")
            .as_object());
    // 2026-10-21 refuses temperature; and authenticates differently.
    BOOST_TEST(!llm::anthropic::make_request_body(r, llm::anthropic::api_version::v2026_10_21).contains("temperature"));
    BOOST_TEST(llm::anthropic::auth_header(llm::anthropic::api_version::v2026_10_21, "k").second == "Bearer k");
    BOOST_TEST(llm::anthropic::auth_header(llm::anthropic::api_version::v2023_06_01, "k").first == "x-api-key");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(openai_codec)

BOOST_AUTO_TEST_CASE(every_fixture_decodes_to_the_expected_response)
{
    using decoder = llm::openai::stream_decoder;
    auto text = decode_every_way<decoder>("openai-text-only.sse");
    BOOST_TEST_REQUIRE(text.response.has_value());
    BOOST_TEST(summary(*text.response) ==
        "stop in=233 out=16 | text:Hay **12 iniciativas en ejecución** de un total de 47 en la cartera.");
    BOOST_TEST((text.response->stop == llm::stop_reason::end_turn));

    auto tools = decode_every_way<decoder>("openai-tool-calls.sse");
    BOOST_TEST_REQUIRE(tools.response.has_value());
    BOOST_TEST(summary(*tools.response) ==
        "tool_calls in=187 out=58 | tool_use:call_Qm8Xr2Lw5Tn9Bc4Vd7Kp3Hs1 "
        R"(contar_iniciativas {"campo_agrupacion":"estado_de_la_iniciativa"} | tool_use:call_Zt6Jn1Fq4Wc8Ry3Lb5Mx9Gd2 )"
        R"(sumar_presupuesto {"campo_agrupacion":"estado_de_la_iniciativa","campo_importe":"presupuesto_aprobado"})");
    BOOST_TEST((tools.started_tools == std::vector<std::string>{"contar_iniciativas", "sumar_presupuesto"}));
    check_streamed_inputs(tools);
    BOOST_TEST(tools.input_fragments > 2u);
}

BOOST_AUTO_TEST_CASE(an_error_chunk_mid_stream)
{
    auto d = decode<llm::openai::stream_decoder>(fixture("openai-error-midstream.sse"));
    BOOST_TEST_REQUIRE(d.error.has_value());
    BOOST_TEST(d.error->type == "server_error");
    BOOST_TEST(d.error->message == "The server had an error while processing your request. Sorry about that!");
    BOOST_TEST(d.produced_output); // "Hay 12" had arrived
}

BOOST_AUTO_TEST_CASE(a_stream_without_done_is_an_error)
{
    auto bytes = fixture("openai-text-only.sse");
    bytes.resize(bytes.rfind("data: [DONE]"));
    auto d = decode<llm::openai::stream_decoder>(bytes);
    BOOST_TEST_REQUIRE(d.error.has_value());
    BOOST_TEST(d.error->message == "the stream ended before [DONE]");
}

BOOST_AUTO_TEST_CASE(ollama_sends_whole_calls_and_null_choices_happen)
{
    auto d = decode<llm::openai::stream_decoder>(
        "data: {\"id\":\"chatcmpl-1\",\"model\":\"qwen3\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\","
        "\"tool_calls\":[{\"id\":\"call_a\",\"index\":0,\"type\":\"function\",\"function\":{\"name\":\"contar\",\"arguments\":"
        "\"{\\\"campo\\\":\\\"estado\\\"}\"}}]},\"finish_reason\":null}]}\n\n"
        "data: {\"id\":\"chatcmpl-1\",\"model\":\"qwen3\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
        "\"finish_reason\":\"tool_calls\"}]}\n\n"
        "data: {\"id\":\"chatcmpl-1\",\"choices\":null,\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5}}\n\n"
        "data: [DONE]\n\n");
    BOOST_TEST_REQUIRE(d.response.has_value());
    BOOST_TEST(summary(*d.response) == R"(tool_calls in=10 out=5 | tool_use:call_a contar {"campo":"estado"})");
}

BOOST_AUTO_TEST_CASE(a_refusal_under_a_response_format_is_a_refusal)
{
    // Structured Outputs: the model declines in `refusal`, and the reason is still `stop`.
    auto d = decode<llm::openai::stream_decoder>(
        "data: {\"id\":\"chatcmpl-2\",\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
        "\"content\":null,\"refusal\":\"\"},\"finish_reason\":null}]}\n\n"
        "data: {\"id\":\"chatcmpl-2\",\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"I'm sorry, "
        "I cannot help with that.\"},\"finish_reason\":null}]}\n\n"
        "data: {\"id\":\"chatcmpl-2\",\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
        "data: [DONE]\n\n");
    BOOST_TEST_REQUIRE(d.response.has_value());
    BOOST_TEST((d.response->stop == llm::stop_reason::refusal));
    BOOST_TEST(d.response->assistant.text().empty());

    llm::error failure;
    auto const whole = llm::openai::parse_response_body(
        R"({"id":"chatcmpl-3","model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":null,)"
        R"("refusal":"I'm sorry, I cannot help with that."},"finish_reason":"stop"}]})",
        failure);
    BOOST_TEST_REQUIRE(whole.has_value());
    BOOST_TEST((whole->stop == llm::stop_reason::refusal));
}

BOOST_AUTO_TEST_CASE(the_non_streaming_body_and_error_bodies)
{
    llm::error failure;
    auto r = llm::openai::parse_response_body(fixture("openai-tool-calls.json"), failure);
    BOOST_TEST_REQUIRE(r.has_value());
    BOOST_TEST(r->tool_calls().size() == 2u);
    BOOST_TEST((r->stop == llm::stop_reason::tool_use));
    auto limited = llm::openai::error_from_body(429, fixture("openai-error-rate-limit-429.json"));
    BOOST_TEST(limited.retryable);
    BOOST_TEST(limited.type == "requests");
    BOOST_TEST(limited.message == "Rate limit reached for requests");
    auto missing = llm::openai::error_from_body(404,
        R"({"error":{"message":"The model `x` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}})");
    BOOST_TEST(missing.type == "model_not_found");
}

BOOST_AUTO_TEST_CASE(the_request_body_of_a_tool_round)
{
    json::object const schema = json::parse(R"({"type":"object"})").as_object();
    std::vector<agentio::tool_descriptor> tools{{"contar_iniciativas", "Cuenta", "", &schema, nullptr}};
    std::vector<llm::message> messages{llm::message::user("¿Cuántas?"),
        {llm::role::assistant,
            {llm::thinking_block{"pienso", "sig"},
                llm::tool_use_block{"call_1", "contar_iniciativas", json::parse(R"({"a":1})"), R"({"a": 1})"}}},
        {llm::role::user,
            {llm::tool_result_block{"call_1", {llm::text_block{"12"}}, false},
                llm::tool_result_block{"call_2", {llm::text_block{"sin datos"}}, true}}}};
    llm::request r{.model = "gpt-4o",
        .system = "Eres un asistente.",
        .messages = messages,
        .tools = tools,
        .choice = llm::tool_choice{.mode = llm::tool_choice::mode::any},
        .max_tokens = 100};
    BOOST_TEST(llm::openai::make_request_body(r) ==
        json::parse(R"({"model":"gpt-4o","messages":[
        {"role":"system","content":"Eres un asistente."},
        {"role":"user","content":"¿Cuántas?"},
        {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
          "function":{"name":"contar_iniciativas","arguments":"{\"a\": 1}"}}]},
        {"role":"tool","tool_call_id":"call_1","content":"12"},
        {"role":"tool","tool_call_id":"call_2","content":"Error: sin datos"}],
      "max_completion_tokens":100,
      "tools":[{"type":"function","function":{"name":"contar_iniciativas","description":"Cuenta","parameters":{"type":"object"}}}],
      "tool_choice":"required","stream":true,"stream_options":{"include_usage":true}})")
            .as_object());
    llm::openai::wire_options ollama{.max_tokens_field = "max_tokens",
        .include_usage = true,
        .send_tool_choice = false};
    auto const body = llm::openai::make_request_body(r, ollama);
    BOOST_TEST(body.contains("max_tokens"));
    BOOST_TEST(!body.contains("tool_choice"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(llm_retry)

BOOST_AUTO_TEST_CASE(which_statuses_are_retried)
{
    for(unsigned s : {408u, 409u, 429u, 500u, 502u, 503u, 504u, 529u})
        BOOST_TEST(llm::status_is_retryable(s, ""), s);
    for(unsigned s : {400u, 401u, 403u, 404u, 413u, 422u})
        BOOST_TEST(!llm::status_is_retryable(s, ""), s);
    BOOST_TEST(!llm::status_is_retryable(500, "false"));
    BOOST_TEST(llm::status_is_retryable(400, "true"));
}

BOOST_AUTO_TEST_CASE(server_requested_delays)
{
    using namespace std::chrono;
    BOOST_TEST(llm::parse_retry_after("150", "").value() == milliseconds(150));
    BOOST_TEST(llm::parse_retry_after("", "1").value() == milliseconds(1000));
    BOOST_TEST(llm::parse_retry_after("", "1.5").value() == milliseconds(1500));
    BOOST_TEST(llm::parse_retry_after("bad", "2").value() == milliseconds(2000));
    auto const now = sys_days(year(2026) / November / day(22)) + hours(8) + minutes(49) + seconds(30);
    BOOST_TEST(llm::parse_retry_after("", "Sun, 22 Nov 2026 08:49:37 GMT", now).value() == milliseconds(7000));
    BOOST_TEST(!llm::parse_retry_after("", "soon").has_value());
    BOOST_TEST(!llm::parse_retry_after("", "").has_value());
}

BOOST_AUTO_TEST_CASE(backoff_as_the_sdks)
{
    using ms = std::chrono::milliseconds;
    llm::retry_policy const p;
    std::vector<long> delays;
    for(unsigned n = 0; n < 6; ++n)
        delays.push_back(llm::retry_delay(p, n, std::nullopt, 0.0).count());
    BOOST_TEST(delays == (std::vector<long>{500, 1000, 2000, 4000, 8000, 8000}));
    BOOST_TEST(llm::retry_delay(p, 0, std::nullopt, 0.999).count() == 375); // up to 25 % off
    BOOST_TEST(llm::retry_delay(p, 3, ms(150), 0.5) == ms(150));
    BOOST_TEST(llm::retry_delay(p, 0, ms(61000), 0.0) == ms(500)); // above the cap: backoff
    BOOST_TEST(llm::retry_delay(p, 1, ms(0), 0.0) == ms(1000));
}

BOOST_AUTO_TEST_SUITE_END()

// Structured output: what each wire format sends of an answer's schema.
BOOST_AUTO_TEST_SUITE(structured_output)

json::object schema_of_text(char const* text)
{
    return json::parse(text).as_object();
}

BOOST_AUTO_TEST_CASE(openai_strict_moves_what_strict_mode_lacks_into_descriptions)
{
    auto const schema = schema_of_text(R"json({"type":"object","properties":{
        "name":{"type":"string","minLength":1,"description":"Name"},
        "n":{"type":"integer","minimum":0,"default":3,"examples":[1]}},
        "required":["name","n"],"additionalProperties":false})json");
    llm::request r{.model = "m"};
    r.output = llm::output_format{.name = "answer", .schema = &schema};
    auto const body = llm::openai::make_request_body(r);
    auto const expected = json::parse(R"json({"type":"json_schema","json_schema":{"name":"answer",
        "schema":{"type":"object","properties":{
            "name":{"type":"string","description":"Name (minLength: 1)"},
            "n":{"type":"integer","minimum":0,"description":"(default: 3)"}},
            "required":["name","n"],"additionalProperties":false},"strict":true}})json");
    BOOST_TEST(body.at("response_format") == expected);
}

BOOST_AUTO_TEST_CASE(openai_not_strict_sends_the_schema_as_it_is)
{
    // An optional member (not required), a map, any value: no strict grammar; the model is guided.
    char const* const schemas[] = {
        R"json({"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false})json",
        R"json({"type":"object","additionalProperties":{"type":"integer"}})json",
        "{}",
    };
    for(char const* text : schemas)
    {
        auto const schema = schema_of_text(text);
        llm::request r{.model = "m"};
        r.output = llm::output_format{.name = "answer", .schema = &schema};
        auto const body = llm::openai::make_request_body(r);
        auto const& format = body.at("response_format").at("json_schema");
        BOOST_TEST(format.at("strict") == false);
        BOOST_TEST(format.at("schema") == json::value(schema));
    }
}

BOOST_AUTO_TEST_CASE(anthropic_structured_output_or_words_in_the_system_prompt)
{
    auto const closed = schema_of_text(R"json({"type":"object","properties":{
        "when":{"type":"string","format":"date","minLength":10},
        "tags":{"type":"array","items":{"type":"string","format":"hex"},"minItems":2},
        "n":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807},
        "inner":{"type":"object","properties":{},"additionalProperties":false,"x-extra":"y"}},
        "required":["when"],"additionalProperties":false})json");
    llm::request r{.model = "m", .system = "Sé breve."};
    r.output = llm::output_format{.name = "answer", .schema = &closed};
    auto body = llm::anthropic::make_request_body(r, llm::anthropic::api_version::v2023_06_01);
    // A machine integer's range says nothing: dropped without a note.
    auto const expected = json::parse(R"json({"format":{"type":"json_schema","schema":{
        "type":"object","properties":{
        "when":{"type":"string","format":"date","description":"(minLength: 10)"},
        "tags":{"type":"array","items":{"type":"string","description":"(format: \"hex\")"},
            "description":"(minItems: 2)"},
        "n":{"type":"integer"},
        "inner":{"type":"object","properties":{},"additionalProperties":false}},
        "required":["when"],"additionalProperties":false}}})json");
    BOOST_TEST(body.at("output_config") == expected);
    BOOST_TEST(body.at("system") == "Sé breve.");

    // A map is outside the subset: the schema goes to the model in words, after the system prompt.
    auto const map = schema_of_text(R"json({"type":"object","additionalProperties":{"type":"integer"}})json");
    r.output = llm::output_format{.name = "answer", .schema = &map};
    body = llm::anthropic::make_request_body(r, llm::anthropic::api_version::v2023_06_01);
    BOOST_TEST(!body.contains("output_config"));
    std::string const words = "Sé breve.\n\nAnswer with one JSON value, and no other text, that follows this JSON "
                              "Schema:\n{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}}";
    BOOST_TEST(body.at("system").as_string() == words);
}

BOOST_AUTO_TEST_SUITE_END()
