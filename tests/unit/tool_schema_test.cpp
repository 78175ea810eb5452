// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/tool/schema.hpp>

#include <agentio/tool/validator.hpp>

#include "spanish_messages.hpp"

#include <boost/describe.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace json = boost::json;

namespace schema_test {

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

// One member of every category the generator knows.
struct every_kind
{
    bool activo = false;
    std::int8_t pequeno = 0;
    int limite = 0;
    std::uint32_t sin_signo = 0;
    std::int64_t grande = 0;
    std::uint64_t enorme = 0;
    double ratio = 0;
    std::string texto;
    operador op = operador::eq;
    std::optional<std::string> orden;
    std::vector<filtro> filtros;
    std::map<std::string, int> pesos;
    json::value libre;
    json::object objeto;
    json::array lista;
    std::vector<std::string> etiquetas;
};
BOOST_DESCRIBE_STRUCT(every_kind, (),
    (activo, pequeno, limite, sin_signo, grande, enorme, ratio, texto, op, orden, filtros, pesos, libre, objeto, lista,
        etiquetas))

} // namespace schema_test

template<>
struct agentio::field_traits<schema_test::filtro>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "campo", .description = "Columna"},
        {.name = "op", .json_name = "operator", .description = "Operador"},
        {.name = "valor", .description = "Valor"},
    };
};

template<>
struct agentio::field_traits<schema_test::every_kind>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "activo", .description = "a"},
        {.name = "pequeno", .description = "b"},
        {.name = "limite", .description = "Máximo \"de\" filas", .minimum = 1, .maximum = 1000, .default_value = "50"},
        {.name = "sin_signo", .description = "d"},
        {.name = "grande", .description = "e"},
        {.name = "enorme", .description = "f"},
        {.name = "ratio", .description = "g", .minimum = -1, .maximum = 1},
        {.name = "texto", .description = "h", .min_length = 2, .max_length = 5},
        {.name = "op", .description = "i"},
        {.name = "orden", .description = "j", .one_of = {"asc", "desc"}, .examples = {R"("asc")", R"("desc")"}},
        {.name = "filtros", .description = "k", .max_items = 3},
        {.name = "pesos", .description = "l", .minimum = 0, .max_items = 2},
        {.name = "libre", .description = "m"},
        {.name = "objeto", .description = "n"},
        {.name = "lista", .description = "o"},
        {.name = "etiquetas", .description = "p", .min_length = 1, .min_items = 1},
    };
};

using namespace schema_test;

// The schema is text the compiler made: usable in constant expressions.
static_assert(agentio::schema_of<filtro>.starts_with(R"({"type":"object","properties":{"campo":)"));
static_assert(
    agentio::schema_of<filtro>.ends_with(R"("required":["campo","operator","valor"],"additionalProperties":false})"));
static_assert(agentio::json_schema<every_kind>::well_formed);

static_assert(agentio::detail::json_syntax::valid(R"({"a":[1,-2.5e3,true,null,"\u00e9\n"]})"));
static_assert(agentio::detail::json_syntax::valid(" 0 "));
static_assert(!agentio::detail::json_syntax::valid("01"));
static_assert(!agentio::detail::json_syntax::valid("abc"));
static_assert(!agentio::detail::json_syntax::valid(R"({"a":1,})"));
static_assert(!agentio::detail::json_syntax::valid(R"("\x")"));
static_assert(!agentio::detail::json_syntax::valid("[1] 2"));

static_assert(agentio::detail::valid_tool_name("buscar_iniciativas"));
static_assert(agentio::detail::valid_tool_name("a.b-c_9"));
static_assert(!agentio::detail::valid_tool_name(""));
static_assert(!agentio::detail::valid_tool_name("con espacio"));
static_assert(!agentio::detail::valid_tool_name("acentuación"));
static_assert(!agentio::detail::valid_tool_name(std::string_view( // 65 characters
    "a2345678901234567890123456789012345678901234567890123456789012345")));
static_assert(agentio::detail::valid_tool_name(std::string_view( // 64 characters
    "a234567890123456789012345678901234567890123456789012345678901234")));

BOOST_AUTO_TEST_SUITE(tool_schema)

BOOST_AUTO_TEST_CASE(every_category_has_its_schema)
{
    json::value const expected = json::parse(R"({
      "type": "object",
      "properties": {
        "activo": {"type": "boolean", "description": "a"},
        "pequeno": {"type": "integer", "minimum": -128, "maximum": 127, "description": "b"},
        "limite": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Máximo \"de\" filas", "default": 50},
        "sin_signo": {"type": "integer", "minimum": 0, "maximum": 4294967295, "description": "d"},
        "grande": {"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807, "description": "e"},
        "enorme": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615, "description": "f"},
        "ratio": {"type": "number", "minimum": -1, "maximum": 1, "description": "g"},
        "texto": {"type": "string", "minLength": 2, "maxLength": 5, "description": "h"},
        "op": {"type": "string", "enum": ["eq", "ne", "gt", "in", "is_null"], "description": "i"},
        "orden": {"type": "string", "enum": ["asc", "desc"], "description": "j", "examples": ["asc", "desc"]},
        "filtros": {"type": "array", "items": {
            "type": "object",
            "properties": {
              "campo": {"type": "string", "description": "Columna"},
              "operator": {"type": "string", "enum": ["eq", "ne", "gt", "in", "is_null"], "description": "Operador"},
              "valor": {"description": "Valor"}
            },
            "required": ["campo", "operator", "valor"],
            "additionalProperties": false
          }, "maxItems": 3, "description": "k"},
        "pesos": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 2147483647},
                  "maxProperties": 2, "description": "l"},
        "libre": {"description": "m"},
        "objeto": {"type": "object", "description": "n"},
        "lista": {"type": "array", "description": "o"},
        "etiquetas": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1, "description": "p"}
      },
      "required": ["activo", "pequeno", "sin_signo", "grande", "enorme", "ratio", "texto", "op", "filtros", "pesos",
                   "libre", "objeto", "lista", "etiquetas"],
      "additionalProperties": false
    })");
    BOOST_TEST(json::parse(agentio::schema_of<every_kind>) == expected);
}

BOOST_AUTO_TEST_CASE(property_order_follows_the_struct)
{
    auto const schema = json::parse(agentio::schema_of<every_kind>).as_object();
    std::vector<std::string> keys;
    for(auto const& kv : schema.at("properties").as_object())
        keys.emplace_back(kv.key());
    BOOST_TEST(keys.front() == "activo");
    BOOST_TEST(keys.back() == "etiquetas");
    BOOST_TEST(keys.size() == 16u);
}

BOOST_AUTO_TEST_CASE(the_generated_schema_compiles_for_validation)
{
    auto v = agentio::schema_validator::compile(json::parse(agentio::schema_of<every_kind>));
    BOOST_TEST_REQUIRE(v.has_value());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(tool_read)

BOOST_AUTO_TEST_CASE(a_valid_object_converts_member_by_member)
{
    auto const input = json::parse(R"({
        "activo": true, "pequeno": -5, "sin_signo": 4000000000, "grande": -9000000000000000000,
        "enorme": 18446744073709551615, "ratio": 0.5, "texto": "hola", "op": "in", "orden": "desc",
        "filtros": [{"campo": "estado", "operator": "is_null", "valor": null}],
        "pesos": {"a": 1, "b": 2}, "libre": [1, {"x": 2}], "objeto": {"k": "v"}, "lista": [3], "etiquetas": ["x"]
    })");
    every_kind out;
    BOOST_TEST_REQUIRE(agentio::read_json(input, out));
    BOOST_TEST(out.activo);
    BOOST_TEST(out.pequeno == -5);
    BOOST_TEST(out.limite == 50); // absent: the default from field_traits
    BOOST_TEST(out.sin_signo == 4000000000u);
    BOOST_TEST(out.grande == -9000000000000000000);
    BOOST_TEST(out.enorme == 18446744073709551615u);
    BOOST_TEST(out.ratio == 0.5);
    BOOST_TEST(out.texto == "hola");
    BOOST_TEST((out.op == operador::in));
    BOOST_TEST(out.orden.value() == "desc");
    BOOST_TEST_REQUIRE(out.filtros.size() == 1u);
    BOOST_TEST(out.filtros[0].campo == "estado");
    BOOST_TEST((out.filtros[0].op == operador::is_null));
    BOOST_TEST(out.filtros[0].valor.is_null());
    BOOST_TEST(out.pesos.at("b") == 2);
    BOOST_TEST(out.libre == json::parse(R"([1, {"x": 2}])"));
    BOOST_TEST(out.objeto.at("k") == "v");
    BOOST_TEST(out.lista.size() == 1u);
    BOOST_TEST(out.etiquetas.at(0) == "x");
}

BOOST_AUTO_TEST_CASE(integers_follow_json_schema)
{
    int i = 0;
    BOOST_TEST(agentio::read_json(json::parse("3.0"), i)); // an integer in JSON Schema
    BOOST_TEST(i == 3);
    BOOST_TEST(!agentio::read_json(json::parse("3.5"), i));
    BOOST_TEST(!agentio::read_json(json::parse("2147483648"), i));
    BOOST_TEST(!agentio::read_json(json::parse("2147483648.0"), i));
    BOOST_TEST(agentio::read_json(json::parse("-2147483648.0"), i));
    BOOST_TEST(!agentio::read_json(json::parse("\"3\""), i));
    std::uint8_t u = 0;
    BOOST_TEST(!agentio::read_json(json::parse("-1"), u));
    BOOST_TEST(!agentio::read_json(json::parse("256"), u));
    std::int64_t big = 0;
    BOOST_TEST(!agentio::read_json(json::parse("9223372036854775808"), big));
    BOOST_TEST(!agentio::read_json(json::parse("9.3e18"), big));
    BOOST_TEST(agentio::read_json(json::parse("-9223372036854775808"), big));
}

BOOST_AUTO_TEST_CASE(optional_and_defaulted_members)
{
    auto base = json::parse(R"({"activo": false, "pequeno": 0, "sin_signo": 0, "grande": 0, "enorme": 0, "ratio": 0,
        "texto": "ab", "op": "eq", "filtros": [], "pesos": {}, "libre": null, "objeto": {}, "lista": [],
        "etiquetas": ["a"]})")
                    .as_object();
    every_kind out;
    out.orden = "x";
    base["orden"] = nullptr;
    base["limite"] = nullptr; // null for a defaulted member: the default
    BOOST_TEST_REQUIRE(agentio::read_json(base, out));
    BOOST_TEST(!out.orden.has_value());
    BOOST_TEST(out.limite == 50);
    base.erase("texto");
    BOOST_TEST(!agentio::read_json(base, out)); // required and absent
}

BOOST_AUTO_TEST_CASE(enums_by_name_only)
{
    operador op = operador::eq;
    BOOST_TEST(agentio::read_json(json::value("gt"), op));
    BOOST_TEST((op == operador::gt));
    BOOST_TEST(!agentio::read_json(json::value("GT"), op));
    BOOST_TEST(!agentio::read_json(json::value(2), op));
    BOOST_TEST(!agentio::read_json(json::value(json::string("gt\0x", 4)), op));
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

agentio::validation_report check(std::string_view schema, std::string_view instance,
    agentio::validation_options opts = {})
{
    auto v = agentio::schema_validator::compile(json::parse(schema));
    BOOST_TEST_REQUIRE(v.has_value());
    return v->validate(json::parse(instance), opts);
}

std::string errors(std::string_view schema, std::string_view instance, agentio::validation_options opts = {})
{
    return agentio::format_validation_errors(check(schema, instance, opts), opts.texts);
}

agentio::validation_options spanish()
{
    agentio::validation_options o;
    o.texts = agentio_test::spanish_messages;
    return o;
}

} // namespace

BOOST_AUTO_TEST_SUITE(tool_validator)

BOOST_AUTO_TEST_CASE(every_problem_with_its_pointer_in_spanish)
{
    auto const text = errors(agentio::schema_of<every_kind>, R"({
        "activo": "sí", "pequeno": 300, "limite": 0, "sin_signo": -1, "grande": 1.5, "enorme": 1,
        "ratio": 2, "texto": "holaholahola", "op": "EQ", "orden": "arriba",
        "filtros": [{"campo": 1, "operator": "like", "valor": 1, "extra": true}, {}],
        "pesos": {"a": -1, "b": 1, "c": 2}, "libre": 1, "objeto": [], "lista": {}, "etiquetas": [""],
        "desconocido": 1})",
        spanish());
    BOOST_TEST(text ==
        "/activo: se esperaba boolean, se recibió string\n"
        "/pequeno: debe ser <= 127\n"
        "/limite: debe ser >= 1\n"
        "/sin_signo: debe ser >= 0\n"
        "/grande: se esperaba integer, se recibió number\n"
        "/ratio: debe ser <= 1\n"
        "/texto: debe tener como máximo 5 caracteres\n"
        "/op: debe ser uno de eq, ne, gt, in, is_null\n"
        "/orden: debe ser uno de asc, desc\n"
        "/filtros/0/campo: se esperaba string, se recibió integer\n"
        "/filtros/0/operator: debe ser uno de eq, ne, gt, in, is_null\n"
        "/filtros/0/extra: campo desconocido (se admiten: campo, operator, valor)\n"
        "/filtros/1/campo: falta este campo obligatorio\n"
        "/filtros/1/operator: falta este campo obligatorio\n"
        "/filtros/1/valor: falta este campo obligatorio\n"
        "/pesos: debe tener como máximo 2 campos\n"
        "/pesos/a: debe ser >= 0\n"
        "/objeto: se esperaba object, se recibió array\n"
        "/lista: se esperaba array, se recibió object\n"
        "/etiquetas/0: debe tener al menos 1 caracteres\n"
        "y 1 errores más");
}

BOOST_AUTO_TEST_CASE(english_messages_and_the_root)
{
    BOOST_TEST(errors(R"({"type":"object"})", "[]") == "(root): expected object, got array");
    BOOST_TEST(errors(R"({"type":"object"})", "[]", spanish()) == "(raíz): se esperaba object, se recibió array");
    BOOST_TEST(errors(R"({"type":"object","required":["a"]})", "{}") == "/a: required field is missing");
    BOOST_TEST(errors(R"({"properties":{"a":{}},"additionalProperties":false})", R"({"b":1})") ==
        "/b: unknown field (allowed: a)");
    BOOST_TEST(errors(R"({"additionalProperties":false})", R"({"b":1})") == "/b: unknown field (none is allowed)");
}

BOOST_AUTO_TEST_CASE(pointer_tokens_are_escaped)
{
    auto r = check(R"({"additionalProperties":{"type":"string"}})", R"({"a/b~c": 1})");
    BOOST_TEST_REQUIRE(r.errors.size() == 1u);
    BOOST_TEST(r.errors[0].pointer == "/a~1b~0c");
}

BOOST_AUTO_TEST_CASE(unknown_keys_can_be_ignored)
{
    agentio::validation_options o;
    o.unknown = agentio::unknown_keys::ignore;
    BOOST_TEST(check(agentio::schema_of<filtro>, R"({"campo":"a","operator":"eq","valor":1,"x":2})", o).ok());
    BOOST_TEST(!check(agentio::schema_of<filtro>, R"({"campo":"a","operator":"eq","valor":1,"x":2})").ok());
}

BOOST_AUTO_TEST_CASE(null_for_an_optional_argument)
{
    constexpr auto schema = R"({"type":"object","properties":{"a":{"type":"string"},"b":{"type":["string","null"]}},
        "required":["b"]})";
    BOOST_TEST(check(schema, R"({"a":null,"b":null})").ok());
    agentio::validation_options strict;
    strict.null_means_absent = false;
    BOOST_TEST(errors(schema, R"({"a":null,"b":null})", strict) == "/a: expected string, got null");
    BOOST_TEST(errors(R"({"type":"object","properties":{"a":{"type":"string"}},"required":["a"]})", R"({"a":null})") ==
        "/a: expected string, got null");
}

BOOST_AUTO_TEST_CASE(numbers_compare_exactly)
{
    constexpr auto schema = R"({"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807})";
    BOOST_TEST(check(schema, "9223372036854775807").ok());
    BOOST_TEST(!check(schema, "9223372036854775808").ok());
    BOOST_TEST(!check(schema, "9.3e18").ok());
    BOOST_TEST(check(schema, "-9223372036854775808").ok());
    BOOST_TEST(check(R"({"type":"integer"})", "1e2").ok());
    BOOST_TEST(errors(R"({"exclusiveMinimum":0,"exclusiveMaximum":1.5})", "1.5") == "(root): must be < 1.5");
    BOOST_TEST(errors(R"({"exclusiveMinimum":0})", "0") == "(root): must be > 0");
    BOOST_TEST(errors(R"({"minimum":0.5})", "0") == "(root): must be >= 0.5");
}

BOOST_AUTO_TEST_CASE(string_length_counts_code_points)
{
    BOOST_TEST(check(R"({"maxLength":4})", R"("ñañá")").ok()); // 8 bytes, 4 code points
    BOOST_TEST(!check(R"({"maxLength":3})", R"("ñañá")").ok());
    BOOST_TEST(errors(R"({"minLength":2})", R"("é")") == "(root): must have at least 2 characters");
}

BOOST_AUTO_TEST_CASE(enum_const_and_composition)
{
    BOOST_TEST(errors(R"({"enum":[1,"a",null]})", "2") == "(root): must be one of 1, a, null");
    BOOST_TEST(check(R"({"enum":[1,"a",null]})", "null").ok());
    BOOST_TEST(errors(R"({"const":"x"})", R"("y")") == "(root): must be x");
    constexpr auto any_of = R"({"anyOf":[{"type":"string"},{"type":"integer","minimum":0}]})";
    BOOST_TEST(check(any_of, R"("s")").ok());
    BOOST_TEST(check(any_of, "3").ok());
    BOOST_TEST(errors(any_of, "-3") == "(root): matches none of the allowed forms");
    constexpr auto one_of = R"({"oneOf":[{"type":"integer"},{"type":"number"}]})";
    BOOST_TEST(check(one_of, "1.5").ok());
    BOOST_TEST(errors(one_of, "1") == "(root): must match exactly one of the allowed forms (matches 2)");
    BOOST_TEST(errors(R"({"allOf":[{"minimum":0},{"maximum":5}]})", "9") == "(root): must be <= 5");
    BOOST_TEST(errors("false", "1") == "(root): no value is allowed here");
    BOOST_TEST(check("true", R"({"anything":[1]})").ok());
}

// SEP-1613/SEP-2106's example (MCP conformance `json-schema-2020-12`): $defs,
// $ref, $anchor, allOf/anyOf and if/then/else together.
constexpr auto contact_schema = R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
    "$defs": {"address": {"$anchor": "addressDef", "type": "object",
        "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
        "contactMethod": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"}, "email": {"type": "string"}},
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]}, "else": {"required": ["email"]},
    "additionalProperties": false})";

BOOST_AUTO_TEST_CASE(references_and_conditionals)
{
    BOOST_TEST(check(contact_schema, R"({"name":"Ana","email":"a@b.es"})").ok());
    BOOST_TEST(check(contact_schema, R"({"contactMethod":"phone","phone":"600","address":{"city":"Soria"}})").ok());
    // then: phone is required once contactMethod says phone, whatever else came.
    BOOST_TEST(errors(contact_schema, R"({"contactMethod":"phone","email":"a@b.es"})") ==
        "/phone: required field is missing");
    // else: email, when contactMethod is not phone; and the anyOf with it.
    BOOST_TEST(errors(contact_schema, R"({"contactMethod":"email"})", spanish()) ==
        "(raíz): no coincide con ninguna de las formas admitidas\n/email: falta este campo obligatorio");
    // Through $ref, with the instance's own pointer.
    BOOST_TEST(errors(contact_schema, R"({"email":"e","address":{"street":7}})") ==
        "/address/street: expected string, got integer");
    // null means absent through a reference too (the target does not allow null),
    // and a null taken as absent does not satisfy a `required` elsewhere (`then`).
    BOOST_TEST(check(contact_schema, R"({"email":"e","address":null})").ok());
    BOOST_TEST(errors(contact_schema, R"({"contactMethod":"phone","phone":null})") ==
        "(root): matches none of the allowed forms\n/phone: required field is missing");

    // An anchor, a percent-encoded pointer, an escaped token, the root's $id, an array index.
    constexpr auto refs = R"({"$id": "https://example.com/s.json", "type": "object", "properties": {
        "a": {"$ref": "#num"}, "b": {"$ref": "#/$defs/with%20space"}, "c": {"$ref": "#/$defs/a~1b"},
        "d": {"$ref": "https://example.com/s.json#/$defs/a~1b"}, "e": {"$ref": "#/$defs/alts/anyOf/1"}},
        "$defs": {"n": {"$anchor": "num", "type": "integer"}, "with space": {"maxLength": 2},
            "a/b": {"minimum": 10}, "alts": {"anyOf": [{"type": "null"}, {"type": "boolean"}]}}})";
    BOOST_TEST(check(refs, R"({"a":1,"b":"ok","c":10,"d":11,"e":true})").ok());
    BOOST_TEST(errors(refs, R"({"a":1.5,"b":"long","c":9,"d":1,"e":0})") ==
        "/a: expected integer, got number\n/b: must have at most 2 characters\n/c: must be >= 10\n/d: must be >= 10\n"
        "/e: expected boolean, got integer");

    // not.
    BOOST_TEST(errors(R"({"not":{"type":"string"}})", R"("x")") == "(root): must not match the excluded form");
    BOOST_TEST(check(R"({"not":{"type":"string"}})", "1").ok());
    BOOST_TEST(errors(R"({"not":{"const":0}})", "0", spanish()) == "(raíz): no debe coincidir con la forma excluida");
    // then/else without if mean nothing, and so does if alone.
    BOOST_TEST(check(R"({"then":false,"else":false})", "1").ok());
    BOOST_TEST(check(R"({"if":false})", "1").ok());
    // Numbers are equal by value: 0.0 is the excluded 0, 1.0 is in the enum.
    BOOST_TEST(!check(R"({"not":{"const":0}})", "0.0").ok());
    BOOST_TEST(check(R"({"enum":[1,[2],{"a":3}]})", "1.0").ok());
    BOOST_TEST(check(R"({"enum":[1,[2],{"a":3}]})", "[2.0]").ok());
    BOOST_TEST(check(R"({"const":{"a":3}})", R"({"a":3.0})").ok());
}

BOOST_AUTO_TEST_CASE(recursive_schemas)
{
    // A tree: each level consumes part of the instance.
    constexpr auto tree = R"({"type":"object","properties":{"value":{"type":"integer"},
        "children":{"type":"array","items":{"$ref":"#"}}},"required":["value"],"additionalProperties":false})";
    BOOST_TEST(check(tree, R"({"value":1,"children":[{"value":2,"children":[{"value":3}]}]})").ok());
    BOOST_TEST(errors(tree, R"({"value":1,"children":[{"value":2},{"value":3,"children":[{"value":"x"},{}]}]})") ==
        "/children/1/children/0/value: expected integer, got string\n/children/1/children/1/value: required field is missing");
    // Recursion through $defs: a linked list.
    constexpr auto list = R"({"$ref":"#/$defs/node","$defs":{"node":{"type":"object",
        "properties":{"next":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/node"}]}}}}})";
    BOOST_TEST(check(list, R"({"next":{"next":{"next":null}}})").ok());
    // anyOf reports where no alternative fits: the first node whose own `next` is wrong.
    BOOST_TEST(errors(list, R"({"next":{"next":3}})") == "/next: matches none of the allowed forms");
    // A value nested deeper than any sane argument stops at a bound, not at the end of the stack.
    json::value deep = json::object{{"value", 1}};
    for(int i = 0; i < 300; ++i)
        deep = json::object{{"value", i}, {"children", json::array{deep}}};
    auto const too_deep = agentio::schema_validator::compile(json::parse(tree))->validate(deep);
    BOOST_TEST(!too_deep.ok());
    BOOST_TEST(agentio::format_validation_errors(too_deep, agentio::messages{})
                   .ends_with(": the schema nests too deeply for this value"));
}

BOOST_AUTO_TEST_CASE(references_that_cannot_end_or_explode)
{
    auto bad = [](std::string_view s) {
        auto r = agentio::schema_validator::compile(json::parse(s));
        return r.has_value() ? std::string() : r.error();
    };
    // A loop that never goes into the value means nothing: refused.
    BOOST_TEST(bad(R"({"$ref":"#"})") == "schema (root): '$ref' loops back to (root) without going into the value");
    BOOST_TEST(
        bad(R"({"$ref":"#/$defs/a","$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}}})") ==
        "schema /$defs/b/anyOf/0: '$ref' loops back to /$defs/a without going into the value");
    BOOST_TEST(bad(R"({"if":{"$ref":"#"},"then":true})") ==
        "schema /if: '$ref' loops back to (root) without going into the value");
    BOOST_TEST(bad(R"({"properties":{"a":{"$ref":"#"}},"items":{"$ref":"#"}})").empty()); // goes into the value

    // A reference into an embedded resource would be resolved against the wrong base.
    BOOST_TEST(bad(R"({"$ref":"#/$defs/x/properties/p","$defs":{"y":{"type":"string"},
        "x":{"$id":"https://o.example/x","$defs":{"y":{"type":"integer"}},"properties":{"p":{"$ref":"#/$defs/y"}}}}})") ==
        "schema (root): '$ref' \"#/$defs/x/properties/p\" leads into a subschema with its own '$id'");
    BOOST_TEST(bad(R"({"$ref":"#inner","$defs":{"x":{"$id":"https://o.example/x","$anchor":"inner"}}})") ==
        "schema (root): '$ref' \"#inner\" names no '$anchor' of this schema");

    // Keywords left unchecked only loosen an answer; under not, if or oneOf they would reverse it.
    BOOST_TEST(bad(R"({"not":{"multipleOf":2}})") ==
        "schema /not: 'multipleOf' is not checked, and under 'not' (at (root)) ignoring it would reverse the answer");
    BOOST_TEST(
        bad(R"({"if":{"properties":{"t":{"$ref":"#/$defs/p"}}},"then":{"minLength":8},"$defs":{"p":{"pattern":"^a"}}})") ==
        "schema /$defs/p: 'pattern' is not checked, and under 'if' (at (root)) ignoring it would reverse the answer");
    BOOST_TEST(bad(R"({"oneOf":[{"type":"string","pattern":"^a"},{"type":"string"}]})") ==
        "schema /oneOf/0: 'pattern' is not checked, and under 'oneOf' (at (root)) ignoring it would reverse the answer");
    BOOST_TEST(bad(R"({"anyOf":[{"pattern":"^a"}],"properties":{"s":{"pattern":"^a"}}})").empty()); // only looser there

    // A chain of 20 000 references compiles without 20 000 stack frames; validating along it stops at the depth bound
    // and refuses, even under `not`, where a cut-short branch must not count as "does not match".
    json::object chain;
    std::vector<std::string> names;
    for(int i = 0; i <= 20000; ++i)
        names.push_back(std::string(1, 'd').append(std::to_string(i)));
    for(std::size_t i = 0; i < 20000; ++i)
        chain[names[i]] = json::object{{"$ref", "#/$defs/" + names[i + 1]}};
    chain[names[20000]] = json::object{{"type", "string"}};
    auto const long_chain = agentio::schema_validator::compile(json::object{{"not", {{"$ref", "#/$defs/d0"}}},
        {"$defs", chain}});
    BOOST_TEST_REQUIRE(long_chain.has_value());
    BOOST_TEST(agentio::format_validation_errors(long_chain->validate(json::value("x")), agentio::messages{}) ==
        "(root): the schema nests too deeply for this value");
    BOOST_TEST(!long_chain->validate(json::value(1)).ok()); // also refused: the walk was cut short

    // 40 levels of two alternatives naming the next level: 2^40 walks for a
    // value that fits none. The step budget refuses it after a million steps.
    json::object defs;
    std::vector<std::string> levels; // l0 … l40 (built apart: g++ 12 -O3 misreads "l" + to_string as an overflow)
    for(int i = 0; i <= 40; ++i)
        levels.push_back(std::string(1, 'l').append(std::to_string(i)));
    for(std::size_t i = 0; i < 40; ++i)
    {
        std::string const next = "#/$defs/" + levels[i + 1];
        defs[levels[i]] = json::object{
            {"anyOf", json::array{json::object{{"$ref", next}}, json::object{{"$ref", next}, {"minimum", 0}}}}};
    }
    defs["l40"] = json::object{{"type", "string"}};
    auto const exploding = agentio::schema_validator::compile(json::object{{"$ref", "#/$defs/l0"}, {"$defs", defs}});
    BOOST_TEST_REQUIRE(exploding.has_value());
    auto const refused = exploding->validate(json::value(1), spanish()); // without the budget: hours
    BOOST_TEST(agentio::format_validation_errors(refused, agentio_test::spanish_messages) ==
        "(raíz): el esquema es demasiado complejo para comprobar este valor");
    BOOST_TEST(exploding->validate(json::value("s")).ok()); // the first alternatives all fit: linear
}

BOOST_AUTO_TEST_CASE(items_and_properties_counts)
{
    BOOST_TEST(errors(R"({"minItems":2,"items":{"type":"integer"}})", R"(["a"])") ==
        "(root): must have at least 2 items\n/0: expected integer, got string");
    BOOST_TEST(errors(R"({"maxItems":1})", "[1,2]", spanish()) == "(raíz): debe tener como máximo 1 elementos");
    BOOST_TEST(errors(R"({"minProperties":1})", "{}") == "(root): must have at least 1 fields");
    // A bound past 2^64 (found by the fuzzer: it threw from compile) limits nothing.
    BOOST_TEST(check(R"({"maxProperties":7.7e34,"maxLength":1e20})", "{}").ok());
    BOOST_TEST(errors(R"({"minItems":1e20})", "[]") == "(root): must have at least 18446744073709551615 items");
}

BOOST_AUTO_TEST_CASE(error_count_is_bounded)
{
    agentio::validation_options o;
    o.max_errors = 2;
    auto const r = check(R"({"items":{"type":"string"}})", "[1,2,3,4,5]", o);
    BOOST_TEST(r.errors.size() == 2u);
    BOOST_TEST(r.omitted == 3u);
    o.max_errors = 0; // still one error: an invalid value never reads as valid
    BOOST_TEST(!check(R"({"type":"string"})", "1", o).ok());
    BOOST_TEST(agentio::format_validation_errors(r, agentio::messages{}) ==
        "/0: expected string, got integer\n/1: expected string, got integer\nand 3 more errors");
}

BOOST_AUTO_TEST_CASE(schemas_it_cannot_honour_do_not_compile)
{
    auto bad = [](std::string_view s) {
        auto r = agentio::schema_validator::compile(json::parse(s));
        return r.has_value() ? std::string() : r.error();
    };
    BOOST_TEST(bad(R"({"properties":{"a":{"$ref":"#/$defs/x"}}})") ==
        "schema /properties/a: '$ref' \"#/$defs/x\" names nothing in this schema");
    BOOST_TEST(bad(R"({"$ref":"#nada"})") == "schema (root): '$ref' \"#nada\" names no '$anchor' of this schema");
    BOOST_TEST(bad(R"({"items":{"$ref":"https://example.com/otro.json"}})") ==
        "schema /items: '$ref' \"https://example.com/otro.json\" is not within this schema (only \"#...\" references are supported)");
    BOOST_TEST(bad(R"({"$id":"https://a.example/s","$ref":"https://b.example/s#/$defs/x","$defs":{"x":{}}})") ==
        "schema (root): '$ref' \"https://b.example/s#/$defs/x\" is not within this schema (only \"#...\" references are supported)");
    BOOST_TEST(bad(R"({"$dynamicRef":"#meta"})") == "schema (root): keyword '$dynamicRef' is not supported");
    BOOST_TEST(bad(R"({"properties":{"a":{"$id":"https://example.com/a"}}})") ==
        "schema /properties/a: '$id' is only supported on the root schema");
    BOOST_TEST(bad(R"({"$defs":{"a":{"$anchor":"x"},"b":{"$anchor":"x"}}})") ==
        "schema /$defs/b: '$anchor' \"x\" is defined twice");
    BOOST_TEST(bad(R"({"not":3})") == "schema /not: a schema must be an object or a boolean");
    BOOST_TEST(bad(R"({"type":"entero"})") == "schema (root): 'type' must be a JSON type name or a list of them");
    BOOST_TEST(bad(R"({"items":{"minItems":-1}})") == "schema /items: 'minItems' must be a non-negative integer");
    BOOST_TEST(bad(R"({"anyOf":[]})") == "schema (root): 'anyOf' must be a non-empty array of schemas");
    BOOST_TEST(bad("3") == "schema (root): a schema must be an object or a boolean");
    BOOST_TEST(bad(R"({"description":"x","pattern":"^a","format":"date"})").empty()); // annotations only
}

BOOST_AUTO_TEST_CASE(what_validates_also_converts)
{
    // The validator and the conversion come from the same type description;
    // instances on both sides of each check agree.
    auto const validator = *agentio::schema_validator::compile(json::parse(agentio::schema_of<every_kind>));
    auto const base = json::parse(R"({"activo": false, "pequeno": 0, "sin_signo": 0, "grande": 0, "enorme": 0,
        "ratio": 0, "texto": "ab", "op": "eq", "filtros": [], "pesos": {}, "libre": null, "objeto": {}, "lista": [],
        "etiquetas": ["a"]})")
                          .as_object();
    std::vector<std::pair<char const*, json::value>> variations = {{"pequeno", json::value(-128)},
        {"pequeno", json::value(128)}, {"limite", json::value(1000.0)}, {"limite", json::value(1000.5)},
        {"enorme", json::value(18446744073709551615ull)}, {"grande", json::value(-1e19)}, {"op", json::value("ne")},
        {"op", json::value("NE")}, {"orden", json::value(nullptr)}, {"sin_signo", json::value(4294967296)},
        {"filtros", json::parse(R"([{"campo":"a","operator":"gt","valor":[]}])")},
        {"filtros", json::parse(R"([{"campo":"a","op":"gt","valor":[]}])")}};
    for(auto const& [key, value] : variations)
    {
        auto instance = base;
        instance[key] = value;
        bool const valid = validator.validate(instance).ok();
        every_kind out;
        bool const converted = agentio::read_json(instance, out);
        BOOST_TEST((!valid || converted), key << " = " << json::serialize(value));
    }
}

BOOST_AUTO_TEST_SUITE_END()
