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
#include <agentio/http/server.hpp>
#include <agentio/mcp.hpp>
#include <agentio/sqlite.hpp>
#include <agentio/text.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <charconv>
#include <cstdio>
#include <ctime>
#include <span>
#include <string>
#include <string_view>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

char const usage[] = R"(uso:
  agentio-sqlite-mcp --db RUTA [--transport stdio|http] [--host H] [--port P]
                     [--timeout-ms N] [--max-result-bytes N]

Sirve un fichero SQLite por MCP, solo para lectura: sqlite_get_schema,
sqlite_run_select, list_tables y describe_table. stdio por defecto; con
--transport http, Streamable HTTP en http://H:P/mcp (por defecto 127.0.0.1:8002).
)";

struct usage_error
{
    std::string message;
};

template<class Number>
Number parse_number(std::string_view flag, std::string_view text, Number lo, Number hi)
{
    Number v{};
    auto const [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if(ec != std::errc() || ptr != text.data() + text.size() || v < lo || v > hi)
        throw usage_error{std::string(flag) + ": se esperaba un número entre " + std::to_string(lo) + " y " +
            std::to_string(hi) + ", recibido '" + std::string(text) + "'"};
    return v;
}

// The log goes to stderr: stdout carries the protocol on stdio.
void log_line(std::string const& message)
{
    std::time_t const now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
    std::fputs((std::string(stamp) + " agentio-sqlite-mcp " + agentio::log_text(message) + "\n").c_str(), stderr);
}

int run(std::span<char* const> args)
{
    std::string db_path, transport = "stdio", host = "127.0.0.1";
    unsigned short port = 8002;
    sqlite_mcp::limits limits;
    for(std::size_t i = 0; i < args.size(); ++i)
    {
        std::string_view const flag = args[i];
        if(flag == "--help" || flag == "-h")
        {
            std::fputs(usage, stdout);
            return 0;
        }
        if(i + 1 >= args.size())
            throw usage_error{"falta el valor de " + std::string(flag)};
        std::string_view const value = args[++i];
        if(flag == "--db")
            db_path = value;
        else if(flag == "--transport")
        {
            if(value != "stdio" && value != "http")
                throw usage_error{"--transport: se esperaba stdio o http, recibido '" + std::string(value) + "'"};
            transport = value;
        }
        else if(flag == "--host")
            host = value;
        else if(flag == "--port")
            port = parse_number<unsigned short>(flag, value, 0, 65535);
        else if(flag == "--timeout-ms")
            limits.timeout = std::chrono::milliseconds(parse_number<unsigned>(flag, value, 1, 3600000));
        else if(flag == "--max-result-bytes")
            limits.max_result_bytes = parse_number<std::size_t>(flag, value, 1024, std::size_t(1) << 30);
        else
            throw usage_error{"opción desconocida '" + std::string(flag) + "'"};
    }
    if(db_path.empty())
        throw usage_error{"falta --db RUTA"};

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
        throw usage_error{"--host: dirección IP no válida: '" + host + "'"};
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
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](auto, int) { http.shutdown(std::chrono::seconds(5), [&] { ioc.stop(); }); });
    agentio::http::run_threads(ioc, 1);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    agentio::sqlite::configure_for_concurrency();
    std::span<char* const> args(argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0));
    try
    {
        return run(args);
    }
    catch(usage_error const& e)
    {
        std::fprintf(stderr, "agentio-sqlite-mcp: %s\n\n%s", e.message.c_str(), usage);
        return 2;
    }
    catch(std::exception const& e)
    {
        std::fprintf(stderr, "agentio-sqlite-mcp: error: %s\n", e.what());
        return 1;
    }
}
