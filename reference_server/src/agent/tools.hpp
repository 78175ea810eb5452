// The portfolio tools the agent and the MCP server offer (seed 001 §6), as
// agentio tools: a described argument struct with Spanish field docs, and a
// coroutine that calls the REST API. Business logic stays in the API.
#pragma once

#include "agent/api_client.hpp"

#include <agentio/tool.hpp>

#include <boost/describe.hpp>

#include <optional>
#include <string>
#include <vector>

namespace portfolio::agent {

enum class operador { eq, ne, gt, gte, lt, lte, like, ilike, in, not_in, is_null, is_not_null };
BOOST_DESCRIBE_ENUM(operador, eq, ne, gt, gte, lt, lte, like, ilike, in, not_in, is_null, is_not_null)

/// One filter, in the REST API's own format.
struct filtro
{
    std::string field;
    operador op = operador::eq;
    std::optional<boost::json::value> value;
};
BOOST_DESCRIBE_STRUCT(filtro, (), (field, op, value))

struct contar_iniciativas
{
    static constexpr std::string_view name = "contar_iniciativas";
    static constexpr std::string_view description =
        "Contar iniciativas agrupadas por un campo (ej: estado, unidad, framework). Útil para obtener distribuciones "
        "y estadísticas como \"¿cuántas iniciativas hay por estado?\" o \"¿cuántas iniciativas tiene cada unidad?\".";

    struct args
    {
        std::string campo_agrupacion;
        std::optional<std::vector<filtro>> filtros;
    };

    api_client const* api = nullptr;

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(contar_iniciativas::args, (), (campo_agrupacion, filtros))

struct listar_tablas
{
    static constexpr std::string_view name = "listar_tablas";
    static constexpr std::string_view description =
        "Listar todas las tablas disponibles con su descripción en español, número de registros, y si soportan "
        "búsqueda con filtros flexibles.";

    struct args
    {
    };

    api_client const* api = nullptr;

    boost::asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(listar_tablas::args, (), ())

/// The tools of the agent (the next issue completes the ten).
using portfolio_tools = agentio::toolset<contar_iniciativas, listar_tablas>;

/// The toolset, its tools calling `api`.
portfolio_tools make_portfolio_tools(api_client const& api, agentio::message_language language);

} // namespace portfolio::agent

template<>
struct agentio::field_traits<portfolio::agent::filtro>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "field", .description = "Nombre del campo a filtrar (ej: \"estado_de_la_iniciativa\")"},
        {.name = "op", .json_name = "operator", .description = "Operador de comparación"},
        {.name = "value",
            .description = "Valor con el que comparar; una lista para in/not_in; se omite con is_null/is_not_null"},
    };
};

template<>
struct agentio::field_traits<portfolio::agent::contar_iniciativas::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "campo_agrupacion",
            .description = "Campo de datos_relevantes por el que agrupar (ej: \"estado_de_la_iniciativa\", \"unidad\", "
                           "\"digital_framework_level_1\", \"cluster\")",
            .min_length = 1},
        {.name = "filtros",
            .description = "Filtros previos a la agrupación: [{\"field\": \"...\", \"operator\": \"eq\", \"value\": \"...\"}]",
            .max_items = 20},
    };
};
