// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio-platform in process: its settings, asistente's tools, and the API
// on loopback in front of the fake LLM (the model) with the real
// agentio-sqlite-mcp behind sql_query.
#define BOOST_TEST_MODULE agentio platform tests
#include "summaries.hpp"
#include "app.hpp"
#include "routing.hpp"
#include "settings.hpp"
#include "tools.hpp"

#include <agentio/http/server.hpp>
#include <agentio/llm/environment.hpp>
#include <agentio/retrieval.hpp>
#include <agentio/threads/sqlite_store.hpp>
#include <agentio/testing/fake_llm.hpp>

#include "test_http.hpp"
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <random>
#include <thread>

#include <unistd.h>
#include "test_paths.hpp"

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;
namespace testing = agentio::testing;

namespace {

agentio::environment_lookup lookup_of(std::map<std::string, std::string> vars)
{
    return [vars = std::move(vars)](char const* name) -> std::optional<std::string> {
        auto it = vars.find(name);
        if(it == vars.end() || it->second.empty())
            return std::nullopt;
        return it->second;
    };
}

struct temp_dir
{
    std::filesystem::path path = std::filesystem::temp_directory_path() /
        ("agentio-platform-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()));
    temp_dir() { std::filesystem::create_directories(path); }
    ~temp_dir() { std::filesystem::remove_all(path); }
};

void make_database(std::filesystem::path const& file)
{
    sqlite3* db = nullptr;
    BOOST_TEST_REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
    char* error = nullptr;
    int rc = sqlite3_exec(db,
        "CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price REAL);"
        "INSERT INTO products (name, price) VALUES ('lápiz', 1.5), ('cuaderno', 3.25), ('mochila', 24.9);",
        nullptr, nullptr, &error);
    std::string const why = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    BOOST_TEST_REQUIRE(rc == SQLITE_OK, why);
}

// A small retrieval index, stemmed Spanish, as agentio-normativa ingest writes one.
void make_index(std::filesystem::path const& file)
{
    namespace retrieval = agentio::retrieval;
    retrieval::analysis_profile profile;
    profile.stop_words = {"el", "la", "los", "las", "de", "del", "y", "en", "a", "por", "que", "un", "una"};
    profile.stemmer = "spanish";
    auto text = profile.make_analyzer();
    BOOST_TEST_REQUIRE(text.has_value());
    auto writer = retrieval::sqlite_index_writer::open(file, *text);
    BOOST_TEST_REQUIRE(writer.has_value());
    std::vector<retrieval::chunk> chunks(2);
    chunks[0].key = "et/38/1";
    chunks[0].article_number = "38";
    chunks[0].paragraph = "1";
    chunks[0].title = "Artículo 38. Vacaciones anuales.";
    chunks[0].text = "El periodo de vacaciones anuales retribuidas no será inferior a treinta días naturales.";
    chunks[1].key = "et/56/1";
    chunks[1].article_number = "56";
    chunks[1].paragraph = "1";
    chunks[1].title = "Artículo 56. Despido improcedente.";
    chunks[1].text = "La indemnización será de treinta y tres días de salario por año de servicio.";
    BOOST_TEST_REQUIRE(writer->replace("normativa", "Estatuto de los Trabajadores", chunks).has_value());
    BOOST_TEST_REQUIRE(writer->store_analysis(profile).has_value());
}

} // namespace

BOOST_AUTO_TEST_SUITE(platform_settings)

BOOST_AUTO_TEST_CASE(defaults_and_errors_name_the_variable)
{
    auto const s = platform::settings::from_environment(lookup_of({}));
    BOOST_TEST_REQUIRE(s.has_value());
    BOOST_TEST(s->memory);
    BOOST_TEST(!s->authenticates());
    BOOST_TEST(s->upstreams.empty());

    auto both = platform::settings::from_environment(lookup_of({{"PLATFORM_JWT_SECRET", "x"},
        {"PLATFORM_JWT_PUBLIC_KEY", "-----BEGIN PUBLIC KEY-----"}}));
    BOOST_TEST(both.error().find("PLATFORM_JWT_SECRET") != std::string::npos);
    auto memory = platform::settings::from_environment(lookup_of({{"PLATFORM_MEMORY", "maybe"}}));
    BOOST_TEST(memory.error() == "PLATFORM_MEMORY: expected 'on' or 'off', got 'maybe'");
    auto rounds = platform::settings::from_environment(lookup_of({{"PLATFORM_MAX_ROUNDS", "0"}}));
    BOOST_TEST(rounds.error() == "PLATFORM_MAX_ROUNDS: expected a whole number from 1 to 50, got '0'");
    auto upstream = platform::settings::from_environment(lookup_of({{"PLATFORM_AGENT_FACTURAS", "localhost:7003"}}));
    BOOST_TEST(upstream.error().find("PLATFORM_AGENT_FACTURAS") != std::string::npos);
    auto db = platform::settings::from_environment(lookup_of({{"PLATFORM_SQL_DB", "/no/such/file.db"}}));
    BOOST_TEST(db.error().find("PLATFORM_SQL_DB") != std::string::npos);
    BOOST_TEST((s->busy_policy == agentio::threads::busy_policy::reject));
    auto busy = platform::settings::from_environment(lookup_of({{"AGENT_BUSY_POLICY", "wait"}}));
    BOOST_TEST(busy.error() == "AGENT_BUSY_POLICY: expected 'reject' or 'enqueue' or 'interrupt', got 'wait'");
    auto ok = platform::settings::from_environment(lookup_of({{"PLATFORM_AGENT_NORMATIVA", "http://127.0.0.1:7004/v1"},
        {"PLATFORM_MEMORY", "off"}, {"AGENT_BUSY_POLICY", "interrupt"}}));
    BOOST_TEST_REQUIRE(ok.has_value());
    BOOST_TEST((ok->busy_policy == agentio::threads::busy_policy::interrupt));
    BOOST_TEST(ok->upstreams.at("normativa") == "http://127.0.0.1:7004/v1");
    BOOST_TEST(!ok->memory);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(platform_tools)

BOOST_AUTO_TEST_CASE(math_calc_evaluates_and_refuses)
{
    BOOST_TEST(*platform::evaluate("2+3*4") == 14.0);
    BOOST_TEST(*platform::evaluate("(1250*0.21)+sqrt(16)") == 266.5);
    BOOST_TEST(*platform::evaluate("2^10") == 1024.0);
    BOOST_TEST(*platform::evaluate("max(3, 7, 5)") == 7.0);
    BOOST_TEST(!platform::evaluate("1/0").has_value());
    BOOST_TEST(!platform::evaluate("2+").has_value());
    BOOST_TEST(!platform::evaluate("system(\"ls\")").has_value());
    BOOST_TEST(!platform::evaluate("").has_value());
    BOOST_TEST(platform::evaluate("2+").error().size() > 0u);
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

// The platform's API on loopback, its provider the fake LLM, on one
// io_context in its own thread.
struct platform_server
{
    temp_dir dir;
    asio::io_context ioc;
    testing::fake_llm fake{ioc.get_executor()};
    agentio::http::client http{ioc.get_executor()};
    std::optional<llm::any_provider> provider;
    std::unique_ptr<agentio::threads::thread_store> store;
    std::optional<platform::application> app;
    std::optional<agentio::http::server<agentio::http::router<>>> server;
    asio::ip::tcp::endpoint ep;
    std::thread thread;

    explicit platform_server(std::map<std::string, std::string> vars = {})
    {
        BOOST_TEST_REQUIRE(fake.start().has_value());
        make_database(dir.path / "shop.db");
        make_index(dir.path / "laws.db");
        vars.emplace("PLATFORM_RAG_INDEX", (dir.path / "laws.db").string());
        vars.emplace("AGENT_PROVIDER", "openai");
        vars.emplace("OPENAI_BASE_URL", fake.openai_base_url());
        vars.emplace("OPENAI_API_KEY", "test-key");
        vars.emplace("AGENT_MODEL", "asistente-scenario");
        vars.emplace("PLATFORM_SQL_DB", (dir.path / "shop.db").string());
        vars.emplace("PLATFORM_SQLITE_MCP", AGENTIO_SQLITE_MCP);
        vars.emplace("PLATFORM_STORE", (dir.path / "threads.db").string());
        vars.emplace("PLATFORM_ROUTER", "keywords");
        auto config = platform::settings::from_environment(lookup_of(std::move(vars)));
        BOOST_TEST_REQUIRE(config.has_value(), (config ? "" : config.error()));
        provider.emplace(llm::make_provider(config->model, http));
        auto opened = agentio::sqlite::thread_store::open(config->store);
        BOOST_TEST_REQUIRE(opened.has_value());
        store = std::move(*opened);
        app.emplace(std::move(*config), http, *provider, store.get());
        auto started = asio::co_spawn(ioc, app->start(), asio::use_future);
        while(started.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
            ioc.run_one(); // the MCP client keeps the context busy: run until started
        started.get();
        // An index without a latent-semantic model searches by keywords only, and says so.
        for(auto const& w : app->warnings())
            BOOST_TEST((w.starts_with("rag_retrieval: ") && w.find("sparse") != std::string::npos), w);
        agentio::http::server_options so;
        so.error_body = agentio::chat_completions::write_error_body;
        server.emplace(ioc.get_executor(), app->routes(), so);
        ep = server->listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        server->start();
    }

    void scenario(std::string name, std::vector<testing::scripted_response> turns)
    {
        testing::scenario s;
        s.name = std::move(name);
        for(auto& t : turns)
            s.turns.push_back({std::move(t)});
        fake.add_scenario(std::move(s));
    }

    void run()
    {
        thread = std::thread([this] { ioc.run(); });
    }

    ~platform_server()
    {
        auto closed = asio::co_spawn(ioc, app->close(), asio::use_future);
        asio::post(ioc, [this] { server->stop(); });
        if(thread.joinable())
        {
            closed.wait_for(std::chrono::seconds(10));
            ioc.stop();
            thread.join();
        }
    }
};

testing::scripted_response calls(std::string tool, json::object input)
{
    testing::scripted_response r;
    testing::scripted_tool_call c;
    c.name = std::move(tool);
    c.input = std::move(input);
    r.tool_calls.push_back(std::move(c));
    return r;
}

testing::scripted_response says(std::string text)
{
    testing::scripted_response r;
    r.text = std::move(text);
    return r;
}

std::string question(std::string text, std::string extra = {})
{
    return R"({"model": "asistente", "messages": [{"role": "user", "content": ")" + text + R"("}])" +
        (extra.empty() ? "" : ", " + extra) + "}";
}

} // namespace

BOOST_AUTO_TEST_SUITE(platform_routing)

// The keyword router on the labelled requests: its accuracy, which the
// benchmark reports too, must not fall below what the rules reach today.
BOOST_AUTO_TEST_CASE(keyword_router_accuracy_on_the_labelled_set)
{
    std::ifstream in(AGENTIO_ROUTING_SET);
    std::stringstream text;
    text << in.rdbuf();
    auto const set = json::parse(text.str()).at("requests").as_array();
    BOOST_TEST_REQUIRE(set.size() >= 30u);
    auto const rules = platform::routing_rules();
    std::size_t right = 0;
    std::map<std::string, std::pair<int, int>> per_label;
    for(auto const& item : set)
    {
        auto const request = std::string(item.at("request").as_string());
        auto const label = std::string(item.at("label").as_string());
        auto const chosen = std::string(agentio::agent::to_string(agentio::agent::choose_by_keywords(request, rules)));
        per_label[label].second++;
        if(chosen == label)
        {
            ++right;
            per_label[label].first++;
        }
        else
            BOOST_TEST_MESSAGE("keyword router: '" << request << "' → " << chosen << ", labelled " << label);
    }
    double const accuracy = static_cast<double>(right) / static_cast<double>(set.size());
    BOOST_TEST_MESSAGE("keyword router accuracy: " << right << "/" << set.size());
    for(auto const& [label, counts] : per_label)
        BOOST_TEST_MESSAGE("  " << label << ": " << counts.first << "/" << counts.second);
    BOOST_TEST(accuracy >= 0.9);
}

BOOST_AUTO_TEST_CASE(the_model_classifies_first_and_the_keywords_catch_what_it_cannot)
{
    platform_server p({{"PLATFORM_ROUTER", "model"}, {"PLATFORM_ROUTER_MODEL", "router-scenario"}});
    auto label = says("plan_execute");
    label.when_user_message_contains = "ventas de cada año";
    testing::scenario router;
    router.name = "router-scenario";
    router.turns.push_back({label, says("Creo que react, o quizá tools.")});
    p.fake.add_scenario(router);
    p.run();
    auto choose = [&](std::string question) {
        agentio::chat_completions::request r;
        r.messages.push_back(llm::message::user(std::move(question)));
        auto f = asio::co_spawn(p.ioc, p.app->choose_strategy(r), asio::use_future);
        return f.get();
    };
    BOOST_TEST((choose("Dame las ventas de cada año") == agentio::agent::strategy::plan_execute)); // the model's label
    BOOST_TEST((choose("Averigua por qué bajaron") == agentio::agent::strategy::react));           // prose: keywords
    BOOST_TEST((choose("¿Cuánto es 2+2?") == agentio::agent::strategy::tools));
    BOOST_TEST(p.fake.requests().size() == 3u); // one classification call each
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(platform_api)

BOOST_AUTO_TEST_CASE(asistente_calculates_and_queries_through_its_tools)
{
    platform_server p;
    p.scenario("asistente-scenario",
        {calls("math_calc", {{"expression", "(1250*0.21)+sqrt(16)"}}),
            calls("sql_query", {{"query", "SELECT name, price FROM products WHERE price > 2 ORDER BY price"}}),
            says("Resultado: {{last_tool_result}}")});
    p.run();
    auto const r = test_http::post(p.ep, "/v1/chat/completions", question("¿Cuánto es (1250*0.21)+sqrt(16)?"));
    BOOST_TEST_REQUIRE(r.status == 200u, r.body);
    auto const message = r.json().at("choices").at(0).at("message");
    auto const content = std::string(message.at("content").as_string());
    BOOST_TEST(content.find("cuaderno") != std::string::npos, content); // the rows of the real query
    BOOST_TEST(content.find("mochila") != std::string::npos, content);
    BOOST_TEST(content.find("lápiz") == std::string::npos, content);
    auto const reasoning = std::string(message.at("reasoning_content").as_string());
    BOOST_TEST(reasoning.find("math_calc: (1250*0.21)+sqrt(16) = 266.5") != std::string::npos, reasoning);
    // The tool results went back to the model.
    auto const requests = p.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 3u);
    BOOST_TEST(agentio::to_json_text(requests[1].body.at("messages")).find("266.5") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(rag_retrieval_searches_the_index_as_it_was_built)
{
    platform_server p;
    p.scenario("asistente-scenario",
        {calls("rag_retrieval", {{"query", "vacación retribuida"}, {"top_k", 3}}), says("{{last_tool_result}}")});
    p.run();
    auto const r = test_http::post(p.ep, "/v1/chat/completions", question("¿Cuántos días de vacaciones tengo?"));
    BOOST_TEST_REQUIRE(r.status == 200u, r.body);
    auto const content = std::string(r.json().at("choices").at(0).at("message").at("content").as_string());
    // "vacación retribuida" finds "vacaciones ... retribuidas": the index's stemmer analysed the query.
    auto const passages = json::parse(content).as_array();
    BOOST_TEST_REQUIRE(!passages.empty());
    BOOST_TEST(passages[0].at("source").as_string() == "Estatuto de los Trabajadores, art. 38.1");
}

BOOST_AUTO_TEST_CASE(a_write_is_refused_by_the_sql_server_not_by_keywords)
{
    platform_server p;
    p.scenario("asistente-scenario",
        {calls("sql_query", {{"query", "DELETE FROM products"}}), says("{{last_tool_result}}")});
    p.run();
    auto const r = test_http::post(p.ep, "/v1/chat/completions", question("Borra los productos"));
    BOOST_TEST_REQUIRE(r.status == 200u, r.body);
    auto const reasoning = std::string(r.json().at("choices").at(0).at("message").at("reasoning_content").as_string());
    BOOST_TEST(reasoning.find("sql_query ✗") != std::string::npos, reasoning);
}

BOOST_AUTO_TEST_CASE(jwt_users_and_their_sessions)
{
    std::string const secret = "una-clave-compartida-de-al-menos-32-bytes";
    platform_server p({{"PLATFORM_JWT_SECRET", secret}, {"PLATFORM_JWT_AUDIENCE", "agentio-platform"}});
    p.scenario("asistente-scenario", {says("Hola.")});
    p.run();
    namespace jwt = agentio::http::jwt;
    auto key = jwt::signing_key::hs256(secret);
    BOOST_TEST_REQUIRE(key.has_value());
    auto const now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    auto token = [&](std::string sub, std::int64_t expires_in, std::string audience = "agentio-platform") {
        auto t = jwt::sign(json::object{{"sub", sub}, {"exp", now + expires_in}, {"aud", audience}}, *key);
        BOOST_TEST_REQUIRE(t.has_value());
        return *t;
    };
    auto ask = [&](std::string const& bearer, std::string const& body) {
        boost::beast::http::fields extra;
        if(!bearer.empty())
            extra.set(boost::beast::http::field::authorization, "Bearer " + bearer);
        return test_http::request(p.ep, boost::beast::http::verb::post, "/v1/chat/completions", body,
            "application/json", extra);
    };
    auto const none = ask("", question("hola"));
    BOOST_TEST(none.status == 401u);
    BOOST_TEST(none.json().at("error").at("code").as_string() == "missing_token");
    BOOST_TEST(ask(token("ana", -120), question("hola")).status == 401u); // expired, beyond the leeway
    BOOST_TEST(ask(token("ana", 600, "otra"), question("hola")).status == 401u);
    BOOST_TEST(ask(token("ana", 600) + "x", question("hola")).status == 401u);
    auto const ok = ask(token("ana", 600), question("hola", R"("session_id": "conversacion-1")"));
    BOOST_TEST_REQUIRE(ok.status == 200u, ok.body);
    auto const again = ask(token("ana", 600), question("¿y ahora?", R"("session_id": "conversacion-1")"));
    BOOST_TEST(again.status == 200u);
    BOOST_TEST(p.fake.requests().back().body.at("messages").as_array().size() == 4u); // system + 3
    auto const stranger = ask(token("eva", 600), question("hola", R"("session_id": "conversacion-1")"));
    BOOST_TEST(stranger.status == 404u);
    BOOST_TEST(test_http::get(p.ep, "/v1/models").status == 401u);
}

// A session longer than the model's window (the fake enforces it as the API does) keeps answering: within the
// 40-message memory, the older turns are summarized and the summary kept in the session.
BOOST_AUTO_TEST_CASE(a_session_longer_than_the_window_keeps_answering)
{
    platform_server p(std::map<std::string, std::string>{{"AGENT_CONTEXT_WINDOW", "12000"}});
    testing::scenario sc;
    sc.name = "asistente-scenario";
    sc.context_window = 12000;
    auto const summary = agentio_test::summary_response("RESUMEN: el usuario hizo preguntas largas.");
    testing::scripted_response answer;
    answer.text = "Respuesta: " + std::string(3000, 'r');
    sc.turns.push_back({summary, answer});
    p.fake.add_scenario(sc);
    p.run();
    for(int turn = 0; turn < 10; ++turn)
    {
        auto const r = test_http::post(p.ep, "/v1/chat/completions",
            question("Pregunta " + std::to_string(turn) + ": " + std::string(3000, 'p'), R"("session_id": "larga")"));
        BOOST_TEST_REQUIRE(r.status == 200u, "turn " << turn << ": " << r.body);
    }
    auto const requests = p.fake.requests();
    std::size_t const summarizing = agentio_test::summary_requests(requests);
    BOOST_TEST(summarizing >= 1u);
    BOOST_TEST(requests.size() - summarizing == 10u); // no refusal
    auto const last = agentio::to_json_text(requests.back().body);
    BOOST_TEST(last.find("RESUMEN: el usuario hizo preguntas largas.") != std::string::npos);
    BOOST_TEST(last.find("Pregunta 9") != std::string::npos);
    BOOST_TEST(last.find("Pregunta 0:") == std::string::npos);
    auto const kept = asio::co_spawn(p.ioc, p.store->latest_summary("larga"), asio::use_future).get();
    BOOST_TEST_REQUIRE(kept.has_value());
    BOOST_TEST(kept->has_value());
    auto const items = asio::co_spawn(p.ioc, p.store->load_items("larga"), asio::use_future).get();
    BOOST_TEST_REQUIRE(items.has_value());
    BOOST_TEST(items->size() == 20u); // every question and answer stays
}

// A sibling application's OpenAI-compatible API, as agentio-facturas serves one: here a model that echoes.
struct echo_model final : agentio::chat_completions::model
{
    agentio::chat_completions::model_card about{"facturas"};
    agentio::chat_completions::model_card const& card() const noexcept override { return about; }
    asio::awaitable<void> complete(agentio::chat_completions::request r, agentio::chat_completions::call_context const&,
        agentio::chat_completions::output_sink sink) override
    {
        sink(agentio::chat_completions::reasoning_delta{"SQL: SELECT 1\n"});
        sink(agentio::chat_completions::content_delta{"eco: " + r.messages.back().text()});
        sink(agentio::chat_completions::finished{agentio::chat_completions::finish_reason::stop, {3, 2}});
        co_return;
    }
};

BOOST_AUTO_TEST_CASE(sibling_agents_through_their_own_api)
{
    asio::io_context sibling_ioc;
    agentio::chat_completions::endpoint sibling_api;
    sibling_api.add(std::make_shared<echo_model>());
    agentio::http::router<> sibling_routes;
    sibling_api.add_routes(sibling_routes);
    agentio::http::server sibling(sibling_ioc.get_executor(), std::move(sibling_routes));
    auto const sibling_ep = sibling.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    sibling.start();
    std::thread sibling_thread([&] { sibling_ioc.run(); });
    {
        platform_server p({{"PLATFORM_AGENT_FACTURAS",
            "http://127.0.0.1:" + std::to_string(sibling_ep.port()) + "/v1"}});
        p.run();
        auto const models = test_http::get(p.ep, "/v1/models").json();
        BOOST_TEST(models.at("data").as_array().size() == 2u);
        BOOST_TEST(models.at("data").at(1).at("id").as_string() == "facturas");
        auto const r = test_http::post(p.ep, "/v1/chat/completions",
            R"({"model": "facturas", "messages": [{"role": "user", "content": "¿Cuánto se facturó?"}]})");
        BOOST_TEST_REQUIRE(r.status == 200u, r.body);
        auto const reply = r.json();
        auto const& message = reply.at("choices").at(0).at("message");
        BOOST_TEST(message.at("content").as_string() == "eco: ¿Cuánto se facturó?");
        // What the sibling streamed as its reasoning reaches the platform's client.
        BOOST_TEST(message.at("reasoning_content").as_string() == "SQL: SELECT 1\n");
        BOOST_TEST(r.json().at("usage").at("total_tokens").as_int64() == 5);
    }
    asio::post(sibling_ioc, [&] {
        sibling.stop();
        sibling_ioc.stop();
    });
    sibling_thread.join();
}

BOOST_AUTO_TEST_CASE(models_health_and_bad_requests)
{
    platform_server p;
    p.run();
    auto const models = test_http::get(p.ep, "/v1/models").json();
    BOOST_TEST(models.at("data").at(0).at("id").as_string() == "asistente");
    auto const unknown = test_http::post(p.ep, "/v1/chat/completions",
        R"({"model": "gpt-4o", "messages": [{"role": "user", "content": "hola"}]})");
    BOOST_TEST(unknown.status == 404u);
    BOOST_TEST(unknown.json().at("error").at("message").as_string().find("asistente") != std::string::npos);
    auto const empty = test_http::post(p.ep, "/v1/chat/completions", R"({"model": "asistente", "messages": []})");
    BOOST_TEST(empty.status == 400u);
    BOOST_TEST(empty.json().at("error").at("param").as_string() == "messages");
    // A body over the limit is refused from its header, in the same error shape.
    auto const oversized = test_http::raw(p.ep,
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 20000000\r\n\r\n");
    BOOST_TEST(oversized.starts_with("HTTP/1.1 413"), oversized);
    BOOST_TEST(oversized.find(R"("type":"invalid_request_error")") != std::string::npos, oversized);
    auto const health = test_http::get(p.ep, "/health");
    BOOST_TEST(health.status == 200u);
    BOOST_TEST(health.json().at("status").as_string() == "ok");
    BOOST_TEST(health.json().at("models").at(0).as_string() == "asistente");
    BOOST_TEST(health.json().at("provider").as_object().contains("reachable"));
}

BOOST_AUTO_TEST_SUITE_END()
