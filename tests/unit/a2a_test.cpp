// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// A2A 1.0's protocol part: JSON-RPC requests read and refused in the
// specification's error shapes, the A2A-Version rule, SendMessage's params
// (decisions among them), the agent card's required members, and a task as
// the view of a run's AG-UI events.

// Test that header file is self-contained.
#include <agentio/a2a/protocol.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

namespace a2a = agentio::a2a;
namespace json = boost::json;
namespace llm = agentio::llm;

namespace {

a2a::rpc_error refused_params(std::string_view params)
{
    auto const r = a2a::parse_send_params(json::parse(params).as_object());
    BOOST_TEST_REQUIRE(r.has_error());
    return r.error();
}

std::string violated_field(a2a::rpc_error const& e)
{
    BOOST_TEST_REQUIRE(e.code == a2a::error_code::invalid_params);
    return std::string(e.data.at(0).at("fieldViolations").at(0).at("field").as_string());
}

json::object event(std::string_view text)
{
    return json::parse(text).as_object();
}

std::vector<std::string> kinds(std::vector<json::object> const& responses)
{
    std::vector<std::string> out;
    for(auto const& r : responses)
        out.push_back(r.begin()->key());
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(a2a_jsonrpc)

BOOST_AUTO_TEST_CASE(requests_and_their_errors)
{
    json::value id;
    auto const ok =
        a2a::parse_request(R"({"jsonrpc":"2.0","id":7,"method":"GetTask","params":{"id":"t1","historyLength":2}})", id);
    BOOST_TEST_REQUIRE(ok.has_value());
    BOOST_TEST(ok->method == "GetTask");
    BOOST_TEST(ok->id == 7);
    BOOST_TEST(ok->params.at("id") == "t1");

    BOOST_TEST(a2a::parse_request("{", id).error().code == a2a::error_code::parse_error);
    BOOST_TEST(id.is_null());
    auto const no_version = a2a::parse_request(R"({"id":"x","method":"GetTask"})", id);
    BOOST_TEST(no_version.error().code == a2a::error_code::invalid_request);
    BOOST_TEST(id == "x"); // the answer still names the request
    BOOST_TEST(a2a::parse_request(R"({"jsonrpc":"2.0","id":1,"method":3})", id).error().code ==
        a2a::error_code::invalid_request);
    BOOST_TEST(a2a::parse_request(R"({"jsonrpc":"2.0","id":{},"method":"GetTask"})", id).error().code ==
        a2a::error_code::invalid_request);
    BOOST_TEST(a2a::parse_request(R"({"jsonrpc":"2.0","id":1,"method":"GetTask","params":[1]})", id).error().code ==
        a2a::error_code::invalid_request);

    auto const answer = a2a::error_response(json::value(3), a2a::task_not_found("t9"));
    BOOST_TEST(answer.at("jsonrpc") == "2.0");
    BOOST_TEST(answer.at("id") == 3);
    BOOST_TEST(answer.at("error").at("code") == -32001);
    auto const& info = answer.at("error").at("data").at(0);
    BOOST_TEST(info.at("@type") == "type.googleapis.com/google.rpc.ErrorInfo");
    BOOST_TEST(info.at("reason") == "TASK_NOT_FOUND");
    BOOST_TEST(info.at("metadata").at("taskId") == "t9");
    BOOST_TEST(a2a::result_response("a", json::object{{"k", 1}}).at("result").at("k") == 1);
}

BOOST_AUTO_TEST_CASE(the_version_header_is_one_point_zero)
{
    BOOST_TEST(!a2a::check_version("1.0").has_value());
    BOOST_TEST(!a2a::check_version("1.0.1").has_value()); // a patch is not negotiated
    BOOST_TEST(a2a::check_version(std::nullopt)->code == a2a::error_code::version_not_supported); // absent is 0.3
    BOOST_TEST(a2a::check_version("")->code == a2a::error_code::version_not_supported);
    BOOST_TEST(a2a::check_version("0.3")->code == a2a::error_code::version_not_supported);
    BOOST_TEST(a2a::check_version("1.01").has_value());
    BOOST_TEST(a2a::check_version("1.1")->data.at(0).at("reason") == "VERSION_NOT_SUPPORTED");
}

BOOST_AUTO_TEST_CASE(send_params_as_the_official_client_sends_them)
{
    auto const p = a2a::parse_send_params(json::parse(R"({"message":{"messageId":"m1","role":"ROLE_USER",
        "contextId":"c1","parts":[{"text":"Hola"},{"data":{"k":1},"mediaType":"application/json"}]},
        "configuration":{"historyLength":3}})")
                                              .as_object());
    BOOST_TEST_REQUIRE(p.has_value(), (p ? "" : p.error().message));
    BOOST_TEST(p->message_id == "m1");
    BOOST_TEST(p->context_id == "c1");
    BOOST_TEST(p->task_id.empty());
    BOOST_TEST((p->content.role == llm::role::user));
    BOOST_TEST(p->content.text() == "Hola{\"k\":1}");
    BOOST_TEST(*p->history_length == 3u);
    BOOST_TEST(!p->return_immediately);

    auto const decided = a2a::parse_send_params(json::parse(R"({"message":{"messageId":"m2","role":"ROLE_USER",
        "taskId":"t1","contextId":"c1","parts":[{"data":{"decisions":[{"toolCallId":"c7","approved":false,
        "reason":"no"}]}}]}})")
                                                    .as_object());
    BOOST_TEST_REQUIRE(decided.has_value());
    BOOST_TEST(decided->task_id == "t1");
    BOOST_TEST_REQUIRE(decided->decisions.size() == 1u);
    BOOST_TEST(decided->decisions[0].tool_call_id == "c7");
    BOOST_TEST(!decided->decisions[0].approved);
    BOOST_TEST(decided->decisions[0].reason == "no");
    BOOST_TEST(decided->content.content.empty());
}

BOOST_AUTO_TEST_CASE(bad_params_name_the_field)
{
    BOOST_TEST(violated_field(refused_params(R"({})")) == "message");
    BOOST_TEST(violated_field(refused_params(R"({"message":{"role":"ROLE_USER","parts":[{"text":"x"}]}})")) ==
        "message.messageId");
    BOOST_TEST(violated_field(refused_params(
                   R"({"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"x"}]}})")) == "message.role");
    BOOST_TEST(violated_field(refused_params(R"({"message":{"messageId":"m","role":"ROLE_USER","parts":[]}})")) ==
        "message.parts");
    BOOST_TEST(violated_field(refused_params(
                   R"({"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x","data":{}}]}})")) ==
        "message.parts[0]");
    BOOST_TEST(violated_field(refused_params(R"({"message":{"messageId":"m","role":"ROLE_USER",
        "parts":[{"data":{"decisions":[{"toolCallId":"c","approved":"yes"}]}}]}})")) ==
        "message.parts[0].data.decisions[0].approved");
    BOOST_TEST(violated_field(refused_params(R"({"message":{"messageId":"m","role":"ROLE_USER",
        "parts":[{"text":"x"}]},"configuration":{"historyLength":-1}})")) == "configuration.historyLength");
    auto const file = refused_params(R"({"message":{"messageId":"m","role":"ROLE_USER",
        "parts":[{"url":"https://x/a.pdf","mediaType":"application/pdf"}]}})");
    BOOST_TEST(file.code == a2a::error_code::content_type_not_supported);
    BOOST_TEST(refused_params(R"({"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]},
        "configuration":{"taskPushNotificationConfig":{"url":"https://x"}}})")
                   .code == a2a::error_code::push_notification_not_supported);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(a2a_card)

BOOST_AUTO_TEST_CASE(the_required_members_and_the_security_it_asks)
{
    a2a::card_options o;
    o.name = "agentio-portfolio";
    o.description = "Answers questions about a project portfolio.";
    o.version = "0.2.0";
    o.url = "http://127.0.0.1:8080/a2a";
    o.security = a2a::card_security::api_key;
    o.api_key_header = "X-API-Key";
    auto const card = a2a::agent_card(o, {{"contar", "contar", "Cuenta iniciativas", {"tool"}, {}}});
    auto const& interface = card.at("supportedInterfaces").at(0);
    BOOST_TEST(interface.at("url") == "http://127.0.0.1:8080/a2a");
    BOOST_TEST(interface.at("protocolBinding") == "JSONRPC");
    BOOST_TEST(interface.at("protocolVersion") == "1.0");
    BOOST_TEST(card.at("capabilities").at("streaming") == true);
    BOOST_TEST(card.at("capabilities").at("pushNotifications") == false);
    BOOST_TEST(card.at("skills").at(0).at("tags").at(0) == "tool");
    BOOST_TEST(!card.at("defaultInputModes").as_array().empty());
    BOOST_TEST(!card.at("defaultOutputModes").as_array().empty());
    BOOST_TEST(card.at("securitySchemes").at("bearer").at("httpAuthSecurityScheme").at("scheme") == "Bearer");
    BOOST_TEST(card.at("securitySchemes").at("apiKey").at("apiKeySecurityScheme").at("name") == "X-API-Key");
    BOOST_TEST(card.at("securityRequirements").as_array().size() == 2u);

    // No tools: one chat skill (the list must not be empty); no authentication: no schemes.
    a2a::card_options open = o;
    open.security = a2a::card_security::none;
    auto const plain = a2a::agent_card(open, {});
    BOOST_TEST(plain.at("skills").at(0).at("id") == "chat");
    BOOST_TEST(!plain.contains("securitySchemes"));
    BOOST_TEST(!plain.contains("securityRequirements"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(a2a_task_view)

BOOST_AUTO_TEST_CASE(steps_are_working_statuses_and_state_is_not_the_tasks)
{
    a2a::task_view t("t1", "c1");
    std::vector<json::object> out;
    for(auto const* e : {R"({"type":"RUN_STARTED","threadId":"c1","runId":"t1"})",
            R"({"type":"STATE_SNAPSHOT","snapshot":{"plan":{"revision":1,"steps":[]}}})",
            R"({"type":"STEP_STARTED","stepName":"1. Buscar"})", R"({"type":"STEP_FINISHED","stepName":"1. Buscar"})",
            R"({"type":"STATE_DELTA","delta":[]})", R"({"type":"MESSAGES_SNAPSHOT","messages":[]})"})
        t.take(event(e), out);
    BOOST_TEST((kinds(out) == std::vector<std::string>{"statusUpdate", "statusUpdate", "statusUpdate"}));
    auto const step = [&](std::size_t i) {
        return out[i].at("statusUpdate").at("status").at("message").at("parts").at(0).at("data").at("step");
    };
    BOOST_TEST(step(1) == json::parse(R"({"name": "1. Buscar", "status": "started"})"));
    BOOST_TEST(step(2).at("status") == "finished");
    BOOST_TEST(out[2].at("statusUpdate").at("status").at("state") == "TASK_STATE_WORKING");
}

BOOST_AUTO_TEST_CASE(a_run_with_a_tool_call_is_a_task_that_completes)
{
    a2a::task_view t("t1", "c1");
    t.asked(json::parse(R"({"messageId":"m1","role":"ROLE_USER","parts":[{"text":"¿Cuántas?"}]})").as_object());
    BOOST_TEST(t.task().at("status").at("state") == "TASK_STATE_SUBMITTED");
    std::vector<json::object> out;
    for(auto const* e : {R"({"type":"RUN_STARTED","threadId":"c1","runId":"t1"})",
            R"({"type":"TOOL_CALL_START","toolCallId":"k1","toolCallName":"contar"})",
            R"({"type":"TOOL_CALL_ARGS","toolCallId":"k1","delta":"{\"campo\":"})",
            R"({"type":"TOOL_CALL_ARGS","toolCallId":"k1","delta":"\"estado\"}"})",
            R"({"type":"TOOL_CALL_END","toolCallId":"k1"})",
            R"({"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"k1","content":"4"})",
            R"({"type":"TEXT_MESSAGE_START","messageId":"a","role":"assistant"})",
            R"({"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"Hay "})",
            R"({"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"cuatro."})",
            R"({"type":"TEXT_MESSAGE_END","messageId":"a"})",
            R"({"type":"RUN_FINISHED","threadId":"c1","runId":"t1","outcome":{"type":"success"}})"})
        t.take(event(e), out);
    BOOST_TEST((kinds(out) ==
        std::vector<std::string>{"statusUpdate", "statusUpdate", "statusUpdate", "artifactUpdate", "artifactUpdate",
            "artifactUpdate", "statusUpdate"}));
    auto const& call = out[1].at("statusUpdate").at("status").at("message").at("parts").at(0).at("data").at("toolCall");
    BOOST_TEST(call.at("name") == "contar");
    BOOST_TEST(call.at("arguments").at("campo") == "estado");
    BOOST_TEST(out[3].at("artifactUpdate").at("append") == false);
    BOOST_TEST(out[4].at("artifactUpdate").at("append") == true);
    auto const& last = out[5].at("artifactUpdate");
    BOOST_TEST(last.at("lastChunk") == true);
    BOOST_TEST(last.at("artifact").at("parts").at(0).at("text") == "Hay cuatro.");
    BOOST_TEST(out.back().at("statusUpdate").at("status").at("state") == "TASK_STATE_COMPLETED");
    BOOST_TEST(out.back().at("statusUpdate").at("taskId") == "t1");
    BOOST_TEST(out.back().at("statusUpdate").at("contextId") == "c1");
    BOOST_TEST((t.state() == a2a::task_state::completed));
    auto const task = t.task(1);
    BOOST_TEST(task.at("artifacts").at(0).at("parts").at(0).at("text") == "Hay cuatro.");
    BOOST_TEST(task.at("history").as_array().size() == 1u); // the latest: the answer
    BOOST_TEST(task.at("history").at(0).at("role") == "ROLE_AGENT");
    BOOST_TEST(!t.task(0).contains("history"));
    BOOST_TEST(!t.task({}, false).contains("artifacts"));
    BOOST_TEST(t.task().at("history").at(0).at("taskId") == "t1");
}

BOOST_AUTO_TEST_CASE(an_interrupt_is_input_required_and_an_error_fails_the_task)
{
    a2a::task_view t("t1", "c1");
    std::vector<json::object> out;
    t.take(event(R"({"type":"RUN_STARTED","threadId":"c1","runId":"t1"})"), out);
    t.take(event(R"({"type":"RUN_FINISHED","threadId":"c1","runId":"t1","outcome":{"type":"interrupt",
        "interrupts":[{"id":"k1","reason":"tool_call","toolCallId":"k1","message":"¿Apruebas?",
        "metadata":{"agentio":{"tool":"borrar","arguments":{"id":7}}}}]}})"),
        out);
    BOOST_TEST((t.state() == a2a::task_state::input_required));
    auto const& parts = out.back().at("statusUpdate").at("status").at("message").at("parts");
    BOOST_TEST(parts.at(0).at("text") == "¿Apruebas?");
    auto const& approval = parts.at(1).at("data").at("approvals").at(0);
    BOOST_TEST(approval.at("toolCallId") == "k1");
    BOOST_TEST(approval.at("tool") == "borrar");
    BOOST_TEST(approval.at("input").at("id") == 7);
    // The task goes on with the next run.
    t.take(event(R"({"type":"RUN_STARTED","threadId":"c1","runId":"t1-2"})"), out);
    BOOST_TEST((t.state() == a2a::task_state::working));
    t.take(event(R"({"type":"RUN_ERROR","message":"El modelo no responde.","code":"upstream_error"})"), out);
    BOOST_TEST((t.state() == a2a::task_state::failed));
    BOOST_TEST(out.back().at("statusUpdate").at("status").at("message").at("parts").at(0).at("text") ==
        "El modelo no responde.");
    BOOST_TEST(a2a::is_terminal(t.state()));

    a2a::task_view c("t2", "c1");
    c.take(event(R"({"type":"RUN_FINISHED","threadId":"c1","runId":"t2","outcome":{"type":"cancelled"}})"), out);
    BOOST_TEST((c.state() == a2a::task_state::canceled));
    BOOST_TEST(a2a::to_string(c.state()) == "TASK_STATE_CANCELED");
    BOOST_TEST((*a2a::parse_task_state("TASK_STATE_INPUT_REQUIRED") == a2a::task_state::input_required));
    BOOST_TEST(!a2a::parse_task_state("TASK_STATE_UNSPECIFIED"));
}

BOOST_AUTO_TEST_SUITE_END()
