// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio-sqlite-mcp: any SQLite file served read-only over MCP.
//
//   agentio-sqlite-mcp --db PATH [--transport stdio|http] [--host H] [--port P]
//                      [--timeout-ms N] [--max-result-bytes N]
//
// stdio by default (the protocol on stdout, the log on stderr); Streamable
// HTTP at /mcp with --transport http.

#include "database.hpp"
#include "tools.hpp"

#include <agentio/agent/orchestrator.hpp>
#include <agentio/app.hpp>
#include <agentio/http/server.hpp>
#include <agentio/mcp.hpp>
#include <agentio/sqlite.hpp>
#include <agentio/text.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <ctime>
#include <string>
#include <string_view>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

char const about[] = R"(Sirve un fichero SQLite por MCP, solo para lectura: sqlite_get_schema,
sqlite_run_select, list_tables y describe_table. stdio por defecto; con
--transport http, Streamable HTTP en http://H:P/mcp (por defecto 127.0.0.1:8002).)";

// The log goes to stderr: stdout carries the protocol on stdio.
void log_line(std::string const& message)
{
    std::time_t const now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
    std::fputs((std::string(stamp) + " agentio-sqlite-mcp " + agentio::log_text(message) + "\n").c_str(), stderr);
}

int run(std::string const& db_path, std::string const& transport, std::string const& host, unsigned short port,
    sqlite_mcp::limits const& limits)
{
    auto db = sqlite_mcp::database::open(db_path, limits);
    if(!db)
    {
        log_line("error: " + db.error());
        return 1;
    }
    auto const tools = sqlite_mcp::make_tools(**db);
    agentio::mcp::server_options options;
    options.info = {"agentio-sqlite-mcp", "0.1.0", "SQLite (solo lectura, agentio)"};
    options.instructions = "Acceso de solo lectura a una base de datos SQLite. sqlite_get_schema describe las tablas; "
                           "sqlite_run_select ejecuta una consulta SELECT con parámetros.";
    options.read_only_tools = true;
    options.on_tool_call = [](std::string_view tool, json::value const& input, agentio::tool_result const& r,
                               std::chrono::steady_clock::duration elapsed) {
        auto const us = std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count();
        log_line(std::string(tool) + "(" + agentio::agent::summarize_input(input) + ") → " +
            (r.is_error ? "error " : "") + r.summary + " [" + std::to_string(us) + " µs]");
    };
    agentio::mcp::server<sqlite_mcp::sqlite_tools> server(tools, options);
    if(transport == "stdio")
    {
        log_line("sirviendo " + db_path + " por stdio");
        asio::io_context ioc(1);
        return agentio::mcp::run_stdio(server, ioc);
    }

    asio::io_context ioc(1);
    agentio::mcp::http_options http_options;
    if(host != "127.0.0.1" && host != "localhost" && host != "::1")
        http_options.allowed_hosts.push_back(host);
    agentio::http::server http(ioc.get_executor(), agentio::mcp::http_endpoints(server, http_options));
    boost::system::error_code ec;
    auto const address = asio::ip::make_address(host, ec);
    if(ec)
        throw agentio::app::usage_error("--host: dirección IP no válida: '" + host + "'");
    auto const ep = http.listen({address, port});
    if(!ep)
    {
        log_line("error: no se puede escuchar en " + host + ":" + std::to_string(port) + ": " + ep.error().message());
        return 1;
    }
    http.start();
    std::printf("agentio-sqlite-mcp en http://%s:%u/mcp (base de datos %s)\n", host.c_str(), ep->port(),
        db_path.c_str());
    std::fflush(stdout);
    agentio::app::serve(ioc, http, {.threads = 1, .grace = std::chrono::seconds(5)});
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
