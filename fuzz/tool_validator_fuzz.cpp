// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// libFuzzer target: the argument validator and the conversion into C++ types.
//
// The first byte chooses what the rest of the input is:
// - even: arguments for a struct covering every schema category. Properties:
//   whatever the validator accepts converts (validator and conversion agree);
//   the verdict does not depend on max_errors; ignoring unknown keys never
//   refuses what rejecting them accepts; every error has a JSON Pointer.
// - odd: a schema. It either compiles or is refused with a message; a compiled
//   schema validates a few instances (itself among them) without crashing.
#include <agentio/tool/schema.hpp>
#include <agentio/tool/validator.hpp>

#include <boost/describe.hpp>
#include <boost/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace json = boost::json;

namespace fuzz {

enum class operador
{
    eq,
    ne,
    gt,
    in,
    is_null
};
BOOST_DESCRIBE_ENUM(operador, eq, ne, gt, in, is_null)

struct filtro
{
    std::string campo;
    operador op = operador::eq;
    json::value valor;
};
BOOST_DESCRIBE_STRUCT(filtro, (), (campo, op, valor))

struct argumentos
{
    bool activo = false;
    std::int8_t pequeno = 0;
    int limite = 0;
    std::uint64_t enorme = 0;
    double ratio = 0;
    std::string texto;
    std::optional<operador> op;
    std::optional<std::vector<filtro>> filtros;
    std::map<std::string, int> pesos;
    std::vector<std::string> etiquetas;
};
BOOST_DESCRIBE_STRUCT(argumentos, (), (activo, pequeno, limite, enorme, ratio, texto, op, filtros, pesos, etiquetas))

} // namespace fuzz

template<>
struct agentio::field_traits<fuzz::filtro>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "campo", .description = "c"},
        {.name = "op", .json_name = "operator", .description = "o"},
        {.name = "valor", .description = "v"},
    };
};

template<>
struct agentio::field_traits<fuzz::argumentos>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "activo", .description = "a", .default_value = "false"},
        {.name = "pequeno", .description = "b", .default_value = "0"},
        {.name = "limite", .description = "c", .minimum = 1, .maximum = 1000, .default_value = "50"},
        {.name = "enorme", .description = "d", .default_value = "0"},
        {.name = "ratio", .description = "e", .minimum = -1, .maximum = 1, .default_value = "0"},
        {.name = "texto", .description = "f", .max_length = 8, .default_value = R"("")"},
        {.name = "op", .description = "g"},
        {.name = "filtros", .description = "h", .max_items = 4},
        {.name = "pesos", .description = "i", .minimum = 0, .default_value = "{}"},
        {.name = "etiquetas", .description = "j", .min_length = 1, .one_of = {"x", "y"}, .default_value = "[]"},
    };
};

namespace {

agentio::schema_validator const& arguments_validator()
{
    static auto const v = *agentio::schema_validator::compile(json::parse(agentio::schema_of<fuzz::argumentos>));
    return v;
}

bool pointers_well_formed(agentio::validation_report const& r)
{
    for(auto const& e : r.errors)
        if(!e.pointer.empty() && e.pointer.front() != '/')
            return false;
    return true;
}

void check_arguments(json::value const& instance)
{
    auto const& validator = arguments_validator();
    auto const full = validator.validate(instance);
    agentio::validation_options one;
    one.max_errors = 1;
    agentio::validation_options lenient;
    lenient.unknown = agentio::unknown_keys::ignore;
    if(full.ok() != validator.validate(instance, one).ok())
        std::abort();
    if(full.ok() && !validator.validate(instance, lenient).ok())
        std::abort();
    if(!pointers_well_formed(full))
        std::abort();
    if(full.ok())
    {
        fuzz::argumentos out;
        if(!agentio::read_json(instance, out))
            std::abort(); // accepted, but the conversion disagrees
    }
}

void check_schema(json::value const& schema)
{
    auto compiled = agentio::schema_validator::compile(schema);
    if(!compiled)
    {
        if(compiled.error().empty())
            std::abort();
        return;
    }
    for(auto const& instance : {schema, json::value(nullptr), json::value(1.5), json::value("texto"),
            json::parse(R"({"a":[1,{"b":null}],"c":"d"})")})
        if(!pointers_well_formed(compiled->validate(instance)))
            std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    if(size < 1)
        return 0;
    bool const as_schema = data[0] & 1;
    boost::system::error_code ec;
    json::value const v = json::parse(std::string_view(reinterpret_cast<char const*>(data + 1), size - 1), ec);
    if(ec)
        return 0;
    if(as_schema)
        check_schema(v);
    else
        check_arguments(v);
    return 0;
}
