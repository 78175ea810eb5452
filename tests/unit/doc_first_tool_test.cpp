// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The code of docs/guide/01-first-tool.md. The regions between tag:: and end:: markers
// appear verbatim in the page (CTest docs.first_tool_snippets checks it), so
// the page shows code that compiles and does what the page says.
// tag::includes[]
#include <agentio/tool.hpp> // tools, toolsets, schemas, validation

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp> // BOOST_DESCRIBE_STRUCT, BOOST_DESCRIBE_ENUM
#include <boost/json.hpp>

#include <cmath>
#include <optional>
#include <string>

namespace asio = boost::asio;
namespace json = boost::json;
// end::includes[]

#include <boost/test/unit_test.hpp>

#include <vector>

namespace first_tool {

// clang-format off
// tag::args[]
enum class unit { celsius, fahrenheit, kelvin };
BOOST_DESCRIBE_ENUM(unit, celsius, fahrenheit, kelvin)

struct convert_args
{
    double value = 0;
    unit from = unit::celsius;
    unit to = unit::celsius;
    std::optional<int> decimals;
};
BOOST_DESCRIBE_STRUCT(convert_args, (), (value, from, to, decimals))
// end::args[]
// clang-format on

} // namespace first_tool

// tag::traits[]
template<>
struct agentio::field_traits<first_tool::convert_args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "value", .description = "The temperature to convert"},
        {.name = "from", .description = "Unit of value"},
        {.name = "to", .description = "Unit of the result"},
        {.name = "decimals", .description = "Digits after the point", .minimum = 0, .maximum = 6},
    };
};
// end::traits[]

namespace first_tool {

// clang-format off
// tag::tool[]
struct convert_temperature
{
    static constexpr std::string_view name = "convert_temperature";
    static constexpr std::string_view description =
        "Converts a temperature between Celsius, Fahrenheit and Kelvin.";
    using args = convert_args;

    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const
    {
        double const kelvin = a.from == unit::celsius ? a.value + 273.15
            : a.from == unit::fahrenheit             ? (a.value - 32) * 5 / 9 + 273.15
                                                     : a.value;
        double result = a.to == unit::celsius ? kelvin - 273.15
            : a.to == unit::fahrenheit        ? (kelvin - 273.15) * 9 / 5 + 32
                                              : kelvin;
        double const scale = std::pow(10.0, a.decimals.value_or(2));
        result = std::round(result * scale) / scale;
        co_return agentio::tool_result::json({{"value", result}, {"unit", boost::describe::enum_to_string(a.to, "")}});
    }
};
// end::tool[]
// clang-format on

// tag::toolset[]
using my_tools = agentio::toolset<convert_temperature>;
// end::toolset[]

} // namespace first_tool

// The same tool in its short form: descriptions in the struct, in member
// order, and a function for the call. Each argument is named twice.
namespace short_tool {

// clang-format off
// tag::short_form[]
enum class unit { celsius, fahrenheit, kelvin };
BOOST_DESCRIBE_ENUM(unit, celsius, fahrenheit, kelvin)
struct convert_args {
    double value = 0;
    unit from = unit::celsius, to = unit::celsius;
    std::optional<int> decimals;
    static constexpr agentio::field_info fields[] = {{.description = "The temperature to convert"},
        {.description = "Unit of value"}, {.description = "Unit of the result"},
        {.description = "Digits after the point", .minimum = 0, .maximum = 6}};
};
BOOST_DESCRIBE_STRUCT(convert_args, (), (value, from, to, decimals))
asio::awaitable<agentio::tool_result> convert(convert_args a, agentio::tool_context&) {
    double c = a.from == unit::celsius ? a.value : a.from == unit::kelvin ? a.value - 273.15 : (a.value - 32) / 1.8;
    double r = a.to == unit::celsius ? c : a.to == unit::kelvin ? c + 273.15 : c * 1.8 + 32;
    double const scale = std::pow(10.0, a.decimals.value_or(2));
    co_return agentio::tool_result::json(
        {{"value", std::round(r * scale) / scale}, {"unit", boost::describe::enum_to_string(a.to, "")}});
}
using convert_temperature = agentio::function_tool<"convert_temperature",
    "Converts a temperature between Celsius, Fahrenheit and Kelvin.", convert>;
// end::short_form[]
// clang-format on

} // namespace short_tool

BOOST_AUTO_TEST_SUITE(doc_first_tool)

BOOST_AUTO_TEST_CASE(the_page_shows_what_the_code_does)
{
    using namespace first_tool;
    // tag::schema[]
    std::string_view schema = agentio::schema_of<convert_args>; // a constant, made by the compiler
    // end::schema[]
    BOOST_TEST(schema ==
        R"({"type":"object","properties":{"value":{"type":"number","description":"The temperature to convert"},)"
        R"("from":{"type":"string","enum":["celsius","fahrenheit","kelvin"],"description":"Unit of value"},)"
        R"("to":{"type":"string","enum":["celsius","fahrenheit","kelvin"],"description":"Unit of the result"},)"
        R"("decimals":{"type":"integer","minimum":0,"maximum":6,"description":"Digits after the point"}},)"
        R"("required":["value","from","to"],"additionalProperties":false})");

    asio::io_context ioc;
    std::string good, bad;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            // tag::call[]
            my_tools tools;
            agentio::tool_context ctx{.tool_name = "convert_temperature", .call_id = "toolu_01"};
            agentio::tool_result r = co_await tools.call("convert_temperature",
                json::parse(R"({"value": 100, "from": "celsius", "to": "fahrenheit"})"), ctx);
            // r.joined_text() == R"({"value":212,"unit":"fahrenheit"})", r.is_error == false

            agentio::tool_result e = co_await tools.call("convert_temperature",
                json::parse(R"({"value": "hot", "from": "celsius", "to": "rankine", "decimals": 9})"), ctx);
            // e.is_error == true, and the model reads:
            //   Invalid arguments for tool 'convert_temperature':
            //   /value: expected number, got string
            //   /to: must be one of celsius, fahrenheit, kelvin
            //   /decimals: must be <= 6
            // end::call[]
            good = r.joined_text();
            bad = e.is_error ? e.joined_text() : "";
        },
        asio::detached);
    ioc.run();
    BOOST_TEST(good == R"({"value":212,"unit":"fahrenheit"})");
    BOOST_TEST(bad ==
        "Invalid arguments for tool 'convert_temperature':\n"
        "/value: expected number, got string\n"
        "/to: must be one of celsius, fahrenheit, kelvin\n"
        "/decimals: must be <= 6");
}

BOOST_AUTO_TEST_CASE(the_short_form_is_the_same_tool)
{
    BOOST_TEST(agentio::schema_of<short_tool::convert_args> == agentio::schema_of<first_tool::convert_args>);
    BOOST_TEST(short_tool::convert_temperature::name == first_tool::convert_temperature::name);
    BOOST_TEST(short_tool::convert_temperature::description == first_tool::convert_temperature::description);

    asio::io_context ioc;
    std::vector<std::string> long_form, short_form;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            first_tool::my_tools a;
            agentio::toolset<short_tool::convert_temperature> b;
            agentio::tool_context ctx{.tool_name = "convert_temperature"};
            for(auto const* input : {R"({"value": 100, "from": "celsius", "to": "fahrenheit"})",
                    R"({"value": 0, "from": "kelvin", "to": "celsius", "decimals": 1})",
                    R"({"value": 451, "from": "fahrenheit", "to": "kelvin", "decimals": 3})",
                    R"({"value": "hot", "from": "celsius", "to": "rankine", "decimals": 9})"})
            {
                long_form.push_back((co_await a.call("convert_temperature", json::parse(input), ctx)).joined_text());
                short_form.push_back((co_await b.call("convert_temperature", json::parse(input), ctx)).joined_text());
            }
        },
        asio::detached);
    ioc.run();
    BOOST_TEST(short_form == long_form, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
