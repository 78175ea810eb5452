// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Round trip of each portfolio tool as the agent runs it: toolset dispatch,
// argument validation, the HTTP client to the REST API on 127.0.0.1, SQL on
// the query pool, the answer back, reshaping and compaction. One server
// in-process on a generated database (default size), calls one at a time.
//
//   agentio_portfolio_tools_bench [--repeat N] [--db PATH]
#include "agent/tools.hpp"
#include "app/server.hpp"
#include "portfolio/db_generator.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
using clock_type = std::chrono::steady_clock;

int main(int argc, char** argv)
{
    int repeat = 200;
    std::filesystem::path db;
    for(int i = 1; i + 1 < argc; i += 2)
    {
        if(!std::strcmp(argv[i], "--repeat"))
            repeat = std::max(1, std::atoi(argv[i + 1]));
        else if(!std::strcmp(argv[i], "--db"))
            db = argv[i + 1];
    }
    auto const dir = std::filesystem::temp_directory_path() / ("agentio_tools_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    if(db.empty())
    {
        db = dir / "portfolio.db";
        portfolio::generate_database(db);
    }

    portfolio::server_options opt;
    opt.db_path = db;
    opt.port = 0;
    opt.threads = 1;
    opt.db_threads = 1;
    opt.charts.output_dir = (dir / "charts").string();
    opt.chat.store = "sqlite:" + (dir / "agent.db").string();
    portfolio::portfolio_server server(opt);
    std::thread serving([&] { server.run(); });

    asio::io_context ioc;
    auto work = asio::make_work_guard(ioc);
    agentio::http::client http(ioc.get_executor());
    portfolio::agent::api_client api(http, "http://127.0.0.1:" + std::to_string(server.endpoint().port()) + "/api/v1");
    portfolio::agent::tool_environment env;
    env.api = &api;
    env.charts = &server.charts();
    auto tools = portfolio::agent::make_portfolio_tools(env, portfolio::agent::spanish_messages);
    std::thread client_thread([&] { ioc.run(); });

    struct call
    {
        char const* label;
        char const* tool;
        char const* args;
    };
    call const calls[] = {
        {"buscar_iniciativas 50 rows", "buscar_iniciativas",
            R"({"filtros":[{"field":"estado_de_la_iniciativa","operator":"eq","value":"En Ejecución"}],"orden_campo":"importe_2025","orden_direccion":"desc"})"},
        {"buscar_iniciativas 500×3 fields", "buscar_iniciativas",
            R"({"limite":500,"campos":["portfolio_id","nombre","importe_2025"]})"},
        {"buscar_en_tabla hechos", "buscar_en_tabla",
            R"({"tabla":"hechos","filtros":[{"field":"estado","operator":"eq","value":"Aprobado"}],"limite":20})"},
        {"obtener_iniciativa", "obtener_iniciativa", R"({"portfolio_id":"SPA_25_001"})"},
        {"obtener_documentos by text", "obtener_documentos", R"({"texto_busqueda":"riesgo","limite":10})"},
        {"contar_iniciativas by estado", "contar_iniciativas", R"({"campo_agrupacion":"estado_de_la_iniciativa"})"},
        {"totalizar_importes by unidad", "totalizar_importes",
            R"({"campo_importe":"importe_2025","campo_agrupacion":"unidad","filtros":[{"field":"es_grupo","operator":"eq","value":0}]})"},
        {"listar_tablas (26 calls)", "listar_tablas", R"({})"},
        {"describir_tabla", "describir_tabla", R"({"tabla":"datos_relevantes"})"},
        {"obtener_valores_campo search", "obtener_valores_campo", R"({"tabla":"datos_relevantes","campo":"unidad"})"},
        {"obtener_valores_campo paged", "obtener_valores_campo",
            R"({"tabla":"documentos_items","campo":"tipo_contenido"})"},
        {"generar_grafico bar 15", "generar_grafico",
            R"({"titulo":"Importe 2025 por unidad","categorias":["Redes","Clientes","Generación","Distribución","Comercial","Finanzas","Personas","Sistemas","Ciberseguridad","Datos","Compras","Legal","Sostenibilidad","Innovación","Operaciones"],"series":[{"nombre":"2025","valores":[4250000.5,3100250,2900000,2450999.9,2100000,1800500,1500000,1250000,990000,870500,650000,420000,310000,150000,90000]}]})"},
    };

    std::printf("portfolio tools round trip (server: 1 network + 1 SQL thread; client: 1 thread), %d calls each\n",
        repeat);
    std::printf("%-34s %10s %10s %10s %9s\n", "tool", "median µs", "p90 µs", "min µs", "bytes");
    for(auto const& c : calls)
    {
        json::value const args = json::parse(c.args);
        std::vector<double> us;
        std::size_t bytes = 0;
        bool failed = false;
        for(int i = 0; i < repeat + 3; ++i)
        {
            auto f = asio::co_spawn(
                ioc,
                [&]() -> asio::awaitable<std::pair<agentio::tool_result, double>> {
                    agentio::tool_context ctx;
                    auto const t0 = clock_type::now();
                    auto r = co_await tools.call(c.tool, args, ctx);
                    double const elapsed = std::chrono::duration<double, std::micro>(clock_type::now() - t0).count();
                    co_return std::pair{std::move(r), elapsed};
                },
                asio::use_future);
            auto [r, elapsed] = f.get();
            if(r.is_error)
            {
                std::printf("%-34s error: %s\n", c.label, r.joined_text().c_str());
                failed = true;
                break;
            }
            bytes = r.joined_text().size();
            if(i >= 3) // warm-up: connection, statement caches
                us.push_back(elapsed);
        }
        if(failed)
            continue;
        std::sort(us.begin(), us.end());
        std::printf("%-34s %10.0f %10.0f %10.0f %9zu\n", c.label, us[us.size() / 2], us[us.size() * 9 / 10], us.front(),
            bytes);
    }
    server.charts().remove_expired();
    work.reset();
    ioc.stop();
    client_thread.join();
    server.stop();
    serving.join();
    std::filesystem::remove_all(dir);
}
