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

#include <agentio/app/telemetry.hpp>
#include <agentio/sandbox.hpp>

#include <agentio/http/jwt.hpp>
#include <agentio/http/server.hpp>
#include <agentio/llm/environment.hpp>
#include <agentio/retrieval.hpp>
#include <agentio/threads/sqlite_store.hpp>
#include <agentio/testing/fake_llm.hpp>

#include "test_http.hpp"
#include "../../../tests/store/postgres_fixture.hpp"
#include <agentio/postgres.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <random>
#include <thread>

#include <unistd.h>
#include "test_paths.hpp"
#include "documents.hpp"

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

    // The web tools' variables, Spanish by default.
    BOOST_TEST(s->web.wikipedia.default_language == "es");
    BOOST_TEST(s->web.weather.texts.weather_3 == "cubierto");
    auto web = platform::settings::from_environment(lookup_of({{"TAVILY_API_KEY", "tvly-1"},
        {"WEB_SEARCH_FALLBACK_URL", "off"}, {"PLATFORM_WIKIPEDIA_LANGUAGE", "eu"}}));
    BOOST_TEST_REQUIRE(web.has_value());
    BOOST_TEST(web->web.web_search.tavily_api_key == "tvly-1");
    BOOST_TEST(web->web.web_search.fallback_url.empty());
    BOOST_TEST(web->web.wikipedia.default_language == "eu");
    auto bad_url = platform::settings::from_environment(lookup_of({{"OPEN_METEO_FORECAST_URL", "api.open-meteo.com"}}));
    BOOST_TEST(bad_url.error().starts_with("OPEN_METEO_FORECAST_URL: expected"));
}

BOOST_AUTO_TEST_CASE(the_env_template_names_every_variable_read)
{
    // Every name settings.cpp and the library's readers it calls look up is in the template, with its default.
    std::ifstream in(agentio_test::source_dir() + "/reference_server/platform/src/settings.cpp");
    std::string const source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    BOOST_TEST_REQUIRE(!source.empty());
    std::set<std::string> read = {"AGENT_PROVIDER", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_VERSION",
        "OPENAI_API_KEY", "OPENAI_BASE_URL", "AGENT_MODEL", "AGENT_CONTEXT_WINDOW", "AGENT_CONTEXT_POLICY",
        "AGENT_COUNT_TOKENS", "AGENT_BUSY_POLICY", "TAVILY_API_KEY", "TAVILY_BASE_URL", "WEB_SEARCH_FALLBACK_URL",
        "WIKIPEDIA_API_URL", "OPEN_METEO_GEOCODING_URL", "OPEN_METEO_FORECAST_URL"};
    for(std::size_t at = source.find("\"PLATFORM_"); at != std::string::npos; at = source.find("\"PLATFORM_", at + 1))
    {
        auto end = at + 1;
        while(end < source.size() &&
            (std::isupper(static_cast<unsigned char>(source[end])) ||
                std::isdigit(static_cast<unsigned char>(source[end])) || source[end] == '_'))
            ++end;
        read.insert(source.substr(at + 1, end - at - 1));
    }
    std::set<std::string> documented;
    for(auto const& v : platform::documented_variables())
        documented.insert(std::string(v.name));
    for(auto const& name : read)
        BOOST_TEST(documented.contains(name), name << " is read but not in env-template");
    auto const text = platform::env_template();
    BOOST_TEST(text.find("\nPLATFORM_STORE=data/platform_threads.db\n") != std::string::npos);
    BOOST_TEST(text.find("\n# TAVILY_API_KEY=\n") != std::string::npos); // no default: commented out
    BOOST_TEST(text.find("\nWEB_SEARCH_FALLBACK_URL=https://html.duckduckgo.com/html/\n") != std::string::npos);
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

// The tools that run in the sandbox, called as the orchestrator calls them.
struct sandboxed_tools
{
    asio::io_context ioc;
    agentio::sandbox::runner runner{ioc.get_executor()};
    platform::tool_resources resources;

    sandboxed_tools() { resources.sandbox = &runner; }

    template<class Tool>
    agentio::tool_result call(Tool tool, typename Tool::args a)
    {
        agentio::tool_context ctx;
        ioc.restart();
        auto done = asio::co_spawn(ioc, tool(std::move(a), ctx), asio::use_future);
        ioc.run();
        return done.get();
    }

    agentio::tool_result math(std::string expression, std::string operation, std::string variable = "")
    {
        return call(platform::math_calc{{&resources}},
            {std::move(expression), std::move(operation), std::move(variable)});
    }

    agentio::tool_result python(std::string code)
    {
        return call(platform::python_code{{&resources}}, {std::move(code), {}});
    }
};

std::string text_of(agentio::tool_result const& r)
{
    std::string out;
    for(auto const& c : r.content)
        if(auto const* t = std::get_if<agentio::text_content>(&c))
            out += t->text;
    return out;
}

BOOST_AUTO_TEST_CASE(math_calc_does_algebra_and_calculus_with_sympy)
{
    sandboxed_tools t;
    auto result_of = [&](std::string expression, std::string operation, std::string variable = "") {
        auto const r = t.math(expression, operation, variable);
        BOOST_TEST_INFO(operation << " " << expression << ": " << text_of(r));
        BOOST_TEST_REQUIRE(!r.is_error);
        return std::string(r.structured->at("result").as_string());
    };
    BOOST_TEST(result_of("x^2 - 5x + 6 = 0", "solve") == "[2, 3]");
    BOOST_TEST(result_of("x + y = 3; x - y = 1", "solve", "x,y") == "[{x: 2, y: 1}]");
    BOOST_TEST(result_of("x^2 - 1", "factor") == "(x - 1)*(x + 1)");
    BOOST_TEST(result_of("(x + 1)^2", "expand") == "x**2 + 2*x + 1");
    BOOST_TEST(result_of("sin(x)^2 + cos(x)^2", "simplify") == "1");
    BOOST_TEST(result_of("x*sin(x)", "diff") == "x*cos(x) + sin(x)");
    BOOST_TEST(result_of("x^3", "diff", "x,2") == "6*x");
    BOOST_TEST(result_of("x^2", "integrate", "x,0,3") == "9");
    BOOST_TEST(result_of("1/x", "integrate") == "log(x)");
    BOOST_TEST(result_of("sin(x)/x", "limit", "x->0") == "1");
    BOOST_TEST(result_of("(1 + 1/n)^n", "limit", "n->oo") == "E");
    BOOST_TEST(result_of("exp(x)", "series", "x->0") == "1 + x + x**2/2 + x**3/6 + x**4/24 + x**5/120 + O(x**6)");
    // What muParser does not know, SymPy evaluates exactly.
    BOOST_TEST(result_of("factorial(20)", "evaluate") == "2432902008176640000");
    auto const latex = t.math("sqrt(x)", "diff");
    BOOST_TEST(latex.structured->at("latex").as_string() == "\\frac{1}{2 \\sqrt{x}}");
    // The numeric path stays muParser's, in process.
    auto const numeric = t.math("(1250*0.21)+sqrt(16)", "evaluate");
    BOOST_TEST(numeric.structured->at("result").as_double() == 266.5);

    auto const no_point = t.math("sin(x)/x", "limit", "x");
    BOOST_TEST(no_point.is_error);
    BOOST_TEST(text_of(no_point).find("a limit needs its point") != std::string::npos, text_of(no_point));
    auto const two_symbols = t.math("x*y", "diff");
    BOOST_TEST(text_of(two_symbols).find("say which variable: the expression has x, y") != std::string::npos);
    auto const garbage = t.math("x +* 2", "simplify");
    BOOST_TEST(garbage.is_error);
    BOOST_TEST(text_of(garbage).starts_with("Cannot simplify of 'x +* 2'"), text_of(garbage));
    // Python smuggled into an expression runs, if at all, inside the sandbox: no file of the host is there.
    auto const smuggled = t.math("__import__('os').listdir('/root')", "simplify");
    BOOST_TEST(smuggled.is_error, text_of(smuggled));
}

BOOST_AUTO_TEST_CASE(python_code_reports_output_value_errors_and_limits)
{
    sandboxed_tools t;
    t.resources.code_limits.wall_time = std::chrono::seconds(2);
    auto const ok = t.python("import statistics\nprint('mean of three')\nstatistics.mean([2, 4, 9])");
    BOOST_TEST_REQUIRE(!ok.is_error, text_of(ok));
    BOOST_TEST(ok.structured->at("status").as_string() == "completed");
    BOOST_TEST(ok.structured->at("stdout").as_string() == "mean of three\n");
    BOOST_TEST(ok.structured->at("value").as_string() == "5");
    BOOST_TEST(ok.structured->at("exit_status").as_int64() == 0);
    BOOST_TEST(ok.structured->at("duration_ms").as_int64() >= 0);

    auto const raised = t.python("x = [1, 2]\nx[5]");
    BOOST_TEST(raised.is_error);
    BOOST_TEST(raised.structured->at("status").as_string() == "raised IndexError: list index out of range");
    BOOST_TEST(raised.structured->at("stderr").as_string().find("line 2") != std::string::npos);

    auto const slow = t.python("import time\ntime.sleep(60)");
    BOOST_TEST(slow.is_error);
    BOOST_TEST(slow.structured->at("status").as_string() == "was stopped after 2 s (its wall-clock limit)");
    BOOST_TEST(slow.structured->at("exit_status").is_null());

    // Bytes that are not UTF-8 reach the model replaced, never as invalid JSON.
    auto const binary = t.python("import sys\nsys.stdout.buffer.write(b'ok \\xff\\xfe end')");
    BOOST_TEST(binary.structured->at("stdout").as_string() == "ok \xEF\xBF\xBD\xEF\xBF\xBD end");

    platform::tool_resources none;
    none.sandbox_missing = "bubblewrap is missing";
    auto const refused = t.call(platform::python_code{{&none}}, {"print(1)", {}});
    BOOST_TEST(refused.is_error);
    BOOST_TEST(text_of(refused) ==
        "Code cannot run on this server (bubblewrap is missing): answer without running code.");
    auto const files_without_store = t.python("print(1)");
    BOOST_TEST(!files_without_store.is_error);
    auto const asks_for_files = t.call(platform::python_code{{&t.resources}}, {"print(1)", {"file-abc"}});
    BOOST_TEST(asks_for_files.is_error);
    BOOST_TEST(text_of(asks_for_files).find("keeps no uploaded files") != std::string::npos, text_of(asks_for_files));
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
    std::optional<agentio::app::telemetry> seen;
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
        vars.emplace("PLATFORM_UPLOADS", (dir.path / "uploads").string());
        vars.emplace("PLATFORM_DOCUMENTS_INDEX", (dir.path / "documents.db").string());
        vars.emplace("AGENTIO_LOG_LEVEL", "off");
        auto config = platform::settings::from_environment(lookup_of(std::move(vars)));
        BOOST_TEST_REQUIRE(config.has_value(), (config ? "" : config.error()));
        bool const authenticates = config->authenticates();
        provider.emplace(llm::make_provider(config->model, http));
        auto opened = agentio::sqlite::thread_store::open(config->store);
        BOOST_TEST_REQUIRE(opened.has_value());
        store = std::move(*opened);
        // AGENTIO_LOG_LEVEL=off unless a test asks for a log
        seen.emplace(ioc.get_executor(), agentio::app::telemetry_settings{config->log, config->trace});
        app.emplace(std::move(*config), http, *provider, store.get(), *seen);
        auto started = asio::co_spawn(ioc, app->start(), asio::use_future);
        while(started.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
            ioc.run_one(); // the MCP client keeps the context busy: run until started
        started.get();
        // An index without a latent-semantic model searches by keywords only, and says so; without a JWT key,
        // the platform says loudly that nobody is authenticated.
        bool announced = false;
        for(auto const& w : app->warnings())
        {
            if(w.starts_with("WARNING: no PLATFORM_JWT_SECRET"))
            {
                announced = true;
                continue;
            }
            if(w.starts_with("PLATFORM_A2A_AGENTS: caido: the agent card at http://127.0.0.1:1/"))
                continue; // the remote agent a test names where nobody listens
            BOOST_TEST((w.starts_with("rag_retrieval: ") && w.find("sparse") != std::string::npos), w);
        }
        BOOST_TEST(announced == !authenticates);
        agentio::http::server_options so;
        so.error_body = agentio::chat_completions::write_error_body;
        so.max_body_bytes_for = [this](auto const& head) { return app->body_limit(head); };
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
    // Plain chat is decided by the words alone: no classification call.
    BOOST_TEST((choose("¡Muchas gracias!") == agentio::agent::strategy::chat));
    BOOST_TEST((choose("Hola, ¿qué tiempo hace en Bilbao?") != agentio::agent::strategy::chat));
    BOOST_TEST(p.fake.requests().size() == 4u);
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

    // A request without a session starts one, named in X-Session-Id; the caller lists, reads and deletes theirs.
    auto const started = ask(token("ana", 600), question("gracias"));
    BOOST_TEST_REQUIRE(started.status == 200u, started.body);
    auto const id = std::string(started.headers["X-Session-Id"]);
    BOOST_TEST(id.size() == 36u, id);
    auto as = [&](std::string const& user, boost::beast::http::verb method, std::string const& target) {
        boost::beast::http::fields extra;
        extra.set(boost::beast::http::field::authorization, "Bearer " + token(user, 600));
        return test_http::request(p.ep, method, target, {}, "application/json", extra);
    };
    using verb = boost::beast::http::verb;
    auto const listed = as("ana", verb::get, "/v1/sessions");
    BOOST_TEST_REQUIRE(listed.status == 200u, listed.body);
    auto const data = listed.json().at("data").as_array();
    BOOST_TEST_REQUIRE(data.size() == 2u);
    BOOST_TEST(data[0].at("id").as_string() == id); // newest first
    BOOST_TEST(data[1].at("id").as_string() == "conversacion-1");
    BOOST_TEST(data[0].at("model").as_string() == "asistente");
    BOOST_TEST(as("eva", verb::get, "/v1/sessions").json().at("data").as_array().empty());
    BOOST_TEST(test_http::get(p.ep, "/v1/sessions").status == 401u);
    auto const read = as("ana", verb::get, "/v1/sessions/conversacion-1?limit=2");
    BOOST_TEST_REQUIRE(read.status == 200u, read.body);
    auto const messages = read.json().at("messages").as_array();
    BOOST_TEST_REQUIRE(messages.size() == 2u);
    BOOST_TEST(messages[0].at("content").as_string() == "¿y ahora?");
    BOOST_TEST(messages[1].at("role").as_string() == "assistant");
    BOOST_TEST(read.json().at("has_more").as_bool());
    BOOST_TEST(as("eva", verb::get, "/v1/sessions/conversacion-1").status == 404u);
    BOOST_TEST(as("eva", verb::delete_, "/v1/sessions/conversacion-1").status == 404u);
    BOOST_TEST(as("ana", verb::delete_, "/v1/sessions/conversacion-1").status == 200u);
    BOOST_TEST(as("ana", verb::get, "/v1/sessions/conversacion-1").status == 404u);
}

// The log: a JSON line per completion and per step, with the user and the session; never the provider's key.
BOOST_AUTO_TEST_CASE(completions_and_steps_are_logged_as_json_lines)
{
    temp_dir logs;
    auto const file = logs.path / "platform.log";
    {
        platform_server p({{"AGENTIO_LOG_LEVEL", "info"}, {"AGENTIO_LOG_FORMAT", "json"},
            {"AGENTIO_LOG_FILE", file.string()}});
        p.scenario("asistente-scenario", {says("¡Hola!")});
        p.run();
        auto const r = test_http::post(p.ep, "/v1/chat/completions", question("Hola"));
        BOOST_TEST_REQUIRE(r.status == 200u, r.body);
        p.seen->log().flush();
    }
    std::ifstream in(file);
    std::vector<json::object> lines;
    for(std::string line; std::getline(in, line);)
    {
        BOOST_TEST(line.find("test-key") == std::string::npos, line); // OPENAI_API_KEY
        lines.push_back(json::parse(line).as_object());
    }
    auto find = [&](std::string_view event) -> json::object const* {
        for(auto const& l : lines)
            if(l.at("event").as_string() == event)
                return &l;
        return nullptr;
    };
    auto const* completion = find("chat.completion");
    BOOST_TEST_REQUIRE(completion != nullptr);
    BOOST_TEST(completion->at("program").as_string() == "agentio-platform");
    BOOST_TEST(completion->at("model").as_string() == "asistente");
    BOOST_TEST(completion->at("outcome").as_string() == "stop");
    BOOST_TEST(completion->at("session").as_string().size() == 36u); // the session the request started
    BOOST_TEST(completion->at("duration_ms").as_double() > 0.0);
    auto const* step = find("agent.step");
    BOOST_TEST_REQUIRE(step != nullptr);
    BOOST_TEST(step->at("step").as_string() == "strategy=chat (chosen)");
    auto const* request = find("http.request");
    BOOST_TEST_REQUIRE(request != nullptr);
    BOOST_TEST(request->at("method").as_string() == "POST");
    BOOST_TEST(request->at("route").as_string() == "/v1/chat/completions");
    BOOST_TEST(request->at("status").as_int64() == 200);
}

// GET /metrics: the completions by model and outcome, their tokens and duration, and the process's own.
BOOST_AUTO_TEST_CASE(metrics_count_completions_for_prometheus)
{
    platform_server p;
    p.scenario("asistente-scenario", {says("¡Hola!")});
    p.run();
    for(int i = 0; i < 2; ++i)
        BOOST_TEST_REQUIRE(test_http::post(p.ep, "/v1/chat/completions", question("Hola")).status == 200u);
    auto const scraped = test_http::get(p.ep, "/metrics");
    BOOST_TEST_REQUIRE(scraped.status == 200u);
    BOOST_TEST(scraped.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8");
    auto const& text = scraped.body;
    BOOST_TEST(text.find("agentio_chat_completions_total{model=\"asistente\",outcome=\"stop\",stream=\"false\"} 2\n") !=
            std::string::npos,
        text);
    // What the agent did: its runs (a greeting is plain chat, the router's choice) and its model calls (the
    // provider's name, the model asked for).
    BOOST_TEST(text.find("agentio_agent_runs_total{strategy=\"chat\",outcome=\"completed\"} 2\n") != std::string::npos,
        text);
    BOOST_TEST(
        text.find("agentio_model_calls_total{provider=\"openai\",model=\"asistente-scenario\",outcome=\"ok\"} 2\n") !=
        std::string::npos);
    BOOST_TEST(text.find("agentio_agent_runs_active{strategy=\"chat\"} 0\n") != std::string::npos);
    BOOST_TEST(text.find("\nagentio_agent_runs_queued 0\n") != std::string::npos);
    BOOST_TEST(text.find("\nagentio_sse_streams_open 0\n") != std::string::npos);
    // The sandbox's runs (none yet).
    BOOST_TEST(text.find("\nagentio_sandbox_runs_active 0\n") != std::string::npos, text);
    BOOST_TEST(text.find("\nagentio_sandbox_runs_total{ending=\"exited\"} 0\n") != std::string::npos);
    BOOST_TEST(text.find("agentio_chat_completion_duration_seconds_count{model=\"asistente\",stream=\"false\"} 2\n") !=
        std::string::npos);
    BOOST_TEST(text.find("agentio_chat_completion_tokens_total{model=\"asistente\",type=\"input\"}") !=
        std::string::npos);
    BOOST_TEST(text.find("\nprocess_resident_memory_bytes ") != std::string::npos);
    // Requests by route pattern and status: a file's id is not a label.
    BOOST_TEST(test_http::get(p.ep, "/v1/files/file-unknown0000").status == 404u);
    auto const again = test_http::get(p.ep, "/metrics").body;
    BOOST_TEST(
        again.find("agentio_http_requests_total{method=\"POST\",route=\"/v1/chat/completions\",status=\"200\"} 2\n") !=
            std::string::npos,
        again);
    BOOST_TEST(again.find("agentio_http_requests_total{method=\"GET\",route=\"/v1/files/{id}\",status=\"404\"} 1\n") !=
        std::string::npos);
    BOOST_TEST(again.find("file-unknown0000") == std::string::npos);
    BOOST_TEST(text.find("session") == std::string::npos); // no label per session or user
}

// A message that needs no tool is one model call without the tool menu; a question is the tool loop.
BOOST_AUTO_TEST_CASE(plain_chat_is_one_call_without_tools)
{
    platform_server p;
    p.scenario("asistente-scenario", {says("¡Hola! ¿En qué puedo ayudarte?")});
    p.run();
    auto const hello = test_http::post(p.ep, "/v1/chat/completions", question("¡Hola!"));
    BOOST_TEST_REQUIRE(hello.status == 200u, hello.body);
    auto const message = hello.json().at("choices").at(0).at("message");
    BOOST_TEST(message.at("content").as_string() == "¡Hola! ¿En qué puedo ayudarte?");
    BOOST_TEST(message.at("reasoning_content").as_string().starts_with("strategy: chat\n"));
    BOOST_TEST_REQUIRE(p.fake.requests().size() == 1u);
    auto const sent = p.fake.requests().back().body;
    BOOST_TEST(!sent.as_object().contains("tools"));
    BOOST_TEST(sent.at("messages").at(0).at("content").as_string().find("needs no tool") != std::string::npos);
    auto const asked = test_http::post(p.ep, "/v1/chat/completions", question("¿Cuánto es 2+2?"));
    BOOST_TEST_REQUIRE(asked.status == 200u, asked.body);
    BOOST_TEST(p.fake.requests().back().body.at("tools").as_array().size() == 8u); // the whole catalog
    // A client may ask for plain chat; with its own tools it may not.
    auto const forced = test_http::post(p.ep, "/v1/chat/completions",
        question("Dame el total facturado en 2024", R"("agent_type": "chat")"));
    BOOST_TEST_REQUIRE(forced.status == 200u, forced.body);
    BOOST_TEST(!p.fake.requests().back().body.as_object().contains("tools"));
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

BOOST_AUTO_TEST_CASE(remote_a2a_agents_as_models_and_as_the_asistentes_tools)
{
    // The remote agent: another platform, reached over A2A only (its card, its JSON-RPC).
    platform_server remote;
    remote.scenario("asistente-scenario", {says("Se facturaron 1.234 € en 2024.")});
    remote.run();
    std::string const url = "http://127.0.0.1:" + std::to_string(remote.ep.port());
    BOOST_TEST(!platform::settings::from_environment(lookup_of({{"PLATFORM_A2A_AGENTS", "Mal Nombre=" + url}})));
    BOOST_TEST(!platform::settings::from_environment(lookup_of({{"PLATFORM_A2A_AGENTS", "remoto=ftp://x"}})));
    BOOST_TEST(!platform::settings::from_environment(lookup_of({{"PLATFORM_A2A_AGENTS", "asistente=" + url}})));

    platform_server p({{"PLATFORM_A2A_AGENTS", "remoto=" + url + ", " + "caido=http://127.0.0.1:1"}});
    p.scenario("asistente-scenario",
        {calls("remoto", {{"message", "¿Cuánto se facturó en 2024?"}}), says("Según el remoto: {{last_tool_result}}")});
    p.run();
    auto const models = test_http::get(p.ep, "/v1/models").json();
    std::vector<std::string> ids;
    for(auto const& m : models.at("data").as_array())
        ids.emplace_back(m.at("id").as_string());
    std::sort(ids.begin(), ids.end());
    BOOST_TEST((ids == std::vector<std::string>{"asistente", "caido", "remoto"}), agentio::to_json_text(models));

    // As a model: the remote's answer, streamed through.
    auto const direct = test_http::post(p.ep, "/v1/chat/completions",
        R"({"model": "remoto", "messages": [{"role": "user", "content": "¿Cuánto se facturó?"}]})");
    BOOST_TEST_REQUIRE(direct.status == 200u, direct.body);
    BOOST_TEST(direct.json().at("choices").at(0).at("message").at("content").as_string() ==
        "Se facturaron 1.234 € en 2024.");
    BOOST_TEST(remote.fake.requests().size() == 1u);
    // One that cannot be reached: the provider's error shape, naming it.
    auto const down = test_http::post(p.ep, "/v1/chat/completions",
        R"({"model": "caido", "messages": [{"role": "user", "content": "Hola"}]})");
    BOOST_TEST(down.status == 502u, down.body);
    BOOST_TEST(down.body.find("127.0.0.1:1") != std::string::npos, down.body);

    // As the asistente's tool: called by name, its answer read back by the model.
    auto const r = test_http::post(p.ep, "/v1/chat/completions", question("¿Cuánto es lo facturado según el remoto?"));
    BOOST_TEST_REQUIRE(r.status == 200u, r.body);
    auto const content = std::string(r.json().at("choices").at(0).at("message").at("content").as_string());
    BOOST_TEST(content.find("Se facturaron 1.234 € en 2024.") != std::string::npos, content);
    BOOST_TEST(remote.fake.requests().size() == 2u);
    auto const asked = agentio::to_json_text(remote.fake.requests().back().body.at("messages"));
    BOOST_TEST(asked.find("¿Cuánto se facturó en 2024?") != std::string::npos, asked);
}

namespace {

std::string form_body(std::string const& filename, std::string const& content, std::string const& purpose = "user_data")
{
    std::string body = "--frontera\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + filename +
        "\"\r\nContent-Type: application/octet-stream\r\n\r\n" + content + "\r\n";
    if(!purpose.empty())
        body += "--frontera\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n" + purpose + "\r\n";
    return body + "--frontera--\r\n";
}

test_http::reply upload(asio::ip::tcp::endpoint ep, std::string const& body,
    boost::beast::http::fields const& extra = {})
{
    return test_http::request(ep, boost::beast::http::verb::post, "/v1/files", body,
        "multipart/form-data; boundary=frontera", extra);
}

std::size_t files_in(std::filesystem::path const& folder)
{
    std::size_t n = 0;
    for([[maybe_unused]] auto const& e : std::filesystem::directory_iterator(folder))
        ++n;
    return n;
}

} // namespace

BOOST_AUTO_TEST_CASE(asistente_runs_python_and_symbolic_math_in_the_sandbox)
{
    platform_server p;
    p.scenario("asistente-scenario",
        {calls("python_code", {{"code", "import statistics\nstatistics.median([3, 1, 4, 1, 5])"}}),
            calls("math_calc", {{"expression", "x^2 - 5x + 6 = 0"}, {"operation", "solve"}}),
            says("Mediana y raíces: {{last_tool_result}}")});
    p.run();
    auto const r = test_http::post(p.ep, "/v1/chat/completions", question("Calcula la mediana y resuelve la ecuación"));
    BOOST_TEST_REQUIRE(r.status == 200u, r.body);
    auto const message = r.json().at("choices").at(0).at("message");
    auto const content = std::string(message.at("content").as_string());
    BOOST_TEST(content.find(R"("result":"[2, 3]")") != std::string::npos, content);
    auto const requests = p.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 3u);
    auto const python_result = agentio::to_json_text(requests[1].body.at("messages"));
    BOOST_TEST(python_result.find(R"(\"value\":\"3\")") != std::string::npos, python_result);
    // The model was offered the new tools, described.
    auto const tools = agentio::to_json_text(requests[0].body.at("tools"));
    BOOST_TEST(tools.find("python_code") != std::string::npos);
    BOOST_TEST(tools.find("\"solve\"") != std::string::npos);
}

// Each new tool through ReAct and plan-and-execute, as through the tool loop above and in the tests below: the
// model's call reaches the tool, and what the tool found reaches the model.
BOOST_AUTO_TEST_CASE(react_and_plan_execute_reach_every_new_tool)
{
    platform_server p;
    p.run();
    auto const data = upload(p.ep, form_body("ventas.csv", "region,amount\nnorth,0.1\nnorth,0.2\n"));
    BOOST_TEST_REQUIRE(data.status == 200u, data.body);
    auto const data_id = std::string(data.json().at("id").as_string());
    auto const doc = upload(p.ep, form_body("politica.md", "# Viajes\nLas dietas de viaje son de 53 euros diarios.\n"));
    BOOST_TEST_REQUIRE(doc.status == 200u, doc.body);

    struct case_of
    {
        std::string tool;
        json::object input;
        std::string found; // in the tool's result, as the model reads it (JSON-escaped once in the request)
    };
    std::vector<case_of> const cases = {
        {"python_code", {{"code", "print(sum(range(101)))"}}, R"(\"stdout\":\"5050\\n\")"},
        {"math_calc", {{"expression", "x^2 - 5x + 6 = 0"}, {"operation", "solve"}}, R"(\"result\":\"[2, 3]\")"},
        {"data_analysis", {{"file_id", data_id}, {"operation", "sum"}, {"field", "amount"}}, R"(\"result\":\"0.3\")"},
        {"rag_retrieval", {{"query", "dietas de viaje"}, {"top_k", 3}}, "politica.md, section Viajes"}};
    for(auto const& c : cases)
    {
        BOOST_TEST_CONTEXT(c.tool)
        {
            // ReAct: the text protocol.
            auto act = says("Thought: uso la herramienta.\nAction: " + c.tool +
                "\nAction Input: " + json::serialize(c.input));
            act.when_user_message_contains = "Question:";
            auto answer = says("Thought: ya está.\nFinal Answer: Hecho.");
            answer.when_user_message_contains = "Observation:";
            // Plan and execute: each step runs the tool loop, then an answer and a verdict.
            auto step = calls(c.tool, c.input);
            step.when_user_message_contains = "Your step:";
            auto step_done = says("Resultado del paso: {{last_tool_result}}");
            step_done.when_user_message_contains = "Your step:";
            auto write_answer = says("Respuesta escrita.");
            write_answer.when_user_message_contains = "Write the answer";
            auto verdict = says("YES");
            verdict.when_user_message_contains = "Does the answer";
            auto plan = says(R"({"steps": ["Usar la herramienta", "Dar el resultado"]})");
            testing::scenario sc;
            sc.name = "asistente-scenario";
            sc.turns.push_back({act, answer, step, write_answer, verdict, plan});
            sc.turns.push_back({step_done});
            p.fake.add_scenario(sc);

            auto const before = p.fake.requests().size();
            auto const react = test_http::post(p.ep, "/v1/chat/completions",
                question("Hazlo", R"("agent_type": "react")"));
            BOOST_TEST_REQUIRE(react.status == 200u, react.body);
            BOOST_TEST(react.json().at("choices").at(0).at("message").at("content").as_string() == "Hecho.");
            auto requests = p.fake.requests();
            auto const observed = agentio::to_json_text(requests.back().body);
            BOOST_TEST(observed.find(c.found) != std::string::npos, observed);
            BOOST_TEST(requests.size() > before);

            auto const planned = test_http::post(p.ep, "/v1/chat/completions",
                question("Hazlo", R"("agent_type": "plan_execute")"));
            BOOST_TEST_REQUIRE(planned.status == 200u, planned.body);
            BOOST_TEST(planned.json().at("choices").at(0).at("message").at("content").as_string() ==
                "Respuesta escrita.");
            bool reached = false;
            for(auto const& r : p.fake.requests())
            {
                auto const text = agentio::to_json_text(r.body);
                if(text.find("Write the answer") != std::string::npos)
                    reached = text.find(c.found) != std::string::npos;
            }
            BOOST_TEST(reached);
        }
    }
}

BOOST_AUTO_TEST_CASE(files_are_each_users_own)
{
    std::string const secret = "una-clave-compartida-de-al-menos-32-bytes";
    platform_server p({{"PLATFORM_JWT_SECRET", secret}});
    p.run();
    namespace jwt = agentio::http::jwt;
    auto key = jwt::signing_key::hs256(secret).value();
    auto const now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    auto as = [&](std::string sub) {
        boost::beast::http::fields f;
        f.set(boost::beast::http::field::authorization,
            "Bearer " + jwt::sign(json::object{{"sub", sub}, {"exp", now + 600}}, key).value());
        return f;
    };
    auto const ana = as("ana"), eva = as("eva");
    std::string const csv = "region,amount\nnorth,10.10\nsouth,20.20\n";
    auto const up = upload(p.ep, form_body("ventas.csv", csv), ana);
    BOOST_TEST_REQUIRE(up.status == 200u, up.body);
    auto const file = up.json().as_object();
    auto const id = std::string(file.at("id").as_string());
    BOOST_TEST(id.starts_with("file-"));
    BOOST_TEST(file.at("object").as_string() == "file");
    BOOST_TEST(file.at("bytes").as_int64() == static_cast<std::int64_t>(csv.size()));
    BOOST_TEST(file.at("filename").as_string() == "ventas.csv");
    BOOST_TEST(file.at("purpose").as_string() == "user_data");
    BOOST_TEST(file.at("media_type").as_string() == "text/csv");
    BOOST_TEST(file.at("status").as_string() == "processed");

    auto get = [&](std::string const& target, boost::beast::http::fields const& who) {
        return test_http::request(p.ep, boost::beast::http::verb::get, target, {}, "application/json", who);
    };
    BOOST_TEST(get("/v1/files", ana).json().at("data").as_array().size() == 1u);
    BOOST_TEST(get("/v1/files", eva).json().at("data").as_array().empty());
    BOOST_TEST(get("/v1/files/" + id, ana).json().at("filename").as_string() == "ventas.csv");
    auto const stranger = get("/v1/files/" + id, eva);
    BOOST_TEST(stranger.status == 404u);
    BOOST_TEST(stranger.json().at("error").at("message").as_string() == "No such File object: " + id);
    BOOST_TEST(get("/v1/files/" + id + "/content", eva).status == 404u);
    auto const content = get("/v1/files/" + id + "/content", ana);
    BOOST_TEST(content.status == 200u);
    BOOST_TEST(content.body == csv);
    BOOST_TEST(test_http::request(p.ep, boost::beast::http::verb::get, "/v1/files").status == 401u);

    // python_code reads it by its id, for its owner only.
    auto reads = calls("python_code",
        {{"code",
             "import csv\nrows = list(csv.DictReader(open('ventas.csv')))\n"
             "sum(float(r['amount']) for r in rows)"},
            {"file_ids", json::array{json::value(id)}}});
    p.scenario("asistente-scenario", {reads, says("{{last_tool_result}}")});
    auto ask = [&](boost::beast::http::fields const& who) {
        return test_http::request(p.ep, boost::beast::http::verb::post, "/v1/chat/completions",
            question("¿Cuánto suman las ventas?"), "application/json", who);
    };
    auto const own = ask(ana);
    BOOST_TEST_REQUIRE(own.status == 200u, own.body);
    auto const result =
        json::parse(std::string(own.json().at("choices").at(0).at("message").at("content").as_string()));
    BOOST_TEST(result.at("value").as_string() == "30.299999999999997");
    BOOST_TEST(result.at("files").at(id).as_string() == "ventas.csv");
    auto const theirs = ask(eva);
    BOOST_TEST_REQUIRE(theirs.status == 200u, theirs.body);
    auto const refused = std::string(theirs.json().at("choices").at(0).at("message").at("content").as_string());
    BOOST_TEST(refused.ends_with("The file '" + id + "' is not among this user's uploaded files."), refused);

    auto remove = [&](boost::beast::http::fields const& who) {
        return test_http::request(p.ep, boost::beast::http::verb::delete_, "/v1/files/" + id, {}, "application/json",
            who);
    };
    BOOST_TEST(remove(eva).status == 404u);
    auto const deleted = remove(ana);
    BOOST_TEST(deleted.status == 200u);
    BOOST_TEST(deleted.json().at("deleted").as_bool());
    BOOST_TEST(get("/v1/files/" + id, ana).status == 404u);
    BOOST_TEST(files_in(p.dir.path / "uploads") == 0u);
}

BOOST_AUTO_TEST_CASE(data_analysis_answers_exactly_and_names_the_fields)
{
    platform_server p;
    p.run();
    std::string const sales = R"([{"region": "north", "amount": 0.1, "product": "pen"},
        {"region": "north", "amount": 0.2, "product": "pad"}, {"region": "south", "amount": 10.25, "product": "pen"},
        {"region": "south", "amount": "4.75", "product": "bag"}, {"region": "east", "amount": null, "product": "pen"}])";
    auto const up = upload(p.ep, form_body("sales.json", sales));
    BOOST_TEST_REQUIRE(up.status == 200u, up.body);
    BOOST_TEST(up.json().at("media_type").as_string() == "application/json");
    auto const id = std::string(up.json().at("id").as_string());
    auto const lines = upload(p.ep, form_body("sales.jsonl", "{\"amount\": 1}\n{\"amount\": 2.5}\n"));
    BOOST_TEST_REQUIRE(lines.status == 200u, lines.body);
    BOOST_TEST(lines.json().at("media_type").as_string() == "application/jsonl");
    auto const lines_id = std::string(lines.json().at("id").as_string());

    auto analyse = [&](json::object input) {
        p.scenario("asistente-scenario", {calls("data_analysis", std::move(input)), says("{{last_tool_result}}")});
        auto const r = test_http::post(p.ep, "/v1/chat/completions", question("Analiza el fichero"));
        BOOST_TEST_REQUIRE(r.status == 200u, r.body);
        return std::string(r.json().at("choices").at(0).at("message").at("content").as_string());
    };
    // 0.1 + 0.2 is 0.3, not 0.30000000000000004.
    auto const north = json::parse(analyse({{"file_id", id}, {"operation", "sum"}, {"field", "amount"},
        {"filters", json::array{json::object{{"field", "region"}, {"operator", "eq"}, {"value", "north"}}}}}));
    BOOST_TEST(north.at("result").as_string() == "0.3");
    BOOST_TEST(north.at("rows").as_int64() == 5);
    BOOST_TEST(north.at("rows_kept").as_int64() == 2);
    auto const by_region =
        json::parse(analyse({{"file_id", id}, {"operation", "mean"}, {"field", "amount"}, {"group_by", "region"}}));
    BOOST_TEST(json::serialize(by_region.at("groups")) ==
        R"([{"group":"east","rows":1,"result":null},{"group":"north","rows":2,"result":"0.15"},)"
        R"({"group":"south","rows":2,"result":"7.5"}])");
    auto const median = json::parse(analyse({{"file_id", id}, {"operation", "median"}, {"field", "amount"},
        {"filters", json::array{json::object{{"field", "amount"}, {"operator", "gt"}, {"value", "0.15"}}}}}));
    BOOST_TEST(median.at("result").as_string() == "4.75");
    auto const products = json::parse(analyse({{"file_id", id}, {"operation", "distinct"}, {"field", "product"}}));
    BOOST_TEST(json::serialize(products.at("result")) == R"(["pen","pad","bag"])");
    auto const counted = json::parse(analyse({{"file_id", lines_id}, {"operation", "count"}}));
    BOOST_TEST(counted.at("result").as_int64() == 2);
    auto const max = json::parse(analyse({{"file_id", lines_id}, {"operation", "max"}, {"field", "amount"}}));
    BOOST_TEST(max.at("result").as_string() == "2.5");

    auto const unknown = analyse({{"file_id", id}, {"operation", "sum"}, {"field", "price"}});
    BOOST_TEST(unknown.ends_with("The field 'price' is not in sales.json; its fields are: region, amount, product."),
        unknown);
    auto const not_numeric = analyse({{"file_id", id}, {"operation", "sum"}, {"field", "region"}});
    BOOST_TEST(not_numeric.ends_with("The field 'region' is not numeric (a value is 'north'); numeric fields of "
                                     "sales.json: amount."),
        not_numeric);
    BOOST_TEST(analyse({{"file_id", "file-unknown0000"}, {"operation", "count"}})
                   .ends_with("The file 'file-unknown0000' is not among this user's uploaded files."));
    auto const broken = upload(p.ep, form_body("broken.json", "[{\"a\": 1}, {\"a\": "));
    BOOST_TEST_REQUIRE(broken.status == 200u, broken.body);
    auto const unreadable = analyse({{"file_id", std::string(broken.json().at("id").as_string())},
        {"operation", "count"}});
    BOOST_TEST(unreadable.find("broken.json is not JSON:") != std::string::npos, unreadable);
}

namespace {

// A zip written by Debian's python3 (trusted, the test's own): `entries` maps names to Python expressions of bytes.
std::string make_zip(temp_dir const& dir, std::vector<std::pair<std::string, std::string>> const& entries)
{
    auto const out = dir.path / ("zip-" + std::to_string(std::random_device{}()));
    std::string script = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)\n";
    for(auto const& [name, bytes] : entries)
        script += "z.writestr('" + name + "', " + bytes + ")\n";
    script += "z.close()\n";
    std::ofstream(dir.path / "zip.py") << script;
    BOOST_TEST_REQUIRE(
        std::system(("/usr/bin/python3 " + (dir.path / "zip.py").string() + " " + out.string()).c_str()) == 0);
    std::ifstream in(out, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string const word_ns = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

std::string docx_xml(std::string const& body)
{
    return "b'<?xml version=\"1.0\"?><w:document xmlns:w=\"" + word_ns + "\"><w:body>" + body +
        "</w:body></w:document>'";
}

} // namespace

// Uploads of each type indexed, found with their place, and gone when deleted; `vars` names the index.
void check_uploaded_documents_are_searched_with_their_place(std::map<std::string, std::string> vars)
{
    platform_server p(std::move(vars));
    p.run();
    auto const pdf = upload(p.ep,
        form_body("contrato.pdf",
            agentio_test::make_pdf({"Clausula primera: el periodo de prueba es de seis meses.",
                "Clausula segunda: las vacaciones anuales son de treinta dias naturales."})));
    BOOST_TEST_REQUIRE(pdf.status == 200u, pdf.body);
    BOOST_TEST(pdf.json().at("media_type").as_string() == "application/pdf");
    BOOST_TEST(pdf.json().at("status").as_string() == "processed");
    auto const pdf_id = std::string(pdf.json().at("id").as_string());
    auto const docx = upload(p.ep,
        form_body("manual.docx",
            make_zip(p.dir,
                {{"[Content_Types].xml", "b'<Types/>'"},
                    {"word/document.xml",
                        docx_xml("<w:p><w:pPr><w:pStyle w:val=\"Heading1\"/></w:pPr><w:r><w:t>Teletrabajo</w:t>"
                                 "</w:r></w:p><w:p><w:r><w:t>El teletrabajo requiere un acuerdo escrito."
                                 "</w:t></w:r></w:p>")}})));
    BOOST_TEST_REQUIRE(docx.status == 200u, docx.body);
    BOOST_TEST(docx.json().at("media_type").as_string() ==
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    auto const notes = upload(p.ep, form_body("notas.md", "# Horario\nLa jornada es de cuarenta horas semanales.\n"));
    BOOST_TEST_REQUIRE(notes.status == 200u, notes.body);
    auto const data = upload(p.ep,
        form_body("plantilla.json", R"({"empleados": [{"nombre": "Ana", "puesto": "jefa de turno"}]})"));
    BOOST_TEST_REQUIRE(data.status == 200u, data.body);

    auto search = [&](std::string query) {
        p.scenario("asistente-scenario",
            {calls("rag_retrieval", {{"query", std::move(query)}, {"top_k", 3}}), says("{{last_tool_result}}")});
        auto const r = test_http::post(p.ep, "/v1/chat/completions",
            question("Mis documentos", R"("agent_type": "tools")"));
        BOOST_TEST_REQUIRE(r.status == 200u, r.body);
        return json::parse(std::string(r.json().at("choices").at(0).at("message").at("content").as_string()));
    };
    // The user's passages come with the shared corpus's (the laws' index of this server), each naming its place.
    auto source_of = [](json::value const& passages, std::string_view file) -> std::string {
        for(auto const& passage : passages.as_array())
        {
            auto const source = std::string(passage.at("source").as_string());
            if(source.starts_with(file))
                return source;
        }
        return "absent from " + json::serialize(passages);
    };
    auto const vacations = search("vacaciones anuales treinta dias");
    BOOST_TEST(source_of(vacations, "contrato.pdf") == "contrato.pdf, page 2");
    for(auto const& passage : vacations.as_array())
        if(passage.at("source").as_string().starts_with("contrato.pdf"))
            BOOST_TEST(passage.at("file_id").as_string() == pdf_id);
    BOOST_TEST(source_of(search("teletrabajo acuerdo escrito"), "manual.docx") == "manual.docx, section Teletrabajo");
    BOOST_TEST(source_of(search("jornada semanal horas"), "notas.md") == "notas.md, section Horario");
    BOOST_TEST(source_of(search("Ana jefa de turno"), "plantilla.json") == "plantilla.json, $.empleados");

    // Deleting the file deletes its passages.
    BOOST_TEST(test_http::request(p.ep, boost::beast::http::verb::delete_, "/v1/files/" + pdf_id).status == 200u);
    auto const after = search("vacaciones anuales treinta dias");
    for(auto const& passage : after.as_array())
        BOOST_TEST(passage.at("source").as_string().find("contrato.pdf") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(uploaded_documents_are_searched_with_their_place)
{
    check_uploaded_documents_are_searched_with_their_place({}); // a SQLite index beside the test's files
}

BOOST_AUTO_TEST_CASE(hostile_documents_end_with_an_error_that_names_them)
{
    platform_server p;
    p.run();
    auto const folder = p.dir.path / "uploads";
    auto refused = [&](std::string const& name, std::string const& content) {
        auto const r = upload(p.ep, form_body(name, content));
        BOOST_TEST_INFO(name << ": " << r.body);
        BOOST_TEST(r.status == 422u);
        return r.status == 422u ? std::string(r.json().at("error").at("message").as_string()) : std::string();
    };
    auto const whole = agentio_test::make_pdf({"Una pagina entera."});
    auto const truncated = refused("cortado.pdf", whole.substr(0, 60));
    BOOST_TEST(truncated.find("'cortado.pdf'") != std::string::npos, truncated);
    // A page tree that contains itself: the reader must not walk it forever.
    auto const looping = refused("bucle.pdf",
        agentio_test::pdf_of({"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
            "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>"}));
    BOOST_TEST(looping.find("'bucle.pdf'") != std::string::npos, looping);
    // 300 MB of zeros in a zip of a few hundred KB: refused from the sizes the zip declares, never inflated.
    auto const bomb = refused("bomba.docx",
        make_zip(p.dir,
            {{"[Content_Types].xml", "b'<Types/>'"}, {"word/document.xml", docx_xml("<w:p/>")},
                {"word/media/zeros.bin", "bytes(300 * 1024 * 1024)"}}));
    BOOST_TEST(bomb.find("refused as a zip bomb") != std::string::npos, bomb);
    auto const laughs = refused("risas.docx",
        make_zip(p.dir,
            {{"[Content_Types].xml", "b'<Types/>'"},
                {"word/document.xml",
                    "b'<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 "
                    "\"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">]><w:document xmlns:w=\"" +
                        word_ns + "\"><w:body><w:p><w:r><w:t>&lol2;</w:t></w:r></w:p></w:body></w:document>'"}}));
    BOOST_TEST(laughs.find("declares XML entities") != std::string::npos, laughs);
    auto const deep = refused("hondo.json", std::string(100000, '[') + std::string(100000, ']'));
    BOOST_TEST(deep.find("hondo.json") != std::string::npos, deep);
    auto const not_a_zip = refused("roto.docx", std::string("PK\x03\x04") + "[Content_Types].xml word/document.xml");
    BOOST_TEST(not_a_zip.find("is not a valid DOCX") != std::string::npos, not_a_zip);
    // Nothing of a refused document is kept, and the server answers on.
    BOOST_TEST(files_in(folder) == 0u);
    BOOST_TEST(test_http::get(p.ep, "/health").status == 200u);
}

BOOST_AUTO_TEST_CASE(uploads_refused_clearly_leave_nothing_behind)
{
    platform_server p(std::map<std::string, std::string>{{"PLATFORM_MAX_UPLOAD_BYTES", "1000"}});
    p.run();
    auto const folder = p.dir.path / "uploads";
    // A body beyond any upload's is refused from its head, unread; a file over the limit in a smaller form as
    // it is read.
    auto const declared = test_http::raw(p.ep,
        "POST /v1/files HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=frontera\r\n"
        "Content-Length: 200000\r\n\r\n");
    BOOST_TEST(declared.starts_with("HTTP/1.1 413"), declared);
    auto const small_form_large_file = upload(p.ep, form_body("big.txt", std::string(1001, 'x')));
    BOOST_TEST(small_form_large_file.status == 413u, small_form_large_file.body);
    BOOST_TEST(small_form_large_file.json().at("error").at("param").as_string() == "file");
    BOOST_TEST(files_in(folder) == 0u);

    auto const elf = upload(p.ep,
        form_body("informe.pdf",
            std::string("\x7f"
                        "ELF\x02\x01\x01\0\0\0",
                10)));
    BOOST_TEST(elf.status == 415u);
    auto const why = std::string(elf.json().at("error").at("message").as_string());
    BOOST_TEST(why.find("'informe.pdf'") != std::string::npos, why);
    BOOST_TEST(why.find("PDF (application/pdf)") != std::string::npos, why);
    BOOST_TEST(why.find("JSON Lines") != std::string::npos, why);
    // Bytes that are not UTF-8 are no text this server takes: named, and the types it does take listed.
    auto const latin1 = upload(p.ep,
        form_body("texto.txt",
            "ma\xf1"
            "ana a las 9"));
    BOOST_TEST(latin1.status == 415u);
    BOOST_TEST(latin1.json().at("error").at("message").as_string().find("'texto.txt'") != std::string::npos);
    auto const zip = upload(p.ep, form_body("datos.docx", std::string("PK\x03\x04") + " not a document"));
    BOOST_TEST(zip.status == 415u);
    // The name says PDF, the bytes say text: the bytes win.
    auto const named_pdf = upload(p.ep, form_body("nota.pdf", "solo texto"));
    BOOST_TEST_REQUIRE(named_pdf.status == 200u, named_pdf.body);
    BOOST_TEST(named_pdf.json().at("media_type").as_string() == "text/plain");

    auto const no_purpose = upload(p.ep, form_body("a.txt", "hola", ""));
    BOOST_TEST(no_purpose.status == 400u);
    BOOST_TEST(no_purpose.json().at("error").at("param").as_string() == "purpose");
    auto const bad_purpose = upload(p.ep, form_body("a.txt", "hola", "whatever"));
    BOOST_TEST(bad_purpose.status == 400u);
    BOOST_TEST(bad_purpose.json().at("error").at("message").as_string().find("'assistants'") != std::string::npos);
    auto const not_a_form = test_http::post(p.ep, "/v1/files", R"({"file": "x"})");
    BOOST_TEST(not_a_form.status == 400u);
    BOOST_TEST(not_a_form.json().at("error").at("param").as_string() == "file");
    auto const cut = upload(p.ep,
        "--frontera\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nhola");
    BOOST_TEST(cut.status == 400u);
    BOOST_TEST(cut.json().at("error").at("message").as_string().find("closing delimiter") != std::string::npos);
    BOOST_TEST(test_http::get(p.ep, "/v1/files/file-nope").status == 404u);
    BOOST_TEST(test_http::get(p.ep, "/v1/files/../../etc/passwd").status == 404u);
    auto const listed = test_http::get(p.ep, "/v1/files?limit=0");
    BOOST_TEST(listed.status == 400u);
    BOOST_TEST(listed.json().at("error").at("param").as_string() == "limit");
    // Only what was accepted is kept: one file, no partial one.
    BOOST_TEST(files_in(folder) == 1u);
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

// The same with the documents in PostgreSQL: the cluster of the CTest
// fixture `postgres`, its retrieval tables dropped first.
BOOST_AUTO_TEST_SUITE(platform_postgres)

BOOST_AUTO_TEST_CASE(uploaded_documents_are_searched_with_their_place_in_postgresql)
{
    asio::io_context ctx;
    agentio_test::run(ctx, []() -> asio::awaitable<void> {
        agentio::postgres::connection c(co_await asio::this_coro::executor);
        (co_await c.connect(agentio_test::postgres_uri())).value();
        (co_await c.execute("DROP TABLE IF EXISTS rag_vectors, rag_models, rag_chunks, rag_corpus, rag_meta CASCADE; "
                            "DROP FUNCTION IF EXISTS rag_tokens(tsvector)"))
            .value();
    }());
    platform_api::check_uploaded_documents_are_searched_with_their_place({{"PLATFORM_DOCUMENTS_INDEX",
        agentio_test::postgres_uri()}});
}

BOOST_AUTO_TEST_SUITE_END()
