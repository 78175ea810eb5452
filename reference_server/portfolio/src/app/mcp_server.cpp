// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "app/mcp_server.hpp"

#include "agent/api_client.hpp"
#include "app/error_body.hpp"
#include "agent/tools.hpp"
#include "app/config.hpp"

#include <agentio/agent/orchestrator.hpp>
#include <agentio/text.hpp>
#include <agentio/http/server.hpp>
#include <agentio/mcp.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/use_future.hpp>

#include <charconv>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <future>
#include <mutex>
#include <unistd.h>

namespace portfolio {

namespace asio = boost::asio;
namespace json = boost::json;

namespace {

template<class Number>
bool read_number(char const* name, Number& out, Number lo, Number hi, std::string& error)
{
    auto const text = env(name);
    if(!text)
        return true;
    Number v{};
    auto const [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
    if(ec != std::errc() || ptr != text->data() + text->size() || v < lo || v > hi)
    {
        error = std::string(name) + ": se esperaba un número entre " + std::to_string(lo) + " y " + std::to_string(hi) +
            ", recibido '" + *text + "'";
        return false;
    }
    out = v;
    return true;
}

// Logs to stderr (never stdout: it carries the protocol) and to LOG_FILE.
class logger
{
public:
    logger(std::string const& level, std::string const& file) : threshold_(rank(level))
    {
        if(!file.empty())
            file_.open(file, std::ios::app);
    }
    static int rank(std::string_view level)
    {
        return level == "DEBUG" ? 0 : level == "WARNING" ? 2 : level == "ERROR" ? 3 : 1;
    }
    void write(std::string_view level, std::string const& message)
    {
        if(rank(level) < threshold_)
            return;
        std::time_t const now = std::time(nullptr);
        char stamp[32];
        std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
        std::string const line = std::string(stamp) + " - mcp_portfolio - " + std::string(level) + " - " +
            agentio::log_text(message) + "\n";
        std::lock_guard lock(mutex_);
        std::fputs(line.c_str(), stderr);
        if(file_)
            file_ << line << std::flush;
    }

private:
    int threshold_;
    std::mutex mutex_;
    std::ofstream file_;
};

} // namespace

boost::system::result<mcp_settings, std::string> mcp_settings::from_environment()
{
    using result = boost::system::result<mcp_settings, std::string>;
    auto fail = [](std::string message) { return result(boost::system::in_place_error, std::move(message)); };
    mcp_settings s;
    s.transport = env("MCP_TRANSPORT").value_or(s.transport);
    s.host = env("MCP_HOST").value_or(s.host);
    s.api_base_url = env("API_BASE_URL").value_or(s.api_base_url);
    s.log_level = env("LOG_LEVEL").value_or(s.log_level);
    s.log_file = env("LOG_FILE").value_or("");
    std::string error;
    if(!read_number("MCP_PORT", s.port, static_cast<unsigned short>(0), static_cast<unsigned short>(65535), error) ||
        !read_number("API_TIMEOUT", s.api_timeout_s, 1u, 3600u, error) ||
        !read_number("MAX_QUERY_ROWS", s.max_rows, std::int64_t{1}, std::int64_t{500}, error) ||
        !read_number("DEFAULT_QUERY_ROWS", s.default_rows, std::int64_t{1}, std::int64_t{500}, error))
        return fail(error);
    if(s.transport != "stdio" && s.transport != "http" && s.transport != "sse")
        return fail("MCP_TRANSPORT: se esperaba 'stdio', 'http' o 'sse', recibido '" + s.transport + "'");
    if(s.log_level != "DEBUG" && s.log_level != "INFO" && s.log_level != "WARNING" && s.log_level != "ERROR")
        return fail("LOG_LEVEL: se esperaba DEBUG, INFO, WARNING o ERROR, recibido '" + s.log_level + "'");
    auto charts = agent::chart_settings::from_environment();
    if(!charts)
        return fail(charts.error());
    s.charts = std::move(*charts);
    return s;
}

int run_mcp(mcp_settings const& settings)
{
    logger log(settings.log_level, settings.log_file);
    asio::io_context ioc(1);

    agentio::http::client_options client_options;
    client_options.total_timeout = std::chrono::seconds(settings.api_timeout_s);
    client_options.watch_idle_connections = true; // a server: no connection lingers in CLOSE_WAIT
    agentio::http::client http_client(ioc.get_executor(), client_options);
    agent::api_client api(http_client, settings.api_base_url, std::chrono::seconds(settings.api_timeout_s));

    charts::chart_store store(settings.charts.output_dir, std::chrono::hours(settings.charts.max_age_hours));
    store.remove_expired();
    agent::tool_environment env;
    env.api = &api;
    env.charts = &store;
    env.chart_image_in_result = true; // an MCP client has no /api/v1/charts to fetch from
    env.chart_options.dpi = static_cast<int>(settings.charts.dpi);
    env.chart_options.width_in = settings.charts.width_in;
    env.chart_options.height_in = settings.charts.height_in;
    env.chart_options.max_categories = settings.charts.max_categories;
    env.max_rows = settings.max_rows;
    env.default_rows = settings.default_rows;
    auto const tools = agent::make_portfolio_tools(env, agent::spanish_messages);

    agentio::mcp::server_options options;
    options.info = {"portfolio-digital", "0.1.0", "Portfolio Digital (agentio)"};
    options.instructions = "Acceso de solo lectura al Portfolio Digital: iniciativas, importes, estados, documentos y "
                           "demás tablas. Empieza por buscar_iniciativas, contar_iniciativas o totalizar_importes; "
                           "listar_tablas y describir_tabla explican el esquema.";
    options.read_only_tools = true;
    options.on_tool_call = [&log](std::string_view tool, json::value const& args, agentio::tool_result const& r,
                               std::chrono::steady_clock::duration elapsed) {
        auto const ms = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
        log.write(r.is_error ? "WARNING" : "INFO",
            std::string(tool) + "(" + agentio::agent::summarize_input(args) + ") → " +
                (r.is_error ? "error: " + r.joined_text() : r.summary) + " [" + std::to_string(ms) + " ms]");
    };
    agentio::mcp::server<agent::portfolio_tools> server(tools, options);

    // Say at once when the API is not there (the tools will say it again).
    {
        auto probe = asio::co_spawn(ioc, api.get("/datos-relevantes?limit=1"), asio::use_future);
        // Until the answer, not until no work is left: the pooled connection stays watched.
        while(probe.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
            ioc.run_one();
        auto const r = probe.get();
        if(r.ok())
            log.write("INFO", "API disponible en " + settings.api_base_url);
        else
            log.write("ERROR", agent::describe_api_failure(r, "datos_relevantes", settings.api_base_url));
    }

    if(settings.transport == "stdio")
    {
        log.write("INFO", "Servidor MCP portfolio-digital en stdio");
        return agentio::mcp::run_stdio(server, ioc);
    }

    // Both HTTP transports on one port, as the spec's backwards compatibility asks:
    // Streamable HTTP at /mcp, the 2024-11-05 HTTP+SSE (FastMCP's "sse") at /sse.
    agentio::mcp::http_options http_options;
    agentio::mcp::legacy_sse_options sse_options;
    if(settings.host != "127.0.0.1" && settings.host != "localhost" && settings.host != "::1")
    {
        // A Host header writes an IPv6 address in brackets.
        boost::system::error_code v6;
        bool const is_v6 = asio::ip::make_address(settings.host, v6).is_v6() && !v6;
        std::string const host = is_v6 ? "[" + settings.host + "]" : settings.host;
        http_options.allowed_hosts.push_back(host);
        sse_options.allowed_hosts.push_back(host);
    }
    agentio::http::server_options server_options;
    server_options.error_body = write_detail;
    agentio::http::server http(ioc.get_executor(), agentio::mcp::http_endpoints(server, http_options, sse_options),
        std::move(server_options));
    boost::system::error_code ec;
    auto const address = asio::ip::make_address(settings.host, ec);
    if(ec)
    {
        log.write("ERROR", "MCP_HOST no válido: '" + settings.host + "'");
        return 2;
    }
    auto const ep = http.listen({address, settings.port});
    if(!ep)
    {
        log.write("ERROR",
            "no se puede escuchar en " + settings.host + ":" + std::to_string(settings.port) + ": " +
                ep.error().message());
        return 1;
    }
    http.start();
    // stdout says where, for scripts that start it on port 0.
    std::string const url = "http://" + settings.host + ":" + std::to_string(ep->port()) +
        (settings.transport == "sse" ? "/sse" : "/mcp");
    std::printf("Servidor MCP portfolio-digital en %s\n", url.c_str());
    std::fflush(stdout);
    log.write("INFO",
        "Servidor MCP en " + url +
            (settings.transport == "sse" ? " (HTTP+SSE 2024-11-05; Streamable HTTP en /mcp)"
                                         : " (Streamable HTTP; HTTP+SSE 2024-11-05 en /sse)"));
    // Requests and streams in flight get ten seconds to finish.
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](auto, int) { http.shutdown(std::chrono::seconds(10), [&] { ioc.stop(); }); });
    agentio::http::run_threads(ioc, 1);
    return 0;
}

} // namespace portfolio
