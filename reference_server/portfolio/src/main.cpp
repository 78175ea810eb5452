// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio-portfolio: the reference server of agentio.
//
//   agentio-portfolio init-db PATH [--initiatives N] [--seed S]
//   agentio-portfolio serve [--db PATH] [--host H] [--port P] [--threads N] [--max-limit N] [--web-dir DIR]
//                           [--tls-cert FILE --tls-key FILE]
//                           [--shutdown-grace S] [--max-connections-per-address N]
//   agentio-portfolio chat "pregunta" [--url URL] [--thread ID] [--api-key K]
//   agentio-portfolio mcp [--transport stdio|http|sse] [--host H] [--port P] [--api-url URL]

#include "agent/settings.hpp"
#include "app/config.hpp"
#include "app/mcp_server.hpp"
#include "app/server.hpp"
#include "portfolio/db_generator.hpp"

#include <agentio/app.hpp>
#include <agentio/http/client.hpp>
#include <agentio/json_text.hpp>
#include <agentio/log.hpp>
#include <agentio/sqlite.hpp>
#include <agentio/sse/parser.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>

namespace {

constexpr char const* about = R"(agentio-portfolio — servidor de referencia de agentio (portfolio digital).
serve: API REST de solo lectura en http://H:P/api/v1 (por defecto 127.0.0.1:8080) y la página del asistente en
http://H:P/chat (reference_server/portfolio/web/dist, o --web-dir / PORTFOLIO_WEB_DIR). Con --tls-cert y --tls-key
(ficheros PEM: la cadena de certificados y su clave privada) sirve HTTPS. Sin --db usa $PORTFOLIO_DB o
data/portfolio.db, y la genera si no existe. El asistente responde en POST /api/v1/agent/chat (eventos SSE). Con
SIGTERM o SIGINT deja de aceptar conexiones y da S segundos (10) a las peticiones y conversaciones en curso antes de
cancelarlas. Cada dirección de cliente puede tener N conexiones a la vez (256; 0: sin límite).
chat: pregunta al asistente de un servidor en marcha (por defecto http://127.0.0.1:8080) y muestra la respuesta a
medida que llega, con la actividad de las herramientas. Con --thread continúa una conversación guardada (el
identificador que muestra al terminar). Si la conexión se corta, se vuelve a conectar y sigue donde estaba.
--api-key (o AGENT_API_KEY): la clave del servidor.
mcp: servidor MCP (Model Context Protocol) con las herramientas del portfolio, cliente de la API REST (por defecto
http://127.0.0.1:8080/api/v1). stdio, o HTTP en H:P (por defecto 127.0.0.1:8001): Streamable HTTP en /mcp y el
transporte HTTP+SSE de 2024-11-05 en /sse (http y sse sirven ambos).

Variables de entorno (también en .env): PORTFOLIO_DB, PORTFOLIO_HOST, PORTFOLIO_PORT, API_MAX_LIMIT;
el asistente: AGENT_PROVIDER (anthropic | openai), ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_VERSION,
OPENAI_API_KEY, OPENAI_BASE_URL, AGENT_MODEL, AGENT_MAX_TOKENS, AGENT_TEMPERATURE, AGENT_MAX_TOOL_ROUNDS,
AGENT_API_BASE_URL; las conversaciones: AGENT_STORE (sqlite:data/agent.db, o una URI postgresql://),
AGENT_DETACH_GRACE (30 s), AGENT_API_KEYS (claves separadas por comas; cada una ve solo sus conversaciones),
AGENT_APPROVAL_TOOLS (herramientas cuyas llamadas esperan la aprobación de una persona).
gráficos: CHART_OUTPUT_DIR (charts_output), CHART_DPI (150), CHART_DEFAULT_WIDTH (10), CHART_DEFAULT_HEIGHT (6),
CHART_MAX_CATEGORIES (15), CHART_MAX_AGE_HOURS (24), CHART_LOCALE (es_ES).
el registro de serve: AGENTIO_LOG_LEVEL (info), AGENTIO_LOG_FORMAT (text | json), AGENTIO_LOG_FILE (sin ella:
stderr); GET /metrics para Prometheus.
MCP: MCP_TRANSPORT, MCP_HOST, MCP_PORT, API_BASE_URL, API_TIMEOUT, LOG_LEVEL, LOG_FILE, MAX_QUERY_ROWS,
DEFAULT_QUERY_ROWS.
)";

int init_db(std::filesystem::path const& path, portfolio::generator_options const& opt)
{
    auto const t0 = std::chrono::steady_clock::now();
    auto const report = portfolio::generate_database(path, opt);
    auto const ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    long long rows = 0;
    for(auto const& [table, n] : report.rows_per_table)
        rows += n;
    std::printf("Base de datos generada en %s: %d iniciativas, %zu tablas, %lld filas (semilla %llu, %lld ms)\n",
        path.c_str(), report.initiatives, report.rows_per_table.size(), rows, static_cast<unsigned long long>(opt.seed),
        static_cast<long long>(ms.count()));
    return 0;
}

// The built chat page: the source tree's (a build run in place), else an installed one beside the binary.
#if __has_include(<web_dist.hpp>)
#include <web_dist.hpp>
#endif
std::filesystem::path default_web_dir()
{
#ifdef AGENTIO_WEB_DIST
    if(std::filesystem::exists(std::filesystem::path(AGENTIO_WEB_DIST) / "index.html"))
        return AGENTIO_WEB_DIST;
#endif
    std::error_code ec;
    auto const exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : exe.parent_path().parent_path() / "share" / "agentio-portfolio" / "web";
}

// The TLS context of `serve --tls-cert --tls-key`: TLS 1.2 or later, the
// certificate chain and its key from PEM files, checked against each other.
std::shared_ptr<boost::asio::ssl::context> load_tls(std::string const& cert, std::string const& key)
{
    namespace ssl = boost::asio::ssl;
    auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
    ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
        ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
    boost::system::error_code ec;
    ctx->use_certificate_chain_file(cert, ec);
    if(ec)
        throw std::runtime_error("--tls-cert " + cert + ": no se pudo cargar el certificado (" + ec.message() + ")");
    ctx->use_private_key_file(key, ssl::context::pem, ec);
    if(ec)
        throw std::runtime_error("--tls-key " + key +
            ": no se pudo cargar la clave privada o no corresponde al "
            "certificado (" +
            ec.message() + ")");
    return ctx;
}

// How the agent's tools verify this server when they call its API over
// https: the served chain is their trust anchor (the leaf too: partial chains).
std::shared_ptr<boost::asio::ssl::context> trust_own_certificate(std::string const& cert)
{
    namespace ssl = boost::asio::ssl;
    auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
    ctx->set_verify_mode(ssl::verify_peer);
    ctx->load_verify_file(cert);
    X509_STORE_set_flags(SSL_CTX_get_cert_store(ctx->native_handle()), X509_V_FLAG_PARTIAL_CHAIN);
    return ctx;
}

// What the command line says; each function applies what was given over the variables.
struct command_values
{
    std::string db, host, web_dir, tls_cert, tls_key, url, thread_id, api_key, transport, api_url, question;
    std::string init_path;
    unsigned short port = 0;
    unsigned threads = 0, grace_s = 0, reconnect_s = 60;
    std::int64_t max_limit = 0;
    std::size_t max_connections_per_address = 0;
    portfolio::generator_options generator;
};

int serve(command_values const& v, agentio::app::command const& given)
{
    portfolio::server_options opt;
    bool explicit_db = portfolio::env("PORTFOLIO_DB").has_value();
    opt.db_path = portfolio::default_db_path();
    if(auto h = portfolio::env("PORTFOLIO_HOST"))
        opt.host = *h;
    unsigned number = opt.port;
    agentio::app::read_variable("PORTFOLIO_PORT", number, 0, 65535, agentio::spanish_messages);
    opt.port = static_cast<unsigned short>(number);
    number = static_cast<unsigned>(opt.limits.max_limit);
    agentio::app::read_variable("API_MAX_LIMIT", number, 1, 100000, agentio::spanish_messages);
    opt.limits.max_limit = number;
    auto chat = portfolio::agent::chat_settings::from_environment();
    if(!chat)
        throw agentio::app::usage_error(chat.error());
    opt.chat = std::move(*chat);
    auto charts = portfolio::agent::chart_settings::from_environment();
    if(!charts)
        throw agentio::app::usage_error(charts.error());
    opt.charts = std::move(*charts);
    // AGENTIO_LOG_*, OTEL_* and AGENTIO_METRICS_ADDRESS, as every application reads them.
    auto seen = agentio::app::telemetry_from_environment(agentio::process_environment, "agentio-portfolio");
    if(!seen)
    {
        std::string expected;
        for(auto const& value : seen.error().expected)
            expected += (expected.empty() ? "'" : " o '") + value + "'";
        throw agentio::app::usage_error(seen.error().variable + ": se esperaba " + expected + ", recibido '" +
            seen.error().value + "'");
    }
    opt.log = std::move(seen->log);
    opt.trace = std::move(seen->trace);
    opt.metrics_address = seen->metrics_address;
    opt.web_dir = default_web_dir();
    if(auto w = portfolio::env("PORTFOLIO_WEB_DIR"))
        opt.web_dir = *w;
    if(given.given("--web-dir"))
        opt.web_dir = v.web_dir;
    if(given.given("--db"))
        opt.db_path = v.db, explicit_db = true;
    if(given.given("--host"))
        opt.host = v.host;
    if(given.given("--port"))
        opt.port = v.port;
    if(given.given("--threads"))
        opt.threads = opt.db_threads = v.threads;
    if(given.given("--max-limit"))
        opt.limits.max_limit = v.max_limit;
    if(given.given("--shutdown-grace"))
        opt.shutdown_grace = std::chrono::seconds(v.grace_s);
    if(given.given("--max-connections-per-address"))
        opt.http.max_connections_per_address = v.max_connections_per_address;
    std::string const& tls_cert = v.tls_cert;
    std::string const& tls_key = v.tls_key;
    if(tls_cert.empty() != tls_key.empty())
        throw agentio::app::usage_error(tls_cert.empty() ? "--tls-key necesita --tls-cert"
                                                         : "--tls-cert necesita --tls-key");
    if(!tls_cert.empty())
    {
        opt.http.tls = load_tls(tls_cert, tls_key);
        opt.self_client_tls = trust_own_certificate(tls_cert);
    }
    agentio::http::raise_open_file_limit();

    if(!std::filesystem::exists(opt.db_path))
    {
        // The embedded default: generate the sample database on first use, but
        // never invent a database at a path the user named.
        if(explicit_db)
            throw std::runtime_error("no existe la base de datos " + opt.db_path.string() +
                " (genérala con: agentio-portfolio init-db " + opt.db_path.string() + ")");
        if(opt.db_path.has_parent_path())
            std::filesystem::create_directories(opt.db_path.parent_path());
        std::printf("Generando la base de datos de ejemplo en %s...\n", opt.db_path.c_str());
        portfolio::generate_database(opt.db_path);
    }

    portfolio::portfolio_server server(opt);
    for(auto const& w : server.log().warnings())
        std::fprintf(stderr, "agentio-portfolio: %s\n", w.c_str());

    auto const ep = server.endpoint();
    char const* const scheme = opt.http.tls ? "https" : "http";
    std::printf("agentio-portfolio escuchando en %s://%s:%u (base de datos %s, %u hilos)\n", scheme,
        ep.address().to_string().c_str(), ep.port(), opt.db_path.c_str(), opt.threads);
    if(server.web_page_loaded())
        std::printf("página del asistente: %s://%s:%u/chat\n", scheme, ep.address().to_string().c_str(), ep.port());
    else
        std::printf(
            "página del asistente no construida (npm ci && npm run build en reference_server/portfolio/web, o --web-dir)\n");
    if(auto reason = opt.chat.unavailable_reason())
        std::printf("%s (el resto del servidor funciona)\n", reason->c_str());
    else
        std::printf("asistente: %s, modelo %s\n",
            opt.chat.provider == portfolio::agent::provider_kind::anthropic ? "Anthropic" : "OpenAI compatible",
            opt.chat.effective_model().c_str());
    std::fflush(stdout);
    server.log().info("start",
        {{"url", std::string(scheme) + "://" + ep.address().to_string() + ":" + std::to_string(ep.port())},
            {"threads", opt.threads}, {"model", opt.chat.unavailable_reason() ? "" : opt.chat.effective_model()}});
    server.serve(); // in-flight requests and chats get the grace period after a signal
    server.log().info("stop");
    return 0;
}

// A terminal client of the chat endpoint: the answer as it streams on
// stdout, tool activity on stderr. A stream cut before the end (the server
// restarted, a proxy timed out) is resumed from the last event id.
int chat(command_values const& v, agentio::app::command const& given)
{
    namespace json = boost::json;
    namespace asio = boost::asio;
    namespace bhttp = boost::beast::http;
    std::string const& question = v.question;
    std::string url = given.given("--url") ? v.url
                                           : "http://" + portfolio::env("PORTFOLIO_HOST").value_or("127.0.0.1") + ":" +
            portfolio::env("PORTFOLIO_PORT").value_or("8080");
    std::string thread_id = v.thread_id;
    std::string api_key = given.given("--api-key") ? v.api_key : portfolio::env("AGENT_API_KEY").value_or("");
    while(!url.empty() && url.back() == '/')
        url.pop_back();

    asio::io_context ioc;
    agentio::http::client client(ioc.get_executor());
    int status = 1;
    auto session = [&]() -> asio::awaitable<void> {
        json::object body{{"messages", json::array{json::object{{"role", "user"}, {"content", question}}}}};
        if(!thread_id.empty())
            body["thread_id"] = thread_id;
        std::string run_id;
        std::string last_event_id;
        bool finished = false;
        auto on_event = [&](agentio::sse::event const& e) {
            last_event_id = e.last_event_id;
            boost::system::error_code ec;
            auto const event_data = json::parse(e.data, ec);
            if(ec || !event_data.is_object())
                return;
            auto const& o = event_data.get_object();
            auto text = [&](char const* key) -> std::string {
                auto const* f = o.if_contains(key);
                return f && f->is_string() ? std::string(f->get_string()) : (f ? agentio::to_json_text(*f) : "");
            };
            if(e.type == "chunk")
                std::fputs(text("content").c_str(), stdout);
            else if(e.type == "clear_streaming")
                std::fputs("\n", stdout);
            else if(e.type == "tool_call")
                std::fprintf(stderr, "  · %s(%s) → %s [%s ms]\n", text("tool").c_str(), text("input_summary").c_str(),
                    text("result_summary").c_str(), text("duration_ms").c_str());
            else if(e.type == "round_restart")
                // What this round printed is void: say so rather than show it twice unannounced.
                std::fprintf(stdout, "\n[se interrumpió la ronda %s; otro servidor la repite desde el principio]\n",
                    text("iteration").c_str());
            else if(e.type == "done")
            {
                std::fputs("\n", stdout);
                if(text("status") == "completed")
                    status = 0;
                else
                    std::fputs("(respuesta detenida)\n", stderr);
                finished = true;
            }
            else if(e.type == "error")
            {
                std::fprintf(stderr, "\nagentio-portfolio: %s\n", text("message").c_str());
                finished = true;
            }
            std::fflush(stdout);
        };
        auto const started = std::chrono::steady_clock::now();
        for(int attempt = 0; !finished; ++attempt)
        {
            agentio::http::client_request req;
            if(run_id.empty())
            {
                req.method = bhttp::verb::post;
                req.url = url + "/api/v1/agent/chat";
                req.headers.set(bhttp::field::content_type, "application/json");
                req.body = agentio::to_json_text(body);
            }
            else
            {
                req.method = bhttp::verb::get;
                req.url = url + "/api/v1/agent/runs/" + run_id + "/events";
                if(!last_event_id.empty())
                    req.headers.set("Last-Event-ID", last_event_id);
            }
            if(!api_key.empty())
                req.headers.set(bhttp::field::authorization, "Bearer " + api_key);
            req.idle_timeout = std::chrono::minutes(5);
            req.total_timeout = std::chrono::minutes(15);
            auto [err, res] = co_await client.async_open(std::move(req), asio::use_awaitable);
            bool broken = static_cast<bool>(err);
            if(!broken && res.status() != 200)
            {
                auto [read_err, text] = co_await res.async_read_all(asio::use_awaitable);
                boost::system::error_code ec;
                auto problem = json::parse(text, ec);
                auto const* detail = !ec && problem.is_object() ? problem.get_object().if_contains("detail") : nullptr;
                std::fprintf(stderr, "agentio-portfolio: %u: %s\n", res.status(),
                    detail && detail->is_string() ? detail->get_string().c_str() : text.c_str());
                if(run_id.empty() || res.status() < 500)
                    co_return;
                broken = true; // a replica stopping: try another
            }
            if(!broken)
            {
                if(run_id.empty())
                {
                    run_id = std::string(res.headers()["X-Run-Id"]);
                    thread_id = std::string(res.headers()["X-Thread-Id"]);
                }
                agentio::sse::parser parser;
                while(!finished)
                {
                    auto [read_err, piece] = co_await res.async_read_some(asio::use_awaitable);
                    if(read_err || piece.empty())
                        break;
                    parser.feed(piece, on_event);
                }
            }
            if(finished)
                break;
            // Cut before the end: resume after the last event, for up to --reconnect-for (a minute).
            if(run_id.empty() || std::chrono::steady_clock::now() - started > std::chrono::seconds(v.reconnect_s))
            {
                std::fprintf(stderr, "\nagentio-portfolio: la respuesta se cortó antes de terminar%s\n",
                    err ? (": " + err.message).c_str() : "");
                co_return;
            }
            if(attempt == 0)
                std::fputs("\n(reconectando…)\n", stderr);
            asio::steady_timer pause(ioc, std::chrono::milliseconds(std::min(200 * (attempt + 1), 2000)));
            co_await pause.async_wait(asio::use_awaitable);
        }
        if(!thread_id.empty())
            std::fprintf(stderr, "conversación %s (continúela con --thread %s)\n", thread_id.c_str(),
                thread_id.c_str());
    };
    asio::co_spawn(ioc, session(), asio::detached);
    ioc.run();
    return status;
}

int mcp(command_values const& v, agentio::app::command const& given)
{
    auto settings = portfolio::mcp_settings::from_environment();
    if(!settings)
        throw agentio::app::usage_error(settings.error());
    if(given.given("--transport"))
        settings->transport = v.transport;
    if(given.given("--host"))
        settings->host = v.host;
    if(given.given("--port"))
        settings->port = v.port;
    if(given.given("--api-url"))
        settings->api_base_url = v.api_url;
    agentio::http::raise_open_file_limit();
    return portfolio::run_mcp(*settings);
}

} // namespace

int main(int argc, char** argv)
{
    agentio::sqlite::configure_for_concurrency();
    agentio::app::command_line cli("agentio-portfolio", agentio::spanish_messages);
    command_values v;
    auto& init = cli.command("init-db", "genera la base de datos SQLite de ejemplo (misma semilla, mismo fichero)");
    init.argument("RUTA", v.init_path);
    init.option("--initiatives", v.generator.initiatives, "N").range(1, 100000);
    init.option("--seed", v.generator.seed, "S");
    auto& serve_command = cli.command("serve", "la API REST, la página y el asistente");
    serve_command.option("--db", v.db, "RUTA");
    serve_command.option("--host", v.host, "H");
    serve_command.option("--port", v.port, "P");
    serve_command.option("--threads", v.threads, "N").range(1, 256);
    serve_command.option("--max-limit", v.max_limit, "N").range(1, 100000);
    serve_command.option("--web-dir", v.web_dir, "DIR");
    serve_command.option("--shutdown-grace", v.grace_s, "S").range(0, 3600);
    serve_command.option("--max-connections-per-address", v.max_connections_per_address, "N").range(0, 1000000);
    serve_command.option("--tls-cert", v.tls_cert, "FICHERO");
    serve_command.option("--tls-key", v.tls_key, "FICHERO");
    auto& chat_command = cli.command("chat", "pregunta al asistente de un servidor en marcha");
    chat_command.argument("PREGUNTA", v.question);
    chat_command.option("--url", v.url, "URL");
    chat_command.option("--thread", v.thread_id, "ID");
    chat_command.option("--api-key", v.api_key, "CLAVE");
    chat_command.option("--reconnect-for", v.reconnect_s, "S").range(0, 3600);
    auto& mcp_command = cli.command("mcp", "servidor MCP con las herramientas del portfolio");
    mcp_command.option("--transport", v.transport, "T").one_of({"stdio", "http", "sse"});
    mcp_command.option("--host", v.host, "H");
    mcp_command.option("--port", v.port, "P");
    mcp_command.option("--api-url", v.api_url, "URL");
    cli.epilog(about);
    return agentio::app::run_main(cli, argc, argv, [&](std::string_view command) -> int {
        if(command == "init-db")
            return init_db(v.init_path, v.generator);
        if(command == "serve")
            return serve(v, serve_command);
        if(command == "chat")
            return chat(v, chat_command);
        return mcp(v, mcp_command);
    });
}
