// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The invoice agent end to end: the Chinook database built by
// `agentio-facturas init-db` from its SQL script, agentio-sqlite-mcp started
// as a child process over stdio, the wire-exact fake LLM writing the SQL.
// Every answer's rows must be those of the same SQL run directly; attacks
// written by the "model" are refused with their code while the file stays
// byte-identical; the HTTP interface is checked on a real socket.
#define BOOST_TEST_MODULE agentio facturas tests
#include "summaries.hpp"
#include "model_outputs.hpp"
#include "agent.hpp"
#include "http_api.hpp"
#include "openai_api.hpp"
#include "questions.hpp"
#include "sql_text.hpp"

#include <agentio/http/client.hpp>
#include <agentio/http/metrics.hpp>
#include <agentio/http/server.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/threads/sqlite_store.hpp>
#include <agentio/threads/turn.hpp>
#include <agentio/sse/parser.hpp>
#include <agentio/testing/fake_llm.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <utility>

#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include "test_paths.hpp"

namespace asio = boost::asio;
namespace json = boost::json;
namespace fs = std::filesystem;
namespace llm = agentio::llm;
namespace testing = agentio::testing;
using facturas::samples::questions;

namespace {

// What the "model" writes when asked for an attack, and the code it must end with.
struct attack
{
    char const* question;
    std::string sql;
    char const* code;
};

std::vector<attack> const attacks = {
    {"ataque borrar", "DELETE FROM Invoice", "query_validation_failed"},
    {"ataque actualizar", "UPDATE Invoice SET Total = 0", "query_validation_failed"},
    {"ataque insertar", "INSERT INTO Genre(Name) VALUES('x')", "query_validation_failed"},
    {"ataque cte",
        "WITH doomed AS (SELECT InvoiceId FROM Invoice) DELETE FROM Invoice WHERE InvoiceId IN "
        "(SELECT InvoiceId FROM doomed)",
        "query_validation_failed"}, // a write behind CTEs: refused before anything runs

    {"ataque adjuntar", "ATTACH DATABASE '/tmp/agentio_facturas_other.db' AS other", "query_validation_failed"},
    {"ataque pragma", "PRAGMA writable_schema = 1", "query_validation_failed"},
    {"ataque extension", "SELECT load_extension('/lib/x86_64-linux-gnu/libc.so.6')", "query_validation_failed"},
    // Stacked statements: refused as such, not a syntax error after the LIMIT wraps them (and a repair call).
    {"ataque apilado", "SELECT 1; DELETE FROM Invoice", "query_validation_failed"},
    {"ataque comentario", "SELECT 1 /* ; */; DROP TABLE Invoice", "query_validation_failed"},
    {"ataque recursivo", "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n",
        "query_timeout"},
    {"ataque cartesiano", "SELECT count(*) FROM InvoiceLine a, InvoiceLine b, InvoiceLine c", "query_timeout"},
    {"ataque blob", "SELECT randomblob(1000000000)", "result_too_large"},
    {"ataque enorme", "SELECT '" + std::string(10 << 20, 'x') + "'", "query_validation_failed"},
};

// The sample data (the Chinook SQL script), put in the build folder by
// scripts/data.sh, the CTest fixture data.fetch.
std::string test_data()
{
    return AGENTIO_TEST_DATA;
}

std::string file_bytes(fs::path const& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The rows of `sql` run directly on a read-only handle, as the MCP server
// returns them (integers, reals, text, null).
json::array direct_rows(fs::path const& db, std::string const& sql)
{
    sqlite3* h = nullptr;
    BOOST_REQUIRE(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    BOOST_REQUIRE_MESSAGE(sqlite3_prepare_v2(h, sql.c_str(), -1, &s, nullptr) == SQLITE_OK, sqlite3_errmsg(h));
    json::array rows;
    while(sqlite3_step(s) == SQLITE_ROW)
    {
        json::array row;
        for(int i = 0; i < sqlite3_column_count(s); ++i)
            switch(sqlite3_column_type(s, i))
            {
            case SQLITE_INTEGER: row.push_back(sqlite3_column_int64(s, i)); break;
            case SQLITE_FLOAT: row.push_back(sqlite3_column_double(s, i)); break;
            case SQLITE_NULL: row.push_back(nullptr); break;
            default: row.push_back(json::string(reinterpret_cast<char const*>(sqlite3_column_text(s, i))));
            }
        rows.push_back(std::move(row));
    }
    sqlite3_finalize(s);
    sqlite3_close(h);
    return rows;
}

// Rows equal as JSON carries them: 99.0 travels as 99, so numbers compare by value.
bool same_rows(json::array const& a, json::array const& b)
{
    if(a.size() != b.size())
        return false;
    for(std::size_t i = 0; i < a.size(); ++i)
    {
        auto const& x = a[i].as_array();
        auto const& y = b[i].as_array();
        if(x.size() != y.size())
            return false;
        for(std::size_t j = 0; j < x.size(); ++j)
            if(x[j].is_number() && y[j].is_number() ? x[j].to_number<double>() != y[j].to_number<double>()
                                                    : x[j] != y[j])
                return false;
    }
    return true;
}

// Why `message` is not what the spec asks of an error_message, or nothing: a Spanish sentence (a capital letter, a
// final period, Spanish words), where SQLite's, the MCP server's or a library's own words, often English, appear only
// quoted («no such column: Foo»). Outside the quotes no English word may show; identifiers (SELECT, MCP, session_id,
// INVOICE_AGENT_MCP_COMMAND) are not words.
std::string not_spanish(std::string_view message)
{
    if(message.empty())
        return "empty";
    static constexpr std::string_view capitals[] = {"Á", "É", "Í", "Ó", "Ú", "Ñ", "¿", "¡"};
    bool const capital = std::isupper(static_cast<unsigned char>(message.front())) ||
        std::any_of(std::begin(capitals), std::end(capitals),
            [&](std::string_view c) { return message.starts_with(c); });
    if(!capital)
        return "it does not start with a capital letter";
    if(!message.ends_with("."))
        return "it does not end with a period";
    std::string own; // the text outside «»
    int depth = 0;
    for(std::size_t i = 0; i < message.size();)
    {
        if(message.substr(i).starts_with("«"))
            ++depth, own += ' ', i += 2;
        else if(message.substr(i).starts_with("»"))
        {
            if(--depth < 0)
                return "a » without its «";
            i += 2;
        }
        else
        {
            if(depth == 0)
                own += message[i];
            ++i;
        }
    }
    if(depth != 0)
        return "a « without its »";
    static std::set<std::string> const english{"the", "is", "are", "was", "were", "not", "be", "been", "have", "had",
        "did", "does", "could", "cannot", "should", "would", "will", "this", "that", "it", "its", "of", "to", "in",
        "on", "at", "by", "from", "for", "and", "or", "with", "within", "without", "into", "such", "column", "table",
        "syntax", "near", "failed", "failure", "timeout", "timed", "out", "server", "connection", "connect", "closed",
        "cancelled", "canceled", "process", "reachable", "unreachable", "unexpected", "invalid", "request", "response",
        "answer", "answered", "result", "query", "model", "session", "stream", "transport", "missing", "empty",
        "expected", "unknown", "file", "database", "open", "unable", "authorized", "found", "command", "quote",
        "unclosed", "ended", "expired", "already", "too", "many", "rows", "row", "limit", "please", "try", "again",
        "internal", "exception", "message", "provider", "refused", "rejected", "broke", "protocol"};
    static std::set<std::string> const spanish{"el", "la", "los", "las", "de", "del", "no", "se", "un", "una", "en",
        "que", "con", "por", "para", "es", "está", "solo", "debe"};
    bool spoken = false;
    std::string word;
    auto const ends_word = [&]() -> std::string {
        std::string w = std::exchange(word, {});
        bool const identifier = std::any_of(w.begin(), w.end(),
                                    [](char c) { return c == '_' || std::isdigit(static_cast<unsigned char>(c)); }) ||
            std::all_of(w.begin(), w.end(), [](char c) { return !std::islower(static_cast<unsigned char>(c)); });
        if(w.empty() || identifier)
            return {};
        w[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(w[0])));
        spoken = spoken || spanish.contains(w);
        return english.contains(w) ? "the English word '" + w + "' outside «»" : std::string();
    };
    for(char c : own + ' ')
    {
        if(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80)
            word += c;
        else if(auto why = ends_word(); !why.empty())
            return why;
    }
    return spoken ? std::string() : "no Spanish word outside «»";
}

// Everything the agent needs, on an io_context run by a thread of its own.
// An MCP server on stdio that ends at once must be an error the agent reports, not SIGPIPE ending the tests:
// the application ignores it through app::run_main, and so does this test program.
struct ignore_sigpipe
{
    ignore_sigpipe() { std::signal(SIGPIPE, SIG_IGN); }
};
BOOST_TEST_GLOBAL_FIXTURE(ignore_sigpipe);

struct fixture
{
    fs::path dir = fs::temp_directory_path() / ("agentio_facturas_" + std::to_string(::getpid()));
    fs::path db = dir / "chinook.db";
    asio::io_context ioc;
    testing::fake_llm fake{ioc.get_executor()};
    agentio::http::client http{ioc.get_executor()};
    std::optional<llm::any_provider> provider;
    std::unique_ptr<agentio::sqlite::thread_store> store;
    std::optional<facturas::invoice_agent> agent;
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
    std::thread runner;

    /// `adjust` changes the settings before the agent is made.
    explicit fixture(std::function<void(facturas::settings&)> adjust = {})
    {
        fs::remove_all(dir);
        fs::create_directories(dir);
        auto const script = test_data() + "/chinook/Chinook_Sqlite.sql";
        BOOST_TEST_REQUIRE(fs::exists(script),
            script + " is missing (ctest runs data.fetch first: bash scripts/data.sh all " + test_data() + ")");
        auto const command = std::string(AGENTIO_FACTURAS) + " init-db --sql '" + script + "' --db '" + db.string() +
            "' > /dev/null";
        BOOST_TEST_REQUIRE(std::system(command.c_str()) == 0);
        fake.add_scenario(scenario());
        fake.start().value();
        llm::provider_options p;
        p.api_key = "test";
        p.base_url = fake.anthropic_base_url();
        provider.emplace(llm::anthropic_provider(http, std::move(p)));
        store = agentio::sqlite::thread_store::open(dir / "threads.db").value();
        facturas::settings s;
        s.model.anthropic_api_key = "test";
        s.model.model = "facturas-test";
        s.sql_max_rows = 200;
        s.mcp_timeout = std::chrono::seconds(20);
        if(adjust)
            adjust(s);
        facturas::mcp_endpoint endpoint;
        endpoint.command = std::string(AGENTIO_SQLITE_MCP) + " --db '" + db.string() + "' --timeout-ms 400";
        agent.emplace(s, endpoint, *provider, *store);
        work.emplace(ioc.get_executor());
        runner = std::thread([this] { ioc.run(); });
    }

    ~fixture()
    {
        std::future<void> closed = asio::co_spawn(ioc, agent->close(), asio::use_future);
        closed.wait();
        work.reset();
        fake.stop();
        ioc.stop();
        runner.join();
        fs::remove_all(dir);
    }

    static testing::scenario scenario()
    {
        testing::scenario sc;
        sc.name = "facturas-test";
        std::vector<testing::scripted_response> alternatives;
        auto add = [&](std::string when, testing::scripted_text text) {
            testing::scripted_response r;
            r.when_user_message_contains = std::move(when);
            r.text = std::move(text);
            alternatives.push_back(std::move(r));
        };
        // The answer step first: its message also quotes the question.
        add("Resultados de la consulta", "Según las facturas, este es el resultado que pediste.");
        // The repair rounds: SQLite's message comes back.
        add("no such column: Pais",
            "SELECT BillingCountry AS pais, ROUND(SUM(Total), 2) AS total FROM Invoice "
            "WHERE strftime('%Y', InvoiceDate) = '2024' GROUP BY BillingCountry ORDER BY total DESC, pais");
        // Repairs that SQLite rejects again: the question ends as an sql_error.
        add("no such column: Foo", "SELECT Bar FROM Invoice");
        add("syntax error", "SELECT Total FROM Invoice WHERE");
        add("SQLite rechazó", "SELECT 1; DROP TABLE Invoice");
        add("¿Cuánto facturó cada país en 2024?", "SELECT Pais, SUM(Total) FROM Invoice GROUP BY Pais");
        add("pregunta con columnas que no existen", "SELECT Foo FROM Invoice");
        add("pregunta con la sintaxis rota", "SELECT FROM Invoice WHERE");
        add("¿Y solo para Francia?",
            "SELECT ROUND(SUM(Total), 2) AS total FROM Invoice WHERE BillingCountry = 'France'");
        for(auto const& q : questions)
            add(q.question, q.sql);
        for(auto const& a : attacks)
            add(a.question, testing::scripted_text::exact({a.sql}));
        sc.turns.push_back(std::move(alternatives));
        return sc;
    }

    template<class T>
    T run(asio::awaitable<T> a)
    {
        return asio::co_spawn(ioc, std::move(a), asio::use_future).get();
    }

    facturas::ask_result ask(std::string const& session, std::string const& question)
    {
        return run(agent->ask(session, question));
    }
};

} // namespace

BOOST_AUTO_TEST_SUITE(facturas_pipeline)

BOOST_AUTO_TEST_CASE(every_question_answers_with_the_rows_of_its_sql)
{
    fixture f;
    for(auto const& q : questions)
    {
        BOOST_TEST_CONTEXT(q.question)
        {
            auto const r = f.ask("preguntas", q.question);
            BOOST_TEST(r.error_code.empty(), r.error_code + ": " + r.error_message);
            BOOST_TEST(!r.answer.empty());
            BOOST_TEST(r.sql == facturas::strip_code_fences(q.sql));
            auto const expected = direct_rows(f.db, facturas::strip_code_fences(q.sql));
            BOOST_TEST(!expected.empty());
            BOOST_TEST(same_rows(r.rows, expected), agentio::to_json_text(r.rows));
            BOOST_TEST(r.row_count == static_cast<std::int64_t>(expected.size()));
        }
    }
}

BOOST_AUTO_TEST_CASE(a_rejected_query_gets_one_repair_round)
{
    fixture f;
    auto const r = f.ask("reparar", "¿Cuánto facturó cada país en 2024?");
    BOOST_TEST(r.error_code.empty(), r.error_code + ": " + r.error_message);
    BOOST_TEST(r.sql.find("BillingCountry") != std::string::npos);
    BOOST_TEST(!r.rows.empty());
    // SQL, repair, answer: three calls; the repair quoted SQLite's message.
    auto const requests = f.fake.requests();
    BOOST_REQUIRE(requests.size() == 3u);
    auto const repair = agentio::to_json_text(requests[1].body.at("messages"));
    BOOST_TEST(repair.find("no such column: Pais") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_session_history_reaches_the_model)
{
    fixture f;
    auto const first = f.ask("historial", questions[0].question);
    BOOST_TEST(first.error_code.empty());
    auto const second = f.ask("historial", "¿Y solo para Francia?");
    BOOST_TEST(second.error_code.empty(), second.error_message);
    auto const requests = f.fake.requests();
    BOOST_REQUIRE(requests.size() == 4u); // SQL and answer, twice
    auto const messages = requests[2].body.at("messages").as_array();
    BOOST_REQUIRE(messages.size() == 3u); // the first turn (question, SQL), then the new question
    auto const text = agentio::to_json_text(messages);
    BOOST_TEST(text.find("total facturado por país") != std::string::npos);
    BOOST_TEST(text.find("GROUP BY BillingCountry") != std::string::npos);
    // Another session does not see it.
    auto const other = f.ask("otra", questions[5].question);
    BOOST_TEST(other.error_code.empty());
    BOOST_TEST(f.fake.requests()[4].body.at("messages").as_array().size() == 1u);
}

// A session whose questions outgrow the model's window keeps answering under each AGENT_CONTEXT_POLICY: the fake
// enforces the window as the API does, and every request fits it.
BOOST_AUTO_TEST_CASE(a_session_longer_than_the_window_keeps_answering)
{
    for(auto const policy : {llm::context_policy::compact, llm::context_policy::trim})
    {
        BOOST_TEST_CONTEXT(llm::to_string(policy))
        {
            fixture f([policy](facturas::settings& s) {
                s.model.model = "facturas-ventana";
                s.model.context_window = 9000;
                s.model.context_policy = policy;
                s.max_history_turns = 12;
            });
            testing::scenario sc;
            sc.name = "facturas-ventana";
            sc.context_window = 9000;
            auto const summary = agentio_test::summary_response("RESUMEN: preguntas largas sobre facturas.");
            testing::scripted_response answer, sql;
            answer.when_user_message_contains = "Resultados de la consulta";
            answer.text = "Hay estas facturas.";
            sql.text = "SELECT COUNT(*) AS n FROM Invoice";
            sc.turns.push_back({summary, answer, sql});
            f.fake.add_scenario(sc);
            for(int i = 0; i < 12; ++i)
            {
                auto const r = f.ask("larga",
                    "Pregunta " + std::to_string(i) + ": ¿cuántas facturas hay? " + std::string(4000, 'x'));
                BOOST_TEST_REQUIRE(r.error_code.empty(),
                    "question " << i << ": " << r.error_code << ": " << r.error_message);
                BOOST_TEST(r.row_count == 1);
            }
            auto const requests = f.fake.requests();
            std::size_t const summarizing = agentio_test::summary_requests(requests);
            BOOST_TEST(requests.size() - summarizing == 24u); // SQL and answer for each question: no refusal
            auto const last_sql = agentio::to_json_text(requests[requests.size() - 2].body);
            BOOST_TEST(last_sql.find("Pregunta 11") != std::string::npos);
            BOOST_TEST(last_sql.find("Pregunta 0:") == std::string::npos); // the oldest turns do not fit
            if(policy == llm::context_policy::compact)
                BOOST_TEST(summarizing >= 1u);
            else
                BOOST_TEST(summarizing == 0u);
        }
    }
}

BOOST_AUTO_TEST_CASE(attacks_written_by_the_model_are_refused_and_the_file_is_untouched)
{
    fixture f;
    auto const before = file_bytes(f.db);
    for(auto const& a : attacks)
    {
        BOOST_TEST_CONTEXT(a.question)
        {
            auto const r = f.ask("ataques", a.question);
            BOOST_TEST(r.error_code == a.code, r.error_code + ": " + r.error_message);
            BOOST_TEST(!r.answer.empty());
            BOOST_TEST(r.rows.empty());
            BOOST_TEST(not_spanish(r.error_message).empty(), not_spanish(r.error_message) << ": " << r.error_message);
        }
    }
    // Still serving, and nothing changed.
    auto const after = f.ask("ataques", questions[5].question);
    BOOST_TEST(after.error_code.empty(), after.error_message);
    BOOST_TEST(after.rows.at(0).at(0) == 412);
    BOOST_TEST((file_bytes(f.db) == before));
    BOOST_TEST(!fs::exists("/tmp/agentio_facturas_other.db"));
}

BOOST_AUTO_TEST_CASE(failures_become_a_code_and_a_spanish_answer)
{
    fixture f;
    auto const unknown = f.ask("fallos", "una pregunta que el modelo no conoce");
    BOOST_TEST(unknown.error_code == "llm_unavailable");
    BOOST_TEST(unknown.answer.find("modelo de lenguaje") != std::string::npos);
    // The fake's English refusal, quoted in a Spanish sentence.
    BOOST_TEST(not_spanish(unknown.error_message).empty(), unknown.error_message);
    BOOST_TEST(unknown.error_message.starts_with("El proveedor del modelo respondió con un error (HTTP 400): «"),
        unknown.error_message);

    facturas::settings s;
    s.model.anthropic_api_key = "test";
    s.model.model = "facturas-test";
    facturas::mcp_endpoint nowhere;
    nowhere.command = "/nonexistent/agentio-sqlite-mcp --db x";
    facturas::invoice_agent broken(s, nowhere, *f.provider, *f.store);
    auto const r = f.run(broken.ask("fallos", questions[5].question));
    BOOST_TEST(r.error_code == "mcp_unavailable");
    BOOST_TEST(r.answer.find("servidor de datos") != std::string::npos);
    BOOST_TEST(not_spanish(r.error_message).empty(), r.error_message);
    BOOST_TEST(
        r.error_message.starts_with("No se pudo conectar con el servidor MCP (no arrancó o la conexión falló): «"),
        r.error_message);
}

BOOST_AUTO_TEST_CASE(a_query_sqlite_rejects_after_its_repair_is_an_sql_error_in_spanish)
{
    fixture f;
    auto const column = f.ask("sql-error", "pregunta con columnas que no existen");
    BOOST_TEST(column.error_code == "sql_error");
    BOOST_TEST(column.sql == "SELECT Bar FROM Invoice");
    // SQLite's words, quoted once: not also in agentio-sqlite-mcp's own sentence around them.
    BOOST_TEST(column.error_message == "La consulta SQL falló: «no such column: Bar».");
    BOOST_TEST(column.answer == facturas::answer_for_error("sql_error"));
    // The repair round got SQLite's words, in one sentence.
    auto const requests = f.fake.requests();
    BOOST_REQUIRE(requests.size() == 2u); // SQL, repair; no answer
    auto const repair = agentio::to_json_text(requests[1].body.at("messages"));
    BOOST_TEST(repair.find("SQLite rechazó la consulta: no such column: Foo") != std::string::npos, repair);
    BOOST_TEST(repair.find("rechazó la consulta: SQLite") == std::string::npos, repair);

    auto const syntax = f.ask("sql-error", "pregunta con la sintaxis rota");
    BOOST_TEST(syntax.error_code == "sql_error");
    BOOST_TEST(not_spanish(syntax.error_message).empty(), syntax.error_message);
    BOOST_TEST(syntax.error_message.starts_with("La consulta SQL falló: «"), syntax.error_message);
    BOOST_TEST(syntax.error_message.find("syntax error»") != std::string::npos, syntax.error_message);
}

// Every way of losing the MCP server: the client's English words only quoted.
BOOST_AUTO_TEST_CASE(mcp_failures_are_spanish_sentences)
{
    fixture f;
    int asked = 0;
    auto ask_through = [&](facturas::mcp_endpoint endpoint, unsigned timeout, std::string const& question) {
        facturas::settings s;
        s.model.anthropic_api_key = "test";
        s.model.model = "facturas-test";
        s.mcp_timeout = std::chrono::seconds(timeout);
        facturas::invoice_agent agent(s, std::move(endpoint), *f.provider, *f.store);
        auto r = f.run(agent.ask("mcp-" + std::to_string(++asked), question));
        f.run(agent.close());
        return r;
    };
    struct lost
    {
        char const* what;
        facturas::mcp_endpoint endpoint;
        std::string starts;
    };
    std::vector<lost> const cases{
        {"unreachable URL", {{}, "http://127.0.0.1:1/mcp"}, "No se pudo conectar con el servidor MCP ("},
        {"unclosed quote", {std::string(AGENTIO_SQLITE_MCP) + " --db '" + f.db.string(), {}},
            "La orden de INVOICE_AGENT_MCP_COMMAND no es válida: «the command has an unclosed quote»."},
        {"ends at once", {"true", {}}, "No se pudo conectar con el servidor MCP ("},
        {"never answers", {"sleep 30", {}}, "No se pudo conectar con el servidor MCP (no respondió a tiempo)"},
    };
    for(auto const& c : cases)
    {
        BOOST_TEST_CONTEXT(c.what)
        {
            auto const r = ask_through(c.endpoint, 1, questions[5].question);
            BOOST_TEST(r.error_code == "mcp_unavailable", r.error_code + ": " + r.error_message);
            BOOST_TEST(r.answer == facturas::answer_for_error("mcp_unavailable"));
            BOOST_TEST(not_spanish(r.error_message).empty(), not_spanish(r.error_message) << ": " << r.error_message);
            BOOST_TEST(r.error_message.starts_with(c.starts), r.error_message);
        }
    }
    // The real server, slower than the agent's patience: the client's timeout, not the server's.
    facturas::mcp_endpoint slow;
    slow.command = std::string(AGENTIO_SQLITE_MCP) + " --db '" + f.db.string() + "' --timeout-ms 3000";
    auto const r = ask_through(slow, 1, "ataque cartesiano");
    BOOST_TEST(r.error_code == "query_timeout", r.error_code + ": " + r.error_message);
    BOOST_TEST(r.error_message == "El servidor MCP no respondió a la consulta en 1 s.");
}

BOOST_AUTO_TEST_CASE(error_texts_quote_what_they_cannot_translate)
{
    // The check itself: English outside the quotes, or no sentence, is caught.
    BOOST_TEST(!not_spanish("the MCP server is not reachable").empty());
    BOOST_TEST(!not_spanish("no such column: Foo").empty());
    BOOST_TEST(!not_spanish("La consulta SQL falló: no such column: Foo.").empty());
    BOOST_TEST(!not_spanish("El servidor MCP falló: «timeout").empty());
    BOOST_TEST(!not_spanish("Timeout.").empty());
    BOOST_TEST(not_spanish("La consulta SQL falló: «no such column: Foo».").empty());

    // The MCP server's refusals: agentio-sqlite-mcp's sentence around SQLite's words is ours; another server's
    // English is quoted whole.
    BOOST_TEST(facturas::refusal_message("sql_error", "SQLite rechazó la consulta: no such column: Foo") ==
        "La consulta SQL falló: «no such column: Foo».");
    BOOST_TEST(facturas::refusal_message("other_code", "") == "El servidor MCP rechazó la consulta.");
    for(auto const* code : {"sql_error", "query_validation_failed", "query_timeout", "result_too_large", "x"})
    {
        auto const text = facturas::refusal_message(code, "Query timed out after 5 s\nand was cancelled");
        BOOST_TEST(not_spanish(text).empty(), text);
        BOOST_TEST(text.ends_with(": «Query timed out after 5 s and was cancelled»."), text);
    }

    // The MCP client's failures, of every kind.
    namespace mcp = agentio::mcp;
    for(auto const ec : {boost::system::error_code(mcp::client_errc::server_error),
            boost::system::error_code(mcp::client_errc::timeout),
            boost::system::error_code(mcp::client_errc::transport_failed),
            boost::system::error_code(mcp::client_errc::closed),
            boost::system::error_code(mcp::client_errc::protocol_error),
            boost::system::error_code(mcp::client_errc::unsupported_version),
            boost::system::error_code(mcp::client_errc::not_connected),
            boost::system::error_code(asio::error::operation_aborted)})
    {
        auto const text = facturas::mcp_failure_message("La llamada al servidor MCP falló",
            mcp::client_error(ec, "the MCP server is not reachable"));
        BOOST_TEST_CONTEXT(ec.message())
        {
            BOOST_TEST(not_spanish(text).empty(), text);
            BOOST_TEST(text.ends_with(": «the MCP server is not reachable»."), text);
        }
    }

    // The model's provider, every kind of failure.
    using kind = llm::error::kind;
    for(auto const k : {kind::http_status, kind::stream_error, kind::connection, kind::timeout, kind::protocol,
            kind::cancelled, kind::configuration, kind::overloaded})
    {
        llm::error e;
        e.what = k;
        e.status = k == kind::http_status ? 401 : 0;
        e.message = "Internal server error";
        auto const text = facturas::model_failure_message(e);
        BOOST_TEST(not_spanish(text).empty(), text);
        BOOST_TEST(text.ends_with("«Internal server error»."), text);
    }

    // A long detail is cut, whole characters only.
    auto const long_quote = facturas::quote(std::string(499, 'x') + "ñandú");
    BOOST_TEST(long_quote == "«" + std::string(499, 'x') + "…»");
}

BOOST_AUTO_TEST_CASE(a_tool_result_is_read_from_structured_content_or_its_text)
{
    agentio::tool_result structured = agentio::tool_result::json(boost::json::object{{"rows", 1}});
    structured.structured = boost::json::object{{"rows", 2}};
    BOOST_TEST(facturas::result_object(structured)->at("rows").as_int64() == 2);
    // An older server: the JSON only as text content.
    auto const text_only = agentio::tool_result::text(R"({"columns": ["n"], "rows": [[7]]})");
    auto const read = facturas::result_object(text_only);
    BOOST_TEST_REQUIRE(read.has_value());
    BOOST_TEST(read->at("rows").as_array()[0].as_array()[0].as_int64() == 7);
    BOOST_TEST(!facturas::result_object(agentio::tool_result::text("no such table: x")).has_value());
}

BOOST_AUTO_TEST_CASE(sql_text_is_unfenced_checked_and_limited)
{
    BOOST_TEST(facturas::strip_code_fences("```sql\nSELECT 1;\n```") == "SELECT 1");
    BOOST_TEST(facturas::strip_code_fences("  select 2 ;; ") == "select 2");
    auto const limited = facturas::prepare_query("-- c\nSELECT 1", 5);
    BOOST_REQUIRE(limited.has_value());
    BOOST_TEST(*limited == "SELECT * FROM (\n-- c\nSELECT 1\n) LIMIT 5");
    BOOST_TEST(facturas::prepare_query("with x as (select 1) select * from x", 5).has_value());
    BOOST_TEST(!facturas::prepare_query("DELETE FROM Invoice", 5).has_value());
    BOOST_TEST(!facturas::prepare_query("SELECTED", 5).has_value());
    BOOST_TEST(!facturas::prepare_query("```\n```", 5).has_value());
    // A stack of statements, or a write behind CTEs, is refused before the LIMIT wraps it.
    auto const stacked = facturas::prepare_query("SELECT 1; DROP TABLE Invoice", 5);
    BOOST_TEST_REQUIRE(stacked.has_error());
    BOOST_TEST(stacked.error().find("varias sentencias") != std::string::npos, stacked.error());
    auto const hidden = facturas::prepare_query("WITH x AS (SELECT 1) DELETE FROM Invoice", 5);
    BOOST_TEST_REQUIRE(hidden.has_error());
    BOOST_TEST(hidden.error().find("no DELETE") != std::string::npos, hidden.error());
    // Semicolons and keywords inside literals, identifiers and comments are text.
    BOOST_TEST(facturas::prepare_query("SELECT 'a;b', \"x;y\" FROM [t;u] -- ; DELETE\n", 5).has_value());
    BOOST_TEST(facturas::prepare_query("SELECT 'it''s; DELETE' /* ; */", 5).has_value());
    BOOST_TEST(facturas::prepare_query("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) "
                                       "SELECT i FROM n;",
        5)
                   .has_value());
}

BOOST_AUTO_TEST_CASE(the_tables_a_query_names_are_found_whole_and_without_case)
{
    std::vector<std::string> const personal{"Customer", "Employee"};
    using names = std::vector<std::string>;
    BOOST_TEST(facturas::mentioned_tables("SELECT * FROM customer c JOIN Invoice i", personal) == names{"Customer"});
    BOOST_TEST(facturas::mentioned_tables("SELECT 1 FROM \"Employee\" JOIN [Customer]", personal) ==
        (names{"Customer", "Employee"}));
    BOOST_TEST(facturas::mentioned_tables("SELECT CustomerId FROM Invoice", personal).empty()); // not the word
    BOOST_TEST(facturas::mentioned_tables("SELECT COUNT(*) FROM Invoice", personal).empty());
    BOOST_TEST(facturas::mentioned_tables("SELECT * FROM Customer", {}).empty());
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

// A model's answer to `r`, its outputs in order.
std::vector<agentio::chat_completions::output> complete(fixture& f, agentio::chat_completions::model& m,
    agentio::chat_completions::request r)
{
    agentio::chat_completions::call_context ctx;
    ctx.session = "aprobaciones";
    return f.run(agentio_test::model_outputs(m, std::move(r), ctx));
}

std::string content_of(std::vector<agentio::chat_completions::output> const& outputs)
{
    std::string text;
    for(auto const& o : outputs)
        if(auto const* d = std::get_if<agentio::chat_completions::content_delta>(&o))
            text += d->text;
    return text;
}

} // namespace

BOOST_AUTO_TEST_SUITE(facturas_approvals)

BOOST_AUTO_TEST_CASE(personal_data_waits_for_a_person_and_runs_as_approved)
{
    namespace cc = agentio::chat_completions;
    fixture f([](facturas::settings& s) { s.approval_tables = {"Customer", "Employee"}; });
    auto model = facturas::make_openai_model(*f.agent);
    auto const& customers = questions[2]; // the five customers who spent most: reads Customer
    cc::request asked;
    asked.model = "facturas";
    asked.messages.push_back(llm::message::user(customers.question));
    auto const first = complete(f, *model, asked);
    BOOST_TEST_REQUIRE(!first.empty());
    auto const* waiting = std::get_if<cc::awaiting_approval>(&first.back());
    BOOST_TEST_REQUIRE(waiting != nullptr);
    BOOST_TEST_REQUIRE(waiting->calls.size() == 1u);
    auto const call = waiting->calls[0];
    BOOST_TEST(call.name == "sqlite_run_select");
    BOOST_TEST(call.question.find("Customer") != std::string::npos, call.question);
    BOOST_TEST(call.arguments.find("FROM Customer c") != std::string::npos, call.arguments);
    BOOST_TEST(content_of(first).empty());      // nothing answered, nothing run
    BOOST_TEST(f.fake.requests().size() == 1u); // the SQL only: no answer step
    // A question that reads no personal data does not wait.
    cc::request plain = asked;
    plain.messages = {llm::message::user(questions[0].question)};
    auto const by_country = complete(f, *model, plain);
    BOOST_TEST(std::holds_alternative<cc::finished>(by_country.back()));

    // The resumption: the question, the turn that waited, the decision.
    auto const resumed_with = [&](bool approved, std::string id) {
        cc::request r = asked;
        llm::message turn{llm::role::assistant, {}};
        turn.content.push_back(llm::tool_use_block{call.id, call.name, json::parse(call.arguments), call.arguments});
        r.messages.push_back(std::move(turn));
        r.decisions.push_back({std::move(id), approved, approved ? "" : "son datos personales"});
        return complete(f, *model, std::move(r));
    };
    auto const unknown = resumed_with(true, "otra");
    auto const* refused = std::get_if<cc::failed>(&unknown.back());
    BOOST_TEST_REQUIRE(refused != nullptr);
    BOOST_TEST(refused->error.param == "decisions[0].tool_call_id");
    auto const no = resumed_with(false, call.id);
    BOOST_TEST(content_of(no).find("no se aprobó (son datos personales)") != std::string::npos, content_of(no));
    auto const yes = resumed_with(true, call.id);
    BOOST_TEST(std::holds_alternative<cc::finished>(yes.back()));
    BOOST_TEST(content_of(yes) == "Según las facturas, este es el resultado que pediste.");
    bool result_of_the_call = false;
    for(auto const& o : yes)
        if(auto const* a = std::get_if<cc::tool_activity>(&o); a && a->what == cc::tool_activity::phase::finished)
            result_of_the_call = a->id == call.id && a->result == "5 filas" && !a->is_error;
    BOOST_TEST(result_of_the_call);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(facturas_http)

BOOST_AUTO_TEST_CASE(ask_stream_health_and_bad_requests)
{
    fixture f;
    agentio::http::server server(f.ioc.get_executor(), facturas::make_routes(*f.agent));
    auto const ep = server.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    server.start();
    std::string const base = "http://127.0.0.1:" + std::to_string(ep.port());
    auto request = [&](boost::beast::http::verb method, std::string const& path, std::string body) {
        agentio::http::client_request req;
        req.method = method;
        req.url = base + path;
        req.body = std::move(body);
        req.headers.set(boost::beast::http::field::content_type, "application/json");
        auto [err, res] = f.run(f.http.async_request(std::move(req), asio::use_awaitable));
        BOOST_REQUIRE(!err);
        return res;
    };
    namespace bhttp = boost::beast::http;

    auto health = request(bhttp::verb::get, "/health", "");
    BOOST_TEST(health.status == 200u);
    BOOST_TEST(json::parse(health.body).at("status") == "ok");

    json::object question{{"session_id", "web-1"}, {"question", questions[1].question}};
    auto asked = request(bhttp::verb::post, "/ask", agentio::to_json_text(question));
    BOOST_TEST(asked.status == 200u);
    auto const body = json::parse(asked.body).as_object();
    for(auto key : {"session_id", "answer", "sql", "columns", "rows", "row_count", "error_code", "error_message"})
        BOOST_TEST(body.contains(key), key);
    BOOST_TEST(body.at("error_code").is_null());
    BOOST_TEST(same_rows(body.at("rows").as_array(), direct_rows(f.db, questions[1].sql)));

    auto streamed = request(bhttp::verb::post, "/ask/stream", agentio::to_json_text(question));
    BOOST_TEST(streamed.status == 200u);
    agentio::sse::parser parser;
    std::vector<std::string> types;
    json::value done;
    parser.feed(streamed.body, [&](agentio::sse::event const& e) {
        types.push_back(e.type);
        if(e.type == "done")
            done = json::parse(e.data);
    });
    BOOST_TEST(std::count(types.begin(), types.end(), "step") >= 5);
    BOOST_TEST(std::count(types.begin(), types.end(), "sql") == 1);
    BOOST_TEST(std::count(types.begin(), types.end(), "rows") == 1);
    BOOST_TEST(std::count(types.begin(), types.end(), "chunk") >= 1);
    BOOST_TEST(types.back() == "done");
    BOOST_TEST(done.at("rows") == body.at("rows"));

    // A question while the session's previous one is still answered: 409, and nothing stored.
    {
        agentio::threads::turn_request held_session;
        held_session.thread_id = "facturas-web-1";
        auto held = f.run([&]() -> asio::awaitable<std::optional<agentio::threads::turn>> {
                         co_return (co_await agentio::threads::begin_turn(*f.store, held_session)).value();
                     }())
                        .value();
        auto const calls = f.fake.requests().size();
        auto busy = request(bhttp::verb::post, "/ask", agentio::to_json_text(question));
        BOOST_TEST(busy.status == 409u);
        auto const o = json::parse(busy.body).as_object();
        BOOST_TEST(o.at("error_code") == "session_busy");
        BOOST_TEST(not_spanish(o.at("error_message").as_string()).empty(), o.at("error_message"));
        BOOST_TEST(o.at("answer").as_string().find("pregunta en curso") != std::string::npos);
        BOOST_TEST(f.fake.requests().size() == calls); // the model was not asked
        f.run(held.finish({})).value();
        auto const stored = f.run(f.store->load_items("facturas-web-1")).value();
        BOOST_TEST(stored.size() == 8u); // two questions, each with its SQL call, result and answer
        BOOST_TEST(request(bhttp::verb::post, "/ask", agentio::to_json_text(question)).status == 200u);
    }

    struct bad
    {
        std::string body;
        std::string field;
    };
    for(auto const& b : {bad{"no es json", "cuerpo"}, bad{R"({"question":"hola"})", "session_id"},
            bad{R"({"session_id":"a b","question":"hola"})", "session_id"},
            bad{R"({"session_id":"s","question":"   "})", "question"},
            bad{R"({"session_id":"s","question":"hola","extra":1})", "extra"}})
    {
        auto refused = request(bhttp::verb::post, "/ask", b.body);
        BOOST_TEST_CONTEXT(b.body)
        {
            BOOST_TEST(refused.status == 400u);
            auto const o = json::parse(refused.body).as_object();
            BOOST_TEST(o.at("error_code") == "invalid_request");
            BOOST_TEST(std::string(o.at("error_message").as_string()).find(b.field) != std::string::npos);
            BOOST_TEST(not_spanish(o.at("error_message").as_string()).empty(), o.at("error_message"));
            BOOST_TEST(!o.at("answer").as_string().empty());
        }
    }
    server.stop();
}

// The routes take the router's options: each request observed by its pattern and status, for the access log and
// GET /metrics.
BOOST_AUTO_TEST_CASE(requests_are_observed_and_counted_for_prometheus)
{
    fixture f;
    agentio::metrics::registry registry({.process_metrics = false});
    agentio::http::request_metrics requests(registry);
    agentio::http::router_options o;
    o.observe = [&](agentio::http::request_observation const& seen) { requests.record(seen); };
    auto routes = facturas::make_routes(*f.agent, std::move(o));
    agentio::http::add_metrics_route(routes, registry);
    agentio::http::server server(f.ioc.get_executor(), std::move(routes));
    auto const ep = server.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    server.start();
    auto get = [&](std::string path) {
        agentio::http::client_request req;
        req.url = "http://127.0.0.1:" + std::to_string(ep.port()) + path;
        auto [err, res] = f.run(f.http.async_request(std::move(req), asio::use_awaitable));
        BOOST_REQUIRE(!err);
        return res;
    };
    BOOST_TEST(get("/health").status == 200u);
    BOOST_TEST(get("/nope").status == 404u);
    auto const scraped = get("/metrics");
    BOOST_TEST_REQUIRE(scraped.status == 200u);
    BOOST_TEST(scraped.body.find("agentio_http_requests_total{method=\"GET\",route=\"/health\",status=\"200\"} 1\n") !=
            std::string::npos,
        scraped.body);
    BOOST_TEST(
        scraped.body.find("agentio_http_requests_total{method=\"GET\",route=\"unmatched\",status=\"404\"} 1\n") !=
        std::string::npos);
    server.stop();
}

BOOST_AUTO_TEST_CASE(the_agent_as_an_openai_model)
{
    fixture f;
    agentio::chat_completions::endpoint openai;
    openai.add(facturas::make_openai_model(*f.agent));
    auto routes = facturas::make_routes(*f.agent);
    openai.add_routes(routes);
    agentio::http::server server(f.ioc.get_executor(), std::move(routes));
    auto const ep = server.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    server.start();
    auto post = [&](std::string body) {
        agentio::http::client_request req;
        req.method = boost::beast::http::verb::post;
        req.url = "http://127.0.0.1:" + std::to_string(ep.port()) + "/v1/chat/completions";
        req.body = std::move(body);
        req.headers.set(boost::beast::http::field::content_type, "application/json");
        auto [err, res] = f.run(f.http.async_request(std::move(req), asio::use_awaitable));
        BOOST_REQUIRE(!err);
        return res;
    };
    json::object const question{{"model", "facturas"}, {"session_id", "openai-1"},
        {"messages", json::array{json::object{{"role", "user"}, {"content", questions[1].question}}}}};
    auto const answered = post(agentio::to_json_text(question));
    BOOST_TEST_REQUIRE(answered.status == 200u, answered.body);
    auto const message = json::parse(answered.body).at("choices").at(0).at("message");
    BOOST_TEST(!message.at("content").as_string().empty());
    BOOST_TEST(message.at("reasoning_content").as_string().find("SQL: ") != std::string::npos);
    BOOST_TEST(json::parse(answered.body).at("choices").at(0).at("finish_reason") == "stop");
    auto const not_a_question = post(R"({"model": "facturas", "messages": [{"role": "assistant", "content": "x"}]})");
    BOOST_TEST(not_a_question.status == 400u);
    BOOST_TEST(json::parse(not_a_question.body).at("error").at("param") == "messages");
    server.stop();
}

BOOST_AUTO_TEST_SUITE_END()
