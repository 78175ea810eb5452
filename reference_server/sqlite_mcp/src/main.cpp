// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio-sqlite-mcp: any SQLite file served read-only over MCP.
//
//   agentio-sqlite-mcp --db PATH [--transport stdio|http] [--host H] [--port P]
//                      [--timeout-ms N] [--max-result-bytes N]
//
// stdio by default (the protocol on stdout, the log on stderr or in its
// file, never on stdout); Streamable HTTP at /mcp, and GET /metrics, with
// --transport http.

#include "database.hpp"
#include "tools.hpp"

#include <agentio/agent/orchestrator.hpp>
#include <agentio/app.hpp>
#include <agentio/environment.hpp>
#include <agentio/otlp.hpp>
#include <agentio/trace.hpp>
#include <agentio/http/metrics.hpp>
#include <agentio/http/request_log.hpp>
#include <agentio/http/router.hpp>
#include <agentio/http/server.hpp>
#include <agentio/log.hpp>
#include <agentio/mcp.hpp>
#include <agentio/sqlite.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/detached.hpp>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <optional>
#include <string>
#include <string_view>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

char const about[] = R"(Sirve un fichero SQLite por MCP, solo para lectura: sqlite_get_schema,
sqlite_run_select, list_tables y describe_table. stdio por defecto; con
--transport http, Streamable HTTP en http://H:P/mcp (por defecto 127.0.0.1:8002)
y GET /metrics para Prometheus.
El registro (nunca en stdout): AGENTIO_LOG_LEVEL o LOG_LEVEL (info),
AGENTIO_LOG_FORMAT o LOG_FORMAT (text | json), AGENTIO_LOG_FILE o LOG_FILE
(sin ella: stderr).)";

// The log's settings: AGENTIO_LOG_LEVEL, AGENTIO_LOG_FORMAT, AGENTIO_LOG_FILE, else the names of the portfolio MCP
// server's specification (LOG_LEVEL, LOG_FORMAT, LOG_FILE). Its LOG_FORMAT is a Python logging pattern
// ("%(asctime)s - %(name)s - ..."): `text` and `json` are taken, any other value leaves the lines as text and says
// so once at start (`warning`). Never stdout: on stdio it carries the protocol.
struct log_config
{
    agentio::log::settings settings;
    std::string warning;
};

log_config read_log_config()
{
    agentio::log::variable_names names;
    names.level.push_back("LOG_LEVEL");
    names.file.push_back("LOG_FILE");
    log_config out;
    auto const pattern = agentio::process_environment("LOG_FORMAT");
    if(pattern && (*pattern == "text" || *pattern == "json"))
        names.format.push_back("LOG_FORMAT");
    else if(pattern && !agentio::process_environment("AGENTIO_LOG_FORMAT"))
        out.warning = "LOG_FORMAT '" + *pattern +
            "' no es text ni json (¿un patrón de logging de Python?): líneas en text";
    agentio::log::settings const defaults{.program = "agentio-sqlite-mcp"};
    auto settings = agentio::log::settings_from_environment(agentio::process_environment, defaults, names);
    if(!settings)
    {
        auto const& e = settings.error();
        std::string expected;
        for(auto const& v : e.expected)
            expected += (expected.empty() ? "'" : " o '") + v + "'";
        throw agentio::app::usage_error(e.variable + ": se esperaba " + expected + ", recibido '" + e.value + "'");
    }
    out.settings = std::move(*settings);
    return out;
}

// The message of a refused query ({"error_code", "message"}), else the result's text.
std::string error_of(agentio::tool_result const& r)
{
    if(r.structured && r.structured->is_object())
        if(auto const* m = r.structured->get_object().if_contains("message"); m && m->is_string())
            return std::string(m->get_string().data(), m->get_string().size());
    return r.joined_text();
}

int run(std::string const& db_path, std::string const& transport, std::string const& host, unsigned short port,
    sqlite_mcp::limits const& limits)
{
    auto const log_setup = read_log_config();
    agentio::log::logger log(log_setup.settings);
    for(auto const& w : log.warnings())
        std::fprintf(stderr, "agentio-sqlite-mcp: %s\n", w.c_str());
    if(!log_setup.warning.empty())
        log.warn("start.warning", {{"detail", log_setup.warning}});
    // Traces (OTEL_*): each HTTP request a server span, under the caller's traceparent.
    auto trace_settings = agentio::trace::settings_from_environment(agentio::process_environment,
        {.service_name = "agentio-sqlite-mcp"});
    if(!trace_settings)
        throw agentio::app::usage_error(trace_settings.error().variable + ": valor no válido '" +
            trace_settings.error().value + "'");
    agentio::trace::tracer tracer(std::move(*trace_settings));
    auto db = sqlite_mcp::database::open(db_path, limits);
    if(!db)
        throw std::runtime_error(db.error());
    auto const tools = sqlite_mcp::make_tools(**db);
    agentio::mcp::server_options options;
    options.info = {"agentio-sqlite-mcp", "0.1.0", "SQLite (solo lectura, agentio)"};
    options.instructions = "Acceso de solo lectura a una base de datos SQLite. sqlite_get_schema describe las tablas; "
                           "sqlite_run_select ejecuta una consulta SELECT con parámetros.";
    options.read_only_tools = true;
    options.tracer = &tracer; // each tools/call a server span, under the caller's _meta.traceparent
    // Each call in one line: the tool, how it ended, its time; its arguments (the SQL) only at debug.
    options.on_tool_call = [&log](std::string_view tool, json::value const& input, agentio::tool_result const& r,
                               std::chrono::steady_clock::duration elapsed) {
        auto const l = r.is_error ? agentio::log::level::warn : agentio::log::level::info;
        if(!log.enabled(l))
            return;
        double const ms = std::chrono::duration<double, std::milli>(elapsed).count();
        std::string const error = r.is_error ? error_of(r) : std::string();
        if(log.enabled(agentio::log::level::debug))
            log.write(l, "tool.call",
                {{"tool", tool}, {"outcome", r.is_error ? "error" : "ok"}, {"summary", r.summary}, {"duration_ms", ms},
                    {"error", error}, {"input", agentio::agent::summarize_input(input)}});
        else
            log.write(l, "tool.call",
                {{"tool", tool}, {"outcome", r.is_error ? "error" : "ok"}, {"summary", r.summary}, {"duration_ms", ms},
                    {"error", error}});
    };
    agentio::mcp::server<sqlite_mcp::sqlite_tools> server(tools, options);
    if(transport == "stdio")
    {
        log.info("start", {{"transport", "stdio"}, {"db", db_path}});
        asio::io_context ioc(1);
        agentio::trace::otlp_exporter exporter(ioc.get_executor(), tracer);
        exporter.start();
        int const status = agentio::mcp::run_stdio(server, ioc);
        if(tracer.enabled()) // the spans still queued
        {
            ioc.restart();
            asio::co_spawn(ioc, exporter.shutdown(), asio::detached);
            ioc.run_for(2 * tracer.config().export_timeout);
        }
        log.info("stop", {{"status", status}});
        return status;
    }

    asio::io_context ioc(1);
    boost::system::error_code ec;
    auto const address = asio::ip::make_address(host, ec);
    if(ec)
        throw agentio::app::usage_error("--host: dirección IP no válida: '" + host + "'");
    agentio::mcp::http_options http_options;
    if(host != "127.0.0.1" && host != "localhost" && host != "::1")
        http_options.allowed_hosts.push_back(host);
    agentio::mcp::legacy_sse_options const legacy;
    std::string const mcp_path = http_options.path;
    agentio::mcp::http_endpoints endpoints(server, std::move(http_options), legacy);
    // The transports' paths as routes, so that each request is logged and counted by the path it took; GET
    // /metrics for Prometheus.
    agentio::metrics::registry registry;
    agentio::http::request_metrics requests(registry);
    agentio::http::router_options observed;
    observed.observe = agentio::http::observe_requests(&log, &requests);
    observed.tracer = &tracer;
    agentio::http::router<> routes(std::move(observed));
    auto mcp = [&endpoints](agentio::http::request&& req, agentio::http::route_params const&,
                   agentio::http::any_stream& stream) { return endpoints(std::move(req), stream); };
    routes.any(mcp_path, mcp);
    routes.any(legacy.sse_path, mcp);
    routes.any(legacy.messages_path, mcp);
    routes.fallback(mcp); // the transports' own 404
    // AGENTIO_METRICS_ADDRESS: /metrics on a listener of its own instead.
    std::optional<asio::ip::tcp::endpoint> metrics_address;
    if(auto const text = agentio::process_environment("AGENTIO_METRICS_ADDRESS"); text && !text->empty())
    {
        metrics_address = agentio::http::parse_listen_address(*text);
        if(!metrics_address)
            throw agentio::app::usage_error("AGENTIO_METRICS_ADDRESS: se esperaba 'host:puerto', '[v6]:puerto' o "
                                            "':puerto', recibido '" +
                *text + "'");
    }
    std::optional<agentio::http::metrics_server> scrapes;
    if(metrics_address)
        scrapes.emplace(registry);
    else
        agentio::http::add_metrics_route(routes, registry);
    agentio::http::server http(ioc.get_executor(), std::move(routes));
    auto const ep = http.listen({address, port});
    if(!ep)
        throw std::runtime_error("no se puede escuchar en " + host + ":" + std::to_string(port) + ": " +
            ep.error().message());
    http.start();
    if(scrapes)
    {
        auto const bound = scrapes->listen(*metrics_address);
        if(!bound)
            throw std::runtime_error("AGENTIO_METRICS_ADDRESS: no se puede escuchar en " +
                metrics_address->address().to_string() + ":" + std::to_string(metrics_address->port()) + ": " +
                bound.error().message());
        scrapes->start();
        log.info("metrics.listening",
            {{"address", bound->address().to_string()}, {"port", bound->port()}, {"path", "/metrics"}});
    }
    std::printf("agentio-sqlite-mcp en http://%s:%u/mcp (base de datos %s)\n", host.c_str(), ep->port(),
        db_path.c_str());
    std::fflush(stdout);
    log.info("start",
        {{"transport", "http"}, {"url", "http://" + host + ":" + std::to_string(ep->port()) + mcp_path},
            {"db", db_path}});
    agentio::trace::otlp_exporter exporter(ioc.get_executor(), tracer);
    exporter.start();
    auto drained = [&exporter, &scrapes]() -> asio::awaitable<void> {
        if(scrapes)
            scrapes->stop();
        co_await exporter.shutdown();
    };
    agentio::app::serve(ioc, http, {.threads = 1, .grace = std::chrono::seconds(5), .on_drained = drained});
    log.info("stop");
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    agentio::sqlite::configure_for_concurrency();
    agentio::app::command_line cli("agentio-sqlite-mcp", agentio::spanish_messages);
    std::string db_path, transport = "stdio", host = "127.0.0.1";
    unsigned short port = 8002;
    sqlite_mcp::limits limits;
    auto& options = cli.root();
    options.option("--db", db_path, "RUTA").required();
    options.option("--transport", transport, "T").one_of({"stdio", "http"});
    options.option("--host", host, "H");
    options.option("--port", port, "P");
    options.option("--timeout-ms", limits.timeout, "N").range(1, 3600000);
    options.option("--max-result-bytes", limits.max_result_bytes, "N").range(1024, std::size_t(1) << 30);
    cli.epilog(about);
    return agentio::app::run_main(cli, argc, argv,
        [&](std::string_view) { return run(db_path, transport, host, port, limits); });
}
