// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// POST /api/v1/agent/chat end to end: the real server (REST API, tools over
// the HTTP client, orchestrator, SSE writer) against the fake LLM, both on
// 127.0.0.1. The tool results come from the generated database, and the
// answers are checked against SQL on the same file.
#include "chat_fixture.hpp"

#include <agentio/sse/parser.hpp>
#include <agentio/testing/fake_llm.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <lodepng.h>

#include <algorithm>
#include <random>
#include <regex>
#include <set>
#include <thread>

namespace asio = boost::asio;
namespace json = boost::json;
using portfolio_test::shared_server;
using portfolio_test::sql_count;

using namespace portfolio_test;

BOOST_AUTO_TEST_SUITE(chat_endpoint)

BOOST_AUTO_TEST_CASE(a_conversation_with_a_tool_round)
{
    fake_provider f;
    chat_server s(anthropic_at(f, "portfolio-two-rounds"));
    auto const r = chat(s.endpoint(), ask("¿Cuántas iniciativas hay en ejecución?"));
    BOOST_TEST(r.http.status == 200u);
    BOOST_TEST(r.http.headers["content-type"] == "text/event-stream");
    BOOST_TEST(r.http.headers["cache-control"] == "no-cache");
    BOOST_TEST(r.http.headers["x-accel-buffering"] == "no");
    // The chat protocol: reasoning streams, the call as the model writes it, clear_streaming, the tool call, the
    // answer streams, done.
    BOOST_TEST(r.names() == "chunk tool_call_start tool_call_delta clear_streaming tool_call chunk done ");

    auto db = shared_server::get().direct();
    auto const total = sql_count(db, "SELECT count(*) FROM datos_relevantes");
    auto const states = sql_count(db, "SELECT count(DISTINCT estado_de_la_iniciativa) FROM datos_relevantes");
    auto const running = sql_count(db,
        "SELECT count(*) FROM datos_relevantes WHERE estado_de_la_iniciativa = 'En Ejecución'");

    std::size_t const call = 2; // chunk(s), clear_streaming, tool_call
    std::size_t tool_index = 0;
    for(std::size_t i = 0; i < r.events.size(); ++i)
        if(r.events[i].type == "tool_call")
            tool_index = i;
    BOOST_TEST_REQUIRE(tool_index >= call);
    BOOST_TEST(r.events[tool_index - 1].type == "clear_streaming");
    BOOST_TEST(r.events[tool_index - 1].data == "{}");
    auto const tool = r.data(tool_index).as_object();
    std::vector<std::string> keys;
    for(auto const& kv : tool)
        keys.emplace_back(kv.key());
    BOOST_TEST((keys ==
        std::vector<std::string>{"tool", "input_summary", "input_raw", "thinking", "result_summary", "duration_ms",
            "iteration", "tool_call_id"}));
    // Before it ran, the call was shown as it was written: its start, then fragments that join to its arguments.
    std::string written;
    std::string started_id;
    for(std::size_t i = 0; i < tool_index; ++i)
        if(r.events[i].type == "tool_call_start")
        {
            started_id = std::string(r.data(i).at("tool_call_id").as_string());
            BOOST_TEST(r.data(i).at("tool") == "contar_iniciativas");
        }
        else if(r.events[i].type == "tool_call_delta")
        {
            BOOST_TEST(r.data(i).at("tool_call_id").as_string() == started_id);
            written += r.data(i).at("delta").as_string();
        }
    BOOST_TEST(json::parse(written) == json::parse(R"({"campo_agrupacion":"estado_de_la_iniciativa"})"));
    BOOST_TEST(tool.at("tool_call_id").as_string() == started_id);
    BOOST_TEST(tool.at("tool") == "contar_iniciativas");
    BOOST_TEST(tool.at("input_summary") == "campo_agrupacion=estado_de_la_iniciativa");
    BOOST_TEST(tool.at("input_raw") == json::parse(R"({"campo_agrupacion":"estado_de_la_iniciativa"})"));
    BOOST_TEST(tool.at("thinking") == "Voy a contar las iniciativas de la cartera agrupadas por estado.");
    BOOST_TEST(std::string(tool.at("result_summary").as_string()) ==
        std::to_string(states) + " grupos, " + std::to_string(total) + " iniciativas");
    BOOST_TEST(tool.at("duration_ms").is_int64());
    BOOST_TEST(tool.at("iteration") == 1);
    // The wire form: JSON spaced as Python's json.dumps writes it.
    BOOST_TEST(r.events.back().type == "done");
    auto const thread_id = r.http.headers["x-thread-id"];
    auto const run_id = r.http.headers["x-run-id"];
    BOOST_TEST(portfolio::agent::is_valid_id(thread_id));
    BOOST_TEST(portfolio::agent::is_valid_id(run_id));
    BOOST_TEST(r.events.back().data ==
        R"({"status": "completed", "thread_id": ")" + std::string(thread_id) + R"(", "run_id": ")" +
            std::string(run_id) + R"("})");
    // Every event carries its journal id, from 1, in order.
    for(std::size_t i = 0; i < r.events.size(); ++i)
        BOOST_TEST(r.events[i].last_event_id == std::to_string(i + 1));
    BOOST_TEST(r.events.front().data.starts_with(R"({"content": ")"));

    // The model's answer echoes the tool result (the fake's fallback answer):
    // the counts are the database's.
    std::string const answer = r.text();
    BOOST_TEST(answer.find("\"total_iniciativas\":" + std::to_string(total)) != std::string::npos, answer);
    BOOST_TEST(answer.find("{\"valor\":\"En Ejecución\",\"cantidad\":" + std::to_string(running) + "}") !=
            std::string::npos,
        answer);

    // What the model was sent: the system prompt, the tools, the tool result.
    auto const requests = f.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 2u);
    BOOST_TEST(requests[0].headers["x-api-key"] == "clave-de-prueba");
    BOOST_TEST(requests[0].body.at("model") == "portfolio-two-rounds");
    BOOST_TEST(std::string(requests[0].body.at("system").as_string())
                   .starts_with("Eres el asistente de datos del Portfolio Digital"));
    BOOST_TEST(requests[0].body.at("tools").as_array().size() == 10u);
}

BOOST_AUTO_TEST_CASE(the_agent_as_an_openai_model)
{
    fake_provider f;
    chat_server s(anthropic_at(f, "portfolio-two-rounds"));
    auto const models = test_http::get(s.endpoint(), "/v1/models");
    BOOST_TEST_REQUIRE(models.status == 200u, models.body);
    BOOST_TEST(models.json().at("data").at(0).at("id").as_string() == "portfolio");
    auto const r = test_http::post(s.endpoint(), "/v1/chat/completions",
        R"({"model": "portfolio", "messages": [{"role": "user", "content": "¿Cuántas iniciativas hay en ejecución?"}]})");
    BOOST_TEST_REQUIRE(r.status == 200u, r.body);
    auto const message = r.json().at("choices").at(0).at("message");
    BOOST_TEST(!message.at("content").as_string().empty()); // the answer from the real tool's result
    BOOST_TEST(message.at("reasoning_content").as_string().find("→ contar_iniciativas(") != std::string::npos);
    BOOST_TEST(r.json().at("choices").at(0).at("finish_reason").as_string() == "stop");
}

BOOST_AUTO_TEST_CASE(a_chart_answer_in_three_rounds)
{
    fake_provider f;
    chat_server s(anthropic_at(f, "portfolio-chart"));
    auto const r = chat(s.endpoint(), ask("¿Cuántas iniciativas tiene cada unidad? Hazme un gráfico."));
    BOOST_TEST(r.http.status == 200u);
    BOOST_TEST(r.names() ==
        "chunk tool_call_start tool_call_delta clear_streaming tool_call chunk tool_call_start tool_call_delta "
        "clear_streaming tool_call chunk done ");

    std::vector<json::object> calls;
    for(std::size_t i = 0; i < r.events.size(); ++i)
        if(r.events[i].type == "tool_call")
            calls.push_back(r.data(i).as_object());
    BOOST_TEST_REQUIRE(calls.size() == 2u);
    auto db = shared_server::get().direct();
    auto const units = sql_count(db, "SELECT count(DISTINCT unidad) FROM datos_relevantes");
    auto const total = sql_count(db, "SELECT count(*) FROM datos_relevantes");
    BOOST_TEST(calls[0].at("tool") == "contar_iniciativas");
    BOOST_TEST(std::string(calls[0].at("result_summary").as_string()) ==
        std::to_string(units) + " grupos, " + std::to_string(total) + " iniciativas");
    BOOST_TEST(calls[0].at("iteration") == 1);
    BOOST_TEST(calls[1].at("tool") == "generar_grafico");
    BOOST_TEST(calls[1].at("result_summary") == "Gráfico bar con 6 categorías");
    BOOST_TEST(calls[1].at("thinking") == "Ahora genero un gráfico de barras con el reparto.");
    BOOST_TEST(calls[1].at("iteration") == 2);

    // The answer embeds the chart as a Markdown image, and the server serves it.
    std::string const answer = r.text();
    std::smatch m;
    BOOST_TEST_REQUIRE(std::regex_search(answer, m,
                           std::regex(R"(!\[Iniciativas por unidad\]\((/api/v1/charts/[0-9a-f]{32}\.png)\))")),
        answer);
    BOOST_TEST(answer.find("**Supuestos aplicados:**") != std::string::npos);
    auto const png = test_http::get(s.endpoint(), m[1].str());
    BOOST_TEST_REQUIRE(png.status == 200u);
    BOOST_TEST(png.headers["content-type"] == "image/png");
    std::vector<unsigned char> pixels;
    unsigned w = 0, h = 0;
    BOOST_TEST_REQUIRE(lodepng::decode(pixels, w, h, reinterpret_cast<unsigned char const*>(png.body.data()),
                           png.body.size()) == 0u);
    BOOST_TEST(w == 1500u);
    BOOST_TEST(h == 900u);
    // Not blank: a good share of the pixels are drawn, in more than two colours.
    std::size_t drawn = 0;
    std::set<std::uint32_t> colours;
    for(std::size_t i = 0; i + 3 < pixels.size(); i += 4)
    {
        std::uint32_t const rgb = pixels[i] << 16 | pixels[i + 1] << 8 | pixels[i + 2];
        drawn += rgb != 0xFFFFFFu;
        if(colours.size() < 64)
            colours.insert(rgb);
    }
    BOOST_TEST(drawn > w * h / 20);
    BOOST_TEST(colours.size() > 8u);

    // The model was given the ten tools and the chart call's arguments as the scenario wrote them.
    auto const requests = f.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 3u);
    BOOST_TEST(requests[0].body.at("tools").as_array().size() == 10u);
    auto const last = requests[2].body.at("messages").as_array().back().at("content").at(0);
    BOOST_TEST(last.at("type") == "tool_result");
}

BOOST_AUTO_TEST_CASE(a_follow_up_question_keeps_the_history)
{
    fake_provider f;
    chat_server s(anthropic_at(f, "anthropic-text-only"));
    auto const body = R"({"messages":[{"role":"user","content":"¿Cuántas iniciativas hay?"},
        {"role":"assistant","content":"Hay 47."},{"role":"user","content":"¿Y en ejecución?"}]})";
    auto const r = chat(s.endpoint(), body);
    BOOST_TEST(r.names() == "chunk done ");
    BOOST_TEST(r.text() ==
        "Hay **12 iniciativas en ejecución** de un total de 47 en la cartera. Además, 9 están "
        "planificadas, 21 finalizadas y 5 canceladas.");
    auto const sent = f.fake.requests().at(0).body.at("messages").as_array();
    BOOST_TEST(sent.size() == 3u);
    BOOST_TEST(sent[1].at("role") == "assistant");
}

BOOST_AUTO_TEST_CASE(provider_failures_reach_the_user_in_spanish)
{
    fake_provider f;
    add_always_overloaded(f, "siempre-saturado"); // an overload that outlasts the retries
    chat_server s(anthropic_at(f, "siempre-saturado"));
    auto const r = chat(s.endpoint(), ask("hola"));
    BOOST_TEST(r.names() == "error ");
    BOOST_TEST(r.data(0).at("message") == "El proveedor del modelo está saturado; inténtelo de nuevo en unos momentos");
    BOOST_TEST(f.fake.requests().size() == 3u); // the SDKs' two retries

    chat_server wrong_model(anthropic_at(f, "claude-que-no-existe"));
    auto const r2 = chat(wrong_model.endpoint(), ask("hola"));
    BOOST_TEST(r2.names() == "error ");
    std::string const message(r2.data(0).at("message").as_string());
    BOOST_TEST(
        message.starts_with(
            "El modelo 'claude-que-no-existe' no existe o no está disponible para esta clave: cambie AGENT_MODEL"),
        message);

    auto unreachable = anthropic_at(f, "portfolio-two-rounds");
    unreachable.anthropic_base_url = "http://127.0.0.1:1";
    chat_server down(unreachable);
    auto const r3 = chat(down.endpoint(), ask("hola"));
    BOOST_TEST(r3.names() == "error ");
    BOOST_TEST(std::string(r3.data(0).at("message").as_string())
                   .starts_with("No se pudo conectar con el proveedor del modelo"));
}

BOOST_AUTO_TEST_CASE(a_client_leaving_mid_answer)
{
    fake_provider f;
    {
        agentio::testing::scripted_response slow;
        slow.text = "Una respuesta larga que llega poco a poco, palabra a palabra, durante varios segundos.";
        agentio::testing::fault pace;
        pace.kind = agentio::testing::fault_kind::slow_tokens;
        pace.duration = std::chrono::milliseconds(300);
        slow.faults.push_back(pace);
        agentio::testing::scenario sc;
        sc.name = "lento";
        sc.turns.push_back({slow});
        f.fake.add_scenario(sc);
    }
    chat_server s(anthropic_at(f, "lento"));
    // Read the header and the first chunk, then leave.
    std::string const request = "POST /api/v1/agent/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                "Content-Length: " +
        std::to_string(ask("hola").size()) + "\r\n\r\n" + ask("hola");
    {
        asio::io_context ioc;
        asio::ip::tcp::socket sock(ioc);
        sock.connect(s.endpoint());
        asio::write(sock, asio::buffer(request));
        std::string got;
        boost::system::error_code ec;
        while(got.find("event: chunk") == std::string::npos && !ec)
        {
            char buf[512];
            auto const n = sock.read_some(asio::buffer(buf), ec);
            got.append(buf, n);
        }
        BOOST_TEST(got.starts_with("HTTP/1.1 200 OK"));
    } // closed
    // The server notices, cancels the run and closes its side promptly: the
    // whole answer would take about 4 s at this pace.
    auto const left = std::chrono::steady_clock::now();
    while(s.server->connection_count() != 0 && std::chrono::steady_clock::now() - left < std::chrono::seconds(2))
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    BOOST_TEST(s.server->connection_count() == 0u);
    BOOST_TEST(test_http::get(s.endpoint(), "/api/v1/health").status == 200u);
}

// The page's "Detener" is a client closing mid-answer. Against a model with
// no delay a cancellation races the provider's read to its end: a
// use-after-free in the HTTP client's cancellation forwarding (Asio's
// co_spawn, chriskohlhoff/asio#1332) crashed the server within a few dozen
// such closes. Hundreds of chats are closed here at random points — before
// the first event, mid-text, mid-tool, during the retry sleep — by FIN or by
// reset; the server must then have no connection left and still answer.
BOOST_AUTO_TEST_CASE(chats_closed_by_the_client_at_any_point)
{
    fake_provider f; // token_interval 0: as fast as the server reads
    add_always_overloaded(f, "saturado-siempre");
    chat_server tools(anthropic_at(f, "portfolio-two-rounds"));
    chat_server retrying(anthropic_at(f, "saturado-siempre"));
    std::string const body = ask("¿Cuántas iniciativas hay en ejecución?");
    std::string const request = "POST /api/v1/agent/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                "Content-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body;
    unsigned const seed = std::random_device{}();
    BOOST_TEST_MESSAGE("chats_closed_by_the_client_at_any_point: seed " << seed);
    std::mt19937 random(seed);
    asio::io_context ioc;
    auto leave = [&](asio::ip::tcp::socket& sock) {
        boost::system::error_code ec;
        if(random() % 2)
            sock.set_option(asio::socket_base::linger(true, 0), ec); // leave with a reset
        sock.close(ec);
    };
    for(int i = 0; i < 300; ++i)
    {
        asio::ip::tcp::socket sock(ioc);
        sock.connect(tools.endpoint());
        asio::write(sock, asio::buffer(request));
        boost::system::error_code ec;
        std::string got;
        char buf[1024];
        if(i % 3 == 1) // mid-text: after a random number of bytes
        {
            std::size_t const stop_at = std::uniform_int_distribution<std::size_t>(1, 3000)(random);
            while(got.size() < stop_at && !ec)
                got.append(buf, sock.read_some(asio::buffer(buf), ec));
        }
        else if(i % 3 == 2) // mid-tool: once the tool call is announced
        {
            while(got.find("event: tool_call") == std::string::npos && !ec)
                got.append(buf, sock.read_some(asio::buffer(buf), ec));
        }
        // i % 3 == 0: before the first event
        leave(sock);
    }
    {
        // During the retry sleep after a 529: a hundred chats at once, each
        // left at a random moment within the first two attempts.
        std::vector<std::pair<int, asio::ip::tcp::socket>> chats;
        for(int i = 0; i < 100; ++i)
        {
            asio::ip::tcp::socket sock(ioc);
            sock.connect(retrying.endpoint());
            asio::write(sock, asio::buffer(request));
            chats.emplace_back(std::uniform_int_distribution<int>(0, 800)(random), std::move(sock));
        }
        std::sort(chats.begin(), chats.end(), [](auto const& a, auto const& b) { return a.first < b.first; });
        auto const opened = std::chrono::steady_clock::now();
        for(auto& [at, sock] : chats)
        {
            std::this_thread::sleep_until(opened + std::chrono::milliseconds(at));
            leave(sock);
        }
    }
    auto const until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while((tools.server->connection_count() != 0 || retrying.server->connection_count() != 0) &&
        std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    BOOST_TEST(tools.server->connection_count() == 0u);
    BOOST_TEST(retrying.server->connection_count() == 0u);
    BOOST_TEST(test_http::get(tools.endpoint(), "/api/v1/health").status == 200u);
    auto const r = chat(tools.endpoint(), ask("¿Cuántas iniciativas hay en ejecución?"));
    BOOST_TEST(r.names() == "chunk tool_call_start tool_call_delta clear_streaming tool_call chunk done ", r.names());
}

// A client that shuts down its sending side after the request (as some
// scripts do) still reads the whole answer: that is not leaving.
BOOST_AUTO_TEST_CASE(a_half_closed_client_gets_the_whole_answer)
{
    fake_provider f;
    chat_server s(anthropic_at(f, "portfolio-two-rounds"));
    std::string const body = ask("¿Cuántas iniciativas hay en ejecución?");
    std::string const out = test_http::raw(s.endpoint(),
        "POST /api/v1/agent/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
            std::to_string(body.size()) + "\r\n\r\n" + body,
        true);
    BOOST_TEST(out.starts_with("HTTP/1.1 200 OK"));
    BOOST_TEST(out.find("event: done") != std::string::npos, out);
}

BOOST_AUTO_TEST_CASE(each_run_ends_in_one_log_line)
{
    using agentio::agent::run_result;
    using std::chrono::milliseconds;
    run_result r;
    r.rounds = 2;
    r.tools = {{"contar_iniciativas", {}, false}, {"generar_grafico", {}, false}};
    r.usage.input_tokens = 5120;
    r.usage.output_tokens = 318;
    BOOST_TEST(portfolio::agent::describe_run(r, milliseconds(1834), "") ==
        "chat: completada en 1834 ms · 2 rondas · 2 herramientas · tokens: 5120 de entrada, 318 de salida");
    r = {};
    r.status = run_result::outcome::cancelled;
    r.rounds = 1;
    BOOST_TEST(portfolio::agent::describe_run(r, milliseconds(812), "detached") ==
        "chat: cancelada tras 812 ms (nadie la leía) · 1 ronda · 0 herramientas · tokens: 0 de entrada, 0 de salida");
    BOOST_TEST(portfolio::agent::describe_run(r, milliseconds(812), "cancelled")
                   .starts_with("chat: cancelada tras 812 ms (el usuario la detuvo)"));
    BOOST_TEST(portfolio::agent::describe_run(r, milliseconds(5), "server stopping")
                   .starts_with("chat: cancelada tras 5 ms (el servidor se detiene)"));
    r.status = run_result::outcome::failed;
    r.error_message = "El proveedor del modelo está saturado:\r\nvuelva a intentarlo";
    BOOST_TEST(
        portfolio::agent::describe_run(r, milliseconds(40), "")
            .starts_with(
                "chat: fallida tras 40 ms (El proveedor del modelo está saturado:  vuelva a intentarlo) · 1 ronda"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(chat_errors)

BOOST_AUTO_TEST_CASE(bad_requests_are_refused_naming_the_field)
{
    fake_provider f;
    chat_server s(anthropic_at(f, "anthropic-text-only"));
    auto detail = [&](std::string const& body, unsigned status) {
        auto const r = test_http::post(s.endpoint(), "/api/v1/agent/chat", body);
        BOOST_TEST(r.status == status, body);
        return r.status == status ? r.detail() : std::string();
    };
    BOOST_TEST(detail(R"({"messages":[]})", 422) == "messages: la lista no puede estar vacía");
    BOOST_TEST(detail(R"({})", 422) == "messages: campo obligatorio");
    BOOST_TEST(detail(R"({"messages":[{"role":"system","content":"x"}]})", 422) ==
        "messages[0].role: debe ser 'user' o 'assistant'");
    BOOST_TEST(detail(R"({"messages":[{"role":"user","content":"  "}]})", 422) ==
        "messages[0].content: no puede estar vacío");
    BOOST_TEST(detail(R"({"messages":[{"role":"user","content":3}]})", 422) ==
        "messages[0].content: debe ser un texto");
    BOOST_TEST(detail(R"({"messages":[{"role":"user","content":"hola"},{"role":"assistant","content":"hola"}]})",
                   422) == "messages[1].role: el último mensaje debe ser del usuario");
    BOOST_TEST(detail(R"({"messages":[{"role":"user","content":"hola","extra":1}]})", 422) ==
        "messages[0].extra: campo desconocido (se admiten: role, content)");
    BOOST_TEST(detail(R"({"messages":[{"role":"user","content":"hola"}],"stream":true})", 422) ==
        "stream: campo desconocido (se admiten: messages, thread_id, busy_policy)");
    BOOST_TEST(detail(R"({"messages":[{"role":"user","content":"hola"}],"busy_policy":"wait"})", 400) ==
        "busy_policy: se esperaba 'reject', 'enqueue' o 'interrupt'");
    BOOST_TEST(detail(R"({"messages":[{"role":"user","content":"hola"}],"busy_policy":1})", 400) ==
        "busy_policy: se esperaba 'reject', 'enqueue' o 'interrupt'");
    BOOST_TEST(detail(ask(std::string(40000, 'x')), 422) == "messages[0].content: como máximo 32768 caracteres");
    BOOST_TEST(detail("{no es json", 400).starts_with("JSON mal formado en el cuerpo de la petición (byte 1)"));
    auto const get = test_http::get(s.endpoint(), "/api/v1/agent/chat");
    BOOST_TEST(get.status == 405u);
    BOOST_TEST(get.headers["allow"] == "POST");
    BOOST_TEST(f.fake.requests().empty()); // nothing reached the model
}

BOOST_AUTO_TEST_CASE(without_a_key_the_endpoint_says_so)
{
    // The shared server runs with the default settings: no key.
    auto const r = test_http::post(shared_server::get().endpoint(), "/api/v1/agent/chat", ask("hola"));
    BOOST_TEST(r.status == 503u);
    BOOST_TEST(r.detail() ==
        "El asistente no está disponible: falta ANTHROPIC_API_KEY en la configuración del servidor");
}

BOOST_AUTO_TEST_SUITE_END()
