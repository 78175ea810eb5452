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

#include <agentio/app.hpp>
#include <agentio/environment.hpp>
#include <agentio/app/telemetry.hpp>
#include <agentio/http/metrics.hpp>
#include <agentio/http/request_log.hpp>
#include <agentio/http/server.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/environment.hpp>
#include <agentio/run.hpp>
#include <agentio/a2a.hpp>
#include <agentio/ag_ui.hpp>
#include <agentio/version.hpp>
#include <agentio/threads/observed_store.hpp>
#include <agentio/threads/open_store.hpp>

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
namespace app = agentio::app;

namespace {

constexpr char const* about = R"(El agente de facturas: convierte preguntas en español en SQL de solo lectura y
las ejecuta a través del servidor MCP de SQLite (agentio-sqlite-mcp). Por
defecto escucha en http://127.0.0.1:7003: POST /ask, POST /ask/stream (SSE),
GET /health, y la API de OpenAI con el modelo "facturas" (POST /v1/chat/completions,
GET /v1/models).

Variables (también en .env): AGENT_PROVIDER (anthropic | openai), ANTHROPIC_API_KEY,
ANTHROPIC_BASE_URL, ANTHROPIC_VERSION, OPENAI_API_KEY, OPENAI_BASE_URL,
AGENT_MODEL, INVOICE_AGENT_MAX_HISTORY_TURNS (5), INVOICE_AGENT_SQL_MAX_ROWS
(200), INVOICE_AGENT_MCP_TIMEOUT (30 s), INVOICE_AGENT_SCHEMA_TTL (300 s),
INVOICE_AGENT_APPROVAL_TABLES (tablas cuya lectura espera la aprobación de una
persona por AG-UI y A2A, p. ej. Customer,Employee),
INVOICE_AGENT_MCP_COMMAND (por defecto: agentio-sqlite-mcp --db RUTA),
INVOICE_AGENT_MCP_URL (un servidor MCP por HTTP en su lugar),
INVOICE_AGENT_STORE (las conversaciones: un fichero SQLite, data/facturas_threads.db,
o una URI postgresql://).)";

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
        throw app::usage_error("falta --db RUTA (o INVOICE_AGENT_MCP_COMMAND / INVOICE_AGENT_MCP_URL)");
    if(!std::filesystem::exists(db))
        throw app::usage_error("--db: no existe '" + db.string() + "' (créala con agentio-facturas init-db)");
    return {shell_quote(agentio::companion_program("agentio-sqlite-mcp", {"../sqlite_mcp"})) + " --db " +
            shell_quote(std::filesystem::absolute(db).string()),
        {}};
}

// Builds a database from an SQL script (the Chinook script, say).
int init_db(std::filesystem::path const& script, std::filesystem::path const& db)
{
    std::ifstream in(script, std::ios::binary);
    if(!in)
        throw app::usage_error("--sql: no se puede leer '" + script.string() + "'");
    std::stringstream text;
    text << in.rdbuf();
    std::string sql = text.str();
    if(sql.starts_with("\xEF\xBB\xBF"))
        sql.erase(0, 3); // a UTF-8 byte order mark
    if(std::filesystem::exists(db))
        throw app::usage_error("--db: '" + db.string() + "' ya existe");
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

} // namespace

int main(int argc, char** argv)
{
    app::command_line cli("agentio-facturas", agentio::spanish_messages);
    std::string db, script, host = "127.0.0.1", session = "cli", question;
    unsigned short port = 7003;
    unsigned threads = 2;
    auto& serve = cli.command("serve", "sirve la API HTTP del agente");
    serve.option("--db", db, "RUTA");
    serve.option("--host", host, "H");
    serve.option("--port", port, "P");
    serve.option("--threads", threads, "N").range(1, 64);
    auto& ask = cli.command("ask", "responde una pregunta y muestra el SQL y las filas");
    ask.argument("PREGUNTA", question);
    ask.option("--db", db, "RUTA");
    ask.option("--session", session, "ID");
    auto& init = cli.command("init-db", "crea la base de datos a partir de un script SQL (el de Chinook)");
    init.option("--sql", script, "SCRIPT").required();
    init.option("--db", db, "RUTA").required();
    cli.epilog(about);

    return app::run_main(cli, argc, argv, [&](std::string_view command) -> int {
        if(command == "init-db")
            return init_db(script, db);

        auto config = facturas::settings::from_environment();
        if(!config)
            throw app::usage_error(config.error());
        auto const endpoint = endpoint_for(*config, db);
        asio::io_context ioc;
        // Logs (AGENTIO_LOG_*, LOGURU_LEVEL), GET /metrics, traces (OTEL_*).
        agentio::app::telemetry seen(ioc.get_executor(), {config->log, config->trace, config->metrics_address});
        auto& log = seen.log();
        agentio::http::client http(ioc.get_executor(), seen.client_options(llm::provider_client_options()));
        llm::provider_options counted;
        counted.on_retry = seen.provider_retries(config->model.provider == llm::provider_kind::anthropic ? "anthropic"
                                                                                                         : "openai");
        auto provider = llm::make_provider(config->model, http, std::move(counted));
        auto store = agentio::run_to_completion(ioc, agentio::threads::open_store(config->store));
        if(!store)
            throw app::usage_error("INVOICE_AGENT_STORE: no se pudo abrir '" + config->store +
                "': " + store.error().message);
        // Each store call timed and counted (agentio_store_*), on GET /metrics.
        *store = std::make_unique<agentio::threads::observed_store>(std::move(*store), seen.registry(), "threads",
            &seen.tracer());
        facturas::invoice_agent agent(*config, endpoint, provider, **store);

        if(command == "ask")
        {
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

        // Each request logged, counted by its route's pattern and traced; GET /metrics for Prometheus; each
        // question's spans and its model and MCP calls' metrics.
        agent.set_telemetry(seen.agent("facturas"));
        auto observed = seen.router_options();

        // The same agent as an OpenAI-compatible model, for any OpenAI client and agentio-platform.
        agentio::chat_completions::endpoint openai;
        openai.add(facturas::make_openai_model(agent));
        auto routes = facturas::make_routes(agent, std::move(observed));
        openai.add_routes(routes);
        // And over AG-UI (POST /ag-ui): each thread kept in the store, as the agent's own sessions are.
        agentio::ag_ui::endpoint ag_ui(openai, {.store = store->get()});
        ag_ui.add_routes(routes);
        // And to other agents over A2A (POST /a2a, the card at /.well-known/agent-card.json), on the same runs.
        agentio::a2a::endpoint_options to_agents;
        to_agents.card.name = "agentio-facturas";
        to_agents.card.description =
            "Responde preguntas sobre las facturas de una tienda de música con SQL de solo lectura sobre su base.";
        to_agents.card.version = AGENTIO_VERSION_STRING;
        to_agents.skills = {{"facturas", "Consultas de facturas",
            "Traduce la pregunta a una consulta SELECT, la ejecuta en solo lectura y responde con sus datos.",
            {"sql", "facturas"}, {"¿Cuántas facturas hay?", "¿Qué país factura más?"}}};
        agentio::a2a::endpoint a2a(ag_ui, std::move(to_agents));
        a2a.add_routes(routes);
        seen.add_metrics_route(routes);
        agentio::http::server server(ioc.get_executor(), std::move(routes));
        auto const bound = server.listen({asio::ip::make_address(host), port});
        if(!bound)
            throw std::runtime_error("no se puede escuchar en " + host + ":" + std::to_string(port) + ": " +
                bound.error().message());
        server.start();
        std::printf(
            "agentio-facturas en http://%s:%u (POST /ask, POST /ask/stream, GET /health, GET /metrics, /v1, /ag-ui, /a2a)\n",
            host.c_str(), bound->port());
        std::fflush(stdout);
        log.info("start", {{"url", "http://" + host + ":" + std::to_string(bound->port())}, {"threads", threads}});
        seen.start();
        auto drained = [&]() -> asio::awaitable<void> {
            co_await agent.close();
            co_await seen.shutdown(); // the last spans sent, the log flushed
        };
        app::serve(ioc, server, {.threads = threads, .on_drained = drained});
        log.info("stop");
        return 0;
    });
}
