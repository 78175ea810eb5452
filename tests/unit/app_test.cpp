// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/app.hpp>

#include <agentio/http/json_response.hpp>
#include <agentio/llm/environment.hpp>

#include <boost/beast/http.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace app = agentio::app;

namespace {

// Parses `args` (the program's name first is added) and returns the error's text, or "" when it parsed.
std::string error_of(app::command_line& cli, std::vector<char const*> args)
{
    args.insert(args.begin(), "prog");
    try
    {
        cli.parse(static_cast<int>(args.size()), args.data());
        return {};
    }
    catch(app::usage_error const& e)
    {
        return e.what();
    }
}

struct facturas_like
{
    app::command_line cli{"agentio-facturas", agentio::spanish_messages};
    std::string db, host = "127.0.0.1", session = "cli", question, transport = "stdio";
    unsigned short port = 7003;
    unsigned threads = 2;
    std::chrono::seconds grace{10};
    bool as_json = false;
    std::vector<std::string> files;

    facturas_like()
    {
        auto& serve = cli.command("serve", "sirve la API");
        serve.option("--db", db, "RUTA", "la base de datos").required();
        serve.option("--host", host, "H");
        serve.option("--port", port, "P");
        serve.option("--threads", threads, "N").range(1, 64);
        serve.option("--shutdown-grace", grace, "S").range(0, 3600);
        serve.option("--transport", transport, "T").one_of({"stdio", "http", "sse"});
        auto& ask = cli.command("ask");
        ask.argument("PREGUNTA", question);
        ask.option("--session", session, "ID");
        ask.option("--json", as_json);
        auto& ingest = cli.command("ingest");
        ingest.arguments("RUTA…", files);
        cli.epilog("Variables: AGENT_MODEL.");
    }
};

} // namespace

BOOST_AUTO_TEST_SUITE(app_kit)

BOOST_AUTO_TEST_CASE(options_are_written_into_their_variables)
{
    facturas_like f;
    std::vector<char const*> args{"prog", "serve", "--db", "x.db", "--port=8080", "--threads", "4", "--shutdown-grace",
        "30", "--transport", "http"};
    auto const parsed = f.cli.parse(static_cast<int>(args.size()), args.data());
    BOOST_TEST(parsed.command == "serve");
    BOOST_TEST(!parsed.help);
    BOOST_TEST(f.db == "x.db");
    BOOST_TEST(f.port == 8080);
    BOOST_TEST(f.threads == 4u);
    BOOST_TEST(f.grace.count() == 30);
    BOOST_TEST(f.transport == "http");
    BOOST_TEST(f.host == "127.0.0.1"); // not given: the default stays
}

BOOST_AUTO_TEST_CASE(positional_arguments_and_flags_in_any_order)
{
    facturas_like f;
    BOOST_TEST(error_of(f.cli, {"ask", "--json", "¿Cuánto facturamos?", "--session", "s1"}) == "");
    BOOST_TEST(f.question == "¿Cuánto facturamos?");
    BOOST_TEST(f.session == "s1");
    BOOST_TEST(f.as_json);
    facturas_like g;
    BOOST_TEST(error_of(g.cli, {"ingest", "a.txt", "--", "--b.txt"}) == "");
    BOOST_TEST(g.files == (std::vector<std::string>{"a.txt", "--b.txt"}));
}

BOOST_AUTO_TEST_CASE(each_mistake_is_one_line_in_the_programs_language)
{
    facturas_like f;
    BOOST_TEST(error_of(f.cli, {}) == "falta la orden");
    BOOST_TEST(error_of(f.cli, {"sirve"}) == "orden desconocida 'sirve'");
    BOOST_TEST(error_of(f.cli, {"serve", "--db", "x", "--puerto", "1"}) == "opción desconocida '--puerto'");
    BOOST_TEST(error_of(f.cli, {"serve", "--db"}) == "--db: falta el valor");
    BOOST_TEST(error_of(f.cli, {"serve", "--db", "x", "--port", "70000"}) ==
        "--port: se esperaba un número entero entre 0 y 65535, recibido '70000'");
    BOOST_TEST(error_of(f.cli, {"serve", "--db", "x", "--threads", "0"}) ==
        "--threads: se esperaba un número entero entre 1 y 64, recibido '0'");
    BOOST_TEST(error_of(f.cli, {"serve", "--db", "x", "--threads", "-3"}) ==
        "--threads: se esperaba un número entero entre 1 y 64, recibido '-3'");
    BOOST_TEST(error_of(f.cli, {"serve", "--db", "x", "--port", "80x"}) ==
        "--port: se esperaba un número entero entre 0 y 65535, recibido '80x'");
    BOOST_TEST(error_of(f.cli, {"serve", "--db", "x", "--transport", "udp"}) ==
        "--transport: se esperaba uno de stdio, http, sse, recibido 'udp'");
    BOOST_TEST(error_of(f.cli, {"serve", "--port", "1"}) == "serve: falta --db RUTA");
    BOOST_TEST(error_of(f.cli, {"ask"}) == "ask: falta PREGUNTA");
    BOOST_TEST(error_of(f.cli, {"ask", "a", "b"}) == "argumento inesperado 'b'");
    BOOST_TEST(error_of(f.cli, {"ask", "a", "--json=yes"}) == "argumento inesperado '--json=yes'");
    BOOST_TEST(error_of(f.cli, {"ingest"}) == "ingest: falta RUTA…");
}

BOOST_AUTO_TEST_CASE(a_program_without_commands_takes_its_options_at_once)
{
    app::command_line cli("agentio-sqlite-mcp"); // English by default
    std::string db;
    std::size_t max_bytes = 1000;
    cli.root().option("--db", db, "PATH").required();
    cli.root().option("--max-result-bytes", max_bytes, "N").range(1, 1'000'000);
    BOOST_TEST(error_of(cli, {"--db", "a.db", "--max-result-bytes", "5"}) == "");
    BOOST_TEST(db == "a.db");
    BOOST_TEST(max_bytes == 5u);
    BOOST_TEST(error_of(cli, {"--max-result-bytes", "0", "--db", "a"}) ==
        "--max-result-bytes: expected a whole number from 1 to 1000000, got '0'");
    BOOST_TEST(error_of(cli, {"serve"}) == "unexpected argument 'serve'");
    BOOST_TEST(error_of(cli, {}) == "--db PATH is missing");
}

BOOST_AUTO_TEST_CASE(help_anywhere_asks_for_the_usage_which_the_table_writes)
{
    facturas_like f;
    std::vector<char const*> args{"prog", "serve", "--port", "nope", "--help"};
    BOOST_TEST(f.cli.parse(static_cast<int>(args.size()), args.data()).help);
    auto const usage = f.cli.usage();
    BOOST_TEST(usage.starts_with("uso:\n"));
    BOOST_TEST(usage.find("  agentio-facturas serve --db RUTA [--host H] [--port P] [--threads N] "
                          "[--shutdown-grace S] [--transport stdio|http|sse]\n") != std::string::npos,
        usage);
    BOOST_TEST(usage.find("      sirve la API\n") != std::string::npos);
    BOOST_TEST(usage.find("      --db RUTA: la base de datos\n") != std::string::npos);
    BOOST_TEST(usage.find("  agentio-facturas ask PREGUNTA [--session ID] [--json]\n") != std::string::npos, usage);
    BOOST_TEST(usage.find("  agentio-facturas ingest RUTA…\n") != std::string::npos, usage);
    BOOST_TEST(usage.ends_with("\nVariables: AGENT_MODEL.\n"));
}

BOOST_AUTO_TEST_CASE(a_malformed_variable_is_named_in_the_programs_language)
{
    unsigned rows = 200;
    auto lookup = [](char const* name) -> std::optional<std::string> {
        if(std::string_view(name) == "INVOICE_AGENT_SQL_MAX_ROWS")
            return "muchas";
        return std::nullopt;
    };
    try
    {
        app::read_variable("INVOICE_AGENT_SQL_MAX_ROWS", rows, 1, 10000, agentio::spanish_messages, lookup);
        BOOST_FAIL("no error");
    }
    catch(app::usage_error const& e)
    {
        BOOST_TEST(std::string(e.what()) ==
            "INVOICE_AGENT_SQL_MAX_ROWS: se esperaba un número entero entre 1 y 10000, recibido 'muchas'");
    }
    BOOST_TEST(rows == 200u);
    agentio::invalid_variable const bad{"AGENT_PROVIDER", "gemini", {"anthropic", "openai"}};
    BOOST_TEST(app::to_string(bad, agentio::spanish_messages) ==
        "AGENT_PROVIDER: se esperaba uno de anthropic, openai, recibido 'gemini'");
}

BOOST_AUTO_TEST_CASE(run_main_turns_errors_into_exit_statuses)
{
    facturas_like f;
    std::vector<char*> args{const_cast<char*>("prog"), const_cast<char*>("serve"), const_cast<char*>("--db"),
        const_cast<char*>("x"), nullptr};
    int ran = 0;
    auto body = [&](std::string_view command) {
        ++ran;
        BOOST_TEST(command == "serve");
        return 7;
    };
    BOOST_TEST(app::run_main(f.cli, 4, args.data(), body, {.dotenv = false}) == 7);
    BOOST_TEST(ran == 1);
    args[2] = const_cast<char*>("--nope");
    BOOST_TEST(app::run_main(f.cli, 4, args.data(), body, {.dotenv = false}) == 2);
    BOOST_TEST(ran == 1);
    args[2] = const_cast<char*>("--db");
    BOOST_TEST(app::run_main(f.cli, 4, args.data(), [](std::string_view) -> int { throw std::runtime_error("x"); },
                   {.dotenv = false}) == 1);
    BOOST_TEST(app::run_main(f.cli, 4, args.data(), [](std::string_view) -> int { throw app::usage_error("y"); },
                   {.dotenv = false}) == 2);
}

BOOST_AUTO_TEST_CASE(dotenv_gives_defaults_and_never_overrides)
{
    auto const path = std::filesystem::temp_directory_path() / "agentio_app_test.env";
    {
        std::ofstream out(path);
        out << "# a comment\n"
               "AGENTIO_T_PLAIN=uno # trailing comment\n"
               "export AGENTIO_T_EXPORTED = dos\n"
               "AGENTIO_T_QUOTED=\"tres # no es comentario\"\r\n"
               "AGENTIO_T_SET=del fichero\n"
               "not a line\n";
    }
    ::setenv("AGENTIO_T_SET", "del entorno", 1);
    BOOST_TEST(app::load_dotenv(path) == 4u);
    BOOST_TEST(std::getenv("AGENTIO_T_PLAIN") == std::string("uno"));
    BOOST_TEST(std::getenv("AGENTIO_T_EXPORTED") == std::string("dos"));
    BOOST_TEST(std::getenv("AGENTIO_T_QUOTED") == std::string("tres # no es comentario"));
    BOOST_TEST(std::getenv("AGENTIO_T_SET") == std::string("del entorno"));
    BOOST_TEST(app::load_dotenv(path.string() + ".missing") == 0u);
    std::filesystem::remove(path);
}

BOOST_AUTO_TEST_CASE(json_responses_and_the_providers_client)
{
    namespace bhttp = boost::beast::http;
    bhttp::request<bhttp::string_body> req{bhttp::verb::get, "/", 10};
    auto const res = agentio::http::json_response(bhttp::status::created, boost::json::object{{"a", 1}}, req);
    BOOST_TEST(res.result_int() == 201);
    BOOST_TEST(res.version() == 10u);
    BOOST_TEST(!res.keep_alive());
    BOOST_TEST(res[bhttp::field::content_type] == "application/json");
    BOOST_TEST(res[bhttp::field::cache_control] == "no-store");
    BOOST_TEST(res.body() == R"({"a":1})");
    BOOST_TEST(res[bhttp::field::content_length] == "7");
    auto const o = agentio::llm::provider_client_options();
    BOOST_TEST(o.max_connections_per_origin >= 10000u);
    BOOST_TEST(o.watch_idle_connections);
}

BOOST_AUTO_TEST_SUITE_END()
