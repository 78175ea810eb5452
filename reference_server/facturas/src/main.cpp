// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio-facturas: the invoice agent. Spanish questions about the invoices of
// a SQLite database become SQL, run only through agentio-sqlite-mcp.
//
//   agentio-facturas serve --db PATH [--host H] [--port P] [--threads N]
//   agentio-facturas ask "PREGUNTA" --db PATH [--session ID]
//   agentio-facturas init-db --sql SCRIPT --db PATH
#include "agent.hpp"
#include "http_api.hpp"
#include "openai_api.hpp"
#include "settings.hpp"

#include <agentio/http/server.hpp>
#include <agentio/environment.hpp>
#include <agentio/json_text.hpp>
#include <agentio/run.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/llm/openai.hpp>
#include <agentio/sqlite/thread_store.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <sqlite3.h>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;

namespace {

constexpr char const* usage = R"(uso:
  agentio-facturas serve --db RUTA [--host H] [--port P] [--threads N]
  agentio-facturas ask "PREGUNTA" --db RUTA [--session ID]
  agentio-facturas init-db --sql SCRIPT --db RUTA

El agente de facturas: convierte preguntas en español en SQL de solo lectura y
las ejecuta a través del servidor MCP de SQLite (agentio-sqlite-mcp). Por
defecto escucha en http://127.0.0.1:7003: POST /ask, POST /ask/stream (SSE),
GET /health, y la API de OpenAI con el modelo "facturas" (POST /v1/chat/completions,
GET /v1/models).

Variables: AGENT_PROVIDER (anthropic | openai), ANTHROPIC_API_KEY,
ANTHROPIC_BASE_URL, ANTHROPIC_VERSION, OPENAI_API_KEY, OPENAI_BASE_URL,
AGENT_MODEL, INVOICE_AGENT_MAX_HISTORY_TURNS (5), INVOICE_AGENT_SQL_MAX_ROWS
(200), INVOICE_AGENT_MCP_TIMEOUT (30 s), INVOICE_AGENT_SCHEMA_TTL (300 s),
INVOICE_AGENT_MCP_COMMAND (por defecto: agentio-sqlite-mcp --db RUTA),
INVOICE_AGENT_MCP_URL (un servidor MCP por HTTP en su lugar),
INVOICE_AGENT_STORE (las conversaciones, SQLite: data/facturas_threads.db).
)";

struct usage_error
{
    std::string message;
};

std::string shell_quote(std::string const& word)
{
    std::string out = "'";
    for(char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

facturas::mcp_endpoint endpoint_for(facturas::settings const& s, std::filesystem::path const& db)
{
    if(!s.mcp_url.empty())
        return {{}, s.mcp_url};
    if(!s.mcp_command.empty())
        return {s.mcp_command, {}};
    if(db.empty())
        throw usage_error{"falta --db RUTA (o INVOICE_AGENT_MCP_COMMAND / INVOICE_AGENT_MCP_URL)"};
    if(!std::filesystem::exists(db))
        throw usage_error{"--db: no existe '" + db.string() + "' (créala con agentio-facturas init-db)"};
    return {shell_quote(agentio::companion_program("agentio-sqlite-mcp", {"../sqlite_mcp"})) + " --db " +
            shell_quote(std::filesystem::absolute(db).string()),
        {}};
}

std::unique_ptr<agentio::sqlite::thread_store> open_store(std::string const& path)
{
    std::error_code ec;
    if(auto const dir = std::filesystem::path(path).parent_path(); !dir.empty())
        std::filesystem::create_directories(dir, ec);
    auto store = agentio::sqlite::thread_store::open(path);
    if(!store)
        throw usage_error{"INVOICE_AGENT_STORE: no se pudo abrir '" + path + "': " + store.error().message};
    return std::move(*store);
}

// Builds a database from an SQL script (the Chinook script, say).
int init_db(std::filesystem::path const& script, std::filesystem::path const& db)
{
    std::ifstream in(script, std::ios::binary);
    if(!in)
        throw usage_error{"--sql: no se puede leer '" + script.string() + "'"};
    std::stringstream text;
    text << in.rdbuf();
    std::string sql = text.str();
    if(sql.starts_with("\xEF\xBB\xBF"))
        sql.erase(0, 3); // a UTF-8 byte order mark
    if(std::filesystem::exists(db))
        throw usage_error{"--db: '" + db.string() + "' ya existe"};
    if(auto const dir = db.parent_path(); !dir.empty())
        std::filesystem::create_directories(dir);
    auto const partial = db.string() + ".partial";
    std::filesystem::remove(partial);
    sqlite3* handle = nullptr;
    int rc = sqlite3_open_v2(partial.c_str(), &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    char* error = nullptr;
    if(rc == SQLITE_OK)
        rc = sqlite3_exec(handle, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;", nullptr, nullptr, &error);
    if(rc == SQLITE_OK)
        rc = sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, &error);
    if(rc == SQLITE_OK && sqlite3_get_autocommit(handle) == 0)
        rc = sqlite3_exec(handle, "COMMIT;", nullptr, nullptr, &error);
    std::string const why = error ? error : (handle ? sqlite3_errmsg(handle) : "sin memoria");
    sqlite3_free(error);
    sqlite3_close(handle);
    if(rc != SQLITE_OK)
    {
        std::filesystem::remove(partial);
        std::fprintf(stderr, "agentio-facturas: el script falló: %s\n", why.c_str());
        return 1;
    }
    std::filesystem::rename(partial, db);
    std::printf("Base de datos creada en %s\n", db.string().c_str());
    return 0;
}

void print_table(json::array const& columns, json::array const& rows)
{
    std::string line;
    for(auto const& c : columns)
        line += (line.empty() ? "" : " | ") + (c.is_string() ? std::string(c.get_string()) : agentio::to_json_text(c));
    std::cout << line << '\n';
    for(auto const& row : rows)
    {
        line.clear();
        bool first = true;
        for(auto const& v : row.as_array())
        {
            line += first ? "" : " | ";
            first = false;
            line += v.is_string() ? std::string(v.get_string()) : agentio::to_json_text(v);
        }
        std::cout << line << '\n';
    }
}

int run(int argc, char** argv)
{
    if(argc < 2)
        throw usage_error{"falta la orden"};
    std::string const command = argv[1];
    if(command == "--help" || command == "-h")
    {
        std::cout << usage;
        return 0;
    }
    std::filesystem::path db, script;
    std::string host = "127.0.0.1", session = "cli", question;
    unsigned short port = 7003;
    unsigned threads = 2;
    for(int i = 2; i < argc; ++i)
    {
        std::string_view const flag = argv[i];
        auto value = [&]() -> std::string {
            if(i + 1 >= argc)
                throw usage_error{std::string(flag) + ": falta el valor"};
            return argv[++i];
        };
        if(flag == "--db")
            db = value();
        else if(flag == "--sql")
            script = value();
        else if(flag == "--host")
            host = value();
        else if(flag == "--session")
            session = value();
        else if(flag == "--port" || flag == "--threads")
        {
            auto const text = value();
            auto const v = flag == "--port" ? agentio::parse_unsigned(text, 0, 65535)
                                            : agentio::parse_unsigned(text, 1, 64);
            if(!v)
                throw usage_error{std::string(flag) + ": valor no válido '" + text + "'"};
            if(flag == "--port")
                port = static_cast<unsigned short>(*v);
            else
                threads = *v;
        }
        else if(command == "ask" && question.empty() && !flag.starts_with("--"))
            question = flag;
        else
            throw usage_error{"argumento desconocido '" + std::string(flag) + "'"};
    }
    if(command == "init-db")
    {
        if(script.empty() || db.empty())
            throw usage_error{"init-db necesita --sql SCRIPT y --db RUTA"};
        return init_db(script, db);
    }
    if(command != "serve" && command != "ask")
        throw usage_error{"orden desconocida '" + command + "'"};

    auto config = facturas::settings::from_environment();
    if(!config)
        throw usage_error{config.error()};
    auto const endpoint = endpoint_for(*config, db);
    auto store = open_store(config->store);
    asio::io_context ioc;
    // One provider origin carries every request's stream at once: the client's
    // default of a few connections per origin would queue them behind each other.
    agentio::http::client_options http_options;
    http_options.max_connections_per_origin = 100000;
    http_options.watch_idle_connections = true; // a server: no connection lingers in CLOSE_WAIT
    agentio::http::client http(ioc.get_executor(), http_options);
    auto provider = llm::make_provider(config->model, http);
    facturas::invoice_agent agent(*config, endpoint, provider, *store);

    if(command == "ask")
    {
        if(question.empty())
            throw usage_error{"ask necesita la pregunta entre comillas"};
        auto const r = agentio::run_to_completion(ioc, agent.ask(session, question));
        agentio::run_to_completion(ioc, agent.close());
        std::cout << r.answer << '\n';
        if(!r.sql.empty())
            std::cout << "\nSQL:\n" << r.sql << "\n\n";
        print_table(r.columns, r.rows);
        if(!r.error_code.empty())
            std::cerr << r.error_code << ": " << r.error_message << '\n';
        return r.error_code.empty() ? 0 : 1;
    }

    // The same agent as an OpenAI-compatible model, for any OpenAI client and agentio-platform.
    agentio::chat_completions::endpoint openai;
    openai.add(facturas::make_openai_model(agent));
    auto routes = facturas::make_routes(agent);
    openai.add_routes(routes);
    agentio::http::server server(ioc.get_executor(), std::move(routes));
    auto const bound = server.listen({asio::ip::make_address(host), port});
    if(!bound)
        throw usage_error{
            "no se puede escuchar en " + host + ":" + std::to_string(port) + ": " + bound.error().message()};
    server.start();
    std::printf("agentio-facturas en http://%s:%u (POST /ask, POST /ask/stream, GET /health, /v1)\n", host.c_str(),
        bound->port());
    std::fflush(stdout);
    agentio::run_until_signal(ioc, threads, [&] {
        server.stop();
        asio::co_spawn(ioc, agent.close(), [&](std::exception_ptr) { ioc.stop(); });
    });
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    try
    {
        return run(argc, argv);
    }
    catch(usage_error const& e)
    {
        std::fprintf(stderr, "agentio-facturas: %s\n\n%s", e.message.c_str(), usage);
        return 2;
    }
    catch(std::exception const& e)
    {
        std::fprintf(stderr, "agentio-facturas: %s\n", e.what());
        return 1;
    }
}
