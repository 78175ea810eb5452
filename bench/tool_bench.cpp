// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Tool dispatch cost, and what the compile-time schema costs at run time.
//
//   cmake --build --preset release --target agentio_tool_bench && ./build/release/bench/agentio_tool_bench
//
// A toolset of ten tools (shaped like the portfolio tools: filters with an
// enum operator, bounds, optionals); the last one is called, so name lookup
// walks the whole list. Prints the median of 7 runs for each measurement.
#include <agentio/tool.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
using clock_type = std::chrono::steady_clock;

namespace bench {

enum class operador
{
    eq,
    ne,
    gt,
    gte,
    lt,
    lte,
    like,
    ilike,
    in,
    not_in,
    is_null,
    is_not_null
};
BOOST_DESCRIBE_ENUM(operador, eq, ne, gt, gte, lt, lte, like, ilike, in, not_in, is_null, is_not_null)

struct filtro
{
    std::string campo;
    operador op = operador::eq;
    json::value valor;
};
BOOST_DESCRIBE_STRUCT(filtro, (), (campo, op, valor))

struct buscar_args
{
    std::optional<std::vector<filtro>> filtros;
    std::optional<std::string> orden;
    int limite = 50;
};
BOOST_DESCRIBE_STRUCT(buscar_args, (), (filtros, orden, limite))

// Ten tools with the same arguments and distinct names.
template<int N>
struct tool_n
{
    static constexpr char const names[10][24] = {"herramienta_0", "herramienta_1", "herramienta_2", "herramienta_3",
        "herramienta_4", "herramienta_5", "herramienta_6", "herramienta_7", "herramienta_8", "buscar_iniciativas"};
    static constexpr std::string_view name = names[N];
    static constexpr std::string_view description = "Buscar iniciativas con filtros";
    using args = buscar_args;

    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const
    {
        co_return agentio::tool_result::text(std::to_string(a.limite));
    }
};

} // namespace bench

template<>
struct agentio::field_traits<bench::filtro>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "campo", .description = "Campo"},
        {.name = "op", .json_name = "operator", .description = "Operador"},
        {.name = "valor", .description = "Valor"},
    };
};

template<>
struct agentio::field_traits<bench::buscar_args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "filtros", .description = "Filtros", .max_items = 20},
        {.name = "orden", .description = "Orden", .one_of = {"asc", "desc"}},
        {.name = "limite", .description = "Límite", .minimum = 1, .maximum = 1000, .default_value = "50"},
    };
};

using namespace bench;
using ten_tools = agentio::toolset<tool_n<0>, tool_n<1>, tool_n<2>, tool_n<3>, tool_n<4>, tool_n<5>, tool_n<6>,
    tool_n<7>, tool_n<8>, tool_n<9>>;

// The schema is a constant expression: its length is known to the compiler.
static_assert(agentio::schema_of<buscar_args>.size() > 100);
static_assert(ten_tools::index_of("buscar_iniciativas") == 9u);

namespace {

template<class F>
double median_ns_per_op(int ops, F&& f)
{
    std::vector<double> runs;
    for(int i = 0; i < 7; ++i)
    {
        auto const t0 = clock_type::now();
        f();
        runs.push_back(std::chrono::duration<double, std::nano>(clock_type::now() - t0).count() / ops);
    }
    std::sort(runs.begin(), runs.end());
    return runs[3];
}

std::size_t sink = 0;

// The same schema built at run time, the way a library without compile-time
// generation would: a json::value assembled and serialized.
std::string runtime_schema()
{
    json::object filtro{{"type", "object"},
        {"properties",
            json::object{{"campo", {{"type", "string"}, {"description", "Campo"}}},
                {"operator",
                    {{"type", "string"},
                        {"enum",
                            json::array{"eq", "ne", "gt", "gte", "lt", "lte", "like", "ilike", "in", "not_in",
                                "is_null", "is_not_null"}},
                        {"description", "Operador"}}},
                {"valor", {{"description", "Valor"}}}}},
        {"required", json::array{"campo", "operator", "valor"}}, {"additionalProperties", false}};
    json::object root{{"type", "object"},
        {"properties",
            json::object{
                {"filtros", {{"type", "array"}, {"items", filtro}, {"maxItems", 20}, {"description", "Filtros"}}},
                {"orden", {{"type", "string"}, {"enum", json::array{"asc", "desc"}}, {"description", "Orden"}}},
                {"limite",
                    {{"type", "integer"}, {"minimum", 1}, {"maximum", 1000}, {"description", "Límite"},
                        {"default", 50}}}}},
        {"additionalProperties", false}};
    return json::serialize(root);
}

} // namespace

int main()
{
    std::printf("agentio tool benchmarks (median of 7 runs)\n\n");

    // --- the schema ---------------------------------------------------------
    constexpr int schema_ops = 1'000'000;
    double const constant = median_ns_per_op(schema_ops, [&] {
        for(int i = 0; i < schema_ops; ++i)
        {
            std::string_view s = agentio::schema_of<buscar_args>;
            asm volatile("" : "+r"(s)); // forget what we know about s
            sink += s.size();
        }
    });
    double const built = median_ns_per_op(10'000, [&] {
        for(int i = 0; i < 10'000; ++i)
            sink += runtime_schema().size();
    });
    std::printf("schema_of<buscar_args> (%zu bytes)    %8.2f ns   (a constant: no code runs)\n",
        agentio::schema_of<buscar_args>.size(), constant);
    std::printf("same schema built at run time       %8.0f ns   (json::value + serialize, for comparison)\n\n", built);

    // --- dispatch -------------------------------------------------------------
    ten_tools tools;
    json::value const arguments = json::parse(
        R"({"filtros":[{"campo":"estado","operator":"eq","valor":"En Ejecución"}],"orden":"asc","limite":20})");
    json::value const empty = json::object{};
    auto const& validator = agentio::detail::validator_for<buscar_args>();

    constexpr int ops = 200'000;
    double const lookup = median_ns_per_op(ops, [&] {
        std::string name = "buscar_iniciativas";
        for(int i = 0; i < ops; ++i)
        {
            asm volatile("" : "+m"(name));
            sink += ten_tools::index_of(name).value_or(0);
        }
    });
    double const validate = median_ns_per_op(ops, [&] {
        for(int i = 0; i < ops; ++i)
            sink += validator.validate(arguments).ok();
    });
    double const convert = median_ns_per_op(ops, [&] {
        for(int i = 0; i < ops; ++i)
        {
            buscar_args a;
            sink += agentio::read_json(arguments, a);
        }
    });

    auto calls = [&](json::value const& args) {
        return median_ns_per_op(ops, [&] {
            asio::io_context ioc;
            asio::co_spawn(
                ioc,
                [&]() -> asio::awaitable<void> {
                    agentio::tool_context ctx;
                    for(int i = 0; i < ops; ++i)
                    {
                        auto r = co_await tools.call("buscar_iniciativas", args, ctx);
                        sink += r.content.size();
                    }
                },
                asio::detached);
            ioc.run();
        });
    };
    double const full = calls(arguments);
    double const minimal = calls(empty);

    agentio::dynamic_tools runtime;
    for(int i = 0; i < 10; ++i)
        (void)runtime.add({i == 9 ? "buscar_iniciativas" : "herramienta_" + std::to_string(i), "Buscar",
            json::parse(agentio::schema_of<buscar_args>).as_object(),
            [](json::value const& a, agentio::tool_context&) -> asio::awaitable<agentio::tool_result> {
                co_return agentio::tool_result::text(std::to_string(a.as_object().size()));
            }});
    double const dynamic = median_ns_per_op(ops, [&] {
        asio::io_context ioc;
        asio::co_spawn(
            ioc,
            [&]() -> asio::awaitable<void> {
                agentio::tool_context ctx;
                for(int i = 0; i < ops; ++i)
                {
                    auto r = co_await runtime.call("buscar_iniciativas", arguments, ctx);
                    sink += r.content.size();
                }
            },
            asio::detached);
        ioc.run();
    });

    // A runtime schema written by hand in JSON Schema 2020-12 (the MCP
    // conformance suite's SEP-2106 tool): $ref into $defs, allOf/anyOf, if/then/else.
    auto const contact = *agentio::schema_validator::compile(json::parse(R"({
        "$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
        "$defs":{"address":{"$anchor":"addressDef","type":"object",
            "properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
        "properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},
            "contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},
        "allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],
        "if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},
        "then":{"required":["phone"]},"else":{"required":["email"]},"additionalProperties":false})"));
    json::value const contact_args = json::parse(
        R"({"name":"Ana","contactMethod":"phone","phone":"600000000","address":{"street":"Mayor 1","city":"Soria"}})");
    double const validate_refs = median_ns_per_op(ops, [&] {
        for(int i = 0; i < ops; ++i)
            sink += contact.validate(contact_args).ok();
    });

    std::printf("name lookup, 10 tools, last one     %8.1f ns/call\n", lookup);
    std::printf("validate arguments (1 filter)       %8.1f ns/call\n", validate);
    std::printf("validate, $ref + allOf + if/then    %8.1f ns/call  (SEP-2106's 2020-12 schema, runtime)\n",
        validate_refs);
    std::printf("convert to buscar_args              %8.1f ns/call\n", convert);
    std::printf(
        "toolset::call, arguments {}         %8.1f ns/call  (lookup + validate + convert + coroutine + result)\n",
        minimal);
    std::printf("toolset::call, 1 filter             %8.1f ns/call\n", full);
    std::printf(
        "dynamic_tools::call, 1 filter       %8.1f ns/call  (std::function + mutex + validate, no conversion)\n",
        dynamic);
    std::printf("\n(sink %zu)\n", sink % 10);
}
