// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// AG-UI's protocol part: a RunAgentInput read (and refused, naming the
// field), and a model's outputs written as events in the order the official
// client's verifier requires (checked here by the same rules).

// Test that header file is self-contained.
#include <agentio/ag_ui/protocol.hpp>

#include <agentio/json_patch.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>

#include <set>
#include <string>
#include <vector>

namespace ag_ui = agentio::ag_ui;
namespace cc = agentio::chat_completions;
namespace json = boost::json;
namespace llm = agentio::llm;

namespace {

boost::system::result<ag_ui::run_input, ag_ui::input_error> parse(std::string_view text)
{
    return ag_ui::parse_run_input(json::parse(text));
}

std::string field_of(std::string_view text)
{
    auto const r = parse(text);
    return r ? std::string("<accepted>") : r.error().field;
}

// The rules of @ag-ui/client's verify step (src/verify/verify.ts): what must
// be open before it is used, closed before RUN_FINISHED, and nothing after
// the end. Returns the first rule broken, or "".
std::string verify(std::vector<json::object> const& events)
{
    std::set<std::string> text, reasoning, reasoning_messages, calls, steps;
    bool started = false, ended = false;
    for(std::size_t i = 0; i < events.size(); ++i)
    {
        auto const& e = events[i];
        std::string const type(e.at("type").as_string());
        auto id = [&](char const* key) { return std::string(e.at(key).as_string()); };
        if(!e.at("timestamp").is_int64())
            return type + ": the timestamp is not an integer";
        for(auto const& [key, value] : e)
            if(value.is_null())
                return type + ": " + std::string(key) + " is null";
        if(ended)
            return type + " after the end";
        if(!started && type != "RUN_STARTED" && type != "RUN_ERROR")
            return type + " before RUN_STARTED";
        if(type == "RUN_STARTED")
            started = true;
        else if(type == "TEXT_MESSAGE_START" && !text.insert(id("messageId")).second)
            return "a text message started twice";
        else if((type == "TEXT_MESSAGE_CONTENT" || type == "TEXT_MESSAGE_END") && !text.contains(id("messageId")))
            return type + " of a message not open";
        else if(type == "REASONING_START")
            reasoning.insert(id("messageId"));
        else if(type == "REASONING_MESSAGE_START")
            reasoning_messages.insert(id("messageId"));
        else if((type == "REASONING_MESSAGE_CONTENT" || type == "REASONING_MESSAGE_END") &&
            !reasoning_messages.contains(id("messageId")))
            return type + " of a reasoning message not open";
        else if(type == "REASONING_END" && !reasoning.contains(id("messageId")))
            return "REASONING_END of a span not open";
        else if(type == "TOOL_CALL_START" && !calls.insert(id("toolCallId")).second)
            return "a call started twice";
        else if((type == "TOOL_CALL_ARGS" || type == "TOOL_CALL_END") && !calls.contains(id("toolCallId")))
            return type + " of a call not open";
        else if(type == "STEP_STARTED" && !steps.insert(id("stepName")).second)
            return "a step started while open";
        else if(type == "STEP_FINISHED" && steps.erase(id("stepName")) == 0)
            return "STEP_FINISHED of a step not started";
        if(type == "TEXT_MESSAGE_END")
            text.erase(id("messageId"));
        if(type == "REASONING_MESSAGE_END")
            reasoning_messages.erase(id("messageId"));
        if(type == "REASONING_END")
            reasoning.erase(id("messageId"));
        if(type == "TOOL_CALL_END")
            calls.erase(id("toolCallId"));
        if(type == "RUN_FINISHED")
        {
            if(!text.empty() || !reasoning.empty() || !reasoning_messages.empty() || !calls.empty() || !steps.empty())
                return "RUN_FINISHED with something open";
            ended = true;
        }
        if(type == "RUN_ERROR")
            ended = true;
    }
    return {};
}

std::string types(std::vector<json::object> const& events)
{
    std::string out;
    for(auto const& e : events)
        out.append(out.empty() ? "" : " ").append(e.at("type").as_string());
    return out;
}

std::vector<json::object> run(std::vector<cc::output> outputs)
{
    ag_ui::run_events w("t1", "r1", "anthropic", "claude");
    std::vector<json::object> out{w.started()};
    for(auto& o : outputs)
        w.take(std::move(o), out);
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(ag_ui_input)

BOOST_AUTO_TEST_CASE(what_the_official_client_sends_is_read)
{
    // As HttpAgent 1.0.0 sends it (docs/notes/ag-ui-a2a.md, 2.2), with a whole history.
    auto const in = parse(R"({"threadId":"th-1","runId":"run-2","protocolVersion":"1.0","state":{"k":1},
        "messages":[
          {"id":"s1","role":"system","content":"Eres breve."},
          {"id":"u1","role":"user","content":"¿Qué tiempo hace?"},
          {"id":"a1","role":"assistant","content":"Miro.","toolCalls":[{"id":"tc1","type":"function",
            "function":{"name":"weather","arguments":"{\"city\":\"Bilbao\"}"}}]},
          {"id":"r1","role":"tool","toolCallId":"tc1","content":"lluvia"},
          {"id":"x1","role":"reasoning","content":"pensé"},
          {"id":"u2","role":"user","content":[{"type":"text","text":"¿Y mañana?"},
            {"type":"image","source":{"type":"data","value":"aGVsbG8=","mimeType":"image/png"}}]}],
        "tools":[{"name":"confirm","description":"Ask the user","parameters":{"type":"object",
          "properties":{"q":{"type":"string"}}}}],
        "context":[{"description":"Ciudad del usuario","value":"Bilbao"}],
        "forwardedProps":{"x":true},
        "resume":[{"interruptId":"int-1","status":"resolved","payload":{"approved":true}}]})");
    BOOST_TEST_REQUIRE(in.has_value(), (in ? "" : in.error().message));
    BOOST_TEST(in->thread_id == "th-1");
    BOOST_TEST(in->run_id == "run-2");
    BOOST_TEST(in->state.at("k") == 1);
    BOOST_TEST(in->request.system == "Eres breve.\n\nCiudad del usuario: Bilbao");
    BOOST_TEST(in->request.stream);
    auto const& m = in->request.messages;
    // user, assistant (text + call), user (the result, then the next question and its image): merged by role.
    BOOST_TEST_REQUIRE(m.size() == 3u);
    BOOST_TEST((m[1].role == llm::role::assistant));
    auto const* call = std::get_if<llm::tool_use_block>(&m[1].content.at(1));
    BOOST_TEST_REQUIRE(call != nullptr);
    BOOST_TEST(call->id == "tc1");
    BOOST_TEST(call->input.at("city") == "Bilbao");
    BOOST_TEST((m[2].role == llm::role::user));
    BOOST_TEST_REQUIRE(m[2].content.size() == 3u);
    auto const* result = std::get_if<llm::tool_result_block>(&m[2].content[0]);
    BOOST_TEST_REQUIRE(result != nullptr);
    BOOST_TEST(result->tool_use_id == "tc1");
    BOOST_TEST(!result->is_error);
    BOOST_TEST(std::get<llm::image_block>(m[2].content[2]).media_type == "image/png");
    BOOST_TEST_REQUIRE(in->request.tools.size() == 1u);
    BOOST_TEST(in->request.tools[0].name == "confirm");
    BOOST_TEST_REQUIRE(in->resume.size() == 1u);
    BOOST_TEST(in->resume[0].interrupt_id == "int-1");
    BOOST_TEST(in->resume[0].resolved);
    BOOST_TEST(in->resume[0].payload.at("approved") == true);
}

BOOST_AUTO_TEST_CASE(a_tool_error_reaches_the_model_as_an_error_result)
{
    auto const in = parse(R"({"threadId":"t","runId":"r","messages":[
        {"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},
        {"id":"b","role":"tool","toolCallId":"c","content":"","error":"denied"}]})");
    BOOST_TEST_REQUIRE(in.has_value());
    auto const& result = std::get<llm::tool_result_block>(in->request.messages.at(1).content.at(0));
    BOOST_TEST(result.is_error);
    BOOST_TEST(std::get<llm::text_block>(result.content.at(0)).text == "denied");
}

BOOST_AUTO_TEST_CASE(resume_answers_become_decisions)
{
    auto const in = parse(R"({"threadId":"t","runId":"r","messages":[],"resume":[
        {"interruptId":"c1","status":"resolved","payload":{"approved":true}},
        {"interruptId":"c2","status":"resolved","payload":{"approved":false,"reason":"ese no"}},
        {"interruptId":"c3","status":"cancelled"}]})");
    BOOST_TEST_REQUIRE(in.has_value(), (in ? "" : in.error().message));
    auto const& d = in->request.decisions;
    BOOST_TEST_REQUIRE(d.size() == 3u);
    BOOST_TEST(d[0].tool_call_id == "c1");
    BOOST_TEST(d[0].approved);
    BOOST_TEST(!d[1].approved);
    BOOST_TEST(d[1].reason == "ese no");
    BOOST_TEST(!d[2].approved); // abandoned is a no
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":"c1",
        "status":"resolved","payload":{"approved":"sí"}}]})") == "resume[0].payload.approved");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":"c1",
        "status":"resolved"}]})") == "resume[0].payload");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":"c1",
        "status":"resolved","payload":{"approved":true,"reason":7}}]})") == "resume[0].payload.reason");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[],"resume":[
        {"interruptId":"c1","status":"cancelled"},{"interruptId":"c1","status":"cancelled"}]})") ==
        "resume[1].interruptId");
}

BOOST_AUTO_TEST_CASE(calls_never_answered_leave_the_conversation)
{
    // A run cancelled mid-call left the client a call without a result; the next question follows it.
    auto const in = parse(R"({"threadId":"t","runId":"r","messages":[
        {"id":"u1","role":"user","content":"Cuenta"},
        {"id":"a1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},
        {"id":"u2","role":"user","content":"Déjalo"}]})");
    BOOST_TEST_REQUIRE(in.has_value(), (in ? "" : in.error().message));
    auto const& m = in->request.messages;
    BOOST_TEST_REQUIRE(m.size() == 1u); // the empty turn gone, the two questions one turn
    BOOST_TEST(m[0].text() == "CuentaDéjalo");
    BOOST_TEST(m[0].content.size() == 2u);
    // A turn whose calls wait at the end stays: that is the turn an approval answers.
    auto const waiting = parse(R"({"threadId":"t","runId":"r","messages":[
        {"id":"u1","role":"user","content":"Cuenta"},
        {"id":"a1","role":"assistant","content":"Cuento.","toolCalls":[{"id":"c1","type":"function",
          "function":{"name":"f","arguments":"{}"}}]}]})");
    BOOST_TEST_REQUIRE(waiting.has_value());
    BOOST_TEST_REQUIRE(waiting->request.messages.size() == 2u);
    BOOST_TEST(waiting->request.messages[1].content.size() == 2u);
}

BOOST_AUTO_TEST_CASE(bad_input_names_its_field)
{
    BOOST_TEST(field_of(R"([1])") == "body");
    BOOST_TEST(field_of(R"({"runId":"r","messages":[]})") == "threadId");
    BOOST_TEST(field_of(R"({"threadId":"t","messages":[]})") == "runId");
    BOOST_TEST(field_of(R"({"threadId":"","runId":"r","messages":[]})") == "threadId");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r"})") == "messages");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":{}})") == "messages");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[{"id":"u","content":"x"}]})") == "messages[0].role");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[{"id":"u","role":"robot","content":"x"}]})") ==
        "messages[0].role");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[{"id":"u","role":"user"}]})") ==
        "messages[0].content");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[{"id":"x","role":"tool","toolCallId":"nope",
        "content":"y"}]})") == "messages[0].toolCallId");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[
        {"type":"image","source":{"type":"url","value":"https://example.com/a.png"}}]}]})") ==
        "messages[0].content[0].source.type");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[{"id":"a","role":"assistant","toolCalls":[
        {"id":"c","type":"function","function":{"name":"f","arguments":"{no"}}]}]})") ==
        "messages[0].toolCalls[0].function.arguments");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[],"tools":[{"name":"a b"}]})") == "tools[0].name");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[],"tools":[{"name":"a"},{"name":"a"}]})") ==
        "tools[1].name");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[],"context":[{"value":"v"}]})") ==
        "context[0].description");
    BOOST_TEST(field_of(R"({"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":"i",
        "status":"maybe"}]})") == "resume[0].status");
    // The error is the protocol's own: a RUN_ERROR whose message names the field.
    auto const refused = parse(R"({"threadId":"t","messages":[]})");
    BOOST_TEST_REQUIRE(refused.has_error());
    auto const ev = ag_ui::input_error_event(refused.error());
    BOOST_TEST(ev.at("type") == "RUN_ERROR");
    BOOST_TEST(ev.at("code") == "invalid_input");
    BOOST_TEST(std::string(ev.at("message").as_string()).find("runId") != std::string::npos);
    BOOST_TEST(ev.at("metadata").at("agentio").at("field") == "runId");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(ag_ui_events)

BOOST_AUTO_TEST_CASE(frames_are_data_lines_ended_by_a_blank_line)
{
    auto const f = ag_ui::frame(json::object{{"type", "RUN_STARTED"}, {"threadId", "t"}, {"runId", "r"}});
    BOOST_TEST(f == "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");
    BOOST_TEST(f.find('\r') == std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_answer_with_reasoning_and_the_agents_own_call)
{
    using phase = cc::tool_activity::phase;
    auto const events = run({cc::reasoning_delta{"Pienso", false}, cc::content_delta{"Voy a mirar."},
        cc::tool_activity{phase::begun, "tc1", "weather", {}, {}, false},
        cc::tool_activity{phase::arguments, "tc1", {}, R"({"city":)", {}, false},
        cc::tool_activity{phase::arguments, "tc1", {}, R"("Bilbao"})", {}, false},
        cc::reasoning_delta{"→ weather(city=Bilbao)\n", true}, // the endpoint's line: told by the events already
        cc::tool_activity{phase::ready, "tc1", "weather", R"({"city":"Bilbao"})", {}, false},
        cc::tool_activity{phase::finished, "tc1", "weather", {}, "lluvia", false}, cc::content_delta{"Llueve."},
        cc::content_delta{""}, cc::finished{cc::finish_reason::stop, {10, 5, 0, 2}}});
    BOOST_TEST(verify(events) == "");
    BOOST_TEST(types(events) ==
        "RUN_STARTED REASONING_START REASONING_MESSAGE_START REASONING_MESSAGE_CONTENT REASONING_MESSAGE_END "
        "REASONING_END TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END TOOL_CALL_START TOOL_CALL_ARGS "
        "TOOL_CALL_ARGS TOOL_CALL_END TOOL_CALL_RESULT TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END "
        "RUN_FINISHED");
    // The call belongs to the text before it; its result to the call.
    BOOST_TEST(events[9].at("parentMessageId") == events[6].at("messageId"));
    BOOST_TEST(events[13].at("toolCallId") == "tc1");
    BOOST_TEST(events[13].at("content") == "lluvia");
    auto const& finished = events.back();
    BOOST_TEST(finished.at("threadId") == "t1");
    BOOST_TEST(finished.at("runId") == "r1");
    BOOST_TEST(finished.at("outcome").at("type") == "success");
    BOOST_TEST(!finished.at("outcome").as_object().contains("pendingToolCallIds"));
    auto const& usage = finished.at("usage").at(0);
    BOOST_TEST(usage.at("inputTokens") == 10);
    BOOST_TEST(usage.at("totalTokens") == 15);
    BOOST_TEST(usage.at("cachedInputTokens") == 2);
    BOOST_TEST(usage.at("provider") == "anthropic");
}

BOOST_AUTO_TEST_CASE(steps_begin_and_end_by_name)
{
    auto const events = run({cc::step_boundary{"1. a", false}, cc::content_delta{"x"},
        cc::step_boundary{"2. b", false},                                 // a step that begins ends the one before
        cc::step_boundary{"2. b", true}, cc::step_boundary{"2. b", true}, // a step ends once
        cc::step_boundary{"3. c", false}, cc::finished{cc::finish_reason::stop, {}}}); // the run's end ends it
    BOOST_TEST(verify(events) == "");
    BOOST_TEST(types(events) ==
        "RUN_STARTED STEP_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END "
        "STEP_FINISHED STEP_STARTED STEP_FINISHED STEP_STARTED STEP_FINISHED RUN_FINISHED");
    BOOST_TEST(events[1].at("stepName") == "1. a");
    BOOST_TEST(events[5].at("stepName") == "1. a");
    BOOST_TEST(events[6].at("stepName") == "2. b");
    BOOST_TEST(events[7].at("stepName") == "2. b");
    BOOST_TEST(events[9].at("stepName") == "3. c");

    // A failure or a stop closes the open step too.
    auto const failed = run({cc::step_boundary{"1. a", false},
        cc::failed{cc::api_error{500, "no", "server_error", {}, {}}}});
    BOOST_TEST(types(failed) == "RUN_STARTED STEP_STARTED STEP_FINISHED RUN_ERROR");
    ag_ui::run_events w("t1", "r1");
    std::vector<json::object> stopped{w.started()};
    w.take(cc::step_boundary{"react 1: buscar", false}, stopped);
    w.end_abruptly(true, stopped);
    BOOST_TEST(verify(stopped) == "");
    BOOST_TEST(types(stopped) == "RUN_STARTED STEP_STARTED STEP_FINISHED RUN_FINISHED");
}

BOOST_AUTO_TEST_CASE(the_first_state_is_a_snapshot_and_the_next_ones_patches_of_it)
{
    json::value const first = json::parse(
        R"({"plan": {"revision": 1, "steps": [{"step": "a", "status": "running"}, {"step": "b", "status": "pending"}]}})");
    json::value const second = json::parse(
        R"({"plan": {"revision": 1, "steps": [{"step": "a", "status": "done"}, {"step": "b", "status": "pending"}]}})");
    json::value const third =
        json::parse(R"({"plan": {"revision": 2, "steps": [{"step": "c", "status": "pending"}]}})");
    auto const events = run({cc::state_update{first}, cc::state_update{second}, cc::state_update{second},
        cc::state_update{third}, cc::finished{cc::finish_reason::stop, {}}});
    BOOST_TEST(verify(events) == "");
    // The same state twice is no event.
    BOOST_TEST(types(events) == "RUN_STARTED STATE_SNAPSHOT STATE_DELTA STATE_DELTA RUN_FINISHED");
    BOOST_TEST(events[1].at("snapshot") == first);
    // Only what changed travels, and the patches, applied in order as a client does, give each state.
    BOOST_TEST(json::serialize(events[2].at("delta")) ==
        R"([{"op":"replace","path":"/plan/steps/0/status","value":"done"}])");
    json::value state = events[1].at("snapshot");
    BOOST_TEST(agentio::json_patch::apply(state, events[2].at("delta").as_array()) == "");
    BOOST_TEST(state == second);
    BOOST_TEST(agentio::json_patch::apply(state, events[3].at("delta").as_array()) == "");
    BOOST_TEST(state == third);
}

BOOST_AUTO_TEST_CASE(a_conversation_as_a_messages_snapshot_reads_back_as_it_was)
{
    std::vector<llm::message> conversation{{llm::role::user, {llm::text_block{"¿Cuántas hay?"}}},
        {llm::role::assistant,
            {llm::thinking_block{"pienso", "sig"}, llm::text_block{"Cuento."},
                llm::tool_use_block{"c1", "contar", json::parse(R"({"campo": "estado"})"), R"({"campo": "estado"})"},
                llm::tool_use_block{"c2", "fallar", json::object{}, ""}}},
        {llm::role::user,
            {llm::tool_result_block{"c1", {llm::text_block{"7"}}, false},
                llm::tool_result_block{"c2", {llm::text_block{"no existe"}}, true}}},
        {llm::role::assistant, {llm::text_block{"Hay 7."}}},
        {llm::role::user, {llm::text_block{"mira"}, llm::image_block{"image/png", "iVBORw0KGgo="}}}};
    auto const snapshot = ag_ui::messages_snapshot(conversation, "t1-");
    BOOST_TEST(snapshot.at("type") == "MESSAGES_SNAPSHOT");
    auto const& messages = snapshot.at("messages").as_array();
    BOOST_TEST_REQUIRE(messages.size() == 6u);
    BOOST_TEST(messages[0] == json::parse(R"({"id": "t1-0", "role": "user", "content": "¿Cuántas hay?"})"));
    BOOST_TEST(messages[1].at("content") == "Cuento."); // the reasoning is not a message
    BOOST_TEST(messages[1].at("toolCalls").at(0) ==
        json::parse(
            R"({"id": "c1", "type": "function", "function": {"name": "contar", "arguments": "{\"campo\": \"estado\"}"}})"));
    BOOST_TEST(messages[1].at("toolCalls").at(1).at("function").at("arguments") == "{}");
    BOOST_TEST(messages[2] == json::parse(R"({"id": "t1-2-c1", "role": "tool", "toolCallId": "c1", "content": "7"})"));
    BOOST_TEST(messages[3].at("error") == "no existe");
    BOOST_TEST(messages[5].at("content").at(1).at("source").at("mimeType") == "image/png");

    // Read back as a RunAgentInput, it is the same conversation (the reasoning aside).
    json::object input{{"threadId", "t1"}, {"runId", "r2"}, {"messages", messages}};
    auto const read = ag_ui::parse_run_input(input);
    BOOST_TEST_REQUIRE(read.has_value(), read.error().message);
    auto const& back = read->request.messages;
    BOOST_TEST_REQUIRE(back.size() == conversation.size());
    BOOST_TEST(std::get<llm::tool_use_block>(back[1].content[1]).input == json::parse(R"({"campo": "estado"})"));
    auto const& failure = std::get<llm::tool_result_block>(back[2].content[1]);
    BOOST_TEST(failure.is_error);
    BOOST_TEST(std::get<llm::text_block>(failure.content[0]).text == "no existe"); // said once
    BOOST_TEST(std::get<llm::image_block>(back[4].content[1]).base64_data == "iVBORw0KGgo=");
}

BOOST_AUTO_TEST_CASE(the_clients_call_ends_the_run_pending)
{
    // Streamed as it formed, or given whole at the end: the same events.
    auto const streamed = run({cc::content_delta{"Te pregunto."}, cc::tool_call_begun{"c1", "confirm"},
        cc::tool_call_arguments{"c1", R"({"q":)"}, cc::tool_call_arguments{"c1", R"("¿seguro?"})"},
        cc::tool_call_output{"c1", "confirm", R"({"q":"¿seguro?"})"}, cc::finished{cc::finish_reason::tool_calls, {}}});
    auto const whole = run({cc::content_delta{"Te pregunto."},
        cc::tool_call_output{"c1", "confirm", R"({"q":"¿seguro?"})"}, cc::finished{cc::finish_reason::tool_calls, {}}});
    for(auto const* events : {&streamed, &whole})
    {
        BOOST_TEST(verify(*events) == "");
        BOOST_TEST(events->back().at("outcome").at("pendingToolCallIds").at(0) == "c1");
        std::string args;
        for(auto const& e : *events)
            if(e.at("type") == "TOOL_CALL_ARGS")
                args += e.at("delta").as_string();
            else
                BOOST_TEST(e.at("type") != "TOOL_CALL_RESULT"); // the client runs it
        BOOST_TEST(args == R"({"q":"¿seguro?"})");
    }
}

BOOST_AUTO_TEST_CASE(an_approval_ends_the_run_with_an_interrupt)
{
    using phase = cc::tool_activity::phase;
    cc::awaiting_approval wait;
    wait.calls.push_back({"c1", "borrar", R"({"id":7})", "¿Borro la cartera 7?", false});
    wait.turn.push_back({"c1", "borrar", R"({"id":7})"});
    wait.turn.push_back({"c2", "contar", R"({})"}); // needs no approval; never streamed
    wait.usage = {20, 4, 0, 0};
    auto const events = run({cc::content_delta{"Voy a borrarla."},
        cc::tool_activity{phase::begun, "c1", "borrar", {}, {}, false},
        cc::tool_activity{phase::arguments, "c1", {}, R"({"id":7})", {}, false},
        cc::tool_activity{phase::ready, "c1", "borrar", R"({"id":7})", {}, false}, std::move(wait)});
    BOOST_TEST(verify(events) == "");
    BOOST_TEST(types(events) ==
        "RUN_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END TOOL_CALL_START TOOL_CALL_ARGS "
        "TOOL_CALL_END TOOL_CALL_START TOOL_CALL_ARGS TOOL_CALL_END RUN_FINISHED");
    auto const& outcome = events.back().at("outcome");
    BOOST_TEST(outcome.at("type") == "interrupt");
    BOOST_TEST_REQUIRE(outcome.at("interrupts").as_array().size() == 1u);
    auto const& interrupt = outcome.at("interrupts").at(0);
    BOOST_TEST(interrupt.at("id") == "c1");
    BOOST_TEST(interrupt.at("toolCallId") == "c1");
    BOOST_TEST(interrupt.at("reason") == "tool_call");
    BOOST_TEST(interrupt.at("message") == "¿Borro la cartera 7?");
    BOOST_TEST(interrupt.at("responseSchema") == ag_ui::approval_schema());
    BOOST_TEST(interrupt.at("metadata").at("agentio").at("arguments").at("id") == 7);
    BOOST_TEST(!interrupt.at("metadata").at("agentio").as_object().contains("inDoubt"));
    BOOST_TEST(events.back().at("usage").at(0).at("inputTokens") == 20);
    // Both calls belong to the text's message, as the thread keeps the turn.
    BOOST_TEST(events[7].at("parentMessageId") == events[1].at("messageId"));
}

BOOST_AUTO_TEST_CASE(a_failure_or_a_stop_ends_the_run_and_nothing_follows)
{
    auto failed = run({cc::content_delta{"Empiezo"},
        cc::failed{{502, "El modelo no responde.", "server_error", {}, "upstream_error"}}, cc::content_delta{"más"}});
    BOOST_TEST(verify(failed) == "");
    BOOST_TEST(failed.back().at("type") == "RUN_ERROR");
    BOOST_TEST(failed.back().at("code") == "upstream_error");
    BOOST_TEST(failed.back().at("message") == "El modelo no responde.");

    auto cut = run({cc::content_delta{"A medias"}, cc::finished{cc::finish_reason::length, {}}});
    BOOST_TEST(verify(cut) == "");
    BOOST_TEST(cut.back().at("result").at("finishReason") == "length");

    ag_ui::run_events w("t", "r");
    std::vector<json::object> out{w.started()};
    w.take(cc::reasoning_delta{"pienso", false}, out);
    w.take(cc::tool_call_begun{"c", "f"}, out);
    w.end_abruptly(true, out);
    BOOST_TEST(verify(out) == "");
    BOOST_TEST(out.back().at("outcome").at("type") == "cancelled");
    BOOST_TEST(w.ended());
    std::vector<json::object> none;
    w.take(cc::content_delta{"tarde"}, none);
    BOOST_TEST(none.empty());
}

BOOST_AUTO_TEST_SUITE_END()
