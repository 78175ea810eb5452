// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The ten portfolio tools against the real REST API on 127.0.0.1 (the shared
// server of this executable), over agentio's HTTP client, exactly as the agent
// calls them: through the toolset, arguments as JSON. Every answer is checked
// against direct SQL on the same database file.
#include "portfolio_fixture.hpp"
#include "test_http.hpp"

#include "agent/system_prompt.hpp"
#include "agent/tools.hpp"
#include "portfolio/field_metadata.hpp"
#include "portfolio/table_metadata.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <lodepng.h>

#include <cmath>
#include <mutex>
#include <regex>
#include <thread>

namespace asio = boost::asio;
namespace json = boost::json;
using portfolio_test::shared_server;
using portfolio_test::sql_count;

namespace {

// The tools on their own io_context thread, calling `base_url`.
struct tool_runner
{
    asio::io_context ioc;
    asio::executor_work_guard<asio::io_context::executor_type> work{ioc.get_executor()};
    agentio::http::client http{ioc.get_executor()};
    portfolio::agent::api_client api;
    portfolio::charts::chart_store store;
    portfolio::agent::tool_environment env;
    portfolio::agent::portfolio_tools tools;
    std::thread runner;

    explicit tool_runner(std::string base_url)
        : api(http, std::move(base_url), std::chrono::seconds(10))
        , store(shared_server::get().dir / "tool-charts", std::chrono::hours(1))
        , env(make_env())
        , tools(portfolio::agent::make_portfolio_tools(env, portfolio::agent::spanish_messages))
        , runner([this] { ioc.run(); })
    {
    }
    tool_runner() : tool_runner(base_of(shared_server::get().endpoint())) {}
    ~tool_runner()
    {
        work.reset();
        ioc.stop(); // idle pooled connections may still wait on their sockets
        runner.join();
    }

    static std::string base_of(asio::ip::tcp::endpoint ep)
    {
        return "http://127.0.0.1:" + std::to_string(ep.port()) + "/api/v1";
    }

    portfolio::agent::tool_environment make_env()
    {
        portfolio::agent::tool_environment e;
        e.api = &api;
        e.charts = &store;
        return e;
    }

    agentio::tool_result call(std::string_view name, json::value args)
    {
        auto f = asio::co_spawn(
            ioc,
            [this, name, args = std::move(args)]() -> asio::awaitable<agentio::tool_result> {
                agentio::tool_context ctx;
                ctx.tool_name = name;
                co_return co_await tools.call(name, args, ctx);
            },
            asio::use_future);
        return f.get();
    }

    // A successful call's JSON.
    json::value ok(std::string_view name, json::value args)
    {
        auto r = call(name, std::move(args));
        BOOST_TEST_REQUIRE(!r.is_error, r.joined_text());
        return json::parse(r.joined_text());
    }

    // A failed call's text.
    std::string error(std::string_view name, json::value args)
    {
        auto r = call(name, std::move(args));
        BOOST_TEST(r.is_error, r.joined_text());
        return r.joined_text();
    }
};

tool_runner& runner()
{
    static tool_runner r;
    return r;
}

std::vector<std::string> sql_strings(std::string const& sql, int column = 0)
{
    auto db = shared_server::get().direct();
    auto s = db.prepare(sql).value();
    std::vector<std::string> out;
    while(s.step().value())
        out.emplace_back(s.column_text(column));
    return out;
}

// The read-only authorizer admits the PRAGMA statement, not pragma_table_info().
std::vector<std::string> columns_of(std::string const& table)
{
    return sql_strings("PRAGMA table_info(" + table + ")", 1);
}

double sql_double(std::string const& sql)
{
    auto db = shared_server::get().direct();
    auto s = db.prepare(sql).value();
    BOOST_REQUIRE(s.step().value());
    return s.column_double(0);
}

json::value parse(std::string_view s)
{
    return json::parse(s);
}

std::string first_pid_with(std::string const& table)
{
    return sql_strings("SELECT portfolio_id FROM " + table + " ORDER BY id LIMIT 1").at(0);
}

} // namespace

BOOST_AUTO_TEST_SUITE(tools)

BOOST_AUTO_TEST_CASE(the_ten_tools_are_declared_in_their_documented_order)
{
    std::vector<std::string> names;
    for(auto const& d : portfolio::agent::portfolio_tools::descriptors())
        names.emplace_back(d.name);
    BOOST_TEST((names ==
        std::vector<std::string>{"buscar_iniciativas", "buscar_en_tabla", "obtener_iniciativa", "obtener_documentos",
            "contar_iniciativas", "totalizar_importes", "listar_tablas", "describir_tabla", "obtener_valores_campo",
            "generar_grafico"}));
    // Spanish parameter names, the documented defaults and bounds, in the schema the model reads.
    auto const schema = parse(agentio::schema_of<portfolio::agent::buscar_iniciativas::args>);
    auto const& props = schema.at("properties").as_object();
    BOOST_TEST(props.at("limite").at("maximum") == 500);
    BOOST_TEST(props.at("limite").at("default") == 50);
    BOOST_TEST(props.at("orden_direccion").at("enum") == parse(R"(["asc","desc"])"));
    BOOST_TEST(props.at("filtros").at("items").at("properties").at("operator").at("enum").as_array().size() == 12u);
}

BOOST_AUTO_TEST_CASE(buscar_iniciativas_filters_orders_and_pages_as_sql)
{
    auto const r = runner().ok("buscar_iniciativas",
        parse(R"({"filtros":[{"field":"estado_de_la_iniciativa","operator":"eq","value":"En Ejecución"}],
                  "orden_campo":"importe_2025","orden_direccion":"desc","limite":5,"desplazamiento":2})"));
    auto db = shared_server::get().direct();
    BOOST_TEST(r.at("total") ==
        sql_count(db, "SELECT count(*) FROM datos_relevantes WHERE estado_de_la_iniciativa = 'En Ejecución'"));
    BOOST_TEST(r.at("limite") == 5);
    BOOST_TEST(r.at("desplazamiento") == 2);
    auto const expected = sql_strings("SELECT portfolio_id FROM datos_relevantes WHERE estado_de_la_iniciativa = "
                                      "'En Ejecución' ORDER BY importe_2025 DESC, id LIMIT 5 OFFSET 2");
    auto const& datos = r.at("datos").as_array();
    BOOST_TEST_REQUIRE(datos.size() == 5u);
    for(std::size_t i = 0; i < 5; ++i)
        BOOST_TEST(datos[i].at("portfolio_id").as_string() == expected[i]);
    // Null fields are left out of the rows (the model reads absence as null).
    for(auto const& row : datos)
        for(auto const& kv : row.as_object())
            BOOST_TEST(!kv.value().is_null());
}

BOOST_AUTO_TEST_CASE(buscar_iniciativas_defaults_and_fields)
{
    auto const r = runner().ok("buscar_iniciativas", parse(R"({"campos":["portfolio_id","unidad"]})"));
    auto db = shared_server::get().direct();
    BOOST_TEST(r.at("total") == sql_count(db, "SELECT count(*) FROM datos_relevantes"));
    BOOST_TEST(r.at("limite") == 50);
    BOOST_TEST(r.at("desplazamiento") == 0);
    BOOST_TEST(r.at("datos").as_array().size() == 50u);
    BOOST_TEST(r.at("datos").at(0).as_object().size() == 2u);
    BOOST_TEST(r.at("datos").at(0).at("portfolio_id").as_string() ==
        sql_strings("SELECT portfolio_id FROM datos_relevantes ORDER BY id LIMIT 1").at(0));

    auto const unknown = runner().error("buscar_iniciativas", parse(R"({"campos":["portfolio_id","nada"]})"));
    BOOST_TEST(unknown.starts_with("campos: campo desconocido 'nada' en la tabla datos_relevantes"), unknown);
}

// DEFAULT_QUERY_ROWS and MAX_QUERY_ROWS (environment settings) as an operator sets them:
// a call without `limite` gets the configured default, any limit stops at the maximum.
BOOST_AUTO_TEST_CASE(configured_default_and_maximum_rows)
{
    tool_runner configured;
    configured.env.default_rows = 7;
    configured.env.max_rows = 12;
    auto const rows = [](json::value const& r, char const* key) { return r.at(key).as_array().size(); };

    auto const buscar = configured.ok("buscar_iniciativas", json::object{});
    BOOST_TEST(buscar.at("limite") == 7);
    BOOST_TEST(rows(buscar, "datos") == 7u);
    BOOST_TEST(rows(configured.ok("buscar_iniciativas", parse(R"({"limite":3})")), "datos") == 3u);
    auto const capped = configured.ok("buscar_iniciativas", parse(R"({"limite":400})"));
    BOOST_TEST(capped.at("limite") == 12);
    BOOST_TEST(rows(capped, "datos") == 12u);

    BOOST_TEST(rows(configured.ok("buscar_en_tabla", parse(R"({"tabla":"hechos"})")), "datos") == 7u);     // search
    BOOST_TEST(rows(configured.ok("buscar_en_tabla", parse(R"({"tabla":"beneficios"})")), "datos") == 7u); // listing
    BOOST_TEST(rows(configured.ok("obtener_documentos", json::object{}), "documentos") == 7u);
    BOOST_TEST(rows(configured.ok("obtener_documentos", parse(R"({"limite":50})")), "documentos") == 12u);

    // The unconfigured runner still has the default 50.
    BOOST_TEST(rows(runner().ok("obtener_documentos", json::object{}), "documentos") == 50u);
}

BOOST_AUTO_TEST_CASE(a_large_page_is_trimmed_to_whole_first_rows_with_a_note)
{
    auto const r = runner().ok("buscar_iniciativas", parse(R"({"limite":500,"desplazamiento":10})"));
    auto const& datos = r.at("datos").as_array();
    BOOST_TEST(datos.size() < 500u);
    BOOST_TEST(datos.size() > 5u);
    BOOST_TEST(json::serialize(r).size() < 52u * 1024);
    auto const expected = sql_strings("SELECT portfolio_id FROM datos_relevantes ORDER BY id LIMIT 500 OFFSET 10");
    for(std::size_t i = 0; i < datos.size(); ++i)
        BOOST_TEST(datos[i].at("portfolio_id").as_string() == expected[i]);
    std::string const nota(r.at("nota").as_string());
    BOOST_TEST(nota.find("muestra los primeros " + std::to_string(datos.size()) + " de 500") != std::string::npos,
        nota);
    BOOST_TEST(nota.find("desplazamiento=" + std::to_string(10 + datos.size())) != std::string::npos, nota);
}

BOOST_AUTO_TEST_CASE(buscar_en_tabla_searches_and_lists)
{
    auto db = shared_server::get().direct();
    auto const hechos = runner().ok("buscar_en_tabla",
        parse(R"({"tabla":"hechos","filtros":[{"field":"estado","operator":"eq","value":"Aprobado"}],"limite":3})"));
    BOOST_TEST(hechos.at("total") == sql_count(db, "SELECT count(*) FROM hechos WHERE estado = 'Aprobado'"));
    BOOST_TEST(hechos.at("datos").as_array().size() == 3u);

    auto const beneficios = runner().ok("buscar_en_tabla",
        parse(R"({"tabla":"beneficios","limite":7,"desplazamiento":3})"));
    BOOST_TEST(beneficios.at("total") == sql_count(db, "SELECT count(*) FROM beneficios"));
    BOOST_TEST(beneficios.at("datos").as_array().size() == 7u);
    BOOST_TEST(beneficios.at("datos").at(0).at("id") == 4);
}

BOOST_AUTO_TEST_CASE(obtener_iniciativa_keeps_only_tables_with_data)
{
    std::string const pid = first_pid_with("grupos_iniciativas");
    auto const r = runner().ok("obtener_iniciativa", json::object{{"portfolio_id", pid}});
    BOOST_TEST(r.at("portfolio_id").as_string() == pid);
    auto const& tablas = r.at("tablas").as_object();
    BOOST_TEST(tablas.at("datos_relevantes").at("portfolio_id").as_string() == pid);
    auto db = shared_server::get().direct();
    for(auto const& t : portfolio::tables)
    {
        if(t.name == "parametros" || t.name == "etiquetas_destacadas" || t.name == "grupos_iniciativas")
            continue;
        auto const n = sql_count(db,
            "SELECT count(*) FROM " + std::string(t.name) + " WHERE portfolio_id = '" + pid + "'");
        BOOST_TEST(tablas.contains(t.name) == (n > 0), t.name);
        if(n > 0 && !t.one_per_initiative && !r.as_object().contains("nota"))
            BOOST_TEST(tablas.at(t.name).as_array().size() == static_cast<std::size_t>(n), t.name);
    }
    // A group: its components, without the empty role.
    auto const& grupos = tablas.at("grupos_iniciativas").as_object();
    BOOST_TEST(grupos.at("as_grupo").as_array().size() ==
        static_cast<std::size_t>(sql_count(db,
            "SELECT count(*) FROM grupos_iniciativas WHERE portfolio_id = '" + pid + "'")));
    BOOST_TEST(!grupos.contains("as_componente"));
}

BOOST_AUTO_TEST_CASE(obtener_documentos_by_initiative_text_and_state)
{
    auto db = shared_server::get().direct();
    std::string const pid = sql_strings("SELECT portfolio_id FROM documentos WHERE estado = 'Completado' "
                                        "GROUP BY portfolio_id HAVING count(*) >= 2 ORDER BY portfolio_id LIMIT 1")
                                .at(0);
    auto const by_pid = runner().ok("obtener_documentos", json::object{{"portfolio_id", pid}});
    auto const n = sql_count(db, "SELECT count(*) FROM documentos WHERE portfolio_id = '" + pid + "'");
    BOOST_TEST(by_pid.at("total") == n);
    BOOST_TEST(by_pid.at("documentos").as_array().size() == static_cast<std::size_t>(n));
    for(auto const& d : by_pid.at("documentos").as_array())
    {
        auto const items = sql_count(db,
            "SELECT count(*) FROM documentos_items WHERE documento_id = " + std::to_string(d.at("id").as_int64()));
        BOOST_TEST((d.as_object().contains("items") ? d.at("items").as_array().size() : 0u) ==
            static_cast<std::size_t>(items));
    }

    auto const by_text = runner().ok("obtener_documentos", parse(R"({"texto_busqueda":"riesgo","limite":5})"));
    BOOST_TEST(by_text.at("total") ==
        sql_count(db,
            "SELECT count(*) FROM documentos WHERE resumen_documento LIKE "
            "'%riesgo%' OR nombre_fichero LIKE '%riesgo%'"));
    auto const first_ids = sql_strings("SELECT id FROM documentos WHERE resumen_documento LIKE '%riesgo%' OR "
                                       "nombre_fichero LIKE '%riesgo%' ORDER BY id LIMIT 5");
    BOOST_TEST_REQUIRE(by_text.at("documentos").as_array().size() == 5u);
    for(std::size_t i = 0; i < 5; ++i)
        BOOST_TEST(std::to_string(by_text.at("documentos").at(i).at("id").as_int64()) == first_ids[i]);

    auto const by_state = runner().ok("obtener_documentos", parse(R"({"estado":"Error","limite":500})"));
    BOOST_TEST(by_state.at("total") == sql_count(db, "SELECT count(*) FROM documentos WHERE estado = 'Error'"));

    auto const bad = runner().error("obtener_documentos", parse(R"({"estado":"Roto"})"));
    BOOST_TEST(bad.find("/estado") != std::string::npos, bad);
}

BOOST_AUTO_TEST_CASE(contar_iniciativas_counts_every_group_as_sql)
{
    auto db = shared_server::get().direct();
    auto const r = runner().ok("contar_iniciativas", parse(R"({"campo_agrupacion":"unidad"})"));
    BOOST_TEST(r.at("total_iniciativas") == sql_count(db, "SELECT count(*) FROM datos_relevantes"));
    auto const& grupos = r.at("grupos").as_array();
    BOOST_TEST(grupos.size() ==
        static_cast<std::size_t>(sql_count(db, "SELECT count(DISTINCT unidad) FROM datos_relevantes")));
    std::int64_t previous = INT64_MAX;
    for(auto const& g : grupos)
    {
        std::string const unidad(g.at("valor").as_string());
        BOOST_TEST(g.at("cantidad") ==
            sql_count(db, "SELECT count(*) FROM datos_relevantes WHERE unidad = '" + unidad + "'"));
        BOOST_TEST(g.at("cantidad").as_int64() <= previous);
        previous = g.at("cantidad").as_int64();
    }

    // The null group is kept, and filters apply first.
    auto const bi = runner().ok("contar_iniciativas", parse(R"({"campo_agrupacion":"referente_bi",
        "filtros":[{"field":"estado_de_la_iniciativa","operator":"ne","value":"Cancelado"}]})"));
    BOOST_TEST(bi.at("total_iniciativas") ==
        sql_count(db, "SELECT count(*) FROM datos_relevantes WHERE estado_de_la_iniciativa <> 'Cancelado'"));
    bool null_group = false;
    for(auto const& g : bi.at("grupos").as_array())
        if(g.at("valor").is_null())
        {
            null_group = true;
            BOOST_TEST(g.at("cantidad") ==
                sql_count(db,
                    "SELECT count(*) FROM datos_relevantes WHERE referente_bi IS "
                    "NULL AND estado_de_la_iniciativa <> 'Cancelado'"));
        }
    BOOST_TEST(null_group);
}

BOOST_AUTO_TEST_CASE(totalizar_importes_sums_every_group_as_sql)
{
    auto const r = runner().ok("totalizar_importes",
        parse(R"({"campo_importe":"importe_2025","campo_agrupacion":"cluster",
        "filtros":[{"field":"es_grupo","operator":"eq","value":0}]})"));
    BOOST_TEST(std::abs(r.at("total_general").to_number<double>() -
                   sql_double("SELECT sum(importe_2025) FROM datos_relevantes WHERE es_grupo = 0")) < 0.01);
    double previous = INFINITY;
    for(auto const& g : r.at("grupos").as_array())
    {
        std::string const cluster(g.at("valor").as_string());
        double const total = g.at("total").to_number<double>();
        BOOST_TEST(std::abs(total -
                       sql_double("SELECT sum(importe_2025) FROM datos_relevantes WHERE es_grupo = 0 AND "
                                  "cluster = '" +
                           cluster + "'")) < 0.01,
            cluster);
        BOOST_TEST(total <= previous);
        previous = total;
        auto db = shared_server::get().direct();
        BOOST_TEST(g.at("cantidad") ==
            sql_count(db, "SELECT count(*) FROM datos_relevantes WHERE es_grupo = 0 AND cluster = '" + cluster + "'"));
    }
    auto const global = runner().ok("totalizar_importes", parse(R"({"campo_importe":"budget_total"})"));
    BOOST_TEST(!global.as_object().contains("grupos"));
    BOOST_TEST(std::abs(global.at("total_general").to_number<double>() -
                   sql_double("SELECT sum(budget_total) FROM datos_relevantes")) < 0.01);
}

BOOST_AUTO_TEST_CASE(listar_y_describir_tablas_match_the_database)
{
    auto db = shared_server::get().direct();
    auto const list = runner().ok("listar_tablas", json::object{});
    BOOST_TEST_REQUIRE(list.as_array().size() == portfolio::tables.size());
    for(auto const& t : list.as_array())
    {
        std::string const name(t.at("tabla").as_string());
        BOOST_TEST(t.at("num_registros") == sql_count(db, "SELECT count(*) FROM " + name), name);
        BOOST_TEST(t.at("soporta_busqueda") == portfolio::find_table_by_name(name)->soporta_busqueda);
    }
    auto const hechos = runner().ok("describir_tabla", parse(R"({"tabla":"hechos"})"));
    auto const columns = columns_of("hechos");
    json::array expected;
    for(auto const& c : columns)
        expected.push_back(json::string(c));
    BOOST_TEST(hechos.at("campos") == expected);
    BOOST_TEST(hechos.at("num_registros") == sql_count(db, "SELECT count(*) FROM hechos"));
    BOOST_TEST(hechos.at("soporta_busqueda") == true);
    BOOST_TEST(hechos.at("descripcion").as_string() == "Hechos/hitos presupuestarios con importes y estados");
}

BOOST_AUTO_TEST_CASE(obtener_valores_campo_lists_distinct_values_as_sql)
{
    auto const estados = runner().ok("obtener_valores_campo",
        parse(R"({"tabla":"datos_relevantes","campo":"estado_de_la_iniciativa"})"));
    auto expected = sql_strings("SELECT DISTINCT estado_de_la_iniciativa FROM datos_relevantes");
    std::sort(expected.begin(), expected.end());
    std::vector<std::string> got;
    for(auto const& v : estados.at("valores").as_array())
        got.emplace_back(v.as_string());
    auto sorted = got;
    std::sort(sorted.begin(), sorted.end());
    BOOST_TEST(sorted == expected);
    BOOST_TEST(estados.at("total_distintos") == expected.size());

    // A table without /search, read page by page (documentos_items has several pages).
    auto const tipos = runner().ok("obtener_valores_campo",
        parse(R"({"tabla":"documentos_items","campo":"tipo_contenido"})"));
    auto const tipos_sql = sql_strings("SELECT DISTINCT tipo_contenido FROM documentos_items ORDER BY 1");
    BOOST_TEST(tipos.at("total_distintos") == tipos_sql.size());
    BOOST_TEST(!tipos.as_object().contains("nota"));

    auto const two = runner().ok("obtener_valores_campo",
        parse(R"({"tabla":"datos_relevantes","campo":"unidad","limite":2})"));
    BOOST_TEST(two.at("valores").as_array().size() == 2u);
    BOOST_TEST(two.at("total_distintos") == sql_strings("SELECT DISTINCT unidad FROM datos_relevantes").size());

    // The null value comes last.
    auto const bi = runner().ok("obtener_valores_campo",
        parse(R"({"tabla":"datos_relevantes","campo":"referente_bi"})"));
    BOOST_TEST(bi.at("valores").as_array().back().is_null());

    // Numbers by value; a table without /search is answered by the API too, exactly.
    auto const anios = runner().ok("obtener_valores_campo", parse(R"({"tabla":"beneficios","campo":"anio"})"));
    json::array expected_anios;
    for(auto const& a : sql_strings("SELECT DISTINCT anio FROM beneficios ORDER BY anio"))
        expected_anios.push_back(std::stoll(a));
    BOOST_TEST(anios.at("valores") == expected_anios);
    auto const contenidos = runner().ok("obtener_valores_campo",
        parse(R"({"tabla":"documentos_items","campo":"contenido","limite":3})"));
    BOOST_TEST(contenidos.at("valores").as_array().size() == 3u);
    BOOST_TEST(contenidos.at("total_distintos") ==
        sql_strings("SELECT DISTINCT contenido FROM documentos_items").size());
}

BOOST_AUTO_TEST_CASE(more_groups_than_the_api_lists_keep_exact_totals)
{
    // A server whose API lists at most 5 groups: the totals come from one more aggregate.
    portfolio::server_options opt;
    opt.db_path = shared_server::get().db_path;
    opt.port = 0;
    opt.threads = 1;
    opt.db_threads = 1;
    opt.limits.max_limit = 5;
    opt.charts.output_dir = (shared_server::get().dir / "charts").string();
    opt.chat.store = portfolio_test::shared_server::get().store_for("tools");
    portfolio::portfolio_server small(opt);
    std::thread serving([&] { small.run(); });
    {
        tool_runner t(tool_runner::base_of(small.endpoint()));
        auto db = shared_server::get().direct();
        auto const counts = t.ok("contar_iniciativas", parse(R"({"campo_agrupacion":"unidad"})"));
        BOOST_TEST(counts.at("grupos").as_array().size() == 5u);
        BOOST_TEST(counts.at("total_iniciativas") == sql_count(db, "SELECT count(*) FROM datos_relevantes"));
        auto const sums = t.ok("totalizar_importes",
            parse(R"({"campo_importe":"importe_2024","campo_agrupacion":"unidad"})"));
        BOOST_TEST(sums.at("grupos").as_array().size() == 5u);
        BOOST_TEST(std::abs(sums.at("total_general").to_number<double>() -
                       sql_double("SELECT sum(importe_2024) FROM datos_relevantes")) < 0.01);
        BOOST_TEST(sums.at("cantidad") == sql_count(db, "SELECT count(*) FROM datos_relevantes"));
        // Distinct values are paged by the API: the first 5 in reading order, the exact number of them.
        auto const values = t.ok("obtener_valores_campo",
            parse(R"({"tabla":"datos_relevantes","campo":"unidad","limite":5})"));
        BOOST_TEST(values.at("valores").as_array().size() == 5u);
        BOOST_TEST(values.at("total_distintos") == sql_strings("SELECT DISTINCT unidad FROM datos_relevantes").size());
        BOOST_TEST(!values.as_object().contains("nota"));
        // More than this API gives at once is the API's 422, in the tool's words.
        auto const over = t.error("obtener_valores_campo", parse(R"({"tabla":"datos_relevantes","campo":"unidad"})"));
        BOOST_TEST(over == "Error en los parámetros de búsqueda: limite: debe estar entre 1 y 5 (recibido 100).", over);
    }
    small.stop();
    serving.join();
}

// Each tool is one or two calls of the REST API: a proxy in front of the
// shared server records what the tools ask, exactly as it arrives.
BOOST_AUTO_TEST_CASE(each_tool_is_one_or_two_api_calls)
{
    struct recorder
    {
        std::mutex mutex;
        std::vector<std::string> calls;
    };
    struct recording_proxy
    {
        agentio::http::client* http;
        std::string upstream;
        recorder* log;

        asio::awaitable<boost::beast::http::message_generator> operator()(agentio::http::request&& req) const
        {
            {
                std::lock_guard lock(log->mutex);
                log->calls.push_back(std::string(req.method_string()) + " " + std::string(req.target()));
            }
            agentio::http::client_request out;
            out.method = req.method();
            out.url = upstream + std::string(req.target());
            if(!req.body().empty())
            {
                out.headers.set(boost::beast::http::field::content_type, "application/json");
                out.body = req.body();
            }
            auto [err, res] = co_await http->async_request(std::move(out), asio::use_awaitable);
            if(err)
                co_return agentio::http::make_error_response(boost::beast::http::status::bad_gateway, err.message,
                    req.version(), req.keep_alive());
            agentio::http::response r{static_cast<boost::beast::http::status>(res.status), req.version()};
            r.set(boost::beast::http::field::content_type, "application/json");
            r.keep_alive(req.keep_alive());
            r.body() = std::move(res.body);
            r.prepare_payload();
            co_return r;
        }
    };
    asio::io_context ioc;
    agentio::http::client upstream_http(ioc.get_executor());
    recorder log;
    agentio::http::server<recording_proxy> proxy(ioc.get_executor(),
        recording_proxy{&upstream_http, "http://127.0.0.1:" + std::to_string(shared_server::get().endpoint().port()),
            &log});
    auto const ep = proxy.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    proxy.start();
    auto guard = asio::make_work_guard(ioc);
    std::thread serving([&] { ioc.run(); });
    {
        tool_runner t(tool_runner::base_of(ep));
        auto calls = [&](std::string_view tool, json::value args) {
            {
                std::lock_guard lock(log.mutex);
                log.calls.clear();
            }
            auto const r = t.call(tool, std::move(args));
            BOOST_TEST(!r.is_error, tool << ": " << r.joined_text());
            std::lock_guard lock(log.mutex);
            return log.calls;
        };
        using calls_t = std::vector<std::string>;
        std::string const pid = sql_strings("SELECT portfolio_id FROM documentos ORDER BY id LIMIT 1").at(0);

        BOOST_TEST(calls("listar_tablas", json::object{}) == calls_t{"GET /api/v1/tables"});
        BOOST_TEST(calls("describir_tabla", parse(R"({"tabla":"documentos_items"})")) ==
            calls_t{"GET /api/v1/tables/documentos-items"});
        BOOST_TEST(calls("obtener_valores_campo", parse(R"({"tabla":"documentos_items","campo":"tipo_contenido"})")) ==
            calls_t{"GET /api/v1/documentos-items/distinct?field=tipo_contenido&limit=100"});
        BOOST_TEST(calls("obtener_valores_campo", parse(R"({"tabla":"hechos","campo":"estado","limite":7})")) ==
            calls_t{"GET /api/v1/hechos/distinct?field=estado&limit=7"});
        BOOST_TEST(calls("obtener_documentos", parse(R"({"texto_busqueda":"plan","limite":5})")) ==
            calls_t{"POST /api/v1/documentos/search"});
        BOOST_TEST(calls("obtener_documentos", json::object{{"portfolio_id", pid}, {"texto_busqueda", "a"}}) ==
            (calls_t{"POST /api/v1/documentos/search", "GET /api/v1/documentos-items/portfolio/" + pid}));
        BOOST_TEST(calls("buscar_en_tabla", parse(R"({"tabla":"beneficios","limite":3,"desplazamiento":2})")) ==
            calls_t{"GET /api/v1/beneficios?limit=3&offset=2"});
        BOOST_TEST(calls("buscar_en_tabla", parse(R"({"tabla":"hechos"})")) == calls_t{"POST /api/v1/hechos/search"});
        BOOST_TEST(calls("buscar_iniciativas", json::object{}) == calls_t{"POST /api/v1/datos-relevantes/search"});
        BOOST_TEST(calls("obtener_iniciativa", json::object{{"portfolio_id", pid}}) ==
            calls_t{"GET /api/v1/portfolio/" + pid});
        BOOST_TEST(calls("contar_iniciativas", parse(R"({"campo_agrupacion":"unidad"})")) ==
            calls_t{"POST /api/v1/datos-relevantes/aggregate"});
        BOOST_TEST(calls("totalizar_importes", parse(R"({"campo_importe":"importe_2025"})")) ==
            calls_t{"POST /api/v1/datos-relevantes/aggregate"});

        // Boost.URL encodes each value as one path segment or one query value.
        {
            std::lock_guard lock(log.mutex);
            log.calls.clear();
        }
        auto const odd = t.call("obtener_iniciativa", parse(R"({"portfolio_id":"a/b?c=d#e%41 f+g"})"));
        BOOST_TEST(odd.is_error);
        {
            std::lock_guard lock(log.mutex);
            BOOST_TEST(log.calls == calls_t{"GET /api/v1/portfolio/a%2Fb%3Fc=d%23e%2541%20f+g"});
            log.calls.clear();
        }
        BOOST_TEST(t.call("obtener_iniciativa", parse(R"({"portfolio_id":".."})")).is_error);
        {
            std::lock_guard lock(log.mutex);
            BOOST_TEST(log.calls == calls_t{"GET /api/v1/portfolio/%2E%2E"}); // data, not a dot-segment
            log.calls.clear();
        }
        auto const odd_field = t.call("obtener_valores_campo", parse(R"({"tabla":"notas","campo":"a&b=c d+e#f"})"));
        BOOST_TEST(odd_field.is_error);
        BOOST_TEST(odd_field.joined_text().find("campo desconocido 'a&b=c d+e#f'") != std::string::npos,
            odd_field.joined_text());
        std::lock_guard lock(log.mutex);
        BOOST_TEST(log.calls == calls_t{"GET /api/v1/notas/distinct?field=a%26b%3Dc%20d%2Be%23f&limit=100"});
    }
    guard.reset();
    ioc.stop();
    serving.join();
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(tool_errors)

BOOST_AUTO_TEST_CASE(unknown_tables_and_filters_on_listing_tables)
{
    std::string const expected = "Tabla 'usuarios' no disponible. Usa listar_tablas para ver las tablas disponibles.";
    BOOST_TEST(runner().error("buscar_en_tabla", parse(R"({"tabla":"usuarios"})")) == expected);
    BOOST_TEST(runner().error("describir_tabla", parse(R"({"tabla":"usuarios"})")) == expected);
    BOOST_TEST(runner().error("obtener_valores_campo", parse(R"({"tabla":"usuarios","campo":"x"})")) == expected);
    BOOST_TEST(runner()
                   .error("buscar_en_tabla", parse(R"({"tabla":"sqlite_master"})"))
                   .starts_with("Tabla 'sqlite_master' no"));

    auto const crud = runner().error("buscar_en_tabla",
        parse(R"({"tabla":"beneficios","filtros":[{"field":"anio","operator":"eq","value":2025}]})"));
    BOOST_TEST(crud.starts_with("La tabla 'beneficios' no admite búsqueda con filtros"), crud);
    BOOST_TEST(runner()
                   .error("buscar_en_tabla", parse(R"({"tabla":"notas","orden_campo":"fecha"})"))
                   .starts_with("La tabla 'notas' no admite"));
}

BOOST_AUTO_TEST_CASE(api_422_details_name_the_tools_parameters)
{
    BOOST_TEST(runner().error("contar_iniciativas", parse(R"({"campo_agrupacion":"unidadx"})")) ==
        "Error en los parámetros de búsqueda: campo_agrupacion: campo desconocido 'unidadx' en la tabla datos_relevantes.");
    auto const sum = runner().error("totalizar_importes", parse(R"({"campo_importe":"unidad"})"));
    BOOST_TEST(sum.starts_with("Error en los parámetros de búsqueda: campo_importe: 'unidad' no es numérico"), sum);
    auto const filter = runner().error("buscar_iniciativas",
        parse(R"({"filtros":[{"field":"estadoo","operator":"eq","value":"x"}]})"));
    BOOST_TEST(filter.starts_with("Error en los parámetros de búsqueda: filtros[0].field: campo desconocido 'estadoo'"),
        filter);
    auto const order = runner().error("buscar_en_tabla", parse(R"({"tabla":"hechos","orden_campo":"nada"})"));
    BOOST_TEST(order.starts_with("Error en los parámetros de búsqueda: orden_campo: campo desconocido 'nada'"), order);
    auto const field = runner().error("obtener_valores_campo", parse(R"({"tabla":"notas","campo":"nada"})"));
    BOOST_TEST(
        field.starts_with("Error en los parámetros de búsqueda: campo: campo desconocido 'nada' en la tabla notas"),
        field);
}

BOOST_AUTO_TEST_CASE(not_found_initiatives)
{
    BOOST_TEST(runner().error("obtener_iniciativa", parse(R"({"portfolio_id":"XXX_99_999"})")) ==
        "No se encontraron datos para XXX_99_999.");
    // Path characters are data, not a path.
    BOOST_TEST(runner().error("obtener_iniciativa", parse(R"({"portfolio_id":"../health"})")) ==
        "No se encontraron datos para ../health.");
    for(std::string const id : {"..", ".", "a/b?c=d#e%41 f+g", "%2E%2E"})
        BOOST_TEST(runner().error("obtener_iniciativa", json::object{{"portfolio_id", id}}) ==
            "No se encontraron datos para " + id + ".");
}

BOOST_AUTO_TEST_CASE(invalid_arguments_are_reported_in_spanish_before_any_call)
{
    auto const e = runner().error("buscar_iniciativas", parse(R"({"limite":501})"));
    BOOST_TEST(e.find("/limite") != std::string::npos, e);
    auto const missing = runner().error("contar_iniciativas", json::object{});
    BOOST_TEST(missing.find("campo_agrupacion") != std::string::npos, missing);
}

BOOST_AUTO_TEST_CASE(an_unreachable_api)
{
    // A port that was just free: nothing listens there.
    asio::io_context ioc;
    asio::ip::tcp::acceptor a(ioc, {asio::ip::make_address("127.0.0.1"), 0});
    auto const port = a.local_endpoint().port();
    a.close();
    tool_runner dead("http://127.0.0.1:" + std::to_string(port) + "/api/v1");
    std::string const expected =
        "Error: No se puede conectar con la API. Asegúrate de que el backend está ejecutándose "
        "en http://127.0.0.1:" +
        std::to_string(port) + "/api/v1.";
    BOOST_TEST(dead.error("buscar_iniciativas", json::object{}) == expected);
    BOOST_TEST(dead.error("listar_tablas", json::object{}) == expected);
    BOOST_TEST(dead.error("contar_iniciativas", parse(R"({"campo_agrupacion":"unidad"})")) == expected);
}

BOOST_AUTO_TEST_CASE(an_api_failing_with_500)
{
    struct failing
    {
        asio::awaitable<boost::beast::http::message_generator> operator()(agentio::http::request&& req) const
        {
            co_return agentio::http::make_error_response(boost::beast::http::status::internal_server_error,
                "la base de datos falló", req.version(), req.keep_alive());
        }
    };
    asio::io_context ioc;
    agentio::http::server<failing> srv(ioc.get_executor(), failing{});
    auto const ep = srv.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    srv.start();
    std::thread t([&] { ioc.run(); });
    {
        tool_runner broken(tool_runner::base_of(ep));
        std::string const expected = "Error interno del servidor API. Consulta los logs del backend.";
        BOOST_TEST(broken.error("obtener_iniciativa", parse(R"({"portfolio_id":"SPA_25_001"})")) == expected);
        BOOST_TEST(broken.error("obtener_valores_campo", parse(R"({"tabla":"notas","campo":"x"})")) == expected);
    }
    ioc.stop();
    t.join();
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(chart_tool)

BOOST_AUTO_TEST_CASE(generar_grafico_saves_a_png_and_answers_markdown)
{
    // The shared server's own store, so that its endpoint serves the file.
    tool_runner local(tool_runner::base_of(shared_server::get().endpoint()));
    auto const r = local.call("generar_grafico", parse(R"({"tipo":"bar","titulo":"Importe 2025 por unidad [test]",
        "categorias":["Redes","Clientes","Generación"],"series":[{"nombre":"2025","valores":[4250000.5,3100250,2900000]}]})"));
    BOOST_TEST_REQUIRE(!r.is_error, r.joined_text());
    std::string const text = r.joined_text();
    std::smatch m;
    BOOST_TEST_REQUIRE(std::regex_match(text, m,
                           std::regex(R"(!\[Importe 2025 por unidad  test \]\(/api/v1/charts/([0-9a-f]{32}\.png)\))")),
        text);
    std::string const file = m[1];
    BOOST_TEST(local.store.find(file).has_value());
    BOOST_TEST(r.summary == "Gráfico bar con 3 categorías");

    auto const bad = local.error("generar_grafico", parse(R"({"titulo":"x","categorias":["a","b"],
        "series":[{"nombre":"s","valores":[1]}]})"));
    BOOST_TEST(bad.starts_with("Error en los datos del gráfico: "), bad);
    auto const bad_type = local.error("generar_grafico", parse(R"({"tipo":"radar","titulo":"x","categorias":["a"],
        "series":[{"nombre":"s","valores":[1]}]})"));
    BOOST_TEST(bad_type.find("/tipo") != std::string::npos, bad_type);
}

BOOST_AUTO_TEST_CASE(the_chart_endpoint_serves_only_store_files)
{
    auto& server = *shared_server::get().server;
    auto const png = portfolio::charts::render_png({.type = portfolio::charts::chart_type::pie,
        .title = "Reparto",
        .categories = {"A", "B"},
        .series = {{"s", {1, 3}}},
        .x_label = {},
        .y_label = {},
        .unit = portfolio::charts::value_unit::number});
    std::string const file = server.charts().save(png);
    auto const ep = shared_server::get().endpoint();

    auto const ok = test_http::get(ep, "/api/v1/charts/" + file);
    BOOST_TEST(ok.status == 200u);
    BOOST_TEST(ok.headers["content-type"] == "image/png");
    BOOST_TEST(ok.headers["cache-control"].starts_with("private, max-age="));
    BOOST_TEST(ok.headers["x-content-type-options"] == "nosniff");
    BOOST_TEST(ok.body.size() == png.size());
    std::vector<unsigned char> pixels;
    unsigned w = 0, h = 0;
    BOOST_TEST(lodepng::decode(pixels, w, h, reinterpret_cast<unsigned char const*>(ok.body.data()), ok.body.size()) ==
        0u);
    BOOST_TEST(w == 1500u);
    BOOST_TEST(h == 900u);

    auto const head = test_http::raw(ep,
        "HEAD /api/v1/charts/" + file + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    BOOST_TEST(head.starts_with("HTTP/1.1 200"), head);
    BOOST_TEST(head.find("Content-Length: " + std::to_string(png.size())) != std::string::npos, head);
    BOOST_TEST(head.ends_with("\r\n\r\n"), head);

    for(std::string target :
        std::vector<std::string>{"/api/v1/charts/" + std::string(32, 'a') + ".png", "/api/v1/charts/..%2Fportfolio.db",
            "/api/v1/charts/../portfolio.db", "/api/v1/charts/" + file.substr(0, 32), "/api/v1/charts/",
            "/api/v1/charts/" + file + "/x", "/api/v1/charts/%2E%2E%2F" + file})
    {
        auto const r = test_http::get(ep, target);
        BOOST_TEST(r.status == 404u, target);
        BOOST_TEST(r.headers["content-type"] == "application/json", target);
    }
    auto const post = test_http::post(ep, "/api/v1/charts/" + file, "{}");
    BOOST_TEST(post.status == 405u);
    BOOST_TEST(post.headers["allow"] == "GET, HEAD");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(system_prompt)

BOOST_AUTO_TEST_CASE(the_prompt_names_only_real_tables_fields_and_tools)
{
    std::string const& p = portfolio::agent::system_prompt();
    BOOST_TEST(p.starts_with("Eres el asistente de datos del Portfolio Digital"));
    BOOST_TEST(p.find("**Supuestos aplicados:**") != std::string::npos);
    BOOST_TEST(p.find("![título](/api/v1/charts/") != std::string::npos);
    for(auto const& d : portfolio::agent::portfolio_tools::descriptors())
        BOOST_TEST(p.find("- " + std::string(d.name) + ": ") != std::string::npos, d.name);
    for(auto const& t : portfolio::tables)
        BOOST_TEST(p.find("- " + std::string(t.name)) != std::string::npos, t.name);
    // Every field the prompt explains is a column of datos_relevantes.
    auto const columns = columns_of("datos_relevantes");
    for(auto const& g : portfolio::datos_relevantes_fields)
    {
        std::string fields(g.fields);
        std::size_t pos = 0;
        while(pos < fields.size())
        {
            std::size_t const end = std::min(fields.find(", ", pos), fields.size());
            std::string name = fields.substr(pos, end - pos);
            pos = end + 2;
            std::vector<std::string> names;
            if(auto y = name.find("YYYY"); y != std::string::npos)
                for(int year = 2024; year <= 2028; ++year)
                    names.push_back(name.substr(0, y) + std::to_string(year));
            else
                names.push_back(name);
            for(auto const& n : names)
                BOOST_TEST((std::find(columns.begin(), columns.end(), n) != columns.end()), n);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
