// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/tool/compact.hpp>
#include <agentio/tool/toolset.hpp>

#include "spanish_messages.hpp"
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;

namespace toolset_test {

// Counts calls through a pointer: tools are values holding their dependencies.
struct sumar
{
    static constexpr std::string_view name = "sumar";
    static constexpr std::string_view description = "Suma una lista de enteros";
    struct args
    {
        std::vector<int> valores;
        std::optional<int> inicial;
    };

    std::atomic<int>* calls = nullptr;

    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context& ctx) const
    {
        if(calls)
            ++*calls;
        long total = a.inicial.value_or(0);
        for(int v : a.valores)
            total += v;
        ctx.report_progress(1, 1, "hecho");
        co_return agentio::tool_result::json(json::object{{"total", total}, {"llamada", ctx.call_id}});
    }
};

struct fallar
{
    static constexpr std::string_view name = "fallar";
    static constexpr std::string_view description = "Lanza una excepción";
    struct args
    {
    };
    asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const
    {
        throw std::runtime_error("sin conexión con la API");
        co_return agentio::tool_result{};
    }
};

// Waits on a timer: shows that cancelling the caller reaches the tool.
struct esperar
{
    static constexpr std::string_view name = "esperar";
    static constexpr std::string_view description = "Espera unos milisegundos";
    struct args
    {
        int ms = 0;
    };
    std::atomic<bool>* cancelled = nullptr;
    std::atomic<int>* in_flight = nullptr;
    std::atomic<int>* most_in_flight = nullptr;

    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const
    {
        if(in_flight)
            *most_in_flight = std::max(most_in_flight->load(), ++*in_flight);
        asio::steady_timer t(co_await asio::this_coro::executor, std::chrono::milliseconds(a.ms));
        try
        {
            co_await t.async_wait(asio::use_awaitable);
        }
        catch(boost::system::system_error const& e)
        {
            if(e.code() == asio::error::operation_aborted && cancelled)
                *cancelled = true;
            throw;
        }
        if(in_flight)
            --*in_flight;
        co_return agentio::tool_result::text("esperé " + std::to_string(a.ms) + " ms");
    }
};

// Described in the struct's namespace, where Boost.Describe looks.
BOOST_DESCRIBE_STRUCT(sumar::args, (), (valores, inicial))
BOOST_DESCRIBE_STRUCT(fallar::args, (), ())
BOOST_DESCRIBE_STRUCT(esperar::args, (), (ms))

} // namespace toolset_test

template<>
struct agentio::field_traits<toolset_test::sumar::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "valores", .description = "Enteros a sumar", .min_items = 1},
        {.name = "inicial", .description = "Valor de partida"},
    };
};

template<>
struct agentio::field_traits<toolset_test::esperar::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "ms", .description = "Milisegundos", .minimum = 0, .maximum = 10000},
    };
};

using namespace toolset_test;
using test_tools = agentio::toolset<sumar, fallar, esperar>;

static_assert(agentio::tool<sumar>);
static_assert(agentio::tool_catalog<test_tools>);
static_assert(agentio::tool_catalog<agentio::dynamic_tools>);
static_assert(agentio::tool_catalog<agentio::combined_toolset<test_tools>>);
static_assert(test_tools::size == 3);
static_assert(test_tools::index_of("esperar") == 2u); // resolved by the compiler
static_assert(!test_tools::index_of("otra"));

namespace {

template<class Awaitable>
auto run(Awaitable a)
{
    asio::io_context ioc;
    std::optional<typename Awaitable::value_type> out;
    asio::co_spawn(ioc, std::move(a), [&](std::exception_ptr e, auto v) {
        if(e)
            std::rethrow_exception(e);
        out = std::move(v);
    });
    ioc.run();
    return std::move(*out);
}

agentio::toolset_options spanish()
{
    agentio::toolset_options o;
    o.validation.texts = agentio_test::spanish_messages;
    return o;
}

} // namespace

BOOST_AUTO_TEST_SUITE(toolset)

BOOST_AUTO_TEST_CASE(descriptors_in_declaration_order)
{
    auto const d = test_tools::descriptors();
    BOOST_TEST_REQUIRE(d.size() == 3u);
    BOOST_TEST(d[0].name == "sumar");
    BOOST_TEST(d[1].name == "fallar");
    BOOST_TEST(d[2].name == "esperar");
    BOOST_TEST(d[0].description == "Suma una lista de enteros");
    BOOST_TEST(d[0].input_schema_text == agentio::schema_of<sumar::args>);
    BOOST_TEST(d[0].input_schema->at("required") == json::array{"valores"});
    BOOST_TEST(json::serialize(*d[1].input_schema) ==
        R"({"type":"object","properties":{},"additionalProperties":false})");
    BOOST_TEST(test_tools::descriptors().data() == d.data()); // built once
}

BOOST_AUTO_TEST_CASE(dispatch_converts_and_calls_the_named_tool)
{
    std::atomic<int> calls = 0;
    test_tools tools{sumar{&calls}, fallar{}, esperar{}};
    std::vector<std::string> progress;
    auto r = run([&]() -> asio::awaitable<agentio::tool_result> {
        agentio::tool_context ctx{.tool_name = "sumar", .call_id = "toolu_01"};
        ctx.progress = [&](double, std::optional<double>, std::string_view m) { progress.emplace_back(m); };
        co_return co_await tools.call("sumar", json::parse(R"({"valores":[1,2,3],"inicial":10})"), ctx);
    }());
    BOOST_TEST(!r.is_error);
    BOOST_TEST(calls == 1);
    BOOST_TEST(r.joined_text() == R"({"total":16,"llamada":"toolu_01"})");
    BOOST_TEST(r.structured.value() == json::parse(R"({"total":16,"llamada":"toolu_01"})"));
    BOOST_TEST(progress == std::vector<std::string>{"hecho"});
}

BOOST_AUTO_TEST_CASE(invalid_arguments_come_back_as_an_error_result)
{
    std::atomic<int> calls = 0;
    test_tools tools{spanish(), sumar{&calls}, fallar{}, esperar{}};
    auto r = run([&]() -> asio::awaitable<agentio::tool_result> {
        agentio::tool_context ctx;
        co_return co_await tools.call("sumar", json::parse(R"({"valores":[],"inicial":"diez","otro":1})"), ctx);
    }());
    BOOST_TEST(r.is_error);
    BOOST_TEST(calls == 0); // never called with arguments it cannot trust
    BOOST_TEST(r.joined_text() ==
        "Argumentos no válidos para la herramienta 'sumar':\n"
        "/valores: debe tener al menos 1 elementos\n"
        "/inicial: se esperaba integer, se recibió string\n"
        "/otro: campo desconocido (se admiten: valores, inicial)");
}

BOOST_AUTO_TEST_CASE(unknown_tool_lists_the_known_ones)
{
    test_tools tools;
    auto r = run([&]() -> asio::awaitable<agentio::tool_result> {
        agentio::tool_context ctx;
        co_return co_await tools.call("restar", json::object{}, ctx);
    }());
    BOOST_TEST(r.is_error);
    BOOST_TEST(r.joined_text() == "unknown tool 'restar'; available tools: sumar, fallar, esperar");
}

BOOST_AUTO_TEST_CASE(an_exception_becomes_an_error_result)
{
    test_tools tools{spanish(), sumar{}, fallar{}, esperar{}};
    auto r = run([&]() -> asio::awaitable<agentio::tool_result> {
        agentio::tool_context ctx;
        co_return co_await tools.call("fallar", json::object{}, ctx);
    }());
    BOOST_TEST(r.is_error);
    BOOST_TEST(r.joined_text() == "La herramienta 'fallar' falló: sin conexión con la API");
}

BOOST_AUTO_TEST_CASE(cancelling_the_caller_cancels_the_tool)
{
    using namespace asio::experimental::awaitable_operators;
    std::atomic<bool> cancelled = false;
    test_tools tools{sumar{}, fallar{}, esperar{&cancelled}};
    auto winner = run([&]() -> asio::awaitable<std::size_t> {
        agentio::tool_context ctx;
        asio::steady_timer deadline(co_await asio::this_coro::executor, std::chrono::milliseconds(20));
        auto outcome = co_await (tools.call("esperar", json::parse(R"({"ms":5000})"), ctx) ||
            deadline.async_wait(asio::use_awaitable));
        co_return outcome.index();
    }());
    BOOST_TEST(winner == 1u); // the deadline
    BOOST_TEST(cancelled.load());
}

BOOST_AUTO_TEST_CASE(calls_run_concurrently)
{
    using namespace asio::experimental::awaitable_operators;
    std::atomic<int> in_flight = 0, most_in_flight = 0;
    test_tools tools{sumar{}, fallar{}, esperar{nullptr, &in_flight, &most_in_flight}};
    auto texts = run([&]() -> asio::awaitable<std::vector<std::string>> {
        agentio::tool_context c1, c2, c3;
        auto [a, b, c] = co_await (tools.call("esperar", json::parse(R"({"ms":20})"), c1) &&
            tools.call("esperar", json::parse(R"({"ms":20})"), c2) &&
            tools.call("esperar", json::parse(R"({"ms":20})"), c3));
        co_return std::vector<std::string>{a.joined_text(), b.joined_text(), c.joined_text()};
    }());
    BOOST_TEST(texts == std::vector<std::string>(3, "esperé 20 ms"));
    BOOST_TEST(most_in_flight == 3); // all three waited at once
}

BOOST_AUTO_TEST_CASE(tool_result_helpers)
{
    auto r = agentio::tool_result::text("gráfico listo");
    r.add_image("image/png", "iVBORw0KGgo=");
    BOOST_TEST(r.content.size() == 2u);
    BOOST_TEST(r.joined_text() == "gráfico listo");
    BOOST_TEST(std::get<agentio::image_content>(r.content[1]).mime_type == "image/png");
    BOOST_TEST(!r.is_error);
    BOOST_TEST(agentio::tool_result::error("x").is_error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(dynamic_tools)

namespace {

agentio::dynamic_tools::definition echo(std::string name, json::object schema = {})
{
    return {std::move(name), "Devuelve sus argumentos", std::move(schema),
        [](json::value const& args, agentio::tool_context&) -> asio::awaitable<agentio::tool_result> {
            co_return agentio::tool_result::json(args);
        }};
}

} // namespace

BOOST_AUTO_TEST_CASE(runtime_tools_are_checked_when_added)
{
    agentio::dynamic_tools tools;
    BOOST_TEST(tools.add(echo("eco")).has_value());
    BOOST_TEST(tools.add(echo("eco")).error() == "a tool is already named 'eco'");
    BOOST_TEST(tools.add(echo("con espacio")).error() ==
        "invalid tool name 'con espacio': 1 to 64 characters of [A-Za-z0-9_.-]");
    auto nameless = echo("sin_descripcion");
    nameless.description.clear();
    BOOST_TEST(tools.add(std::move(nameless)).error() == "tool 'sin_descripcion' has an empty description");
    BOOST_TEST(tools.contains("eco"));
    BOOST_TEST(tools.remove("eco"));
    BOOST_TEST(!tools.contains("eco"));
    BOOST_TEST(!tools.remove("eco"));
}

BOOST_AUTO_TEST_CASE(runtime_tools_validate_with_their_schema)
{
    agentio::dynamic_tools tools;
    BOOST_TEST_REQUIRE(tools
                           .add(echo("eco",
                               json::parse(R"({"type":"object","properties":{"n":{"type":"integer"}},
        "required":["n"],"additionalProperties":false})")
                                   .as_object()))
                           .has_value());
    // A schema the validator cannot honour is passed through: the tool checks.
    BOOST_TEST_REQUIRE(
        tools.add(echo("eco_ref", json::parse(R"({"$ref":"https://example.com/x.json"})").as_object())).has_value());
    auto results = run([&]() -> asio::awaitable<std::vector<agentio::tool_result>> {
        agentio::tool_context ctx;
        std::vector<agentio::tool_result> out;
        out.push_back(co_await tools.call("eco", json::parse(R"({"n":"x"})"), ctx));
        out.push_back(co_await tools.call("eco", json::parse(R"({"n":4})"), ctx));
        out.push_back(co_await tools.call("eco_ref", json::parse(R"({"n":"x"})"), ctx));
        out.push_back(co_await tools.call("nada", json::object{}, ctx));
        co_return out;
    }());
    BOOST_TEST(results[0].is_error);
    BOOST_TEST(results[0].joined_text() == "Invalid arguments for tool 'eco':\n/n: expected integer, got string");
    BOOST_TEST(!results[1].is_error);
    BOOST_TEST(results[1].joined_text() == R"({"n":4})");
    BOOST_TEST(!results[2].is_error);
    BOOST_TEST(results[3].joined_text() == "unknown tool 'nada'; available tools: eco, eco_ref");
}

BOOST_AUTO_TEST_CASE(descriptors_outlive_removal)
{
    agentio::dynamic_tools tools;
    BOOST_TEST_REQUIRE(tools.add(echo("eco", json::parse(R"({"type":"object"})").as_object())).has_value());
    auto const d = tools.descriptors();
    tools.remove("eco");
    BOOST_TEST_REQUIRE(d.size() == 1u);
    BOOST_TEST(d[0].name == "eco"); // still valid: the descriptor owns its tool
    BOOST_TEST(d[0].input_schema_text == R"({"type":"object"})");
}

BOOST_AUTO_TEST_CASE(combined_with_a_static_toolset)
{
    agentio::combined_toolset<test_tools> tools;
    BOOST_TEST(tools.add(echo("sumar")).error() == "a static tool is already named 'sumar'");
    BOOST_TEST_REQUIRE(tools.add(echo("eco")).has_value());
    auto const d = tools.descriptors();
    BOOST_TEST_REQUIRE(d.size() == 4u);
    BOOST_TEST(d[0].name == "sumar");
    BOOST_TEST(d[3].name == "eco");
    auto results = run([&]() -> asio::awaitable<std::vector<std::string>> {
        agentio::tool_context ctx;
        auto a = co_await tools.call("sumar", json::parse(R"({"valores":[2,2]})"), ctx);
        auto b = co_await tools.call("eco", json::parse(R"({"x":1})"), ctx);
        co_return std::vector<std::string>{a.joined_text(), b.joined_text()};
    }());
    BOOST_TEST(results[0] == R"({"total":4,"llamada":""})");
    BOOST_TEST(results[1] == R"({"x":1})");
}

BOOST_AUTO_TEST_CASE(seen_through_a_catalog_ref)
{
    static_assert(agentio::tool_catalog<agentio::tool_catalog_ref>);
    agentio::combined_toolset<test_tools> tools;
    BOOST_TEST_REQUIRE(tools.add(echo("eco")).has_value());
    agentio::tool_catalog_ref const ref(tools);
    auto const d = ref.descriptors();
    BOOST_TEST_REQUIRE(d.size() == 4u);
    BOOST_TEST(d[0].name == "sumar");
    BOOST_TEST(d[3].name == "eco");
    BOOST_TEST(ref.contains("eco"));
    BOOST_TEST(!ref.contains("otra"));
    // A tool added after the view was made is seen: the view holds no copy.
    BOOST_TEST_REQUIRE(tools.add(echo("tarde")).has_value());
    BOOST_TEST(ref.contains("tarde"));
    auto results = run([&]() -> asio::awaitable<std::vector<std::string>> {
        agentio::tool_context ctx;
        auto a = co_await ref.call("sumar", json::parse(R"({"valores":[2,3]})"), ctx);
        auto b = co_await ref.call("tarde", json::parse(R"({"y":2})"), ctx);
        auto c = co_await ref.call("sumar", json::parse(R"({"valores":"no"})"), ctx);
        co_return std::vector<std::string>{a.joined_text(), b.joined_text(), c.is_error ? "error" : "ok"};
    }());
    BOOST_TEST(results[0] == R"({"total":5,"llamada":""})");
    BOOST_TEST(results[1] == R"({"y":2})");
    BOOST_TEST(results[2] == "error");

    test_tools statics{sumar{}, fallar{}, esperar{}};
    BOOST_TEST(agentio::tool_catalog_ref(statics).descriptors().size() == 3u);
}

BOOST_AUTO_TEST_SUITE_END()

// ---------------------------------------------------------------------------
// compact_json: tool results trimmed to a budget, deterministically.

BOOST_AUTO_TEST_SUITE(tool_compact)

namespace {

boost::json::value rows(std::size_t n, std::size_t text_bytes)
{
    boost::json::array datos;
    for(std::size_t i = 0; i < n; ++i)
        datos.push_back({{"id", i}, {"texto", std::string(text_bytes, 'x')}, {"nulo", nullptr}});
    return boost::json::object{{"total", n}, {"datos", std::move(datos)}};
}

} // namespace

BOOST_AUTO_TEST_CASE(a_small_value_is_untouched)
{
    auto v = rows(3, 10);
    auto const before = v;
    auto const report = agentio::compact_json(v, {.max_bytes = 1000, .max_string_bytes = 100});
    BOOST_TEST(v == before);
    BOOST_TEST(!report.truncated());
    BOOST_TEST(report.fits);
    BOOST_TEST(report.bytes == agentio::to_json_text(v).size());
}

BOOST_AUTO_TEST_CASE(sizes_count_escapes_as_the_writer_writes_them)
{
    boost::json::value v = boost::json::object{{"k\"ey", std::string("a\"b\\c\nd\x01e\tf\x1f€")}, {"n", nullptr},
        {"t", true}, {"f", false}, {"d", 0.1}, {"i", -12}, {"l", boost::json::array{1.5e300, "x"}}};
    auto const report = agentio::compact_json(v, {.max_bytes = 1000});
    BOOST_TEST(report.bytes == agentio::to_json_text(v).size());
}

BOOST_AUTO_TEST_CASE(nulls_go_and_long_strings_end_in_an_ellipsis_on_a_code_point)
{
    boost::json::value v = boost::json::object{{"a", nullptr}, {"b", "ñññññ"}, {"c", boost::json::array{nullptr}}};
    auto const report = agentio::compact_json(v, {.max_bytes = 1000, .max_string_bytes = 5, .drop_null_members = true});
    BOOST_TEST(report.null_members_dropped == 1u);
    BOOST_TEST(report.strings_shortened == 1u);
    // 5 bytes would split the third ñ: two whole ones are kept.
    BOOST_TEST(v == boost::json::parse(R"({"b":"ññ…","c":[null]})"));
}

BOOST_AUTO_TEST_CASE(the_largest_array_keeps_its_first_whole_elements)
{
    auto v = rows(100, 100);
    auto const report = agentio::compact_json(v, {.max_bytes = 2000, .max_string_bytes = 1000});
    BOOST_TEST(report.fits);
    BOOST_TEST(report.bytes <= 2000u);
    BOOST_TEST(agentio::to_json_text(v).size() == report.bytes);
    BOOST_TEST_REQUIRE(report.arrays.size() == 1u);
    BOOST_TEST(report.arrays[0].pointer == "/datos");
    auto const& datos = v.at("datos").as_array();
    BOOST_TEST(report.arrays[0].kept == datos.size());
    BOOST_TEST(report.arrays[0].dropped == 100u - datos.size());
    for(std::size_t i = 0; i < datos.size(); ++i)
        BOOST_TEST(datos[i].at("id") == i);
    // As many as fit: one more would not.
    auto w = rows(datos.size() + 1, 100);
    BOOST_TEST(agentio::to_json_text(w).size() > 2000u);
    // Same input, same output.
    auto again = rows(100, 100);
    agentio::compact_json(again, {.max_bytes = 2000, .max_string_bytes = 1000});
    BOOST_TEST(again == v);
}

BOOST_AUTO_TEST_CASE(nested_arrays_and_pointers)
{
    boost::json::value v =
        boost::json::parse(R"({"a/b":{"x~y":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]},"c":[1]})");
    auto const report = agentio::compact_json(v, {.max_bytes = 40});
    BOOST_TEST_REQUIRE(report.arrays.size() == 1u);
    BOOST_TEST(report.arrays[0].pointer == "/a~1b/x~0y");
    BOOST_TEST(report.bytes <= 40u);
    BOOST_TEST(v.at("c") == boost::json::parse("[1]"));
}

BOOST_AUTO_TEST_CASE(a_budget_no_array_can_meet_is_reported)
{
    boost::json::value v = boost::json::object{{"texto", std::string(500, 'x')}, {"lista", boost::json::array{1, 2}}};
    auto const report = agentio::compact_json(v, {.max_bytes = 100, .max_string_bytes = 1000});
    BOOST_TEST(!report.fits);
    BOOST_TEST(v.at("lista").as_array().empty());
    BOOST_TEST(report.bytes == agentio::to_json_text(v).size());
}

BOOST_AUTO_TEST_SUITE_END()
