// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Request bodies to SQL: only schema identifiers and bound values reach SQLite,
// and every mistake is a 4xx naming the field.
#include "api/query.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

using namespace portfolio::api;
namespace json = boost::json;

namespace {

table_schema const& sample_table()
{
    static portfolio::table_info const meta{"datos_relevantes", "datos-relevantes", "", true, true};
    static table_schema const t{&meta,
        {{"id", column_kind::integer}, {"portfolio_id", column_kind::text}, {"nombre", column_kind::text},
            {"importe_2025", column_kind::real}, {"anio", column_kind::integer}}};
    return t;
}

checked<search_query> search(std::string_view body)
{
    return make_search_query(sample_table(), json::parse(body), limits{});
}

std::string error_of(checked<search_query> const& r)
{
    auto const* e = std::get_if<api_error>(&r);
    return e ? std::to_string(e->status) + " " + e->detail : "no error";
}

search_query ok(checked<search_query> const& r)
{
    BOOST_REQUIRE_MESSAGE(std::holds_alternative<search_query>(r), error_of(r));
    return std::get<search_query>(r);
}

} // namespace

BOOST_AUTO_TEST_SUITE(query)

BOOST_AUTO_TEST_CASE(filters_become_placeholders_with_typed_values)
{
    auto const q = ok(search(R"({"filters":[
        {"field":"nombre","operator":"eq","value":"Plan"},
        {"field":"importe_2025","operator":"gte","value":"1500.5"},
        {"field":"anio","operator":"in","value":[2024, "2025"]},
        {"field":"portfolio_id","operator":"ne","value":7},
        {"field":"nombre","operator":"is_null"}],
        "order_by":"importe_2025","order_dir":"desc","limit":10,"offset":20})"));
    BOOST_TEST(q.count.sql ==
        R"(SELECT count(*) FROM "datos_relevantes" WHERE "nombre" = ? AND "importe_2025" >= ? AND "anio" IN (?,?) AND "portfolio_id" <> ? AND "nombre" IS NULL)");
    BOOST_TEST(q.page.sql ==
        R"(SELECT t.* FROM (SELECT rowid AS k FROM "datos_relevantes" WHERE "nombre" = ? AND "importe_2025" >= ? AND "anio" IN (?,?) AND "portfolio_id" <> ? AND "nombre" IS NULL ORDER BY "importe_2025" DESC, "id" LIMIT ? OFFSET ?) AS page CROSS JOIN "datos_relevantes" AS t ON t.rowid = page.k ORDER BY t."importe_2025" DESC, t."id")");
    BOOST_REQUIRE(q.page.params.size() == 7u);
    BOOST_TEST(std::get<std::string>(q.page.params[0]) == "Plan");
    BOOST_TEST(std::get<double>(q.page.params[1]) == 1500.5);
    BOOST_TEST(std::get<std::int64_t>(q.page.params[2]) == 2024);
    BOOST_TEST(std::get<std::int64_t>(q.page.params[3]) == 2025);
    BOOST_TEST(std::get<std::string>(q.page.params[4]) == "7");
    BOOST_TEST(std::get<std::int64_t>(q.page.params[5]) == 10);
    BOOST_TEST(std::get<std::int64_t>(q.page.params[6]) == 20);
    BOOST_TEST(q.count.params.size() == 5u);
}

BOOST_AUTO_TEST_CASE(like_is_case_sensitive_and_ilike_folds_case)
{
    auto const q = ok(search(R"({"filters":[{"field":"nombre","operator":"like","value":"%Red_*[x]%"},
                                             {"field":"nombre","operator":"ilike","value":"%energía%"}]})"));
    BOOST_TEST(q.count.sql.find(R"("nombre" GLOB ?)") != std::string::npos);
    BOOST_TEST(q.count.sql.find(R"(casefold("nombre") LIKE casefold(?))") != std::string::npos);
    BOOST_TEST(std::get<std::string>(q.count.params[0]) == "*Red?[*][[]x]*");
}

BOOST_AUTO_TEST_CASE(defaults_and_limits)
{
    auto const q = ok(search("{}"));
    BOOST_TEST(q.limit == 50);
    BOOST_TEST(q.offset == 0);
    BOOST_TEST(q.page.sql ==
        R"(SELECT t.* FROM (SELECT rowid AS k FROM "datos_relevantes" ORDER BY "id" LIMIT ? OFFSET ?) AS page CROSS JOIN "datos_relevantes" AS t ON t.rowid = page.k ORDER BY t."id")");
    BOOST_TEST(ok(search(R"({"limit":1000})")).limit == 1000);
    BOOST_TEST(ok(search(R"({"limit":50.0})")).limit == 50);
    BOOST_TEST(error_of(search(R"({"limit":1001})")) == "422 limit: debe estar entre 1 y 1000 (recibido 1001)");
    BOOST_TEST(error_of(search(R"({"limit":0})")) == "422 limit: debe estar entre 1 y 1000 (recibido 0)");
    BOOST_TEST(error_of(search(R"({"limit":"50"})")) ==
        R"(422 limit: debe ser un número entero; recibido un texto "50")");
    BOOST_TEST(error_of(search(R"({"offset":-1})")) == "422 offset: no puede ser negativo (recibido -1)");
}

BOOST_AUTO_TEST_CASE(mistakes_name_the_field)
{
    BOOST_TEST(error_of(search(R"({"filter":[]})")) ==
        "422 filter: campo desconocido (admitidos: filters, order_by, order_dir, limit, offset)");
    BOOST_TEST(error_of(search(R"({"filters":{}})")) ==
        "422 filters: debe ser una lista de filtros; recibido un objeto");
    BOOST_TEST(error_of(search(R"({"filters":[{"field":"nombre","operator":"between","value":1}]})")) ==
        "422 filters[0].operator: operador desconocido 'between'; debe ser uno de eq, ne, gt, gte, lt, lte, like, "
        "ilike, in, not_in, is_null, is_not_null");
    BOOST_TEST(error_of(search(R"({"filters":[{"field":"nombre","operator":"eq"}]})")) ==
        "422 filters[0].value: obligatorio con el operador eq");
    BOOST_TEST(error_of(search(R"({"filters":[{"field":"nombre","operator":"eq","value":null}]})")) ==
        "422 filters[0].value: valor null no admitido; usa los operadores is_null / is_not_null");
    BOOST_TEST(error_of(search(R"({"filters":[{"field":"anio","operator":"in","value":"2024"}]})")) ==
        "422 filters[0].value: el operador in necesita una lista no vacía; recibido un texto");
    BOOST_TEST(error_of(search(R"({"filters":[{"field":"anio","operator":"not_in","value":[]}]})")) ==
        "422 filters[0].value: el operador not_in necesita una lista no vacía; recibido una lista");
    BOOST_TEST(error_of(search(R"({"filters":[{"field":"importe_2025","operator":"gt","value":"mucho"}]})")) ==
        R"(422 filters[0].value: el campo 'importe_2025' es numérico; recibido un texto "mucho")");
    BOOST_TEST(error_of(search(R"({"filters":[{"field":"anio","operator":"in","value":[2024,"x"]}]})")) ==
        R"(422 filters[0].value[1]: el campo 'anio' es numérico; recibido un texto "x")");
    BOOST_TEST(error_of(search(R"({"filters":[{"field":"nombre","operator":"like","value":5}]})")) ==
        "422 filters[0].value: el operador like necesita un texto (patrón con % y _); recibido un número");
    BOOST_TEST(error_of(search(R"({"filters":[{"field":"nombre","operator":"eq","value":"a","x":1}]})")) ==
        "422 filters[0].x: campo desconocido (admitidos: field, operator, value)");
    BOOST_TEST(error_of(search(R"({"order_dir":"up"})")) == R"(422 order_dir: debe ser "asc" o "desc"; recibido "up")");
    BOOST_TEST(error_of(search("[]")) == "422 el cuerpo debe ser un objeto JSON; recibido una lista");
}

BOOST_AUTO_TEST_CASE(sql_injection_through_identifiers_is_refused)
{
    for(char const* field : {"nombre; DROP TABLE iniciativas", "nombre\" OR 1=1 --", "1", "*", "sqlite_schema"})
    {
        BOOST_TEST_CONTEXT(field)
        {
            json::object f{{"field", field}, {"operator", "eq"}, {"value", "x"}};
            auto r = make_search_query(sample_table(), json::object{{"filters", json::array{f}}}, limits{});
            BOOST_TEST(error_of(r).starts_with("422 filters[0].field: campo desconocido"));
            auto o = make_search_query(sample_table(), json::object{{"order_by", field}}, limits{});
            BOOST_TEST(error_of(o).starts_with("422 order_by: campo desconocido"));
        }
    }
    // Values are bound, so SQL in a value is just text.
    auto const q = ok(search(R"({"filters":[{"field":"nombre","operator":"eq","value":"x' OR '1'='1"}]})"));
    BOOST_TEST(q.count.sql.find("OR") == std::string::npos);
    BOOST_TEST(quote_identifier(R"(a"b)") == R"("a""b")");
}

BOOST_AUTO_TEST_CASE(list_query_string)
{
    auto const& t = sample_table();
    auto r = make_list_query(t, "5", "10", limits{});
    BOOST_REQUIRE(std::holds_alternative<search_query>(r));
    BOOST_TEST(std::get<search_query>(r).limit == 5);
    BOOST_TEST(error_of(make_list_query(t, "abc", std::nullopt, limits{})) ==
        "422 limit: debe ser un número entero; recibido 'abc'");
    BOOST_TEST(error_of(make_list_query(t, "5", "1e3", limits{})) ==
        "422 offset: debe ser un número entero; recibido '1e3'");
    BOOST_TEST(error_of(make_list_query(t, "2000", std::nullopt, limits{})) ==
        "422 limit: debe estar entre 1 y 1000 (recibido 2000)");
}

BOOST_AUTO_TEST_CASE(aggregates)
{
    auto agg = [](std::string_view body) { return make_aggregate_query(sample_table(), json::parse(body), limits{}); };
    auto a = agg(R"({"group_by":"nombre","metrics":[{"op":"count"},{"op":"sum","field":"importe_2025"}],
                     "filters":[{"field":"anio","operator":"eq","value":2025}]})");
    BOOST_REQUIRE(std::holds_alternative<aggregate_query>(a));
    auto const& q = std::get<aggregate_query>(a);
    BOOST_TEST(q.groups.sql ==
        R"(SELECT "nombre", count(*), sum("importe_2025") FROM "datos_relevantes" WHERE "anio" = ? GROUP BY 1 ORDER BY 2 DESC, 1 ASC LIMIT 1001)");
    BOOST_TEST((q.metric_names == std::vector<std::string>{"count", "sum_importe_2025"}));

    auto err = [&](std::string_view body) {
        auto r = agg(body);
        auto const* e = std::get_if<api_error>(&r);
        return e ? e->detail : "no error";
    };
    BOOST_TEST(err(R"({"metrics":[{"op":"sum","field":"nombre"}]})") ==
        "metrics[0].field: 'nombre' no es numérico; sum necesita un campo numérico");
    BOOST_TEST(err(R"({"metrics":[{"op":"median","field":"anio"}]})") ==
        R"(metrics[0].op: debe ser uno de count, sum, avg, min, max; recibido "median")");
    BOOST_TEST(err(R"({"metrics":[{"op":"sum"}]})") == "metrics[0].field: obligatorio con la métrica sum");
    BOOST_TEST(err(R"({"group_by":"x\"; --"})") ==
        "group_by: campo desconocido 'x\"; --' en la tabla datos_relevantes");
    BOOST_TEST(err(R"({"metrics":[]})") == "metrics: debe ser una lista de 1 a 10 métricas {\"op\", \"field\"}");
}

BOOST_AUTO_TEST_CASE(an_any_group_is_its_filters_joined_with_or_in_parentheses)
{
    auto const q = ok(search(R"({"filters":[
        {"field":"anio","operator":"eq","value":2025},
        {"any":[{"field":"nombre","operator":"ilike","value":"%red%"},
                {"field":"portfolio_id","operator":"in","value":["A","B"]},
                {"field":"importe_2025","operator":"is_null"}]},
        {"any":[{"field":"nombre","operator":"like","value":"x%"}]}]})"));
    BOOST_TEST(q.count.sql ==
        R"(SELECT count(*) FROM "datos_relevantes" WHERE "anio" = ? AND (casefold("nombre") LIKE casefold(?) OR "portfolio_id" IN (?,?) OR "importe_2025" IS NULL) AND ("nombre" GLOB ?))");
    BOOST_REQUIRE(q.count.params.size() == 5u);
    BOOST_TEST(std::get<std::int64_t>(q.count.params[0]) == 2025);
    BOOST_TEST(std::get<std::string>(q.count.params[1]) == "%red%");
    BOOST_TEST(std::get<std::string>(q.count.params[2]) == "A");
    BOOST_TEST(std::get<std::string>(q.count.params[3]) == "B");
    BOOST_TEST(std::get<std::string>(q.count.params[4]) == "x*");

    BOOST_TEST(error_of(search(R"({"filters":[{"any":[]}]})")) ==
        R"(422 filters[0].any: debe ser una lista no vacía de filtros {"field", "operator", "value"})");
    BOOST_TEST(error_of(search(R"({"filters":[{"any":[{"any":[{"field":"nombre","operator":"is_null"}]}]}]})")) ==
        R"(422 filters[0].any[0].any: los grupos any no se anidan; un grupo solo contiene filtros {"field", "operator", "value"})");
    BOOST_TEST(
        error_of(search(
            R"({"filters":[{"any":[{"field":"nombre","operator":"is_null"},{"field":"x","operator":"eq","value":1}]}]})")) ==
        "422 filters[0].any[1].field: campo desconocido 'x' en la tabla datos_relevantes");
    BOOST_TEST(error_of(search(R"({"filters":[{"any":[{"field":"nombre","operator":"is_null"}],"operator":"eq"}]})")) ==
        "422 filters[0].operator: campo desconocido (admitidos: any)");
    BOOST_TEST(error_of(search(R"({"filters":[3]})")) ==
        R"(422 filters[0]: debe ser un objeto {"field", "operator", "value"} o {"any": [...]})");

    // Every comparison counts towards max_filters, inside a group or not.
    limits small;
    small.max_filters = 3;
    auto const four = json::parse(R"({"filters":[{"field":"anio","operator":"eq","value":1},
        {"any":[{"field":"nombre","operator":"is_null"},{"field":"nombre","operator":"is_null"},
                {"field":"nombre","operator":"is_null"}]}]})");
    BOOST_TEST(error_of(make_search_query(sample_table(), four, small)) ==
        "422 filters: como máximo 3 filtros (contando los de los grupos any)");
    auto const three = json::parse(R"({"filters":[{"any":[{"field":"nombre","operator":"is_null"},
        {"field":"nombre","operator":"is_null"},{"field":"nombre","operator":"is_null"}]}]})");
    BOOST_TEST(std::holds_alternative<search_query>(make_search_query(sample_table(), three, small)));
}

BOOST_AUTO_TEST_CASE(distinct_values_in_reading_order)
{
    auto const& t = sample_table();
    auto r = make_distinct_query(t, std::string_view("nombre"), std::string_view("10"), std::string_view("20"),
        limits{});
    BOOST_REQUIRE(std::holds_alternative<distinct_query>(r));
    auto const& q = std::get<distinct_query>(r);
    BOOST_TEST(q.field == "nombre");
    BOOST_TEST(q.count.sql == R"(SELECT count(*) FROM (SELECT 1 FROM "datos_relevantes" GROUP BY "nombre"))");
    BOOST_TEST(q.page.sql ==
        R"(SELECT "nombre", count(*) FROM "datos_relevantes" GROUP BY "nombre" ORDER BY "nombre" IS NULL, "nombre" COLLATE NOCASE, "nombre" LIMIT ? OFFSET ?)");
    BOOST_REQUIRE(q.page.params.size() == 2u);
    BOOST_TEST(std::get<std::int64_t>(q.page.params[0]) == 10);
    BOOST_TEST(std::get<std::int64_t>(q.page.params[1]) == 20);
    BOOST_TEST(q.count.params.empty());

    auto const defaults = make_distinct_query(t, std::string_view("anio"), std::nullopt, std::nullopt, limits{});
    auto const& d = std::get<distinct_query>(defaults);
    BOOST_TEST(d.limit == 50);
    BOOST_TEST(d.offset == 0);

    auto const b = make_distinct_query(t,
        json::parse(R"({"field":"anio","filters":[{"any":[{"field":"nombre","operator":"eq","value":"a"},
                                                            {"field":"nombre","operator":"eq","value":"b"}]}],"limit":5})"),
        limits{});
    BOOST_REQUIRE(std::holds_alternative<distinct_query>(b));
    auto const& p = std::get<distinct_query>(b);
    BOOST_TEST(p.count.sql ==
        R"(SELECT count(*) FROM (SELECT 1 FROM "datos_relevantes" WHERE ("nombre" = ? OR "nombre" = ?) GROUP BY "anio"))");
    BOOST_TEST(p.count.params.size() == 2u);
    BOOST_TEST(p.page.params.size() == 4u);
    BOOST_TEST(p.limit == 5);

    auto err = [&](checked<distinct_query> const& x) {
        auto const* e = std::get_if<api_error>(&x);
        return e ? std::to_string(e->status) + " " + e->detail : "no error";
    };
    BOOST_TEST(err(make_distinct_query(t, std::nullopt, std::nullopt, std::nullopt, limits{})) ==
        "422 field: obligatorio, el nombre de un campo de la tabla datos_relevantes");
    for(char const* field : {"nombre; DROP TABLE x", "nombre\" OR 1=1 --", "*", "1", "rowid"})
        BOOST_TEST(err(make_distinct_query(t, std::string_view(field), std::nullopt, std::nullopt, limits{})) ==
            "422 field: campo desconocido '" + std::string(field) + "' en la tabla datos_relevantes");
    BOOST_TEST(err(make_distinct_query(t, std::string_view("anio"), std::string_view("1001"), std::nullopt,
                   limits{})) == "422 limit: debe estar entre 1 y 1000 (recibido 1001)");
    BOOST_TEST(err(make_distinct_query(t, json::parse(R"({"field":"anio","group_by":"x"})"), limits{})) ==
        "422 group_by: campo desconocido (admitidos: field, filters, limit, offset)");
    BOOST_TEST(err(make_distinct_query(t, json::parse(R"({"field":["anio"]})"), limits{})) ==
        "422 field: debe ser el nombre de un campo; recibido una lista");
}

BOOST_AUTO_TEST_CASE(table_counts_are_one_statement)
{
    static portfolio::table_info const a{"uno", "uno", "", false, false};
    static portfolio::table_info const b{"dos\"x", "dos", "", false, false};
    database_schema schema;
    schema.tables.push_back({&a, {{"id", column_kind::integer}}});
    schema.tables.push_back({&b, {{"id", column_kind::integer}}});
    auto const q = make_table_counts_query(schema);
    BOOST_TEST(q.sql == R"(SELECT (SELECT count(*) FROM "uno"), (SELECT count(*) FROM "dos""x"))");
    BOOST_TEST(q.params.empty());
    BOOST_TEST(column_kind_name(column_kind::real) == "real");
}

BOOST_AUTO_TEST_SUITE_END()
