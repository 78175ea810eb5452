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

#include <agentio/http/client.hpp>
#include <agentio/json_text.hpp>
#include <agentio/sqlite.hpp>
#include <agentio/sse/parser.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <boost/asio/signal_set.hpp>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <span>
#include <string>
#include <string_view>

namespace {

constexpr char const* usage = R"(agentio-portfolio — servidor de referencia de agentio (portfolio digital)

Uso:
  agentio-portfolio init-db PATH [--initiatives N] [--seed S]
      Genera la base de datos SQLite de ejemplo (determinista: misma semilla, mismo fichero).
  agentio-portfolio serve [--db PATH] [--host H] [--port P] [--threads N] [--max-limit N] [--web-dir DIR]
                          [--shutdown-grace S] [--max-connections-per-address N] [--tls-cert FILE --tls-key FILE]
      API REST de solo lectura en http://H:P/api/v1 (por defecto 127.0.0.1:8080) y la página del asistente
      en http://H:P/chat (reference_server/portfolio/web/dist, o --web-dir / PORTFOLIO_WEB_DIR).
      Con --tls-cert y --tls-key (ficheros PEM: la cadena de certificados y su clave privada) sirve HTTPS.
      Sin --db usa $PORTFOLIO_DB o data/portfolio.db, y la genera si no existe.
      El asistente responde en POST /api/v1/agent/chat (eventos SSE).
      Con SIGTERM o SIGINT deja de aceptar conexiones y da S segundos (10) a las peticiones y conversaciones
      en curso antes de cancelarlas. Cada dirección de cliente puede tener N conexiones a la vez (256; 0: sin límite).
  agentio-portfolio chat "pregunta" [--url URL] [--thread ID] [--api-key K]
      Pregunta al asistente de un servidor en marcha (por defecto http://127.0.0.1:8080) y muestra
      la respuesta a medida que llega, con la actividad de las herramientas. Con --thread continúa una
      conversación guardada (el identificador que muestra al terminar). Si la conexión se corta, se
      vuelve a conectar y sigue donde estaba. --api-key (o AGENT_API_KEY): la clave del servidor.
  agentio-portfolio mcp [--transport stdio|http|sse] [--host H] [--port P] [--api-url URL]
      Servidor MCP (Model Context Protocol) con las herramientas del portfolio, cliente de la API REST
      (por defecto http://127.0.0.1:8080/api/v1). stdio, o HTTP en H:P (por defecto 127.0.0.1:8001):
      Streamable HTTP en /mcp y el transporte HTTP+SSE de 2024-11-05 en /sse (http y sse sirven ambos).

Variables de entorno (también en .env): PORTFOLIO_DB, PORTFOLIO_HOST, PORTFOLIO_PORT, API_MAX_LIMIT;
el asistente: AGENT_PROVIDER (anthropic | openai), ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_VERSION,
OPENAI_API_KEY, OPENAI_BASE_URL, AGENT_MODEL, AGENT_MAX_TOKENS, AGENT_TEMPERATURE, AGENT_MAX_TOOL_ROUNDS,
AGENT_API_BASE_URL; las conversaciones: AGENT_STORE (sqlite:data/agent.db, o una URI postgresql://),
AGENT_DETACH_GRACE (30 s), AGENT_API_KEYS (claves separadas por comas; cada una ve solo sus conversaciones),
AGENT_APPROVAL_TOOLS (herramientas cuyas llamadas esperan la aprobación de una persona).
gráficos: CHART_OUTPUT_DIR (charts_output), CHART_DPI (150), CHART_DEFAULT_WIDTH (10), CHART_DEFAULT_HEIGHT (6),
CHART_MAX_CATEGORIES (15), CHART_MAX_AGE_HOURS (24), CHART_LOCALE (es_ES).
MCP: MCP_TRANSPORT, MCP_HOST, MCP_PORT, API_BASE_URL, API_TIMEOUT, LOG_LEVEL, LOG_FILE, MAX_QUERY_ROWS,
DEFAULT_QUERY_ROWS.
)";

struct usage_error
{
    std::string message;
};

template<class Int>
Int parse_number(std::string_view flag, std::string_view text, Int lo, Int hi)
{
    Int v{};
    auto const [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if(ec != std::errc() || ptr != text.data() + text.size() || v < lo || v > hi)
        throw usage_error{std::string(flag) + ": se esperaba un número entre " + std::to_string(lo) + " y " +
            std::to_string(hi) + ", recibido '" + std::string(text) + "'"};
    return v;
}

// Walks "--flag value" pairs; every flag takes a value.
template<class F>
void for_each_flag(std::span<char* const> args, F&& on_flag)
{
    for(std::size_t i = 0; i < args.size(); ++i)
    {
        std::string_view flag = args[i];
        if(!flag.starts_with("--"))
            throw usage_error{"argumento inesperado '" + std::string(flag) + "'"};
        if(i + 1 >= args.size())
            throw usage_error{std::string(flag) + ": falta el valor"};
        if(!on_flag(flag, std::string_view(args[++i])))
            throw usage_error{"opción desconocida '" + std::string(flag) + "'"};
    }
}

int init_db(std::span<char* const> args)
{
    if(args.empty() || std::string_view(args[0]).starts_with("--"))
        throw usage_error{"init-db: falta la ruta del fichero"};
    std::filesystem::path const path = args[0];
    portfolio::generator_options opt;
    for_each_flag(args.subspan(1), [&](std::string_view flag, std::string_view value) {
        if(flag == "--initiatives")
            opt.initiatives = parse_number<int>(flag, value, 1, 100000);
        else if(flag == "--seed")
            opt.seed = parse_number<std::uint64_t>(flag, value, 0, UINT64_MAX);
        else
            return false;
        return true;
    });
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

int serve(std::span<char* const> args)
{
    std::string tls_cert, tls_key;
    portfolio::server_options opt;
    bool explicit_db = false;
    if(auto v = portfolio::env("PORTFOLIO_DB"))
        explicit_db = true;
    opt.db_path = portfolio::default_db_path();
    if(auto v = portfolio::env("PORTFOLIO_HOST"))
        opt.host = *v;
    if(auto v = portfolio::env("PORTFOLIO_PORT"))
        opt.port = parse_number<unsigned short>("PORTFOLIO_PORT", *v, 0, 65535);
    if(auto v = portfolio::env("API_MAX_LIMIT"))
        opt.limits.max_limit = parse_number<std::int64_t>("API_MAX_LIMIT", *v, 1, 100000);
    auto chat = portfolio::agent::chat_settings::from_environment();
    if(!chat)
        throw usage_error{chat.error()};
    opt.chat = std::move(*chat);
    auto charts = portfolio::agent::chart_settings::from_environment();
    if(!charts)
        throw usage_error{charts.error()};
    opt.charts = std::move(*charts);
    opt.web_dir = default_web_dir();
    if(auto v = portfolio::env("PORTFOLIO_WEB_DIR"))
        opt.web_dir = *v;
    for_each_flag(args, [&](std::string_view flag, std::string_view value) {
        if(flag == "--web-dir")
            opt.web_dir = value;
        else if(flag == "--db")
            opt.db_path = value, explicit_db = true;
        else if(flag == "--host")
            opt.host = value;
        else if(flag == "--port")
            opt.port = parse_number<unsigned short>(flag, value, 0, 65535);
        else if(flag == "--threads")
            opt.threads = opt.db_threads = parse_number<unsigned>(flag, value, 1, 256);
        else if(flag == "--max-limit")
            opt.limits.max_limit = parse_number<std::int64_t>(flag, value, 1, 100000);
        else if(flag == "--shutdown-grace")
            opt.shutdown_grace = std::chrono::seconds(parse_number<unsigned>(flag, value, 0, 3600));
        else if(flag == "--max-connections-per-address")
            opt.http.max_connections_per_address = parse_number<std::size_t>(flag, value, 0, 1000000);
        else if(flag == "--tls-cert")
            tls_cert = value;
        else if(flag == "--tls-key")
            tls_key = value;
        else
            return false;
        return true;
    });
    if(tls_cert.empty() != tls_key.empty())
        throw usage_error{tls_cert.empty() ? "--tls-key necesita --tls-cert" : "--tls-cert necesita --tls-key"};
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
    boost::asio::io_context signals_ctx;
    boost::asio::signal_set signals(signals_ctx, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code ec, int) {
        if(!ec)
            server.shutdown(); // in-flight requests and chats get the grace period
    });
    std::thread signal_thread([&] { signals_ctx.run(); });

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
    server.run();
    signals_ctx.stop();
    signal_thread.join();
    return 0;
}

// A terminal client of the chat endpoint: the answer as it streams on
// stdout, tool activity on stderr. A stream cut before the end (the server
// restarted, a proxy timed out) is resumed from the last event id.
int chat(std::span<char* const> args)
{
    namespace json = boost::json;
    namespace asio = boost::asio;
    namespace bhttp = boost::beast::http;
    if(args.empty() || std::string_view(args[0]).starts_with("--"))
        throw usage_error{"chat: falta la pregunta"};
    std::string const question = args[0];
    std::string url = "http://" + portfolio::env("PORTFOLIO_HOST").value_or("127.0.0.1") + ":" +
        portfolio::env("PORTFOLIO_PORT").value_or("8080");
    std::string thread_id;
    std::string api_key = portfolio::env("AGENT_API_KEY").value_or("");
    for_each_flag(args.subspan(1), [&](std::string_view flag, std::string_view value) {
        if(flag == "--url")
            url = value;
        else if(flag == "--thread")
            thread_id = value;
        else if(flag == "--api-key")
            api_key = value;
        else
            return false;
        return true;
    });
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
            auto const v = json::parse(e.data, ec);
            if(ec || !v.is_object())
                return;
            auto const& o = v.get_object();
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
                auto v = json::parse(text, ec);
                auto const* detail = !ec && v.is_object() ? v.get_object().if_contains("detail") : nullptr;
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
            // Cut before the end: resume after the last event, for up to a minute.
            if(run_id.empty() || std::chrono::steady_clock::now() - started > std::chrono::minutes(1))
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

int mcp(std::span<char* const> args)
{
    auto settings = portfolio::mcp_settings::from_environment();
    if(!settings)
        throw usage_error{settings.error()};
    for_each_flag(args, [&](std::string_view flag, std::string_view value) {
        if(flag == "--transport")
        {
            if(value != "stdio" && value != "http" && value != "sse")
                throw usage_error{"--transport: se esperaba stdio, http o sse, recibido '" + std::string(value) + "'"};
            settings->transport = value;
        }
        else if(flag == "--host")
            settings->host = value;
        else if(flag == "--port")
            settings->port = parse_number<unsigned short>(flag, value, 0, 65535);
        else if(flag == "--api-url")
            settings->api_base_url = value;
        else
            return false;
        return true;
    });
    agentio::http::raise_open_file_limit();
    return portfolio::run_mcp(*settings);
}

} // namespace

int main(int argc, char** argv)
{
    agentio::sqlite::configure_for_concurrency();
    std::span<char* const> args(argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0));
    try
    {
        portfolio::load_dotenv();
        if(args.empty() || args[0] == std::string_view("--help") || args[0] == std::string_view("-h"))
        {
            std::fputs(usage, args.empty() ? stderr : stdout);
            return args.empty() ? 2 : 0;
        }
        std::string_view const command = args[0];
        if(command == "init-db")
            return init_db(args.subspan(1));
        if(command == "serve")
            return serve(args.subspan(1));
        if(command == "chat")
            return chat(args.subspan(1));
        if(command == "mcp")
            return mcp(args.subspan(1));
        throw usage_error{"orden desconocida '" + std::string(command) + "'"};
    }
    catch(usage_error const& e)
    {
        std::fprintf(stderr, "agentio-portfolio: %s\n\n%s", e.message.c_str(), usage);
        return 2;
    }
    catch(std::exception const& e)
    {
        std::fprintf(stderr, "agentio-portfolio: error: %s\n", e.what());
        return 1;
    }
}
