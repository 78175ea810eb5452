// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The Chat Completions endpoint: request reading and its 400s, then the
// endpoint on a loopback server in front of an agent (the OpenAI provider
// and the real HTTP client against the fake LLM): the completion object, the
// stream's wire, server-side tools as reasoning, the client's tools, stop
// sequences, errors before and during a stream, and a client that leaves.
#include <agentio/json_text.hpp>
#include <agentio/chat_completions.hpp>
#include <agentio/a2a.hpp>
#include <agentio/ag_ui.hpp>
#include <agentio/json_patch.hpp>

#include <agentio/llm/openai.hpp>
#include <agentio/threads/sqlite_store.hpp>
#include <agentio/testing/fake_llm.hpp>

#include "summaries.hpp"
#include "test_http.hpp"
#include "model_outputs.hpp"
#include "test_tools.hpp"
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <random>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;
namespace agent = agentio::agent;
namespace testing = agentio::testing;
namespace cc = agentio::chat_completions;
using namespace std::chrono_literals;
using namespace agent_test;

namespace {

cc::request parsed(std::string_view body)
{
    auto r = cc::parse_request(body);
    BOOST_TEST_REQUIRE(r.has_value(), (r ? std::string() : r.error().message));
    return std::move(*r);
}

cc::api_error refused(std::string_view body)
{
    auto r = cc::parse_request(body);
    BOOST_TEST_REQUIRE(!r.has_value());
    BOOST_TEST(r.error().status == 400u);
    return r.error();
}

} // namespace

BOOST_AUTO_TEST_SUITE(agent_strategy)

BOOST_AUTO_TEST_CASE(labels_are_read_exactly)
{
    BOOST_TEST((*agent::parse_label("react") == agent::strategy::react));
    BOOST_TEST((*agent::parse_label("  Plan_Execute.\n") == agent::strategy::plan_execute));
    BOOST_TEST((*agent::parse_label("`tools`") == agent::strategy::tools));
    BOOST_TEST(!agent::parse_label("I would use react").has_value());
    BOOST_TEST(!agent::parse_label("react, or tools").has_value());
    BOOST_TEST(!agent::parse_label("").has_value());
    BOOST_TEST((*agent::parse_label("Chat.") == agent::strategy::chat));
    BOOST_TEST((agent::parse_strategy("chat") == agent::strategy::chat));
    BOOST_TEST(agent::to_string(agent::strategy::chat) == "chat");
}

// Plain chat: a message of chat words and at most `chat_other_words` others;
// plan and ReAct words come first, and a real question is never chat.
BOOST_AUTO_TEST_CASE(plain_chat_is_chat_words_and_a_few_others)
{
    agent::keyword_rules rules;
    rules.react = {"busca"};
    rules.clause_separators = {"y"};
    rules.chat = {"hola", "gracias", "muchas gracias", "reescribe", "tu respuesta", "más corta"};
    BOOST_TEST(rules.chat_other_words == 2u);
    BOOST_TEST((agent::choose_by_keywords("¡Hola!", rules) == agent::strategy::chat));
    BOOST_TEST((agent::choose_by_keywords("Muchas GRACIAS por todo", rules) == agent::strategy::chat));
    BOOST_TEST((agent::choose_by_keywords("Reescribe tu respuesta, más corta", rules) == agent::strategy::chat));
    BOOST_TEST((agent::choose_by_keywords("Hola, ¿qué tiempo hace en Bilbao?", rules) == agent::strategy::tools));
    BOOST_TEST((agent::choose_by_keywords("Gracias, busca otra", rules) == agent::strategy::react));
    BOOST_TEST((agent::choose_by_keywords("holanda", rules) == agent::strategy::tools)); // whole words only
    BOOST_TEST((agent::choose_by_keywords("", rules) == agent::strategy::tools));
    rules.chat_other_words = 0;
    BOOST_TEST((agent::choose_by_keywords("gracias a ti", rules) == agent::strategy::tools));
    BOOST_TEST((agent::choose_by_keywords("gracias", rules) == agent::strategy::chat));
}

BOOST_AUTO_TEST_CASE(keywords_match_whole_words_without_accents)
{
    agent::keyword_rules rules;
    rules.plan_execute = {"después", "compara"};
    rules.clause_separators = {";", "y"};
    rules.react = {"por qué", "investiga"};
    BOOST_TEST((agent::choose_by_keywords("Calcula el total y DESPUES súmalo", rules) ==
        agent::strategy::plan_execute));
    BOOST_TEST((agent::choose_by_keywords("¿Por qué bajaron?", rules) == agent::strategy::react));
    BOOST_TEST((agent::choose_by_keywords("Compara; ordena", rules) == agent::strategy::plan_execute));
    BOOST_TEST((agent::choose_by_keywords("comparativa de ventas", rules) ==
        agent::strategy::tools));                                                           // not a whole word
    BOOST_TEST((agent::choose_by_keywords("Suma 3 y 4", rules) == agent::strategy::tools)); // one clause join
    BOOST_TEST((agent::choose_by_keywords("Yo investigaré", rules) == agent::strategy::tools));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(chat_completions_request)

BOOST_AUTO_TEST_CASE(a_conversation_becomes_the_neutral_one)
{
    auto const r = parsed(R"({"model": "asistente", "messages": [
        {"role": "system", "content": "Sé breve."},
        {"role": "developer", "content": [{"type": "text", "text": "Responde en español."}]},
        {"role": "user", "content": "¿Cuánto es 2+2?"},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "calc", "arguments": "{\"e\":\"2+2\"}"}},
            {"id": "call_2", "type": "function", "function": {"name": "calc", "arguments": "{\"e\":"}}]},
        {"role": "tool", "tool_call_id": "call_2", "content": "error"},
        {"role": "tool", "tool_call_id": "call_1", "content": [{"type": "text", "text": "4"}]},
        {"role": "user", "content": [{"type": "text", "text": "¿Y 3+3?"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]}],
        "stream": true, "stream_options": {"include_usage": true}, "max_tokens": 100,
        "max_completion_tokens": 50, "temperature": 0.5, "stop": ["FIN", "\nObservation"],
        "session_id": "s-1", "agent_type": "react"})");
    BOOST_TEST(r.model == "asistente");
    BOOST_TEST(r.system == "Sé breve.\n\nResponde en español.");
    BOOST_TEST_REQUIRE(r.messages.size() == 3u); // user, assistant, user (tool results merged with the next question)
    BOOST_TEST((r.messages[1].role == llm::role::assistant));
    auto const& call = std::get<llm::tool_use_block>(r.messages[1].content[0]);
    BOOST_TEST(call.input.at("e").as_string() == "2+2");
    BOOST_TEST(std::get<llm::tool_use_block>(r.messages[1].content[1]).input.is_null()); // kept as written
    BOOST_TEST_REQUIRE(r.messages[2].content.size() == 4u);
    BOOST_TEST(std::get<llm::tool_result_block>(r.messages[2].content[0]).tool_use_id == "call_2");
    BOOST_TEST(std::get<llm::image_block>(r.messages[2].content[3]).media_type == "image/png");
    BOOST_TEST(r.stream);
    BOOST_TEST(r.include_usage);
    BOOST_TEST(*r.max_tokens == 50u); // max_completion_tokens wins
    BOOST_TEST(*r.temperature == 0.5);
    BOOST_TEST(r.stop.size() == 2u);
    BOOST_TEST(r.extra.at("session_id").as_string() == "s-1");
    BOOST_TEST(r.extra.at("agent_type").as_string() == "react");
    BOOST_TEST(!r.extra.contains("model"));
}

BOOST_AUTO_TEST_CASE(client_tools_and_tool_choice)
{
    auto const r = parsed(R"({"model": "m", "messages": [{"role": "user", "content": "hola"}],
        "tools": [{"type": "function", "function": {"name": "get_weather", "description": "El tiempo",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}],
        "tool_choice": {"type": "function", "function": {"name": "get_weather"}}, "parallel_tool_calls": false})");
    BOOST_TEST_REQUIRE(r.tools.size() == 1u);
    BOOST_TEST(r.tools[0].parameters.contains("properties"));
    BOOST_TEST((r.choice->mode == llm::tool_choice::mode::named));
    BOOST_TEST(r.choice->name == "get_weather");
    BOOST_TEST(r.choice->disable_parallel);
}

BOOST_AUTO_TEST_CASE(bad_bodies_name_the_field)
{
    BOOST_TEST(refused("{").code == "invalid_json");
    BOOST_TEST(refused("[1]").code == "invalid_type");
    BOOST_TEST(refused(R"({"messages": []})").param == "model");
    BOOST_TEST(refused(R"({"model": "m"})").param == "messages");
    BOOST_TEST(refused(R"({"model": 7, "messages": []})").param == "model");
    BOOST_TEST(refused(R"({"model": "m", "messages": {}})").param == "messages");
    BOOST_TEST(refused(R"({"model": "m", "messages": []})").code == "empty_array");
    BOOST_TEST(refused(R"({"model": "m", "messages": [{"role": "system", "content": "x"}]})").param == "messages");
    BOOST_TEST(
        refused(R"({"model": "m", "messages": [{"role": "user", "content": "x"}, {"role": "robot", "content": "x"}]})")
            .param == "messages[1].role");
    BOOST_TEST(refused(R"({"model": "m", "messages": [{"content": "x"}]})").param == "messages[0].role");
    BOOST_TEST(refused(R"({"model": "m", "messages": [{"role": "user", "content": 5}]})").param ==
        "messages[0].content");
    BOOST_TEST(refused(R"({"model": "m", "messages": [{"role": "user"}]})").param == "messages[0].content");
    BOOST_TEST(refused(R"({"model": "m", "messages": [{"role": "user", "content": [{"type": "audio"}]}]})").param ==
        "messages[0].content[0].type");
    BOOST_TEST(refused(R"({"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url",
        "image_url": {"url": "http://169.254.169.254/x.png"}}]}]})")
                   .param == "messages[0].content[0].image_url.url");
    BOOST_TEST(
        refused(R"({"model": "m", "messages": [{"role": "tool", "tool_call_id": "x", "content": "4"}]})").param ==
        "messages[0].tool_call_id");
    BOOST_TEST(refused(R"({"model": "m", "messages": [{"role": "user", "content": "x"}, {"role": "assistant",
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "user", "content": "y"}]})")
                   .param == "messages[1].tool_calls");
    BOOST_TEST(
        refused(R"({"model": "m", "messages": [{"role": "user", "content": "x"}, {"role": "assistant"}]})").param ==
        "messages[1].content");
    auto const u = [](std::string extra) {
        return R"({"model": "m", "messages": [{"role": "user", "content": "x"}], )" + extra + "}";
    };
    BOOST_TEST(refused(u(R"("n": 2)")).param == "n");
    BOOST_TEST(parsed(u(R"("n": 1)")).model == "m");
    BOOST_TEST(refused(u(R"("stop": ["a", "b", "c", "d", "e"])")).param == "stop");
    BOOST_TEST(refused(u(R"("stop": ["a", 3])")).param == "stop[1]");
    BOOST_TEST(refused(u(R"("stream_options": {"include_usage": true})")).param == "stream_options");
    BOOST_TEST(refused(u(R"("stream": "yes")")).param == "stream");
    BOOST_TEST(refused(u(R"("max_tokens": 0)")).param == "max_tokens");
    BOOST_TEST(refused(u(R"("max_completion_tokens": "5")")).param == "max_completion_tokens");
    BOOST_TEST(refused(u(R"("temperature": 3)")).param == "temperature");
    BOOST_TEST(refused(u(R"("tools": [{"type": "function", "function": {"name": "a b"}}])")).param ==
        "tools[0].function.name");
    BOOST_TEST(refused(u(R"("tools": [{"type": "retrieval"}])")).param == "tools[0].type");
    BOOST_TEST(refused(u(R"("tool_choice": {"type": "function", "function": {"name": "nadie"}})")).param ==
        "tool_choice.function.name");
    BOOST_TEST(refused(u(R"("tool_choice": "always")")).param == "tool_choice");
}

BOOST_AUTO_TEST_CASE(errors_have_openai_shape)
{
    auto const e = cc::to_json(cc::invalid_request("bad", "messages[0].role", "invalid_value"));
    BOOST_TEST(json::serialize(e) ==
        R"({"error":{"message":"bad","type":"invalid_request_error","param":"messages[0].role","code":"invalid_value"}})");
    auto const unauthorized = cc::to_json({401, "no", {}, {}, {}});
    BOOST_TEST(unauthorized.at("error").at("type").as_string() == "authentication_error");
    BOOST_TEST(unauthorized.at("error").at("param").is_null());
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

using test_model = cc::agent_model<llm::openai_provider, test_tools>;

// The endpoint on a loopback server, in front of an agent whose provider
// talks to the fake LLM, all on one io_context in its own thread.
struct served
{
    asio::io_context ioc;
    testing::fake_llm fake{ioc.get_executor()};
    agentio::http::client client{ioc.get_executor()};
    shared_counters counters;
    std::unique_ptr<llm::openai_provider> provider;
    cc::endpoint api;
    std::unique_ptr<agentio::ag_ui::endpoint> ag_ui; // after `api`, which it serves from
    std::unique_ptr<agentio::a2a::endpoint> a2a;     // after `ag_ui`, whose runs it serves
    std::unique_ptr<agentio::http::server<agentio::http::router<>>> server;
    asio::ip::tcp::endpoint ep;
    std::thread thread;
    std::vector<std::thread> more_threads;
    std::mutex records_mutex;
    std::vector<cc::completion_record> records;
    std::vector<std::string> log_lines;

    explicit served(cc::endpoint_options base = {}, std::optional<agentio::ag_ui::endpoint_options> ag_ui_options = {})
        : api([this, &base] {
            cc::endpoint_options o = std::move(base);
            o.on_complete = [this](cc::completion_record const& r) {
                std::lock_guard lock(records_mutex);
                records.push_back(r);
            };
            return o;
        }())
    {
        BOOST_TEST_REQUIRE(fake.start().has_value());
        llm::provider_options po;
        po.api_key = "test-key";
        po.base_url = fake.openai_base_url();
        po.retry.max_retries = 0;
        provider = std::make_unique<llm::openai_provider>(client, po);
        add("agente", "agente-scenario");
        cc::agent_model_options plain;
        plain.card.id = "directo";
        plain.agent.model = "directo-scenario";
        api.add(std::make_shared<cc::agent_model<llm::openai_provider, agentio::dynamic_tools>>(*provider,
            agentio::dynamic_tools{}, std::move(plain)));
        cc::strategy_model_options st;
        st.card.id = "estrategias";
        st.tools.model = "agente-scenario";
        st.react.model = "react-scenario";
        st.plan.model = "plan-scenario";
        st.plan.planner_model = "plan-planner";
        st.plan.executor_model = "agente-scenario";
        st.plan.answer_model = "plan-answer";
        st.plan.verifier_model = "plan-verifier";
        st.chat.model = "chat-scenario";
        st.chat.system = "Charla sin herramientas.";
        st.choose = [this](cc::request const& r) -> asio::awaitable<agent::strategy> {
            auto const question = r.messages.back().text();
            agent::classifier_options o;
            o.model = "router-scenario";
            auto chosen = co_await agent::classify(*provider, question, o);
            co_return chosen.value_or(agent::choose_by_keywords(question, {.react = {"investiga"}}));
        };
        st.log = [this](cc::call_context const&, std::string_view line) {
            std::lock_guard lock(records_mutex);
            log_lines.emplace_back(line);
        };
        api.add(std::make_shared<cc::strategy_model<llm::openai_provider, test_tools>>(*provider,
            test_tools{{}, contar_iniciativas{&counters, 0ms}, sumar_presupuesto{&counters}}, std::move(st)));
        agentio::http::router_options ro;
        ro.error_body = cc::write_error_body;
        agentio::http::router<> routes(ro);
        api.add_routes(routes);
        if(ag_ui_options)
        {
            ag_ui_options->on_complete = [this](cc::completion_record const& r) {
                std::lock_guard lock(records_mutex);
                records.push_back(r);
            };
            ag_ui = std::make_unique<agentio::ag_ui::endpoint>(api, std::move(*ag_ui_options));
            ag_ui->add_routes(routes);
            agentio::a2a::endpoint_options a2a_options;
            a2a_options.card.name = "agente-de-pruebas";
            a2a_options.card.description = "Cuenta iniciativas y suma presupuestos.";
            a2a_options.card.version = "0.2.0";
            a2a_options.skills = {{"contar_iniciativas", "contar_iniciativas", "Cuenta iniciativas", {"tool"}, {}}};
            a2a = std::make_unique<agentio::a2a::endpoint>(*ag_ui, std::move(a2a_options));
            a2a->add_routes(routes);
        }
        agentio::http::server_options so;
        so.error_body = cc::write_error_body;
        server = std::make_unique<agentio::http::server<agentio::http::router<>>>(ioc.get_executor(), std::move(routes),
            so);
        ep = server->listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        server->start();
    }

    void add(std::string id, std::string scenario, std::chrono::milliseconds tool_delay = 0ms,
        std::vector<std::string> needing_approval = {})
    {
        cc::agent_model_options o;
        o.card.id = std::move(id);
        o.agent.model = std::move(scenario);
        o.agent.system = "Eres un agente de pruebas.";
        if(!needing_approval.empty())
            o.agent.requires_approval = [names = std::move(needing_approval)](std::string_view tool) {
                return std::find(names.begin(), names.end(), tool) != names.end();
            };
        api.add(std::make_shared<test_model>(*provider,
            test_tools{{}, contar_iniciativas{&counters, tool_delay}, sumar_presupuesto{&counters}}, std::move(o)));
    }

    void scenario(std::string name, std::vector<testing::scripted_response> turns)
    {
        testing::scenario s;
        s.name = std::move(name);
        for(auto& t : turns)
            s.turns.push_back({std::move(t)});
        fake.add_scenario(std::move(s));
    }

    // `threads` > 1: the connections and the runs on several threads, as the applications serve them.
    void run(unsigned threads = 1)
    {
        thread = std::thread([this] { ioc.run(); });
        for(unsigned i = 1; i < threads; ++i)
            more_threads.emplace_back([this] { ioc.run(); });
    }

    ~served()
    {
        asio::post(ioc, [this] { server->stop(); });
        ioc.stop();
        if(thread.joinable())
            thread.join();
        for(auto& t : more_threads)
            t.join();
    }

    test_http::reply post(std::string const& body) { return test_http::post(ep, "/v1/chat/completions", body); }

    std::vector<cc::completion_record> completed()
    {
        std::lock_guard lock(records_mutex);
        return records;
    }
};

testing::scripted_response says(std::string text)
{
    testing::scripted_response r;
    r.text = text;
    r.input_tokens = 11;
    r.output_tokens = 7;
    return r;
}

testing::scripted_response calls(std::string tool, json::value input)
{
    testing::scripted_response r;
    testing::scripted_tool_call c;
    c.name = std::move(tool);
    c.input = std::move(input);
    r.tool_calls.push_back(std::move(c));
    return r;
}

// The `data:` payloads of an event stream, in order.
std::vector<std::string> data_lines(std::string const& body)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while((pos = body.find("data: ", pos)) != std::string::npos)
    {
        auto const end = body.find('\n', pos);
        out.push_back(body.substr(pos + 6, end - pos - 6));
        pos = end;
    }
    return out;
}

std::string question(std::string model, std::string extra = {})
{
    return R"({"model": ")" + model + R"(", "messages": [{"role": "user", "content": "¿Cuántas iniciativas hay?"}])" +
        (extra.empty() ? "" : ", " + extra) + "}";
}

} // namespace

BOOST_AUTO_TEST_SUITE(chat_completions_endpoint)

BOOST_AUTO_TEST_CASE(a_completion_object_with_usage)
{
    served s;
    s.scenario("agente-scenario", {says("Hay cuatro iniciativas.")});
    s.run();
    auto const r = s.post(question("agente"));
    BOOST_TEST_REQUIRE(r.status == 200u, r.body);
    auto const v = r.json();
    BOOST_TEST(v.at("object").as_string() == "chat.completion");
    BOOST_TEST(v.at("id").as_string().starts_with("chatcmpl-"));
    BOOST_TEST(v.at("model").as_string() == "agente");
    auto const& choice = v.at("choices").at(0);
    BOOST_TEST(choice.at("message").at("role").as_string() == "assistant");
    BOOST_TEST(choice.at("message").at("content").as_string() == "Hay cuatro iniciativas.");
    BOOST_TEST(choice.at("finish_reason").as_string() == "stop");
    BOOST_TEST(v.at("usage").at("prompt_tokens").as_int64() == 11);
    BOOST_TEST(v.at("usage").at("completion_tokens").as_int64() == 7);
    BOOST_TEST(v.at("usage").at("total_tokens").as_int64() == 18);
    // The agent's prompt went to the model.
    auto const sent = s.fake.requests().back().body;
    BOOST_TEST(sent.at("messages").at(0).at("content").as_string() == "Eres un agente de pruebas.");
    BOOST_TEST(sent.at("model").as_string() == "agente-scenario");
}

BOOST_AUTO_TEST_CASE(a_stream_as_the_reference_servers_write_it)
{
    served s;
    s.scenario("agente-scenario", {says("Hay cuatro iniciativas en total.")});
    s.run();
    auto const r = s.post(question("agente", R"("stream": true, "stream_options": {"include_usage": true})"));
    BOOST_TEST_REQUIRE(r.status == 200u);
    BOOST_TEST(r.headers[boost::beast::http::field::content_type].starts_with("text/event-stream"));
    auto const lines = data_lines(r.body);
    BOOST_TEST_REQUIRE(lines.size() >= 5u);
    BOOST_TEST(lines.back() == "[DONE]");
    auto const first = json::parse(lines.front());
    BOOST_TEST(first.at("object").as_string() == "chat.completion.chunk");
    BOOST_TEST(first.at("choices").at(0).at("delta").at("role").as_string() == "assistant");
    BOOST_TEST(first.at("usage").is_null());
    std::string text;
    std::string id(first.at("id").as_string());
    for(std::size_t i = 1; i + 3 < lines.size(); ++i)
    {
        auto const c = json::parse(lines[i]);
        BOOST_TEST(c.at("id").as_string() == id);
        BOOST_TEST(c.at("choices").at(0).at("finish_reason").is_null());
        text += c.at("choices").at(0).at("delta").at("content").as_string();
    }
    BOOST_TEST(text == "Hay cuatro iniciativas en total.");
    auto const last = json::parse(lines[lines.size() - 3]);
    BOOST_TEST(last.at("choices").at(0).at("finish_reason").as_string() == "stop");
    BOOST_TEST(last.at("choices").at(0).at("delta").as_object().empty());
    auto const usage = json::parse(lines[lines.size() - 2]);
    BOOST_TEST(usage.at("choices").as_array().empty());
    BOOST_TEST(usage.at("usage").at("total_tokens").as_int64() == 18);
}

BOOST_AUTO_TEST_CASE(server_tools_run_and_show_as_reasoning)
{
    served s;
    s.scenario("agente-scenario",
        {calls("contar_iniciativas", json::object{{"campo_agrupacion", "estado_de_la_iniciativa"}}),
            says("Hay {{last_tool_result}}.")});
    s.run();
    auto const r = s.post(question("agente", R"("stream": true)"));
    BOOST_TEST_REQUIRE(r.status == 200u);
    std::string reasoning, content;
    for(auto const& line : data_lines(r.body))
    {
        if(line == "[DONE]")
            continue;
        auto const d = json::parse(line).at("choices").at(0).at("delta").as_object();
        if(auto const* t = d.if_contains("reasoning_content"))
            reasoning += t->as_string();
        if(auto const* t = d.if_contains("content"))
            content += t->as_string();
        BOOST_TEST(!d.contains("tool_calls")); // the agent's own calls are not the client's business
    }
    BOOST_TEST(s.counters.calls.load() == 1);
    BOOST_TEST(reasoning.find("→ contar_iniciativas(campo_agrupacion=estado_de_la_iniciativa)") != std::string::npos,
        reasoning);
    BOOST_TEST(reasoning.find("← contar_iniciativas: ") != std::string::npos, reasoning);
    BOOST_TEST(content.starts_with("Hay "), content);

    // Not streamed: the same activity in message.reasoning_content.
    auto const whole = s.post(question("agente"));
    auto const message = whole.json().at("choices").at(0).at("message");
    BOOST_TEST(message.at("reasoning_content").as_string().find("→ contar_iniciativas") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(client_tools_come_back_as_tool_calls_and_the_answer_continues)
{
    served s;
    s.scenario("directo-scenario",
        {calls("get_weather", json::object{{"city", "Madrid"}}), says("En Madrid: {{last_tool_result}}.")});
    s.run();
    std::string const tools =
        R"("tools": [{"type": "function", "function": {"name": "get_weather", "description": "El tiempo de una ciudad",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}])";
    auto const r = s.post(question("directo", tools + R"(, "stream": true)"));
    BOOST_TEST_REQUIRE(r.status == 200u);
    // Merged as the official SDKs merge them: by index, the first fragment with the id and the name,
    // the arguments' text joined across fragments as the model wrote them.
    json::array calls_seen;
    std::size_t fragments = 0;
    std::string finish;
    for(auto const& line : data_lines(r.body))
    {
        if(line == "[DONE]")
            continue;
        auto const c = json::parse(line).at("choices").at(0);
        if(auto const* t = c.at("delta").as_object().if_contains("tool_calls"))
            for(auto const& piece : t->as_array())
            {
                ++fragments;
                auto const index = static_cast<std::size_t>(piece.at("index").as_int64()); // what the SDK needs
                if(index == calls_seen.size())
                {
                    BOOST_TEST(piece.as_object().contains("id")); // the first fragment names the call
                    calls_seen.push_back(piece);
                    continue;
                }
                BOOST_TEST_REQUIRE(index < calls_seen.size());
                auto& arguments = calls_seen[index].at("function").as_object()["arguments"];
                arguments = std::string(arguments.as_string()) +
                    std::string(piece.at("function").at("arguments").as_string());
            }
        if(!c.at("finish_reason").is_null())
            finish = c.at("finish_reason").as_string();
    }
    BOOST_TEST(finish == "tool_calls");
    BOOST_TEST_REQUIRE(calls_seen.size() == 1u);
    BOOST_TEST(fragments > 2u); // streamed as the model wrote it
    BOOST_TEST(calls_seen[0].at("index").as_int64() == 0);
    BOOST_TEST(calls_seen[0].at("type").as_string() == "function");
    BOOST_TEST(calls_seen[0].at("function").at("name").as_string() == "get_weather");
    BOOST_TEST(json::parse(calls_seen[0].at("function").at("arguments").as_string()).at("city").as_string() ==
        "Madrid");
    // The client's tool went to the model with its schema.
    auto const sent = s.fake.requests().back().body;
    BOOST_TEST(sent.at("tools").at(0).at("function").at("name").as_string() == "get_weather");

    // The client runs it and sends the result back.
    std::string const id(calls_seen[0].at("id").as_string());
    auto const next = s.post(R"({"model": "directo", "messages": [
        {"role": "user", "content": "¿Qué tiempo hace en Madrid?"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": ")" +
        id + R"(", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Madrid\"}"}}]},
        {"role": "tool", "tool_call_id": ")" +
        id + R"(", "content": "soleado, 21 grados"}], )" + tools + "}");
    BOOST_TEST_REQUIRE(next.status == 200u, next.body);
    auto const message = next.json().at("choices").at(0).at("message");
    BOOST_TEST(message.at("content").as_string() == "En Madrid: soleado, 21 grados.");
    BOOST_TEST(next.json().at("choices").at(0).at("finish_reason").as_string() == "stop");

    // Not streamed: the calls in message.tool_calls, content null.
    auto const whole = s.post(question("directo", tools));
    auto const m = whole.json().at("choices").at(0).at("message");
    BOOST_TEST(m.at("content").is_null());
    BOOST_TEST(m.at("tool_calls").at(0).at("function").at("name").as_string() == "get_weather");
    BOOST_TEST(whole.json().at("choices").at(0).at("finish_reason").as_string() == "tool_calls");

    // A client tool may not take the name of one of the agent's.
    auto const clash = s.post(question("agente",
        R"("tools": [{"type": "function", "function": {"name": "contar_iniciativas"}}])"));
    BOOST_TEST(clash.status == 400u);
    BOOST_TEST(clash.json().at("error").at("param").as_string() == "tools[0].function.name");
}

BOOST_AUTO_TEST_CASE(stop_sequences_cut_the_answer_whatever_the_model_does)
{
    served s;
    s.scenario("agente-scenario", {says("uno dos FIN tres cuatro")});
    s.run();
    auto const r = s.post(question("agente", R"("stop": ["FIN"])"));
    BOOST_TEST(r.json().at("choices").at(0).at("message").at("content").as_string() == "uno dos ");
    BOOST_TEST(r.json().at("choices").at(0).at("finish_reason").as_string() == "stop");
    auto const streamed = s.post(question("agente", R"("stop": ["FIN"], "stream": true)"));
    std::string content;
    for(auto const& line : data_lines(streamed.body))
    {
        if(line == "[DONE]")
            continue;
        auto const chunk = json::parse(line); // named: the pointer below points into it
        if(auto const* t = chunk.at("choices").at(0).at("delta").as_object().if_contains("content"))
            content += t->as_string();
    }
    BOOST_TEST(content == "uno dos ");
    // The provider was asked to stop there too.
    BOOST_TEST(s.fake.requests().back().body.at("stop").at(0).as_string() == "FIN");
}

BOOST_AUTO_TEST_CASE(errors_before_and_during_an_answer)
{
    served s;
    auto broken = says("nunca llega");
    testing::fault f;
    f.kind = testing::fault_kind::http_error;
    f.status = 401;
    broken.faults.push_back(f);
    auto midway = says("empieza bien y luego falla");
    testing::fault m;
    m.kind = testing::fault_kind::midstream_error;
    m.after_events = 3;
    midway.faults.push_back(m);
    s.scenario("agente-scenario", {broken});
    s.scenario("directo-scenario", {midway});
    s.run();

    auto const unknown = s.post(question("gpt-5"));
    BOOST_TEST(unknown.status == 404u);
    BOOST_TEST(unknown.json().at("error").at("code").as_string() == "model_not_found");
    BOOST_TEST(unknown.json().at("error").at("message").as_string().find("agente, directo") != std::string::npos);
    BOOST_TEST(test_http::get(s.ep, "/v1/models/gpt-5").status == 404u);
    auto const bad = s.post(R"({"model": "agente", "messages": [{"role": "robot", "content": "x"}]})");
    BOOST_TEST(bad.status == 400u);
    BOOST_TEST(bad.json().at("error").at("param").as_string() == "messages[0].role");

    auto const upstream = s.post(question("agente"));
    BOOST_TEST(upstream.status == 502u);
    BOOST_TEST(upstream.json().at("error").at("type").as_string() == "server_error");

    auto const streamed = s.post(question("directo", R"("stream": true)"));
    BOOST_TEST(streamed.status == 200u);
    auto const lines = data_lines(streamed.body);
    BOOST_TEST_REQUIRE(!lines.empty());
    auto const last = json::parse(lines.back());
    BOOST_TEST(last.at("error").at("message").as_string().size() > 0u);
    BOOST_TEST(streamed.body.find("[DONE]") == std::string::npos);

    // The server's own errors are in the same shape.
    auto const no_route = test_http::get(s.ep, "/v1/nothing");
    BOOST_TEST(no_route.status == 404u);
    BOOST_TEST(no_route.json().at("error").at("type").as_string() == "not_found_error");
}

BOOST_AUTO_TEST_CASE(the_models_are_listed)
{
    served s;
    s.run();
    auto const list = test_http::get(s.ep, "/v1/models").json();
    BOOST_TEST(list.at("object").as_string() == "list");
    BOOST_TEST_REQUIRE(list.at("data").as_array().size() == 3u); // agente, directo, estrategias
    BOOST_TEST(list.at("data").at(0).at("id").as_string() == "agente");
    BOOST_TEST(list.at("data").at(0).at("object").as_string() == "model");
    auto const one = test_http::get(s.ep, "/v1/models/directo").json();
    BOOST_TEST(one.at("id").as_string() == "directo");
    BOOST_TEST(one.at("owned_by").as_string() == "agentio");
}

// An agent that answers one question: the last user message, checked before it runs.
struct echo_question final : cc::question_model
{
    echo_question() : cc::question_model({.id = "eco"}, {"Falta la pregunta.", "'{model}' no usa herramientas."}) {}

    asio::awaitable<void> answer(std::string question, cc::request r, cc::call_context const&,
        cc::output_sink sink) override
    {
        sink(cc::content_delta{question + " (" + std::to_string(r.messages.size()) + " mensajes)"});
        sink(cc::finished{});
        co_return;
    }
};

BOOST_AUTO_TEST_CASE(a_question_model_answers_the_last_user_message)
{
    served s;
    s.api.add(std::make_shared<echo_question>());
    s.run();
    auto const ok = s.post(R"({"model": "eco", "messages": [{"role": "user", "content": "hola"},
        {"role": "assistant", "content": "¿sí?"}, {"role": "user", "content": "¿qué tal?"}]})");
    BOOST_TEST_REQUIRE(ok.status == 200u, ok.body);
    BOOST_TEST(ok.json().at("choices").at(0).at("message").at("content").as_string() == "¿qué tal? (3 mensajes)");
    for(auto const* body : {R"({"model": "eco", "messages": [{"role": "user", "content": " \n "}]})",
            R"({"model": "eco", "messages": [{"role": "user", "content": "hola"}, {"role": "assistant", "content": "¿sí?"}]})"})
    {
        auto const refused = s.post(body);
        BOOST_TEST(refused.status == 400u);
        BOOST_TEST(refused.json().at("error").at("param").as_string() == "messages");
        BOOST_TEST(refused.json().at("error").at("message").as_string() == "Falta la pregunta.");
    }
    auto const tools = s.post(R"({"model": "eco", "messages": [{"role": "user", "content": "hola"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]})");
    BOOST_TEST(tools.status == 400u);
    BOOST_TEST(tools.json().at("error").at("param").as_string() == "tools");
    BOOST_TEST(tools.json().at("error").at("message").as_string() == "'eco' no usa herramientas.");
    BOOST_TEST(!cc::last_question(cc::request{}).has_value());
}

BOOST_AUTO_TEST_CASE(sessions_remember_and_belong_to_their_user)
{
    auto const file = std::filesystem::temp_directory_path() /
        ("agentio-cc-sessions-" + std::to_string(std::random_device{}()) + ".db");
    auto store = agentio::sqlite::thread_store::open(file.string());
    BOOST_TEST_REQUIRE(store.has_value());
    cc::endpoint_options o;
    o.authenticate = [](agentio::http::request const& req) -> boost::system::result<std::string, cc::api_error> {
        auto const user = req.find("X-User");
        if(user == req.end())
            return cc::api_error{401, "Who are you?", {}, {}, {}};
        return std::string(user->value());
    };
    o.sessions.store = store->get();
    {
        served s(std::move(o));
        s.scenario("agente-scenario", {says("Encantado.")});
        s.run();
        auto ask = [&](std::string user, std::string body, std::string session_header = {}) {
            boost::beast::http::fields extra;
            extra.set("X-User", user);
            if(!session_header.empty())
                extra.set("X-Session-Id", session_header);
            return test_http::request(s.ep, boost::beast::http::verb::post, "/v1/chat/completions", body,
                "application/json", extra);
        };
        auto const anonymous = s.post(question("agente"));
        BOOST_TEST(anonymous.status == 401u);
        BOOST_TEST(anonymous.json().at("error").at("type").as_string() == "authentication_error");

        auto const first = ask("ana",
            R"({"model": "agente", "session_id": "s-1", "messages": [{"role": "user", "content": "Me llamo Ana."}]})");
        BOOST_TEST_REQUIRE(first.status == 200u, first.body);
        // Only the new message: the stored conversation comes first.
        auto const second = ask("ana",
            R"({"model": "agente", "stream": true, "messages": [{"role": "user", "content": "¿Cómo me llamo?"}]})",
            "s-1");
        BOOST_TEST_REQUIRE(second.status == 200u);
        BOOST_TEST(data_lines(second.body).back() == "[DONE]");
        auto sent = s.fake.requests().back().body.at("messages").as_array();
        BOOST_TEST_REQUIRE(sent.size() == 4u); // system, the first exchange, the new question
        BOOST_TEST(sent[1].at("content").as_string() == "Me llamo Ana.");
        BOOST_TEST(sent[2].at("content").as_string() == "Encantado.");
        BOOST_TEST(sent[3].at("content").as_string() == "¿Cómo me llamo?");
        // The whole conversation sent again is not repeated.
        auto const third = ask("ana", R"({"model": "agente", "session_id": "s-1", "messages": [
            {"role": "user", "content": "Me llamo Ana."}, {"role": "assistant", "content": "Encantado."},
            {"role": "user", "content": "¿Cómo me llamo?"}, {"role": "assistant", "content": "Encantado."},
            {"role": "user", "content": "Gracias."}]})");
        BOOST_TEST_REQUIRE(third.status == 200u);
        BOOST_TEST(s.fake.requests().back().body.at("messages").as_array().size() == 6u);
        // Another user's session does not exist for them.
        auto const stranger = ask("eva",
            R"({"model": "agente", "session_id": "s-1", "messages": [{"role": "user", "content": "¿Quién es Ana?"}]})");
        BOOST_TEST(stranger.status == 404u);
        BOOST_TEST(stranger.json().at("error").at("code").as_string() == "session_not_found");
        auto const bad = ask("ana",
            R"({"model": "agente", "session_id": "a b", "messages": [{"role": "user", "content": "x"}]})");
        BOOST_TEST(bad.status == 400u);
        BOOST_TEST(bad.json().at("error").at("param").as_string() == "session_id");
        BOOST_TEST(s.completed().at(1).session == "s-1");

        // A second message while the first is answered waits its turn (409), and takes it after.
        auto slow = says("Una respuesta que llega despacio, palabra a palabra, hasta el final.");
        testing::fault slowly;
        slowly.kind = testing::fault_kind::slow_tokens;
        slowly.duration = 150ms;
        slow.faults.push_back(slowly);
        s.scenario("agente-scenario", {slow, says("Ahora sí.")});
        auto running = std::async(std::launch::async, [&] {
            return ask("ana",
                R"({"model": "agente", "session_id": "s-2", "messages": [{"role": "user", "content": "Cuéntame."}]})");
        });
        std::this_thread::sleep_for(400ms);
        auto const busy = ask("ana",
            R"({"model": "agente", "session_id": "s-2", "messages": [{"role": "user", "content": "¿Y bien?"}]})");
        BOOST_TEST(busy.status == 409u, busy.body);
        BOOST_TEST(busy.json().at("error").at("code").as_string() == "session_busy");
        BOOST_TEST(busy.json().at("error").at("param").as_string() == "session_id");
        BOOST_TEST(running.get().status == 200u);
        auto const after = ask("ana",
            R"({"model": "agente", "session_id": "s-2", "messages": [{"role": "user", "content": "¿Y bien?"}]})");
        BOOST_TEST(after.status == 200u, after.body);

        // A request's own busy policy: a bad one names the field.
        auto const unknown_policy = ask("ana", R"({"model": "agente", "session_id": "s-2", "busy_policy": "wait",
            "messages": [{"role": "user", "content": "x"}]})");
        BOOST_TEST(unknown_policy.status == 400u);
        BOOST_TEST(unknown_policy.json().at("error").at("param").as_string() == "busy_policy");
        // A question starting "Rápido" is answered at once; any other slowly.
        auto quick = says("Enseguida.");
        quick.when_user_message_contains = "Rápido";
        auto slower = slow;
        slower.faults.front().duration = 250ms;
        testing::scenario both;
        both.name = "agente-scenario";
        both.turns.push_back({quick, slower});
        s.fake.add_scenario(both);
        std::string const full_text = "Una respuesta que llega despacio, palabra a palabra, hasta el final.";

        // "enqueue": the second question waits for the first answer, then reads it.
        auto first_in_line = std::async(std::launch::async, [&] {
            return ask("ana",
                R"({"model": "agente", "session_id": "s-3", "messages": [{"role": "user", "content": "Cuéntame."}]})");
        });
        std::this_thread::sleep_for(400ms);
        auto waiting = std::async(std::launch::async, [&] {
            return ask("ana", R"({"model": "agente", "session_id": "s-3", "busy_policy": "enqueue",
                "messages": [{"role": "user", "content": "Rápido, ¿y bien?"}]})");
        });
        BOOST_TEST((waiting.wait_for(300ms) == std::future_status::timeout)); // still in line
        auto const answered_first = first_in_line.get();
        BOOST_TEST(answered_first.status == 200u);
        auto const answered_next = waiting.get();
        BOOST_TEST_REQUIRE(answered_next.status == 200u, answered_next.body);
        BOOST_TEST(answered_next.json().at("choices").at(0).at("message").at("content").as_string() == "Enseguida.");
        auto const read_first = s.fake.requests().back().body.at("messages").as_array();
        BOOST_TEST_REQUIRE(read_first.size() == 4u); // system, the first exchange, the question that waited
        BOOST_TEST(read_first[2].at("content").as_string() == full_text);

        // "interrupt": the answer in progress ends where it was, and the new question goes on after it.
        auto interrupted = std::async(std::launch::async, [&] {
            return ask("ana",
                R"({"model": "agente", "session_id": "s-4", "messages": [{"role": "user", "content": "Cuéntame."}]})");
        });
        std::this_thread::sleep_for(600ms);
        auto const interrupting = ask("ana", R"({"model": "agente", "session_id": "s-4", "busy_policy": "interrupt",
            "messages": [{"role": "user", "content": "Rápido, para."}]})");
        BOOST_TEST_REQUIRE(interrupting.status == 200u, interrupting.body);
        auto const cut = interrupted.get();
        BOOST_TEST_REQUIRE(cut.status == 200u, cut.body);
        auto const said = std::string(cut.json().at("choices").at(0).at("message").at("content").as_string());
        BOOST_TEST(cut.json().at("choices").at(0).at("finish_reason").as_string() == "stop");
        BOOST_TEST(!said.empty());
        BOOST_TEST(said.size() < full_text.size(), said);
        auto const read_cut = s.fake.requests().back().body.at("messages").as_array();
        BOOST_TEST_REQUIRE(read_cut.size() == 4u);
        BOOST_TEST(read_cut[2].at("content").as_string() == said); // what it had said, and no more
        BOOST_TEST(read_cut[3].at("content").as_string() == "Rápido, para.");
    }
    auto const items = [&] {
        asio::io_context ioc;
        auto f = asio::co_spawn(ioc, (*store)->load_items("s-1"), asio::use_future);
        ioc.run();
        return f.get();
    }();
    BOOST_TEST_REQUIRE(items.has_value());
    BOOST_TEST(items->size() == 6u); // three questions, three answers
    store->reset();
    std::filesystem::remove(file);
}

// A server that starts sessions: a request without one gets a new session named in X-Session-Id (JSON and
// SSE), and the caller lists, reads and deletes their own sessions; another user's are 404s.
BOOST_AUTO_TEST_CASE(sessions_started_listed_read_and_deleted)
{
    auto const file = std::filesystem::temp_directory_path() /
        ("agentio-cc-listed-" + std::to_string(std::random_device{}()) + ".db");
    auto store = agentio::sqlite::thread_store::open(file.string());
    BOOST_TEST_REQUIRE(store.has_value());
    cc::endpoint_options o;
    o.authenticate = [](agentio::http::request const& req) -> boost::system::result<std::string, cc::api_error> {
        auto const user = req.find("X-User");
        if(user == req.end())
            return cc::api_error{401, "Who are you?", {}, {}, {}};
        return std::string(user->value());
    };
    o.sessions.store = store->get();
    o.sessions.start_unnamed = true;
    o.sessions.routes = true;
    {
        served s(std::move(o));
        s.scenario("agente-scenario", {says("Encantado.")});
        s.scenario("directo-scenario",
            {calls("get_weather", json::object{{"city", "Madrid"}}), says("Hace sol en Madrid.")});
        s.run();
        auto as = [&](std::string user, boost::beast::http::verb method, std::string target, std::string body = {},
                      std::string session = {}) {
            boost::beast::http::fields extra;
            extra.set("X-User", user);
            if(!session.empty())
                extra.set("X-Session-Id", session);
            return test_http::request(s.ep, method, target, body, "application/json", extra);
        };
        using verb = boost::beast::http::verb;
        auto const first = as("ana", verb::post, "/v1/chat/completions",
            R"({"model": "agente", "messages": [{"role": "user", "content": "Me llamo Ana."}]})");
        BOOST_TEST_REQUIRE(first.status == 200u, first.body);
        auto const started = std::string(first.headers["X-Session-Id"]);
        BOOST_TEST(started.size() == 36u, started); // a UUID
        std::this_thread::sleep_for(5ms);
        auto const streamed = as("ana", verb::post, "/v1/chat/completions",
            R"({"model": "agente", "stream": true, "messages": [{"role": "user", "content": "Otra charla."}]})");
        BOOST_TEST_REQUIRE(streamed.status == 200u);
        auto const other = std::string(streamed.headers["X-Session-Id"]);
        BOOST_TEST(other.size() == 36u);
        BOOST_TEST(other != started);
        std::this_thread::sleep_for(5ms);
        // The started session remembers: the next message names it.
        auto const again = as("ana", verb::post, "/v1/chat/completions",
            R"({"model": "agente", "messages": [{"role": "user", "content": "¿Cómo me llamo?"}]})", started);
        BOOST_TEST_REQUIRE(again.status == 200u, again.body);
        BOOST_TEST(again.headers["X-Session-Id"] == started);
        BOOST_TEST(s.fake.requests().back().body.at("messages").as_array().size() == 4u);
        // A client tool's call and result, stored in the session, read back in Chat Completions' shapes.
        std::string const tools =
            R"("tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object",
                "properties": {"city": {"type": "string"}}}}}])";
        auto const asked = as("ana", verb::post, "/v1/chat/completions",
            R"({"model": "directo", "messages": [{"role": "user", "content": "¿Qué tiempo hace?"}], )" + tools + "}");
        BOOST_TEST_REQUIRE(asked.status == 200u, asked.body);
        auto const weather = std::string(asked.headers["X-Session-Id"]);
        auto const call_id =
            std::string(asked.json().at("choices").at(0).at("message").at("tool_calls").at(0).at("id").as_string());
        auto const arguments = std::string(asked.json()
                                               .at("choices")
                                               .at(0)
                                               .at("message")
                                               .at("tool_calls")
                                               .at(0)
                                               .at("function")
                                               .at("arguments")
                                               .as_string());
        auto const answered = as("ana", verb::post, "/v1/chat/completions",
            R"({"model": "directo", "messages": [{"role": "user", "content": "¿Qué tiempo hace?"},
                {"role": "assistant", "content": null, "tool_calls": [{"id": ")" +
                call_id + R"(", "type": "function", "function": {"name": "get_weather", "arguments": )" +
                json::serialize(json::value(arguments)) + R"(}}]},
                {"role": "tool", "tool_call_id": ")" +
                call_id + R"(", "content": "soleado"}], )" + tools + "}",
            weather);
        BOOST_TEST_REQUIRE(answered.status == 200u, answered.body);

        // The list: the caller's, most recently updated first, in pages.
        auto const listed = as("ana", verb::get, "/v1/sessions");
        BOOST_TEST_REQUIRE(listed.status == 200u, listed.body);
        auto const data = listed.json().at("data").as_array();
        BOOST_TEST_REQUIRE(data.size() == 3u);
        BOOST_TEST(data[0].at("id").as_string() == weather);
        BOOST_TEST(data[1].at("id").as_string() == started);
        BOOST_TEST(data[2].at("id").as_string() == other);
        BOOST_TEST(data[1].at("title").as_string() == "Me llamo Ana.");
        BOOST_TEST(data[1].at("model").as_string() == "agente");
        BOOST_TEST(data[1].at("object").as_string() == "session");
        BOOST_TEST(listed.json().at("has_more").as_bool() == false);
        auto const page = as("ana", verb::get, "/v1/sessions?limit=2");
        BOOST_TEST(page.json().at("data").as_array().size() == 2u);
        BOOST_TEST(page.json().at("has_more").as_bool());
        BOOST_TEST(page.json().at("last_id").as_string() == started);
        auto const rest = as("ana", verb::get, "/v1/sessions?limit=2&after=" + started);
        BOOST_TEST_REQUIRE(rest.json().at("data").as_array().size() == 1u);
        BOOST_TEST(rest.json().at("data").at(0).at("id").as_string() == other);
        BOOST_TEST(rest.json().at("has_more").as_bool() == false);
        for(std::string bad : {"0", "101", "x"})
        {
            auto const refused_limit = as("ana", verb::get, "/v1/sessions?limit=" + bad);
            BOOST_TEST(refused_limit.status == 400u);
            BOOST_TEST(refused_limit.json().at("error").at("param").as_string() == "limit");
        }
        BOOST_TEST(as("eva", verb::get, "/v1/sessions").json().at("data").as_array().empty());
        BOOST_TEST(test_http::get(s.ep, "/v1/sessions").status == 401u);

        // One session with its messages, the latest `limit` of them.
        auto const read = as("ana", verb::get, "/v1/sessions/" + started);
        BOOST_TEST_REQUIRE(read.status == 200u, read.body);
        auto const messages = read.json().at("messages").as_array();
        BOOST_TEST_REQUIRE(messages.size() == 4u);
        BOOST_TEST(messages[0].at("role").as_string() == "user");
        BOOST_TEST(messages[0].at("content").as_string() == "Me llamo Ana.");
        BOOST_TEST(messages[1].at("role").as_string() == "assistant");
        BOOST_TEST(messages[3].at("content").as_string() == "Encantado.");
        BOOST_TEST(messages[3].at("seq").as_int64() == 4);
        BOOST_TEST(read.json().at("has_more").as_bool() == false);
        auto const latest = as("ana", verb::get, "/v1/sessions/" + started + "?limit=1");
        BOOST_TEST_REQUIRE(latest.json().at("messages").as_array().size() == 1u);
        BOOST_TEST(latest.json().at("messages").at(0).at("seq").as_int64() == 4);
        BOOST_TEST(latest.json().at("has_more").as_bool());
        BOOST_TEST(as("ana", verb::get, "/v1/sessions/" + started + "?limit=1001").status == 400u);
        auto const tool_exchange = as("ana", verb::get, "/v1/sessions/" + weather).json().at("messages").as_array();
        BOOST_TEST_REQUIRE(tool_exchange.size() >= 4u, json::serialize(tool_exchange));
        bool called = false, result = false;
        for(auto const& m : tool_exchange)
        {
            if(auto const* c = m.as_object().if_contains("tool_calls"))
                called = called || c->at(0).at("function").at("name").as_string() == "get_weather";
            if(m.at("role").as_string() == "tool")
                result = result ||
                    (m.at("tool_call_id").as_string() == call_id && m.at("content").as_string() == "soleado");
        }
        BOOST_TEST(called, json::serialize(tool_exchange));
        BOOST_TEST(result, json::serialize(tool_exchange));
        BOOST_TEST(tool_exchange.back().at("content").as_string() == "Hace sol en Madrid.");

        // Another user's session does not exist for them: not read, not deleted.
        auto const stranger = as("eva", verb::get, "/v1/sessions/" + started);
        BOOST_TEST(stranger.status == 404u);
        BOOST_TEST(stranger.json().at("error").at("code").as_string() == "session_not_found");
        BOOST_TEST(as("eva", verb::delete_, "/v1/sessions/" + started).status == 404u);
        BOOST_TEST(as("ana", verb::get, "/v1/sessions/no%20such").status == 404u);
        auto const deleted = as("ana", verb::delete_, "/v1/sessions/" + started);
        BOOST_TEST_REQUIRE(deleted.status == 200u, deleted.body);
        BOOST_TEST(deleted.json().at("deleted").as_bool());
        BOOST_TEST(deleted.json().at("id").as_string() == started);
        BOOST_TEST(as("ana", verb::get, "/v1/sessions/" + started).status == 404u);
        BOOST_TEST(as("ana", verb::delete_, "/v1/sessions/" + started).status == 404u);
        BOOST_TEST(as("ana", verb::get, "/v1/sessions").json().at("data").as_array().size() == 2u);
    }
    store->reset();
    std::filesystem::remove(file);
}

// A session longer than the model's window: its older turns are summarized, the summary is kept in the session's
// thread (the messages stay), and the next requests begin after it.
BOOST_AUTO_TEST_CASE(sessions_summarize_what_outgrows_the_window)
{
    auto const file = std::filesystem::temp_directory_path() /
        ("agentio-cc-window-" + std::to_string(std::random_device{}()) + ".db");
    auto store = agentio::sqlite::thread_store::open(file.string());
    BOOST_TEST_REQUIRE(store.has_value());
    cc::endpoint_options o;
    o.sessions.store = store->get();
    std::size_t answering_requests = 0;
    {
        served s(std::move(o));
        testing::scenario sc;
        sc.name = "ventana-scenario";
        sc.context_window = 4000; // the fake refuses more, as the API does
        // The fake's own token counts (its body's bytes / 4), which the estimate learns from.
        auto const summary = agentio_test::summary_response("RESUMEN: hablamos de iniciativas.");
        testing::scripted_response answer;
        answer.text = "Respuesta larga: " + std::string(1600, 'r');
        sc.turns.push_back({summary, answer});
        s.fake.add_scenario(sc);
        cc::agent_model_options windowed;
        windowed.card.id = "ventana";
        windowed.agent.model = "ventana-scenario";
        windowed.agent.max_tokens = 500;
        windowed.agent.context = {.window = 4000, .summary_max_tokens = 300};
        s.api.add(std::make_shared<cc::agent_model<llm::openai_provider, agentio::dynamic_tools>>(*s.provider,
            agentio::dynamic_tools{}, std::move(windowed)));
        s.run();
        for(int turn = 0; turn < 12; ++turn)
        {
            auto const r = s.post(R"({"model": "ventana", "session_id": "larga", "messages": [{"role": "user",
                "content": "Pregunta )" +
                std::to_string(turn) + " " + std::string(1200, 'p') + R"("}]})");
            BOOST_TEST_REQUIRE(r.status == 200u, "turn " << turn << ": " << r.body);
        }
        auto const requests = s.fake.requests();
        std::size_t const summarizing = agentio_test::summary_requests(requests);
        answering_requests = requests.size() - summarizing;
        BOOST_TEST(summarizing >= 1u);
        BOOST_TEST(summarizing <= 6u); // not every turn: what is kept leaves room
        auto const& last = requests.back().body.at("messages").as_array();
        BOOST_TEST(agentio::to_json_text(last.at(0)).find("RESUMEN: hablamos de iniciativas.") != std::string::npos);
        BOOST_TEST(last.size() < 24u);
        BOOST_TEST(agentio::to_json_text(last.back()).find("Pregunta 11") != std::string::npos);
    }
    BOOST_TEST(answering_requests == 12u); // no refusal: every request fitted
    auto const [items, kept] = [&] {
        asio::io_context ioc;
        auto i = asio::co_spawn(ioc, (*store)->load_items("larga"), asio::use_future);
        auto k = asio::co_spawn(ioc, (*store)->latest_summary("larga"), asio::use_future);
        ioc.run();
        return std::make_pair(i.get(), k.get());
    }();
    BOOST_TEST_REQUIRE(items.has_value());
    BOOST_TEST(items->size() == 24u); // every question and answer stays
    BOOST_TEST_REQUIRE(kept.has_value());
    BOOST_TEST_REQUIRE(kept->has_value());
    BOOST_TEST((*kept)->text == "RESUMEN: hablamos de iniciativas.");
    BOOST_TEST((*kept)->through_seq > 0);
    store->reset();
    std::filesystem::remove(file);
}

namespace {

// ReAct's text protocol for the agent "estrategias": one action (counting the initiatives) on the question, then
// `final_answer` on the observation.
void react_counts_then_answers(served& s, std::string const& final_answer)
{
    auto act = says("Thought: cuento las iniciativas.\nAction: contar_iniciativas\n"
                    "Action Input: {\"campo_agrupacion\": \"estado_de_la_iniciativa\"}");
    act.when_user_message_contains = "Question:";
    auto answer = says("Thought: ya lo sé.\nFinal Answer: " + final_answer);
    answer.when_user_message_contains = "Observation:";
    testing::scenario react;
    react.name = "react-scenario";
    react.turns.push_back({act, answer});
    s.fake.add_scenario(react);
}

} // namespace

BOOST_AUTO_TEST_CASE(strategies_forced_and_chosen)
{
    served s;
    // ReAct: the text protocol, each call a new question or observation.
    react_counts_then_answers(s, "Hay 47 iniciativas.");
    // Plan and execute: a plan, one step through the tool loop, an answer, a verdict.
    s.scenario("plan-planner", {says(R"({"steps": ["Contar las iniciativas por estado", "Resumir el recuento"]})")});
    s.scenario("agente-scenario", {says("Recuento hecho.")});
    s.scenario("plan-answer", {says("Hay 47 iniciativas, 12 en ejecución.")});
    s.scenario("plan-verifier", {says("SI")});
    // The classifier answers a label for one question and prose for another.
    auto label = says("react");
    label.when_user_message_contains = "¿Por dónde empiezo?";
    testing::scenario router;
    router.name = "router-scenario";
    router.turns.push_back({label, says("Depende: quizá tools, quizá react.")});
    s.fake.add_scenario(router);
    s.run();

    auto content_and_reasoning = [](test_http::reply const& r) {
        auto const m = r.json().at("choices").at(0).at("message");
        return std::pair{std::string(m.at("content").as_string()), std::string(m.at("reasoning_content").as_string())};
    };
    auto const forced_react = s.post(R"({"model": "estrategias", "agent_type": "react",
        "messages": [{"role": "user", "content": "¿Cuántas iniciativas hay?"}]})");
    BOOST_TEST_REQUIRE(forced_react.status == 200u, forced_react.body);
    auto [react_content, react_reasoning] = content_and_reasoning(forced_react);
    BOOST_TEST(react_content == "Hay 47 iniciativas.");
    BOOST_TEST(react_reasoning.starts_with("strategy: react\n"), react_reasoning);
    BOOST_TEST(react_reasoning.find("→ contar_iniciativas(") != std::string::npos, react_reasoning);
    BOOST_TEST(s.counters.calls.load() == 1);
    // The model was not offered native tools, and was told to stop before writing an observation.
    auto const react_request = s.fake.requests().back().body;
    BOOST_TEST(!react_request.as_object().contains("tools"));
    BOOST_TEST(react_request.at("stop").at(0).as_string() == "\nObservation");

    auto const streamed_plan = s.post(R"({"model": "estrategias", "agent_type": "plan_execute", "stream": true,
        "messages": [{"role": "user", "content": "Cuenta las iniciativas y resume"}]})");
    BOOST_TEST_REQUIRE(streamed_plan.status == 200u);
    std::string content, reasoning;
    for(auto const& line : data_lines(streamed_plan.body))
    {
        if(line == "[DONE]")
            continue;
        auto const d = json::parse(line).at("choices").at(0).at("delta").as_object();
        if(auto const* t = d.if_contains("content"))
            content += t->as_string();
        if(auto const* t = d.if_contains("reasoning_content"))
            reasoning += t->as_string();
    }
    BOOST_TEST(content == "Hay 47 iniciativas, 12 en ejecución.");
    BOOST_TEST(reasoning.find("plan:\n1. Contar las iniciativas por estado\n2. Resumir el recuento") !=
            std::string::npos,
        reasoning);
    BOOST_TEST(reasoning.find("step 2/2: Resumir el recuento") != std::string::npos, reasoning);
    BOOST_TEST(reasoning.find("verification: yes") != std::string::npos, reasoning);

    // Not forced: the classifier's label, else the keywords, else the tool loop.
    auto const chosen_by_model = s.post(R"({"model": "estrategias",
        "messages": [{"role": "user", "content": "¿Por dónde empiezo?"}]})");
    BOOST_TEST(content_and_reasoning(chosen_by_model).second.starts_with("strategy: react\n"));
    auto const by_keywords = s.post(R"({"model": "estrategias",
        "messages": [{"role": "user", "content": "Investiga cuántas iniciativas hay"}]})");
    BOOST_TEST(content_and_reasoning(by_keywords).second.starts_with("strategy: react\n"));
    auto const by_default = s.post(question("estrategias"));
    BOOST_TEST(content_and_reasoning(by_default).second.starts_with("strategy: tools\n"));
    BOOST_TEST(content_and_reasoning(by_default).first == "Recuento hecho.");

    auto const bad = s.post(R"({"model": "estrategias", "agent_type": "magic",
        "messages": [{"role": "user", "content": "x"}]})");
    BOOST_TEST(bad.status == 400u);
    BOOST_TEST(bad.json().at("error").at("param").as_string() == "agent_type");
    auto const react_with_client_tools = s.post(R"({"model": "estrategias", "agent_type": "react",
        "tools": [{"type": "function", "function": {"name": "f"}}], "messages": [{"role": "user", "content": "x"}]})");
    BOOST_TEST(react_with_client_tools.status == 400u);

    // Plain chat: one call, its own prompt, no tool menu; asked for, or the classifier's label.
    s.scenario("chat-scenario", {says("¡Hola! ¿En qué te ayudo?")});
    auto const calls_before = s.fake.requests().size();
    auto const forced_chat = s.post(R"({"model": "estrategias", "agent_type": "chat",
        "messages": [{"role": "user", "content": "Hola"}]})");
    BOOST_TEST_REQUIRE(forced_chat.status == 200u, forced_chat.body);
    BOOST_TEST(content_and_reasoning(forced_chat).first == "¡Hola! ¿En qué te ayudo?");
    BOOST_TEST(content_and_reasoning(forced_chat).second.starts_with("strategy: chat\n"));
    BOOST_TEST(s.fake.requests().size() == calls_before + 1);
    auto const chat_request = s.fake.requests().back().body;
    BOOST_TEST(!chat_request.as_object().contains("tools"));
    BOOST_TEST(chat_request.at("model").as_string() == "chat-scenario");
    BOOST_TEST(chat_request.at("messages").at(0).at("content").as_string() == "Charla sin herramientas.");
    auto chat_label = says("chat");
    chat_label.when_user_message_contains = "Gracias";
    testing::scenario chat_router;
    chat_router.name = "router-scenario";
    chat_router.turns.push_back({chat_label});
    s.fake.add_scenario(chat_router);
    auto const chosen_chat = s.post(R"({"model": "estrategias",
        "messages": [{"role": "user", "content": "Gracias por la ayuda con el recuento"}]})");
    BOOST_TEST_REQUIRE(chosen_chat.status == 200u, chosen_chat.body);
    BOOST_TEST(content_and_reasoning(chosen_chat).second.starts_with("strategy: chat\n"));
    auto const chat_with_client_tools = s.post(R"({"model": "estrategias", "agent_type": "chat",
        "tools": [{"type": "function", "function": {"name": "f"}}], "messages": [{"role": "user", "content": "x"}]})");
    BOOST_TEST(chat_with_client_tools.status == 400u);
    BOOST_TEST(chat_with_client_tools.json().at("error").at("message").as_string().starts_with(
        "The strategy 'chat' offers no tools"));
    std::lock_guard lock(s.records_mutex);
    BOOST_TEST(s.log_lines.at(0) == "strategy=react (asked)");
}

BOOST_AUTO_TEST_CASE(a_client_that_leaves_cancels_the_run)
{
    for(bool stream : {true, false})
    {
        served s;
        auto slow = says("una respuesta que tarda mucho en llegar entera");
        testing::fault f;
        f.kind = testing::fault_kind::stall;
        f.after_events = 2;
        slow.faults.push_back(f);
        s.scenario("agente-scenario", {slow});
        s.run();
        std::string const body = question("agente", stream ? R"("stream": true)" : "");
        std::string const head = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                 "Content-Length: " +
            std::to_string(body.size()) + "\r\n\r\n";
        {
            asio::io_context client;
            asio::ip::tcp::socket socket(client);
            socket.connect(s.ep);
            asio::write(socket, asio::buffer(head + body));
            // Wait until the fake has the model call, then leave.
            for(int i = 0; i < 200 && s.fake.requests().empty(); ++i)
                std::this_thread::sleep_for(10ms);
            BOOST_TEST_REQUIRE(!s.fake.requests().empty());
        }
        std::vector<cc::completion_record> records;
        for(int i = 0; i < 300 && records.empty(); ++i)
        {
            std::this_thread::sleep_for(10ms);
            records = s.completed();
        }
        BOOST_TEST_REQUIRE(records.size() == 1u);
        BOOST_TEST(records[0].outcome == "cancelled");
        BOOST_TEST(records[0].stream == stream);
    }
}

BOOST_AUTO_TEST_SUITE_END()

// --- AG-UI: the same models behind POST /ag-ui ------------------------------------

namespace {

std::string run_input(std::string const& thread, std::string const& run, std::string const& messages,
    std::string const& extra = {})
{
    return R"({"threadId": ")" + thread + R"(", "runId": ")" + run + R"(", "messages": )" + messages +
        R"(, "tools": [], "context": [], "state": {}, "forwardedProps": {})" + (extra.empty() ? "" : ", " + extra) +
        "}";
}

std::string user_says(std::string const& text)
{
    return R"([{"id": "m-1", "role": "user", "content": ")" + text + R"("}])";
}

std::vector<json::object> ag_ui_events(test_http::reply const& r)
{
    std::vector<json::object> out;
    for(auto const& line : data_lines(r.body))
        out.push_back(json::parse(line).as_object());
    return out;
}

std::vector<std::string> types_of(std::vector<json::object> const& events)
{
    std::vector<std::string> out;
    for(auto const& e : events)
        out.emplace_back(e.at("type").as_string());
    return out;
}

std::size_t count_of(std::vector<std::string> const& types, std::string_view type)
{
    return static_cast<std::size_t>(std::count(types.begin(), types.end(), type));
}

test_http::reply ag_ui_post(served& s, std::string const& target, std::string const& body, std::string user = {},
    std::string last_event_id = {})
{
    boost::beast::http::fields extra;
    if(!user.empty())
        extra.set("X-User", user);
    if(!last_event_id.empty())
        extra.set("Last-Event-ID", last_event_id);
    return test_http::request(s.ep, boost::beast::http::verb::post, target, body, "application/json", extra);
}

// Posts a run and leaves once its first event has come: the connection closed mid-stream.
void leave_after_first_event(asio::ip::tcp::endpoint ep, std::string const& body, std::string const& user)
{
    asio::io_context io;
    boost::beast::tcp_stream conn(io);
    conn.connect(ep);
    boost::beast::http::request<boost::beast::http::string_body> req{boost::beast::http::verb::post, "/ag-ui", 11};
    req.set(boost::beast::http::field::host, "127.0.0.1");
    req.set(boost::beast::http::field::content_type, "application/json");
    if(!user.empty())
        req.set("X-User", user);
    req.body() = body;
    req.prepare_payload();
    boost::beast::http::write(conn, req);
    std::string seen;
    char buf[4096];
    while(seen.find("RUN_STARTED") == std::string::npos)
    {
        auto const n = conn.socket().read_some(asio::buffer(buf));
        seen.append(buf, n);
    }
    conn.socket().shutdown(asio::ip::tcp::socket::shutdown_both);
    conn.close();
}

agentio::ag_ui::endpoint_options ag_ui_with(agentio::threads::thread_store* store = nullptr)
{
    agentio::ag_ui::endpoint_options o;
    o.store = store;
    o.default_agent = "agente";
    return o;
}

struct temporary_store
{
    std::filesystem::path file = std::filesystem::temp_directory_path() /
        ("agentio-ag-ui-" + std::to_string(std::random_device{}()) + ".db");
    std::unique_ptr<agentio::sqlite::thread_store> store;

    temporary_store()
    {
        auto opened = agentio::sqlite::thread_store::open(file.string());
        BOOST_TEST_REQUIRE(opened.has_value());
        store = std::move(*opened);
    }
    ~temporary_store()
    {
        store.reset();
        std::error_code ec;
        std::filesystem::remove(file, ec);
        std::filesystem::remove(file.string() + "-wal", ec);
        std::filesystem::remove(file.string() + "-shm", ec);
    }
};

// Runs a store's operation on the served io_context (which runs on its own thread) and waits for it.
template<class T>
T on_served(served& s, asio::awaitable<T> work)
{
    return asio::co_spawn(s.ioc, std::move(work), asio::use_future).get();
}

cc::endpoint_options who_is_x_user()
{
    cc::endpoint_options o;
    o.authenticate = [](agentio::http::request const& req) -> boost::system::result<std::string, cc::api_error> {
        auto const user = req.find("X-User");
        if(user == req.end())
            return cc::api_error{401, "Who are you?", "authentication_error", {}, {}};
        return std::string(user->value());
    };
    return o;
}

} // namespace

BOOST_AUTO_TEST_SUITE(ag_ui_endpoint)

BOOST_AUTO_TEST_CASE(a_run_is_its_events_in_order)
{
    served s({}, ag_ui_with());
    s.scenario("agente-scenario", {says("Hay cuatro iniciativas en total.")});
    s.run(2);
    auto const r = ag_ui_post(s, "/ag-ui", run_input("t-1", "r-1", user_says("¿Cuántas iniciativas hay?")));
    BOOST_TEST_REQUIRE(r.status == 200u, r.body);
    BOOST_TEST(r.headers[boost::beast::http::field::content_type].starts_with("text/event-stream"));
    auto const events = ag_ui_events(r);
    auto const types = types_of(events);
    BOOST_TEST_REQUIRE(types.size() >= 5u);
    BOOST_TEST(types.front() == "RUN_STARTED");
    BOOST_TEST(events.front().at("threadId").as_string() == "t-1");
    BOOST_TEST(events.front().at("runId").as_string() == "r-1");
    BOOST_TEST(types.back() == "RUN_FINISHED");
    BOOST_TEST(events.back().at("outcome").at("type").as_string() == "success");
    BOOST_TEST(count_of(types, "TEXT_MESSAGE_START") == 1u);
    BOOST_TEST(count_of(types, "TEXT_MESSAGE_END") == 1u);
    std::string text;
    for(auto const& e : events)
        if(e.at("type").as_string() == "TEXT_MESSAGE_CONTENT")
            text += e.at("delta").as_string();
    BOOST_TEST(text == "Hay cuatro iniciativas en total.");
    // Each event has its id, for Last-Event-ID.
    BOOST_TEST(r.body.find("id: 1\n") != std::string::npos);
    BOOST_TEST(r.body.find("id: " + std::to_string(events.size()) + "\n") != std::string::npos);
    // The model read the question after its system prompt.
    auto const sent = s.fake.requests().back().body;
    BOOST_TEST(sent.at("messages").at(1).at("content").as_string() == "¿Cuántas iniciativas hay?");
    auto const done = s.completed();
    BOOST_TEST_REQUIRE(done.size() == 1u);
    BOOST_TEST(done[0].outcome == "stop");
    BOOST_TEST(done[0].session == "t-1");
}

BOOST_AUTO_TEST_CASE(the_agents_tools_and_the_clients_tools)
{
    served s({}, ag_ui_with());
    s.scenario("agente-scenario",
        {calls("contar_iniciativas", json::object{{"campo_agrupacion", "estado_de_la_iniciativa"}}),
            says("Hay {{last_tool_result}}.")});
    s.scenario("directo-scenario", {calls("get_weather", json::object{{"city", "Madrid"}})});
    s.run(2);
    auto const own = ag_ui_events(ag_ui_post(s, "/ag-ui", run_input("t-1", "r-1", user_says("Cuenta"))));
    auto const own_types = types_of(own);
    BOOST_TEST(count_of(own_types, "TOOL_CALL_START") == 1u);
    BOOST_TEST(count_of(own_types, "TOOL_CALL_END") == 1u);
    BOOST_TEST(count_of(own_types, "TOOL_CALL_RESULT") == 1u);
    BOOST_TEST(own.back().at("outcome").at("type").as_string() == "success");
    BOOST_TEST(s.counters.calls.load() == 1);

    // The client's tool: its call comes back for the client to run, and the run ends.
    std::string const tools = R"("tools": [{"name": "get_weather", "description": "El tiempo de una ciudad",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}])";
    auto body = run_input("t-2", "r-2", user_says("¿Qué tiempo hace en Madrid?"));
    body.replace(body.find(R"("tools": [])"), std::string(R"("tools": [])").size(), tools);
    auto const client = ag_ui_events(ag_ui_post(s, "/ag-ui/agents/directo", body));
    auto const client_types = types_of(client);
    BOOST_TEST(count_of(client_types, "TOOL_CALL_START") == 1u);
    BOOST_TEST(count_of(client_types, "TOOL_CALL_RESULT") == 0u);
    auto const& outcome = client.back().at("outcome");
    BOOST_TEST(outcome.at("type").as_string() == "success");
    BOOST_TEST_REQUIRE(outcome.at("pendingToolCallIds").as_array().size() == 1u);
    std::string args;
    for(auto const& e : client)
        if(e.at("type").as_string() == "TOOL_CALL_ARGS")
            args += e.at("delta").as_string();
    BOOST_TEST(json::parse(args).at("city").as_string() == "Madrid");
}

// A plan over AG-UI: its steps as STEP_STARTED/FINISHED and the plan as the run's state, a snapshot and then
// patches, which a client applying them in order ends with every step done.
BOOST_AUTO_TEST_CASE(a_plans_steps_and_its_state)
{
    served s({}, ag_ui_with());
    s.scenario("plan-planner", {says(R"({"steps": ["Contar las iniciativas por estado", "Resumir el recuento"]})")});
    s.scenario("agente-scenario", {says("Recuento hecho.")});
    s.scenario("plan-answer", {says("Hay 47 iniciativas.")});
    s.scenario("plan-verifier", {says("SI")});
    chat_completions_endpoint::react_counts_then_answers(s, "Hay 47.");
    s.run(2);
    // The strategy forced as the OpenAI door's `agent_type`: a member of forwardedProps.
    auto const forced = [](std::string const& thread, std::string const& run, std::string const& question,
                            std::string const& strategy) {
        auto body = run_input(thread, run, user_says(question));
        std::string const none = R"("forwardedProps": {})";
        body.replace(body.find(none), none.size(), R"("forwardedProps": {"agent_type": ")" + strategy + R"("})");
        return body;
    };
    auto const events = ag_ui_events(ag_ui_post(s, "/ag-ui/agents/estrategias",
        forced("t-1", "r-1", "Cuenta y resume", "plan_execute")));
    auto const types = types_of(events);
    BOOST_TEST_REQUIRE(types.back() == "RUN_FINISHED", json::serialize(events.back()));
    std::vector<std::string> steps;
    std::optional<json::value> state;
    std::size_t deltas = 0;
    for(auto const& e : events)
    {
        auto const type = e.at("type").as_string();
        if(type == "STEP_STARTED" || type == "STEP_FINISHED")
            steps.push_back(std::string(type) + " " + std::string(e.at("stepName").as_string()));
        else if(type == "STATE_SNAPSHOT")
        {
            BOOST_TEST(!state.has_value()); // one snapshot, then patches
            state = e.at("snapshot");
        }
        else if(type == "STATE_DELTA")
        {
            BOOST_TEST_REQUIRE(state.has_value());
            BOOST_TEST(agentio::json_patch::apply(*state, e.at("delta").as_array()) == "");
            ++deltas;
        }
    }
    BOOST_TEST((steps ==
        std::vector<std::string>{"STEP_STARTED 1. Contar las iniciativas por estado",
            "STEP_FINISHED 1. Contar las iniciativas por estado", "STEP_STARTED 2. Resumir el recuento",
            "STEP_FINISHED 2. Resumir el recuento"}));
    BOOST_TEST(deltas == 4u); // each step running, then done
    BOOST_TEST_REQUIRE(state.has_value());
    BOOST_TEST(*state == json::parse(R"({"plan": {"revision": 1, "steps": [
        {"step": "Contar las iniciativas por estado", "status": "done"},
        {"step": "Resumir el recuento", "status": "done"}]}})"));

    // ReAct: an action and its observation are a step.
    auto const react = ag_ui_events(ag_ui_post(s, "/ag-ui/agents/estrategias",
        forced("t-2", "r-2", "¿Cuántas hay?", "react")));
    BOOST_TEST(react.back().at("outcome").at("type") == "success");
    std::vector<std::string> react_steps;
    for(auto const& e : react)
        if(e.at("type") == "STEP_STARTED" || e.at("type") == "STEP_FINISHED")
            react_steps.push_back(std::string(e.at("type").as_string()) + " " +
                std::string(e.at("stepName").as_string()));
    BOOST_TEST((react_steps ==
        std::vector<std::string>{"STEP_STARTED react 1: contar_iniciativas",
            "STEP_FINISHED react 1: contar_iniciativas"}));
}

BOOST_AUTO_TEST_CASE(bad_input_is_the_protocols_own_error_naming_the_field)
{
    served s(who_is_x_user(), ag_ui_with());
    s.run(2);
    auto only_error = [&](std::string const& target, std::string const& body) {
        auto const r = ag_ui_post(s, target, body, "ana");
        BOOST_TEST_REQUIRE(r.status == 200u, r.body);
        auto const events = ag_ui_events(r);
        BOOST_TEST_REQUIRE(events.size() == 1u, r.body);
        BOOST_TEST(events[0].at("type").as_string() == "RUN_ERROR");
        return events[0];
    };
    auto const no_thread = only_error("/ag-ui", R"({"runId": "r-1", "messages": []})");
    BOOST_TEST(no_thread.at("code").as_string() == "invalid_input");
    BOOST_TEST(no_thread.at("metadata").at("agentio").at("field").as_string() == "threadId");
    auto const not_json = only_error("/ag-ui", "{\"threadId\": ");
    BOOST_TEST(not_json.at("metadata").at("agentio").at("field").as_string() == "body");
    auto const bad_id = only_error("/ag-ui", run_input("t 1", "r-1", "[]"));
    BOOST_TEST(bad_id.at("metadata").at("agentio").at("field").as_string() == "threadId");
    auto const resume = only_error("/ag-ui",
        run_input("t-1", "r-1", "[]",
            R"("resume": [{"interruptId": "x", "status": "resolved", "payload": {"approved": true}}])"));
    BOOST_TEST(resume.at("metadata").at("agentio").at("field").as_string() == "resume[0].interruptId");
    auto const no_decision = only_error("/ag-ui",
        run_input("t-1", "r-1", "[]", R"("resume": [{"interruptId": "x", "status": "resolved", "payload": {}}])"));
    BOOST_TEST(no_decision.at("metadata").at("agentio").at("field").as_string() == "resume[0].payload.approved");
    // Not the protocol's business: who asks, and which agent.
    auto const anonymous = test_http::post(s.ep, "/ag-ui", run_input("t-1", "r-1", user_says("Hola")));
    BOOST_TEST(anonymous.status == 401u);
    auto const nobody = ag_ui_post(s, "/ag-ui/agents/nadie", run_input("t-1", "r-1", user_says("Hola")), "ana");
    BOOST_TEST(nobody.status == 404u);
    BOOST_TEST(nobody.json().at("error").at("code").as_string() == "agent_not_found");
    BOOST_TEST(s.fake.requests().empty()); // no model was asked
}

BOOST_AUTO_TEST_CASE(an_approval_is_an_interrupt_that_the_next_run_resumes)
{
    temporary_store t;
    served s(who_is_x_user(), ag_ui_with(t.store.get()));
    s.add("cauto", "cauto-scenario", 0ms, {"sumar_presupuesto"});
    s.scenario("cauto-scenario",
        {calls("sumar_presupuesto",
             json::object{{"campo_agrupacion", "unidad"}, {"campo_importe", "presupuesto_aprobado"}}),
            says("Hecho: {{last_tool_result}}")});
    s.run(2);
    auto const ask = [&](std::string const& thread, std::string const& run, std::string const& extra = {}) {
        return ag_ui_events(ag_ui_post(s, "/ag-ui/agents/cauto",
            run_input(thread, run, user_says("Suma los presupuestos por unidad"), extra), "ana"));
    };
    auto const answer = [](std::string const& id, std::string const& payload) {
        return R"("resume": [{"interruptId": ")" + id + R"(", "status": "resolved", "payload": )" + payload + "}]";
    };

    // The call that needs a person: streamed, not run, and the run ends with the interrupt.
    auto const first = ask("t-1", "r-1");
    auto const types = types_of(first);
    BOOST_TEST(count_of(types, "TOOL_CALL_START") == 1u);
    BOOST_TEST(count_of(types, "TOOL_CALL_END") == 1u);
    BOOST_TEST(count_of(types, "TOOL_CALL_RESULT") == 0u);
    auto const& outcome = first.back().at("outcome");
    BOOST_TEST_REQUIRE(outcome.at("type").as_string() == "interrupt", json::serialize(first.back()));
    auto const& interrupt = outcome.at("interrupts").at(0).as_object();
    std::string const call_id(interrupt.at("toolCallId").as_string());
    BOOST_TEST(interrupt.at("id").as_string() == call_id);
    BOOST_TEST(interrupt.at("reason").as_string() == "tool_call");
    BOOST_TEST(interrupt.at("message").as_string() == "Approve the call of 'sumar_presupuesto'?");
    BOOST_TEST(interrupt.at("responseSchema").at("required").at(0).as_string() == "approved");
    BOOST_TEST(interrupt.at("metadata").at("agentio").at("tool").as_string() == "sumar_presupuesto");
    BOOST_TEST(interrupt.at("metadata").at("agentio").at("arguments").at("campo_importe").as_string() ==
        "presupuesto_aprobado");
    BOOST_TEST(s.counters.calls.load() == 0);
    auto items = on_served(s, t.store->load_items("t-1"));
    BOOST_TEST_REQUIRE(items.has_value());
    BOOST_TEST_REQUIRE(items->size() == 2u); // the question, and the model's turn that waits
    BOOST_TEST(std::holds_alternative<llm::tool_use_block>((*items)[1].message.content.back()));

    // The thread waits: a run that does not answer, or answers something else, is refused and changes nothing.
    auto const unanswered = ask("t-1", "r-2");
    BOOST_TEST_REQUIRE(unanswered.size() == 1u);
    BOOST_TEST(unanswered[0].at("metadata").at("agentio").at("field").as_string() == "resume");
    auto const wrong = ask("t-1", "r-3", answer("toolu_otra", R"({"approved": true})"));
    BOOST_TEST(wrong[0].at("metadata").at("agentio").at("field").as_string() == "resume[0].interruptId");
    BOOST_TEST(s.counters.calls.load() == 0);

    // Approved: the call runs, its result streams, the model answers; the thread reads as the model did.
    auto const resumed = ask("t-1", "r-4", answer(call_id, R"({"approved": true})"));
    auto const resumed_types = types_of(resumed);
    BOOST_TEST(s.counters.calls.load() == 1);
    BOOST_TEST(count_of(resumed_types, "TOOL_CALL_START") == 0u); // the call is the client's already
    // The client's messages become the thread's first: the question and the call that waited.
    BOOST_TEST_REQUIRE(resumed_types.at(1) == "MESSAGES_SNAPSHOT");
    auto const& thread = resumed.at(1).at("messages").as_array();
    BOOST_TEST_REQUIRE(thread.size() == 2u);
    BOOST_TEST(thread[0].at("content") == "Suma los presupuestos por unidad");
    BOOST_TEST(thread[1].at("toolCalls").at(0).at("id").as_string() == call_id);
    auto const result = std::find_if(resumed.begin(), resumed.end(),
        [](json::object const& e) { return e.at("type").as_string() == "TOOL_CALL_RESULT"; });
    BOOST_TEST_REQUIRE((result != resumed.end()));
    BOOST_TEST(result->at("toolCallId").as_string() == call_id);
    BOOST_TEST(json::serialize(result->at("content")).find("suma_de") != std::string::npos, json::serialize(*result));
    BOOST_TEST(resumed.back().at("outcome").at("type").as_string() == "success");
    items = on_served(s, t.store->load_items("t-1"));
    BOOST_TEST_REQUIRE(items->size() == 4u);
    BOOST_TEST(std::holds_alternative<llm::tool_result_block>((*items)[2].message.content.front()));
    BOOST_TEST((*items)[3].message.text().starts_with("Hecho: "));
    // ... and takes the next question as any other.
    auto const next = ask("t-1", "r-5");
    BOOST_TEST(next.back().at("outcome").at("type").as_string() == "interrupt");

    // Rejected, with the person's reason: not run; the model reads why.
    auto const second = ask("t-2", "r-6");
    std::string const second_id(second.back().at("outcome").at("interrupts").at(0).at("id").as_string());
    auto const rejected = ask("t-2", "r-7", answer(second_id, R"({"approved": false, "reason": "no toques eso"})"));
    BOOST_TEST(s.counters.calls.load() == 1);
    BOOST_TEST(rejected.back().at("outcome").at("type").as_string() == "success");
    auto const said = s.fake.requests().back().body.at("messages").as_array().back();
    BOOST_TEST(json::serialize(said).find("no toques eso") != std::string::npos, json::serialize(said));

    // The OpenAI door cannot ask a person: a 409 that says so, and nothing runs.
    auto const openai = test_http::request(s.ep, boost::beast::http::verb::post, "/v1/chat/completions",
        question("cauto"), "application/json", [] {
            boost::beast::http::fields f;
            f.set("X-User", "ana");
            return f;
        }());
    BOOST_TEST(openai.status == 409u, openai.body);
    BOOST_TEST(openai.json().at("error").at("code").as_string() == "approval_required");
    BOOST_TEST(s.counters.calls.load() == 1);
}

BOOST_AUTO_TEST_CASE(with_a_store_the_thread_keeps_each_run_and_belongs_to_its_user)
{
    temporary_store t;
    {
        served s(who_is_x_user(), ag_ui_with(t.store.get()));
        s.scenario("agente-scenario", {says("Encantado, Ana.")});
        s.run(2);
        auto const first = ag_ui_events(ag_ui_post(s, "/ag-ui", run_input("t-1", "r-1", user_says("Me llamo Ana.")),
            "ana"));
        BOOST_TEST_REQUIRE(first.back().at("type").as_string() == "RUN_FINISHED");
        // The thread keeps the question and the answer; the run its journal.
        auto items = on_served(s, t.store->load_items("t-1"));
        BOOST_TEST_REQUIRE(items.has_value());
        BOOST_TEST_REQUIRE(items->size() == 2u);
        BOOST_TEST((*items)[0].message.text() == "Me llamo Ana.");
        BOOST_TEST((*items)[1].message.text() == "Encantado, Ana.");
        auto journal = on_served(s, t.store->events_after("r-1", 0, 1000));
        BOOST_TEST_REQUIRE(journal.has_value());
        BOOST_TEST(journal->size() == first.size());
        BOOST_TEST(journal->back().type == "RUN_FINISHED");

        // Followed again from an event on: the rest, ids continuing.
        auto const again = ag_ui_post(s, "/ag-ui/connect", R"({"threadId": "t-1", "runId": "r-1"})", "ana", "2");
        auto const rest = ag_ui_events(again);
        BOOST_TEST(rest.size() == first.size() - 2);
        BOOST_TEST(again.body.starts_with("id: 3\n"));
        // Another user: no such run; nor may they run on the thread.
        auto const other = ag_ui_events(ag_ui_post(s, "/ag-ui/connect", R"({"threadId": "t-1", "runId": "r-1"})",
            "bea"));
        BOOST_TEST_REQUIRE(other.size() == 1u);
        BOOST_TEST(other[0].at("code").as_string() == "run_not_found");
        auto const theirs = ag_ui_events(ag_ui_post(s, "/ag-ui", run_input("t-1", "r-9", user_says("Hola")), "bea"));
        BOOST_TEST(theirs.back().at("code").as_string() == "thread_not_found");
        // A run id is used once.
        auto const twice = ag_ui_events(ag_ui_post(s, "/ag-ui", run_input("t-1", "r-1", user_says("Otra")), "ana"));
        BOOST_TEST(twice.back().at("code").as_string() == "run_exists");

        // No messages: a run on the thread as stored.
        s.scenario("agente-scenario", {says("Te llamas Ana.")});
        auto const stored = ag_ui_events(ag_ui_post(s, "/ag-ui", run_input("t-1", "r-2", "[]"), "ana"));
        BOOST_TEST(stored.back().at("outcome").at("type").as_string() == "success");
        BOOST_TEST_REQUIRE(stored.at(1).at("type") == "MESSAGES_SNAPSHOT");
        BOOST_TEST(stored.at(1).at("messages").as_array().size() == 2u);
        // A run given the conversation, the client's own, gets none.
        BOOST_TEST(count_of(types_of(ag_ui_events(ag_ui_post(s, "/ag-ui",
                                run_input("t-1", "r-3", user_says("¿Y bien?")), "ana"))),
                       "MESSAGES_SNAPSHOT") == 0u);
        auto const sent = s.fake.requests().at(s.fake.requests().size() - 2).body.at("messages").as_array();
        BOOST_TEST(sent.size() == 3u); // the system prompt, the question and the answer stored
    }
}

BOOST_AUTO_TEST_CASE(a_client_that_leaves_does_not_stop_the_run_and_follows_it_again)
{
    temporary_store t;
    {
        auto o = ag_ui_with(t.store.get());
        o.default_agent = "lento";
        served s(who_is_x_user(), std::move(o));
        s.add("lento", "agente-scenario", 400ms);
        s.scenario("agente-scenario",
            {calls("contar_iniciativas", json::object{{"campo_agrupacion", "estado"}}), says("Ya está.")});
        s.run(2);
        auto body = run_input("t-1", "r-1", user_says("Cuenta despacio"));
        leave_after_first_event(s.ep, body, "ana");
        // The run goes on without its client.
        auto const again = ag_ui_post(s, "/ag-ui/connect", R"({"threadId": "t-1"})", "ana", "1");
        auto const rest = ag_ui_events(again);
        BOOST_TEST_REQUIRE(!rest.empty(), again.body);
        BOOST_TEST(rest.front().at("type").as_string() != "RUN_STARTED");
        BOOST_TEST(rest.back().at("type").as_string() == "RUN_FINISHED");
        BOOST_TEST(rest.back().at("outcome").at("type").as_string() == "success");
        BOOST_TEST(s.counters.calls.load() == 1);
        // Bad Last-Event-ID: the field named.
        auto const bad = ag_ui_events(ag_ui_post(s, "/ag-ui/connect", R"({"threadId": "t-1"})", "ana", "x"));
        BOOST_TEST(bad.front().at("metadata").at("agentio").at("field").as_string() == "Last-Event-ID");
    }
}

BOOST_AUTO_TEST_CASE(cancel_stops_a_run_and_a_run_nobody_follows_ends_after_the_grace)
{
    temporary_store t;
    {
        auto o = ag_ui_with(t.store.get());
        o.detach_grace = 200ms;
        o.turn.check_every = 50ms; // how soon a cancel through the store (another process's) arrives
        served s(who_is_x_user(), std::move(o));
        s.counters.block_first = true; // the first call waits a minute, unless stopped
        s.scenario("agente-scenario",
            {calls("contar_iniciativas", json::object{{"campo_agrupacion", "estado"}}), says("Ya está.")});
        s.run(2);
        auto running = std::async(std::launch::async,
            [&] { return ag_ui_post(s, "/ag-ui", run_input("t-1", "r-1", user_says("Cuenta")), "ana"); });
        while(s.counters.calls.load() == 0)
            std::this_thread::sleep_for(10ms);
        auto const missing = ag_ui_post(s, "/ag-ui/cancel", R"({"threadId": "t-1"})", "ana");
        BOOST_TEST(missing.status == 400u);
        BOOST_TEST(missing.json().at("error").at("param").as_string() == "runId");
        auto const theirs = ag_ui_post(s, "/ag-ui/cancel", R"({"threadId": "t-1", "runId": "r-1"})", "bea");
        BOOST_TEST(theirs.status == 404u);
        auto const stopped = ag_ui_post(s, "/ag-ui/cancel", R"({"threadId": "t-1", "runId": "r-1"})", "ana");
        BOOST_TEST_REQUIRE(stopped.status == 200u, stopped.body);
        auto const events = ag_ui_events(running.get());
        BOOST_TEST(events.back().at("type").as_string() == "RUN_FINISHED");
        BOOST_TEST(events.back().at("outcome").at("type").as_string() == "cancelled");
        auto const over = ag_ui_post(s, "/ag-ui/cancel", R"({"threadId": "t-1", "runId": "r-1"})", "ana");
        BOOST_TEST(over.status == 404u);
        auto run = on_served(s, t.store->find_run("r-1", "ana"));
        BOOST_TEST_REQUIRE((run && *run));
        BOOST_TEST(((*run)->status == agentio::threads::run_status::cancelled));

        // Nobody follows: cancelled once the grace has passed.
        s.counters.calls = 0; // the next call is a first again: it blocks
        leave_after_first_event(s.ep, run_input("t-2", "r-2", user_says("Cuenta")), "ana");
        auto status = agentio::threads::run_status::running;
        for(int i = 0; i < 300 && status != agentio::threads::run_status::cancelled; ++i)
        {
            std::this_thread::sleep_for(20ms);
            auto found = on_served(s, t.store->find_run("r-2", "ana"));
            BOOST_TEST_REQUIRE((found && *found));
            status = (*found)->status;
        }
        BOOST_TEST((status == agentio::threads::run_status::cancelled));
        // Its journal says so to whoever comes back.
        auto const later = ag_ui_events(ag_ui_post(s, "/ag-ui/connect", R"({"threadId": "t-2"})", "ana"));
        BOOST_TEST_REQUIRE(!later.empty());
        BOOST_TEST(later.front().at("type").as_string() == "RUN_STARTED");
        BOOST_TEST(later.back().at("outcome").at("type").as_string() == "cancelled");

        // A cancel that reaches the run through the store, as one sent to another process sharing it does.
        s.counters.calls = 0;
        auto remote = std::async(std::launch::async,
            [&] { return ag_ui_post(s, "/ag-ui", run_input("t-3", "r-3", user_says("Cuenta")), "ana"); });
        while(s.counters.calls.load() == 0)
            std::this_thread::sleep_for(10ms);
        auto asked = on_served(s, t.store->request_cancel("r-3", "ana"));
        BOOST_TEST_REQUIRE((asked && *asked));
        auto const ended = ag_ui_events(remote.get());
        BOOST_TEST(ended.back().at("outcome").at("type").as_string() == "cancelled");
    }
}

BOOST_AUTO_TEST_SUITE_END()

// --- A2A: the same runs behind POST /a2a -------------------------------------------

namespace {

test_http::reply a2a_call(served& s, std::string const& method, std::string const& params, std::string user = "ana",
    std::string version = "1.0")
{
    boost::beast::http::fields extra;
    if(!user.empty())
        extra.set("X-User", user);
    if(!version.empty())
        extra.set("A2A-Version", version);
    auto const body = R"({"jsonrpc": "2.0", "id": 7, "method": ")" + method + R"(", "params": )" + params + "}";
    return test_http::request(s.ep, boost::beast::http::verb::post, "/a2a", body, "application/json", extra);
}

std::string a2a_text(std::string const& text, std::string const& extra = {})
{
    return R"({"message": {"messageId": "m-)" + std::to_string(std::random_device{}()) +
        R"(", "role": "ROLE_USER", "parts": [{"text": ")" + text + R"("}])" + (extra.empty() ? "" : ", " + extra) +
        "}}";
}

json::object a2a_result(test_http::reply const& r)
{
    BOOST_TEST_REQUIRE(r.status == 200u, r.body);
    auto const v = r.json();
    BOOST_TEST_REQUIRE(v.as_object().contains("result"), r.body);
    BOOST_TEST(v.at("jsonrpc").as_string() == "2.0");
    BOOST_TEST(v.at("id") == 7);
    return v.at("result").as_object();
}

json::object a2a_error(test_http::reply const& r)
{
    BOOST_TEST_REQUIRE(r.status == 200u, r.body);
    auto const v = r.json();
    BOOST_TEST_REQUIRE(v.as_object().contains("error"), r.body);
    return v.at("error").as_object();
}

std::string state_of(json::value const& task)
{
    return std::string(task.at("status").at("state").as_string());
}

} // namespace

BOOST_AUTO_TEST_SUITE(a2a_endpoint)

BOOST_AUTO_TEST_CASE(the_card_and_the_version_rule)
{
    served s(who_is_x_user(), ag_ui_with());
    s.run(2);
    auto const card = test_http::request(s.ep, boost::beast::http::verb::get, "/.well-known/agent-card.json", "",
        "application/json", {});
    BOOST_TEST_REQUIRE(card.status == 200u, card.body);
    auto const c = card.json();
    BOOST_TEST(c.at("name").as_string() == "agente-de-pruebas");
    auto const& interface = c.at("supportedInterfaces").at(0);
    BOOST_TEST(interface.at("url").as_string().ends_with("/a2a"));
    BOOST_TEST(interface.at("protocolVersion").as_string() == "1.0");
    BOOST_TEST(c.at("capabilities").at("streaming").as_bool());
    BOOST_TEST(c.at("skills").at(0).at("id").as_string() == "contar_iniciativas");
    BOOST_TEST(!card.headers[boost::beast::http::field::etag].empty());
    BOOST_TEST(card.headers[boost::beast::http::field::cache_control].find("max-age=") != std::string::npos);
    boost::beast::http::fields conditional;
    conditional.set(boost::beast::http::field::if_none_match, card.headers[boost::beast::http::field::etag]);
    auto const again = test_http::request(s.ep, boost::beast::http::verb::get, "/.well-known/agent-card.json", "",
        "application/json", conditional);
    BOOST_TEST(again.status == 304u);

    // No A2A-Version is 0.3; 1.0 is spoken.
    auto const old = a2a_error(a2a_call(s, "GetTask", R"({"id": "x"})", "ana", ""));
    BOOST_TEST(old.at("code") == -32009);
    BOOST_TEST(a2a_error(a2a_call(s, "GetTask", R"({"id": "x"})", "ana", "0.3")).at("code") == -32009);
    BOOST_TEST(a2a_error(a2a_call(s, "GetTask", R"({"id": "x"})")).at("code") == -32001);
    BOOST_TEST(a2a_error(a2a_call(s, "Nothing", "{}")).at("code") == -32601);
    BOOST_TEST(a2a_error(a2a_call(s, "SendMessage", R"({"message": {"role": "ROLE_USER"}})"))
                   .at("data")
                   .at(0)
                   .at("fieldViolations")
                   .at(0)
                   .at("field")
                   .as_string() == "message.messageId");
    BOOST_TEST(a2a_error(a2a_call(s, "CreateTaskPushNotificationConfig", "{}")).at("code") == -32003);
    // Who asks is the application's business: 401 before any JSON-RPC.
    BOOST_TEST(a2a_call(s, "GetTask", R"({"id": "x"})", "").status == 401u);
    BOOST_TEST(s.fake.requests().empty());
}

BOOST_AUTO_TEST_CASE(a_task_answers_streams_and_is_found_again)
{
    temporary_store t;
    served s(who_is_x_user(), ag_ui_with(t.store.get()));
    s.scenario("agente-scenario", {says("Hay cuatro iniciativas en total.")});
    s.run(2);
    // Blocking: the task as it ends.
    auto const task = a2a_result(a2a_call(s, "SendMessage", a2a_text("¿Cuántas iniciativas hay?"))).at("task");
    BOOST_TEST(state_of(task) == "TASK_STATE_COMPLETED");
    BOOST_TEST(task.at("artifacts").at(0).at("parts").at(0).at("text").as_string() ==
        "Hay cuatro iniciativas en total.");
    std::string const id(task.at("id").as_string());
    std::string const context(task.at("contextId").as_string());
    BOOST_TEST(task.at("history").at(0).at("role").as_string() == "ROLE_USER");
    // Found again, by its owner only.
    auto const got = a2a_result(a2a_call(s, "GetTask", R"({"id": ")" + id + R"(", "historyLength": 1})"));
    BOOST_TEST(state_of(got) == "TASK_STATE_COMPLETED");
    BOOST_TEST(got.at("history").as_array().size() == 1u);
    BOOST_TEST(a2a_error(a2a_call(s, "GetTask", R"({"id": ")" + id + R"("})", "eva")).at("code") == -32001);
    auto const listed = a2a_result(a2a_call(s, "ListTasks", R"({"contextId": ")" + context + R"("})"));
    BOOST_TEST(listed.at("tasks").as_array().size() == 1u);
    BOOST_TEST(listed.at("totalSize") == 1);
    BOOST_TEST(listed.at("nextPageToken").as_string() == "");
    BOOST_TEST(!listed.at("tasks").at(0).as_object().contains("artifacts"));
    BOOST_TEST(a2a_error(a2a_call(s, "ListTasks", R"({"pageSize": 500})")).at("code") == -32602);
    BOOST_TEST(a2a_error(a2a_call(s, "CancelTask", R"({"id": ")" + id + R"("})")).at("code") == -32002);
    BOOST_TEST(a2a_error(a2a_call(s, "SubscribeToTask", R"({"id": ")" + id + R"("})")).at("code") == -32004);

    // Streaming, in the same context: the Task first, the answer in pieces, the end; every frame the request's id.
    auto const streamed = a2a_call(s, "SendStreamingMessage",
        a2a_text("¿Y ahora?", R"("contextId": ")" + context + R"(")"));
    BOOST_TEST_REQUIRE(streamed.status == 200u, streamed.body);
    std::vector<json::object> frames;
    for(auto const& line : data_lines(streamed.body))
        frames.push_back(json::parse(line).as_object());
    BOOST_TEST_REQUIRE(frames.size() >= 3u, streamed.body);
    for(auto const& f : frames)
        BOOST_TEST(f.at("id") == 7);
    BOOST_TEST(frames.front().at("result").as_object().contains("task"));
    BOOST_TEST(frames.front().at("result").at("task").at("contextId").as_string() == context);
    auto const& last = frames.back().at("result").at("statusUpdate");
    BOOST_TEST(last.at("status").at("state").as_string() == "TASK_STATE_COMPLETED");
    std::size_t pieces = 0;
    for(auto const& f : frames)
        if(f.at("result").as_object().contains("artifactUpdate"))
            ++pieces;
    BOOST_TEST(pieces >= 2u);
    // The context is the thread: it holds both questions and answers.
    auto items = on_served(s, t.store->load_items(context));
    BOOST_TEST_REQUIRE(items.has_value());
    BOOST_TEST(items->size() == 4u);
}

BOOST_AUTO_TEST_CASE(an_approval_is_input_required_and_the_next_message_resumes_the_same_task)
{
    temporary_store t;
    auto options = ag_ui_with(t.store.get());
    options.default_agent = "cauto"; // what A2A serves
    served s(who_is_x_user(), std::move(options));
    s.add("cauto", "cauto-scenario", 0ms, {"sumar_presupuesto"});
    s.scenario("cauto-scenario",
        {calls("sumar_presupuesto",
             json::object{{"campo_agrupacion", "unidad"}, {"campo_importe", "presupuesto_aprobado"}}),
            says("Hecho: {{last_tool_result}}")});
    s.run(2);
    auto const call = [&](std::string const& method, std::string const& params) { return a2a_call(s, method, params); };

    auto const asked = a2a_result(call("SendMessage", a2a_text("Suma los presupuestos"))).at("task");
    BOOST_TEST_REQUIRE(state_of(asked) == "TASK_STATE_INPUT_REQUIRED", json::serialize(asked));
    auto const& parts = asked.at("status").at("message").at("parts");
    auto const& approval = parts.at(1).at("data").at("approvals").at(0);
    BOOST_TEST(approval.at("tool").as_string() == "sumar_presupuesto");
    std::string const call_id(approval.at("toolCallId").as_string());
    std::string const id(asked.at("id").as_string());
    std::string const context(asked.at("contextId").as_string());
    BOOST_TEST(s.counters.calls.load() == 0);
    // Decisions on another call are refused; the task still waits.
    auto const wrong = a2a_error(call("SendMessage",
        R"({"message": {"messageId": "d0", "role": "ROLE_USER", "taskId": ")" + id +
            R"(", "parts": [{"data": {"decisions": [{"toolCallId": "otra", "approved": true}]}}]}})"));
    BOOST_TEST(wrong.at("code") == -32602);
    // Approved: the same task goes on, and completes.
    auto const resumed = a2a_result(call("SendMessage",
                                        R"({"message": {"messageId": "d1", "role": "ROLE_USER", "taskId": ")" + id +
                                            R"(", "contextId": ")" + context +
                                            R"(", "parts": [{"data": {"decisions": [{"toolCallId": ")" + call_id +
                                            R"(", "approved": true}]}}]}})"))
                             .at("task");
    BOOST_TEST(resumed.at("id").as_string() == id);
    BOOST_TEST(state_of(resumed) == "TASK_STATE_COMPLETED", json::serialize(resumed));
    BOOST_TEST(s.counters.calls.load() == 1);
    BOOST_TEST(state_of(a2a_result(call("GetTask", R"({"id": ")" + id + R"("})"))) == "TASK_STATE_COMPLETED");
    BOOST_TEST(a2a_error(call("SendMessage",
                             R"({"message": {"messageId": "d2", "role": "ROLE_USER", "taskId": ")" + id +
                                 R"(", "parts": [{"text": "otra vez"}]}})"))
                   .at("code") == -32004);

    // Cancelled while it waits: CANCELED, and its context takes the next task.
    auto const waiting =
        a2a_result(call("SendMessage", a2a_text("Suma otra vez", R"("contextId": ")" + context + R"(")"))).at("task");
    BOOST_TEST_REQUIRE(state_of(waiting) == "TASK_STATE_INPUT_REQUIRED");
    std::string const second(waiting.at("id").as_string());
    auto const cancelled = a2a_result(call("CancelTask", R"({"id": ")" + second + R"("})"));
    BOOST_TEST(state_of(cancelled) == "TASK_STATE_CANCELED", json::serialize(cancelled));
    BOOST_TEST(state_of(a2a_result(call("CancelTask", R"({"id": ")" + second + R"("})"))) == "TASK_STATE_CANCELED");
    BOOST_TEST(s.counters.calls.load() == 1);
    auto const next =
        a2a_result(call("SendMessage", a2a_text("Suma", R"("contextId": ")" + context + R"(")"))).at("task");
    BOOST_TEST(state_of(next) == "TASK_STATE_INPUT_REQUIRED", json::serialize(next));

    // Listed from the store: each task once, whatever its runs (the approved one ran twice), newest first.
    auto const listed = a2a_result(call("ListTasks", R"({"contextId": ")" + context + R"("})"));
    std::vector<std::string> listed_ids;
    for(auto const& task : listed.at("tasks").as_array())
        listed_ids.push_back(std::string(task.at("id").as_string()));
    BOOST_TEST((listed_ids == std::vector<std::string>{std::string(next.at("id").as_string()), second, id}));
    BOOST_TEST(state_of(listed.at("tasks").at(2)) == "TASK_STATE_COMPLETED");
}

// ListTasks reads the store: a process that did not start the tasks (here, one started after the first ended)
// lists them, newest first, filtered and paged, and only to their owner.
BOOST_AUTO_TEST_CASE(tasks_are_listed_from_the_store_by_any_process)
{
    temporary_store t;
    std::string first, second, first_context;
    {
        served s(who_is_x_user(), ag_ui_with(t.store.get()));
        s.scenario("agente-scenario", {says("Hay cuatro iniciativas.")});
        s.run(2);
        auto const a = a2a_result(a2a_call(s, "SendMessage", a2a_text("¿Cuántas hay?"))).at("task");
        std::this_thread::sleep_for(5ms); // each task changed at its own millisecond
        auto const b = a2a_result(a2a_call(s, "SendMessage", a2a_text("¿Y ahora?"))).at("task");
        first = std::string(a.at("id").as_string());
        first_context = std::string(a.at("contextId").as_string());
        second = std::string(b.at("id").as_string());
    }
    served s(who_is_x_user(), ag_ui_with(t.store.get()));
    s.run(2);
    auto const ids_of = [](json::value const& listed) {
        std::vector<std::string> out;
        for(auto const& task : listed.at("tasks").as_array())
            out.push_back(std::string(task.at("id").as_string()));
        return out;
    };
    auto const all = a2a_result(a2a_call(s, "ListTasks", "{}"));
    BOOST_TEST((ids_of(all) == std::vector<std::string>{second, first}));
    BOOST_TEST(all.at("totalSize") == 2);
    BOOST_TEST(state_of(all.at("tasks").at(1)) == "TASK_STATE_COMPLETED");
    // Its times are the journal's, not the listing's.
    BOOST_TEST(all.at("tasks").at(1).at("status").at("timestamp").as_string() <
        all.at("tasks").at(0).at("status").at("timestamp").as_string());
    auto const in_context = a2a_result(a2a_call(s, "ListTasks", R"({"contextId": ")" + first_context + R"("})"));
    BOOST_TEST((ids_of(in_context) == std::vector<std::string>{first}));
    auto const working = a2a_result(a2a_call(s, "ListTasks", R"({"status": "TASK_STATE_WORKING"})"));
    BOOST_TEST(working.at("tasks").as_array().empty());
    auto const page = a2a_result(a2a_call(s, "ListTasks", R"({"pageSize": 1})"));
    BOOST_TEST((ids_of(page) == std::vector<std::string>{second}));
    std::string const token(page.at("nextPageToken").as_string());
    auto const rest = a2a_result(a2a_call(s, "ListTasks", R"({"pageSize": 1, "pageToken": ")" + token + R"("})"));
    BOOST_TEST((ids_of(rest) == std::vector<std::string>{first}));
    BOOST_TEST(rest.at("nextPageToken").as_string() == "");
    BOOST_TEST(a2a_result(a2a_call(s, "ListTasks", "{}", "eva")).at("tasks").as_array().empty());
}

BOOST_AUTO_TEST_SUITE_END()

// --- the A2A client: agentio's own A2A server, reached as a remote agent --------------

namespace {

namespace a2a = agentio::a2a;

a2a::client remote_of(served& s, std::string user = "ana", std::chrono::steady_clock::duration timeout = 30s)
{
    a2a::client_options o;
    o.url = "http://127.0.0.1:" + std::to_string(s.ep.port());
    if(!user.empty())
        o.headers.set("X-User", user);
    o.timeout = timeout;
    return a2a::client(s.client, std::move(o));
}

struct seen_updates
{
    std::vector<std::string> kinds; // which member each stream response had
};

asio::awaitable<boost::system::result<a2a::remote_task, a2a::remote_error>> send_counting(a2a::client remote,
    std::string text, a2a::message_options options, std::shared_ptr<seen_updates> seen)
{
    a2a::update_handler on_update = [seen](a2a::remote_task const&, json::object const& response) {
        seen->kinds.emplace_back(response.begin()->key());
    };
    co_return co_await remote.send(std::move(text), std::move(options), std::move(on_update));
}

// Sends, and gives up after `after` (the `||` of awaitable operators): the caller that stops.
asio::awaitable<bool> send_then_stop(a2a::client remote, std::string text, std::chrono::milliseconds after)
{
    using namespace asio::experimental::awaitable_operators;
    asio::steady_timer timer(co_await asio::this_coro::executor, after);
    a2a::message_options options;
    a2a::update_handler none;
    auto done = co_await (remote.send(std::move(text), std::move(options), std::move(none)) ||
        timer.async_wait(asio::use_awaitable));
    co_return done.index() == 1;
}

asio::awaitable<agentio::tool_result> call_tool(agentio::dynamic_tools const& tools, std::string name,
    json::value arguments)
{
    agentio::tool_context ctx;
    co_return co_await tools.call(name, arguments, ctx);
}

asio::awaitable<std::vector<cc::output>> complete_with(std::shared_ptr<a2a::remote_model> model, cc::request r)
{
    cc::call_context ctx;
    co_return co_await agentio_test::model_outputs(*model, std::move(r), ctx);
}

// A scenario whose first round answers by the question's words: `(word, answer)` in order, the last one always.
void answers_by_words(served& s, std::string name,
    std::vector<std::pair<std::string, testing::scripted_response>> first_round,
    std::vector<testing::scripted_response> later_rounds = {})
{
    testing::scenario sc;
    sc.name = std::move(name);
    std::vector<testing::scripted_response> round;
    for(auto& [word, answer] : first_round)
    {
        answer.when_user_message_contains = word;
        round.push_back(std::move(answer));
    }
    sc.turns.push_back(std::move(round));
    for(auto& later : later_rounds)
        sc.turns.push_back({std::move(later)});
    s.fake.add_scenario(std::move(sc));
}

std::string tool_text(agentio::tool_result const& r)
{
    std::string out;
    for(auto const& block : r.content)
        if(auto const* t = std::get_if<agentio::text_content>(&block))
            out += t->text + "\n";
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(a2a_client)

BOOST_AUTO_TEST_CASE(the_card_a_streamed_task_and_the_task_found_again)
{
    temporary_store t;
    served s(who_is_x_user(), ag_ui_with(t.store.get()));
    answers_by_words(s, "agente-scenario",
        {{"ahora", says("Siguen siendo cuatro.")}, {"", says("Hay cuatro iniciativas en total.")}});
    s.run(2);
    auto remote = remote_of(s);
    auto card = on_served(s, remote.card());
    BOOST_TEST_REQUIRE(card.has_value(), card.error().message);
    BOOST_TEST(card->name == "agente-de-pruebas");
    BOOST_TEST(card->streaming);
    BOOST_TEST(card->endpoint == "http://127.0.0.1:" + std::to_string(s.ep.port()) + "/a2a");
    BOOST_TEST_REQUIRE(card->skills.size() == 1u);
    BOOST_TEST(card->skills[0].id == "contar_iniciativas");
    // Read again with its ETag: the same card (a 304 the client answers from what it has).
    auto again = on_served(s, remote.card(true));
    BOOST_TEST_REQUIRE(again.has_value());
    BOOST_TEST(again->name == "agente-de-pruebas");

    auto seen = std::make_shared<seen_updates>();
    auto task = on_served(s, send_counting(remote, "¿Cuántas iniciativas hay?", {}, seen));
    BOOST_TEST_REQUIRE(task.has_value(), task.error().message);
    BOOST_TEST((task->state() == a2a::task_state::completed));
    BOOST_TEST(task->text() == "Hay cuatro iniciativas en total.");
    BOOST_TEST(!task->context_id().empty());
    BOOST_TEST_REQUIRE(seen->kinds.size() >= 3u);
    BOOST_TEST(seen->kinds.front() == "task");
    BOOST_TEST(seen->kinds.back() == "statusUpdate");
    BOOST_TEST(std::count(seen->kinds.begin(), seen->kinds.end(), "artifactUpdate") >= 2);

    // The same conversation goes on under its context: the thread holds both turns.
    a2a::message_options same;
    same.context_id = task->context_id();
    auto second = on_served(s, send_counting(remote, "¿Y ahora?", same, std::make_shared<seen_updates>()));
    BOOST_TEST_REQUIRE(second.has_value(), second.error().message);
    BOOST_TEST(second->text() == "Siguen siendo cuatro.");
    BOOST_TEST(second->context_id() == task->context_id());
    BOOST_TEST(second->id() != task->id());
    auto items = on_served(s, t.store->load_items(task->context_id()));
    BOOST_TEST_REQUIRE(items.has_value());
    BOOST_TEST(items->size() == 4u);

    auto found = on_served(s, remote.get_task(task->id()));
    BOOST_TEST_REQUIRE(found.has_value(), found.error().message);
    BOOST_TEST((found->state() == a2a::task_state::completed));
    BOOST_TEST(found->text() == "Hay cuatro iniciativas en total.");
    // The specification's errors come back as JSON-RPC codes; the application's 401 as a status.
    auto ended = on_served(s, remote.cancel_task(task->id()));
    BOOST_TEST_REQUIRE(!ended.has_value());
    BOOST_TEST((ended.error().kind == a2a::remote_failure::rpc));
    BOOST_TEST(ended.error().code == -32002);
    auto unknown = on_served(s, remote.get_task("no-such-task"));
    BOOST_TEST_REQUIRE(!unknown.has_value());
    BOOST_TEST(unknown.error().code == -32001);
    auto theirs = on_served(s, remote_of(s, "eva").get_task(task->id()));
    BOOST_TEST_REQUIRE(!theirs.has_value());
    BOOST_TEST(theirs.error().code == -32001);
    auto anonymous = on_served(s, remote_of(s, "").get_task(task->id()));
    BOOST_TEST_REQUIRE(!anonymous.has_value());
    BOOST_TEST((anonymous.error().kind == a2a::remote_failure::http_status));
    BOOST_TEST(anonymous.error().code == 401);
    // Nobody there: a transport error naming the card's URL.
    a2a::client_options nowhere;
    nowhere.url = "http://127.0.0.1:1";
    auto refused = on_served(s, a2a::client(s.client, nowhere).card());
    BOOST_TEST_REQUIRE(!refused.has_value());
    BOOST_TEST((refused.error().kind == a2a::remote_failure::transport));
    BOOST_TEST(refused.error().message.find("/.well-known/agent-card.json") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_remote_agent_as_a_tool_and_as_a_model)
{
    temporary_store t;
    auto options = ag_ui_with(t.store.get());
    options.default_agent = "cauto";
    served s(who_is_x_user(), std::move(options));
    s.add("cauto", "cauto-scenario", 0ms, {"sumar_presupuesto"});
    answers_by_words(s, "cauto-scenario",
        {{"Cuenta", calls("contar_iniciativas", json::object{{"campo_agrupacion", "estado"}})},
            {"Suma",
                calls("sumar_presupuesto",
                    json::object{{"campo_agrupacion", "unidad"}, {"campo_importe", "presupuesto_aprobado"}})},
            {"", says("Primera.")}},
        {says("Hay {{last_tool_result}}.")});
    s.run(2);
    auto remote = remote_of(s);

    agentio::dynamic_tools tools;
    auto added = on_served(s, a2a::add_agent(remote, tools));
    BOOST_TEST_REQUIRE(added.has_value(), added.error());
    BOOST_TEST(*added == "agente-de-pruebas");
    auto const descriptors = tools.descriptors();
    BOOST_TEST_REQUIRE(descriptors.size() == 1u);
    BOOST_TEST(std::string(descriptors[0].description).find("Cuenta iniciativas") != std::string::npos);
    // Arguments the schema refuses never leave.
    auto refused = on_served(s, call_tool(tools, *added, json::object{{"mensaje", "hola"}}));
    BOOST_TEST(refused.is_error);
    // An answer: the artifacts' text, and the context to go on with.
    auto answered = on_served(s, call_tool(tools, *added, json::object{{"message", "Cuenta las iniciativas"}}));
    BOOST_TEST(!answered.is_error, tool_text(answered));
    BOOST_TEST(tool_text(answered).find("Hay ") == 0u, tool_text(answered));
    BOOST_TEST_REQUIRE(answered.structured.has_value());
    std::string const context(answered.structured->at("contextId").as_string());
    BOOST_TEST(tool_text(answered).find("contextId: " + context) != std::string::npos);
    // A remote approval is not the caller's to give: an error naming the task and the call, nothing run.
    auto waiting = on_served(s, call_tool(tools, *added, json::object{{"message", "Suma"}, {"contextId", context}}));
    BOOST_TEST(waiting.is_error);
    BOOST_TEST(tool_text(waiting).find("waits for input") != std::string::npos, tool_text(waiting));
    BOOST_TEST(tool_text(waiting).find("sumar_presupuesto(") != std::string::npos, tool_text(waiting));
    BOOST_TEST(tool_text(waiting).find("TASK_STATE_INPUT_REQUIRED") != std::string::npos);
    BOOST_TEST(s.counters.calls.load() == 1); // the count only; the sum waits remotely

    // As a model: the answer streamed as content, then finished; the earlier turns as a transcript.
    a2a::remote_model_options mo;
    mo.card.id = "remoto";
    auto model = std::make_shared<a2a::remote_model>(remote_of(s, "bea"), mo);
    cc::request r = parsed(R"({"model": "remoto", "messages": [{"role": "user", "content": "Hola"},
        {"role": "assistant", "content": "Buenas"}, {"role": "user", "content": "¿Qué tal?"}]})");
    auto outputs = on_served(s, complete_with(model, r));
    std::string content;
    bool finished = false;
    for(auto const& o : outputs)
    {
        if(auto const* d = std::get_if<cc::content_delta>(&o))
            content += d->text;
        finished = finished || std::holds_alternative<cc::finished>(o);
    }
    BOOST_TEST(content == "Primera.");
    BOOST_TEST(finished);
    auto const asked = json::serialize(s.fake.requests().back().body);
    BOOST_TEST(asked.find("Conversation so far:") != std::string::npos, asked);
    BOOST_TEST(asked.find("assistant: Buenas") != std::string::npos, asked);
}

BOOST_AUTO_TEST_CASE(a_deadline_or_a_caller_that_stops_cancels_the_remote_task)
{
    temporary_store t;
    served s(who_is_x_user(), ag_ui_with(t.store.get()));
    s.counters.block_first = true; // the first call waits a minute, unless stopped
    s.scenario("agente-scenario",
        {calls("contar_iniciativas", json::object{{"campo_agrupacion", "estado"}}), says("Ya está."),
            calls("contar_iniciativas", json::object{{"campo_agrupacion", "estado"}}), says("Ya está.")});
    s.run(2);
    auto const tasks_of = [&](std::string const& state) {
        auto const listed = a2a_result(a2a_call(s, "ListTasks", R"({"status": ")" + state + R"("})"));
        return listed.at("tasks").as_array().size();
    };
    // The deadline passes while the remote tool runs: a timeout, and the task cancelled.
    auto late = on_served(s, send_counting(remote_of(s, "ana", 300ms), "Cuenta", {}, std::make_shared<seen_updates>()));
    BOOST_TEST_REQUIRE(!late.has_value());
    BOOST_TEST((late.error().kind == a2a::remote_failure::timeout), late.error().message);
    std::size_t cancelled = 0;
    for(int i = 0; i < 200 && cancelled == 0; ++i)
    {
        std::this_thread::sleep_for(10ms);
        cancelled = tasks_of("TASK_STATE_CANCELED");
    }
    BOOST_TEST(cancelled == 1u);

    // The caller stops waiting (the other side of `||` won): cancelled too.
    s.counters.calls = 0;
    BOOST_TEST(on_served(s, send_then_stop(remote_of(s), "Cuenta otra vez", 300ms)));
    for(int i = 0; i < 200 && cancelled == 1; ++i)
    {
        std::this_thread::sleep_for(10ms);
        cancelled = tasks_of("TASK_STATE_CANCELED");
    }
    BOOST_TEST(cancelled == 2u);
    BOOST_TEST(tasks_of("TASK_STATE_WORKING") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
