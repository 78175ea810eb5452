// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The sample database: the 26 tables, realistic shape, deterministic.
#include "portfolio/db_generator.hpp"
#include "portfolio/table_metadata.hpp"

#include <agentio/sqlite.hpp>

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
namespace sql = agentio::sqlite;

namespace {

struct generated
{
    fs::path dir = fs::temp_directory_path() / ("agentio_gen_test_" + std::to_string(::getpid()));
    fs::path path = dir / "p.db";
    portfolio::generator_report report;
    sql::connection db;

    generated()
    {
        fs::create_directories(dir);
        report = portfolio::generate_database(path);
        db = sql::connection::open(path, sql::open_mode::read_only).value();
    }
    ~generated() { fs::remove_all(dir); }

    std::int64_t count(std::string const& q)
    {
        auto s = db.prepare(q).value();
        BOOST_REQUIRE(s.step().value());
        return s.column_int64(0);
    }

    std::vector<std::string> columns(std::string_view table)
    {
        auto s = db.prepare("PRAGMA table_info(\"" + std::string(table) + "\")").value();
        std::vector<std::string> out;
        while(s.step().value())
            out.emplace_back(s.column_text(1));
        return out;
    }

    std::vector<std::string> strings(std::string const& q)
    {
        auto s = db.prepare(q).value();
        std::vector<std::string> out;
        while(s.step().value())
            out.emplace_back(s.column_text(0));
        return out;
    }
};

std::string bytes_of(fs::path const& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool contains(std::vector<std::string> const& v, std::string const& x)
{
    return std::find(v.begin(), v.end(), x) != v.end();
}

} // namespace

BOOST_AUTO_TEST_SUITE(generator)

BOOST_AUTO_TEST_CASE(the_26_tables_with_ids_and_portfolio_ids)
{
    generated g;
    BOOST_TEST(g.report.rows_per_table.size() == 26u);
    BOOST_TEST(g.count("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") == 26);
    for(auto const& t : portfolio::tables)
    {
        BOOST_TEST_CONTEXT(t.name)
        {
            auto const cols = g.columns(t.name);
            BOOST_REQUIRE(!cols.empty());
            BOOST_TEST(cols.front() == "id");
            bool const global = t.name == "parametros" || t.name == "etiquetas_destacadas";
            BOOST_TEST(contains(cols, "portfolio_id") == !global);
            auto const rows = g.count("SELECT count(*) FROM " + std::string(t.name));
            BOOST_TEST(rows > 0);
            BOOST_TEST(rows == g.report.rows_per_table.at(std::string(t.name)));
            if(!global)
                BOOST_TEST(g.count("SELECT count(*) FROM " + std::string(t.name) +
                               " WHERE portfolio_id NOT IN (SELECT portfolio_id FROM datos_relevantes)") == 0);
        }
    }
}

BOOST_AUTO_TEST_CASE(datos_relevantes_is_one_wide_row_per_initiative)
{
    generated g;
    BOOST_TEST(g.report.initiatives == 850);
    BOOST_TEST(g.count("SELECT count(*) FROM datos_relevantes") == 850);
    BOOST_TEST(g.count("SELECT count(DISTINCT portfolio_id) FROM datos_relevantes") == 850);
    auto const cols = g.columns("datos_relevantes");
    BOOST_TEST(cols.size() >= 61u);
    for(std::string c : {"portfolio_id", "nombre", "unidad", "cluster", "tipo", "estado_de_la_iniciativa",
            "digital_framework_level_1", "digital_framework_level_2", "referente_negocio", "referente_bi",
            "fecha_inicio", "fecha_fin", "capex_opex"})
        BOOST_TEST(contains(cols, c), c);
    for(int year = 2024; year <= 2028; ++year)
        for(std::string prefix : {"budget_", "importe_", "importe_aprobado_", "importe_facturacion_"})
            BOOST_TEST(contains(cols, prefix + std::to_string(year)), prefix << year);
    for(std::string t : {"iniciativas", "datos_descriptivos", "informacion_economica"})
        BOOST_TEST(g.count("SELECT count(*) FROM " + t) == 850, t);
}

BOOST_AUTO_TEST_CASE(realistic_values)
{
    generated g;
    std::regex const id_pattern("[A-Z]{2,5}_\\d{2}_\\d{2,4}");
    for(auto const& id : g.strings("SELECT portfolio_id FROM datos_relevantes"))
        BOOST_TEST(std::regex_match(id, id_pattern), id);

    auto const states = g.strings("SELECT DISTINCT estado_de_la_iniciativa FROM datos_relevantes");
    BOOST_TEST(states.size() >= 13u);
    BOOST_TEST(states.size() <= 17u);
    BOOST_TEST(contains(states, "En Ejecución"));
    BOOST_TEST(contains(states, "Cancelado"));
    // En Ejecución is the most common state.
    BOOST_TEST(g.strings("SELECT estado_de_la_iniciativa FROM datos_relevantes GROUP BY 1 ORDER BY count(*) DESC "
                         "LIMIT 1")
                   .front() == "En Ejecución");

    // Euros as REAL, spread over orders of magnitude, some NULL.
    BOOST_TEST(g.count("SELECT count(*) FROM datos_relevantes WHERE typeof(importe_2025) NOT IN ('real','null')") == 0);
    BOOST_TEST(g.count("SELECT count(*) FROM datos_relevantes WHERE importe_2025 IS NULL") > 0);
    BOOST_TEST(g.count("SELECT count(*) FROM datos_relevantes WHERE importe_2025 < 100000") > 0);
    BOOST_TEST(g.count("SELECT count(*) FROM datos_relevantes WHERE importe_2025 > 1000000") > 0);
    BOOST_TEST(g.count("SELECT count(*) FROM datos_relevantes WHERE referente_bi IS NULL") > 0);

    // Documents: the four processing states, Spanish multi-sentence summaries when completed.
    auto const doc_states = g.strings("SELECT DISTINCT estado FROM documentos ORDER BY 1");
    BOOST_TEST((doc_states == std::vector<std::string>{"Completado", "Error", "Ignorado", "Pendiente"}));
    for(auto const& summary :
        g.strings("SELECT resumen_documento FROM documentos WHERE estado = 'Completado' LIMIT 50"))
    {
        BOOST_TEST(std::count(summary.begin(), summary.end(), '.') >= 3, summary);
        BOOST_TEST(summary.size() > 150u);
    }
    // Several rows per initiative where the data model has them (docs/apps/portfolio/data-model.md).
    for(std::string t : {"hechos", "facturacion", "beneficios", "ltp", "wbes"})
        BOOST_TEST(g.count("SELECT count(*) FROM " + t) > 850, t);
    // Groups relate existing initiatives.
    BOOST_TEST(g.count("SELECT count(*) FROM grupos_iniciativas WHERE portfolio_id_componente NOT IN "
                       "(SELECT portfolio_id FROM datos_relevantes)") == 0);
    BOOST_TEST(g.count("SELECT count(DISTINCT nombre_parametro) FROM parametros") >= 8);
}

BOOST_AUTO_TEST_CASE(same_seed_same_bytes_other_seed_other_content)
{
    fs::path const dir = fs::temp_directory_path() / ("agentio_gen_det_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    portfolio::generate_database(dir / "a.db", {.initiatives = 120, .seed = 99});
    portfolio::generate_database(dir / "b.db", {.initiatives = 120, .seed = 99});
    portfolio::generate_database(dir / "c.db", {.initiatives = 120, .seed = 100});
    BOOST_TEST((bytes_of(dir / "a.db") == bytes_of(dir / "b.db")));
    BOOST_TEST((bytes_of(dir / "a.db") != bytes_of(dir / "c.db")));
    // Regenerating over an existing file replaces it.
    portfolio::generate_database(dir / "c.db", {.initiatives = 120, .seed = 99});
    BOOST_TEST((bytes_of(dir / "a.db") == bytes_of(dir / "c.db")));
    BOOST_TEST(!fs::exists(dir / "a.db.tmp"));
    fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(an_impossible_path_is_a_clear_error)
{
    BOOST_CHECK_EXCEPTION(portfolio::generate_database("/nonexistent-dir/x/p.db"), std::runtime_error,
        [](std::runtime_error const& e) {
            return std::string(e.what()).find("/nonexistent-dir/x") != std::string::npos;
        });
}

BOOST_AUTO_TEST_SUITE_END()
