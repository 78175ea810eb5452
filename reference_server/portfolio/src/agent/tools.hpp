// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The ten portfolio tools of the agent and the MCP server (docs/apps/portfolio/tools.md), as
// agentio tools: a described argument struct whose Spanish field
// documentation becomes the JSON Schema at compile time, and a coroutine that
// calls the REST API. Business logic stays in the API; what is here is the
// translation to the model's vocabulary, the Spanish errors of docs/apps/portfolio/tools.md,
// and keeping results small enough for a model's context.
#pragma once

#include "agent/messages.hpp"
#include "agent/api_client.hpp"
#include "charts/chart.hpp"
#include "charts/chart_store.hpp"

#include <agentio/tool.hpp>

#include <boost/describe.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace portfolio::agent {

/// What every tool needs besides its arguments.
struct tool_environment
{
    api_client const* api = nullptr;
    charts::chart_store* charts = nullptr; ///< where generar_grafico writes; null: charts unavailable
    charts::render_options chart_options{};
    std::string chart_url_prefix = "/api/v1/charts/";
    bool chart_image_in_result = false; ///< also return the PNG as image content (MCP clients show it)
    /// Budget of one result for the model: rows beyond it are dropped from
    /// the end and a `nota` says how to page (docs/apps/portfolio/tools.md).
    agentio::compact_options compact{.max_bytes = 48 * 1024, .max_string_bytes = 2000, .drop_null_members = true};
    std::int64_t default_rows = 50; ///< DEFAULT_QUERY_ROWS: the rows a call gets when it names no `limite`
    std::int64_t max_rows = 500;    ///< MAX_QUERY_ROWS
};

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

enum class direccion
{
    asc,
    desc
};
BOOST_DESCRIBE_ENUM(direccion, asc, desc)

/// One filter, in the REST API's own format.
struct filtro
{
    std::string field;
    operador op = operador::eq;
    std::optional<boost::json::value> value;
};
BOOST_DESCRIBE_STRUCT(filtro, (), (field, op, value))

struct tool_base
{
    /// Each tool reads the portfolio's API (GET) or draws a chart from its
    /// arguments: a call run twice after a crash does what it did once.
    static constexpr bool idempotent = true;

    tool_environment const* env = nullptr;
};

struct buscar_iniciativas : tool_base
{
    static constexpr std::string_view name = "buscar_iniciativas";
    static constexpr std::string_view description =
        "Buscar iniciativas en la vista consolidada (datos_relevantes) con filtros flexibles, ordenamiento y "
        "paginación. Esta es la herramienta principal para consultas sobre iniciativas. La tabla datos_relevantes "
        "contiene 60+ campos calculados incluyendo nombre, unidad, framework, estado, importes por año (2024-2028), "
        "y más.";

    struct args
    {
        std::optional<std::vector<filtro>> filtros;
        std::optional<std::string> orden_campo;
        direccion orden_direccion = direccion::asc;
        std::optional<std::int64_t> limite; // absent: tool_environment::default_rows
        std::int64_t desplazamiento = 0;
        std::optional<std::vector<std::string>> campos;
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(buscar_iniciativas::args, (),
    (filtros, orden_campo, orden_direccion, limite, desplazamiento, campos))

struct buscar_en_tabla : tool_base
{
    static constexpr std::string_view name = "buscar_en_tabla";
    static constexpr std::string_view description =
        "Buscar registros en cualquier tabla disponible de la base de datos. Para las tablas principales "
        "(datos_relevantes, iniciativas, hechos, etiquetas, acciones, etc.) se pueden usar filtros flexibles. Para "
        "otras tablas, se obtiene la lista de registros con paginación. Todos los registros incluyen campos "
        "calculados cuando están disponibles.";

    struct args
    {
        std::string tabla;
        std::optional<std::vector<filtro>> filtros;
        std::optional<std::string> orden_campo;
        direccion orden_direccion = direccion::asc;
        std::optional<std::int64_t> limite; // absent: tool_environment::default_rows
        std::int64_t desplazamiento = 0;
        std::optional<std::vector<std::string>> campos;
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(buscar_en_tabla::args, (),
    (tabla, filtros, orden_campo, orden_direccion, limite, desplazamiento, campos))

struct obtener_iniciativa : tool_base
{
    static constexpr std::string_view name = "obtener_iniciativa";
    static constexpr std::string_view description =
        "Obtener todos los datos de una iniciativa específica de todas las tablas relacionadas. Devuelve un objeto "
        "completo con la información de cada tabla, incluyendo datos relevantes calculados, hechos, etiquetas, "
        "documentos, notas, acciones, y más.";

    struct args
    {
        std::string portfolio_id;
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(obtener_iniciativa::args, (), (portfolio_id))

struct obtener_documentos : tool_base
{
    static constexpr std::string_view name = "obtener_documentos";
    static constexpr std::string_view description =
        "Obtener resúmenes de documentos asociados a iniciativas. Puede filtrar por portfolio_id o buscar en el "
        "texto de los resúmenes. Los documentos incluyen resúmenes generados por IA y metadatos del archivo.";

    struct args
    {
        std::optional<std::string> portfolio_id;
        std::optional<std::string> texto_busqueda;
        std::optional<std::string> estado;
        std::optional<std::int64_t> limite; // absent: tool_environment::default_rows
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(obtener_documentos::args, (), (portfolio_id, texto_busqueda, estado, limite))

struct contar_iniciativas : tool_base
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

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(contar_iniciativas::args, (), (campo_agrupacion, filtros))

struct totalizar_importes : tool_base
{
    static constexpr std::string_view name = "totalizar_importes";
    static constexpr std::string_view description =
        "Sumar un campo de importe agrupado por una dimensión. Útil para obtener presupuestos totales, facturación "
        "acumulada, etc. Ejemplos: \"presupuesto total 2025 por unidad\", \"importe aprobado por framework\".";

    struct args
    {
        std::string campo_importe;
        std::optional<std::string> campo_agrupacion;
        std::optional<std::vector<filtro>> filtros;
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(totalizar_importes::args, (), (campo_importe, campo_agrupacion, filtros))

struct listar_tablas : tool_base
{
    static constexpr std::string_view name = "listar_tablas";
    static constexpr std::string_view description =
        "Listar todas las tablas disponibles con su descripción en español, número de registros, y si soportan "
        "búsqueda con filtros flexibles.";

    struct args
    {
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(listar_tablas::args, (), ())

struct describir_tabla : tool_base
{
    static constexpr std::string_view name = "describir_tabla";
    static constexpr std::string_view description =
        "Obtener los nombres de las columnas/campos disponibles en una tabla específica. Útil para saber qué campos "
        "se pueden usar en filtros y consultas.";

    struct args
    {
        std::string tabla;
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(describir_tabla::args, (), (tabla))

struct obtener_valores_campo : tool_base
{
    static constexpr std::string_view name = "obtener_valores_campo";
    static constexpr std::string_view description =
        "Obtener los valores distintos de un campo en una tabla. Útil para conocer las opciones de filtrado "
        "disponibles, como los posibles estados, unidades, frameworks, etc.";

    struct args
    {
        std::string tabla;
        std::string campo;
        std::int64_t limite = 100;
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(obtener_valores_campo::args, (), (tabla, campo, limite))

enum class tipo_grafico
{
    bar,
    pie,
    line,
    stacked_bar
};
BOOST_DESCRIBE_ENUM(tipo_grafico, bar, pie, line, stacked_bar)

enum class unidad_valores
{
    euros,
    numero,
    porcentaje
};
BOOST_DESCRIBE_ENUM(unidad_valores, euros, numero, porcentaje)

struct serie_grafico
{
    std::string nombre;
    std::vector<double> valores;
};
BOOST_DESCRIBE_STRUCT(serie_grafico, (), (nombre, valores))

struct generar_grafico : tool_base
{
    static constexpr std::string_view name = "generar_grafico";
    static constexpr std::string_view description =
        "Generar un gráfico (barras, tarta, líneas o barras apiladas) a partir de datos ya obtenidos con otras "
        "herramientas. Guarda la imagen PNG y devuelve la referencia markdown ![título](/api/v1/charts/...png) que "
        "debes incluir tal cual en tu respuesta para que el usuario vea el gráfico.";

    struct args
    {
        tipo_grafico tipo = tipo_grafico::bar;
        std::string titulo;
        std::vector<std::string> categorias;
        std::vector<serie_grafico> series;
        std::optional<std::string> etiqueta_x;
        std::optional<std::string> etiqueta_y;
        unidad_valores unidad = unidad_valores::euros;
    };

    boost::asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const;
};
BOOST_DESCRIBE_STRUCT(generar_grafico::args, (), (tipo, titulo, categorias, series, etiqueta_x, etiqueta_y, unidad))

/// The ten tools, in their documented order: search, detail, aggregation, schema, chart.
using portfolio_tools = agentio::toolset<buscar_iniciativas, buscar_en_tabla, obtener_iniciativa, obtener_documentos,
    contar_iniciativas, totalizar_importes, listar_tablas, describir_tabla, obtener_valores_campo, generar_grafico>;

/// The toolset, its tools working with `env` (which must outlive it).
portfolio_tools make_portfolio_tools(tool_environment const& env, agentio::messages const& texts);

/// The Spanish message for a failed API call about `subject` (a table,
/// an initiative). `renames` maps the API's field names in a 422's detail to
/// the tool's parameter names, so the model reads its own vocabulary.
using field_rename = std::pair<std::string_view, std::string_view>;
std::string describe_api_failure(api_result const& r, std::string_view subject, std::string_view base_url,
    std::span<field_rename const> renames = {});

} // namespace portfolio::agent

// ---------------------------------------------------------------------------
// Field documentation: the tools' Spanish parameter help.

#define PORTFOLIO_FILTROS_HELP                                                                                         \
    "Lista de filtros. Cada filtro: {\"field\": \"nombre_campo\", \"operator\": \"eq|ne|gt|gte|lt|lte|like|ilike|in|"  \
    "not_in|is_null|is_not_null\", \"value\": \"...\"}. Ejemplo: [{\"field\": \"estado_de_la_iniciativa\", "           \
    "\"operator\": \"eq\", \"value\": \"En Ejecución\"}]"

template<>
struct agentio::field_traits<portfolio::agent::filtro>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "field",
            .description = "Nombre del campo a filtrar (ej: \"estado_de_la_iniciativa\")",
            .min_length = 1},
        {.name = "op", .json_name = "operator", .description = "Operador de comparación"},
        {.name = "value",
            .description = "Valor con el que comparar; una lista para in/not_in; se omite con is_null/is_not_null"},
    };
};

template<>
struct agentio::field_traits<portfolio::agent::buscar_iniciativas::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "filtros", .description = PORTFOLIO_FILTROS_HELP, .max_items = 20},
        {.name = "orden_campo", .description = "Campo por el cual ordenar los resultados (order_by)", .min_length = 1},
        {.name = "orden_direccion",
            .description = "\"asc\" o \"desc\" (por defecto: \"asc\")",
            .default_value = "\"asc\""},
        {.name = "limite",
            .description = "Máximo de resultados (por defecto: 50, máximo: 500)",
            .minimum = 1,
            .maximum = 500,
            .default_value = "50"},
        {.name = "desplazamiento",
            .description = "Desplazamiento para paginación (por defecto: 0)",
            .minimum = 0,
            .default_value = "0"},
        {.name = "campos",
            .description = "Campos a devolver de cada fila (por defecto todos); pedir solo los necesarios permite "
                           "traer más filas",
            .min_items = 1,
            .max_items = 100,
            .examples = {R"(["portfolio_id", "nombre", "importe_2025"])"}},
    };
};

template<>
struct agentio::field_traits<portfolio::agent::buscar_en_tabla::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "tabla",
            .description = "Nombre de la tabla a consultar (ej: \"hechos\", \"etiquetas\", \"beneficios\")",
            .min_length = 1,
            .max_length = 64},
        {.name = "filtros",
            .description = "Lista de filtros (mismo formato que buscar_iniciativas). Solo disponible para tablas con "
                           "endpoint /search.",
            .max_items = 20},
        {.name = "orden_campo", .description = "Campo de ordenamiento", .min_length = 1},
        {.name = "orden_direccion", .description = "\"asc\" o \"desc\"", .default_value = "\"asc\""},
        {.name = "limite",
            .description = "Máximo de resultados (por defecto: 50, máximo: 500)",
            .minimum = 1,
            .maximum = 500,
            .default_value = "50"},
        {.name = "desplazamiento", .description = "Desplazamiento para paginación", .minimum = 0, .default_value = "0"},
        {.name = "campos",
            .description = "Campos a devolver de cada fila (por defecto todos)",
            .min_items = 1,
            .max_items = 100},
    };
};

template<>
struct agentio::field_traits<portfolio::agent::obtener_iniciativa::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "portfolio_id",
            .description = "Identificador de la iniciativa (ej: \"SPA_25_001\")",
            .min_length = 1,
            .max_length = 64,
            .examples = {R"("SPA_25_001")"}},
    };
};

template<>
struct agentio::field_traits<portfolio::agent::obtener_documentos::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "portfolio_id",
            .description = "Filtrar documentos de una iniciativa específica",
            .min_length = 1,
            .max_length = 64},
        {.name = "texto_busqueda",
            .description = "Buscar en resúmenes y nombres de documentos (usa operador ilike)",
            .min_length = 1,
            .max_length = 200},
        {.name = "estado",
            .description =
                "Filtrar por estado del procesamiento: \"Pendiente\", \"Completado\", \"Error\", \"Ignorado\"",
            .one_of = {"Pendiente", "Completado", "Error", "Ignorado"}},
        {.name = "limite",
            .description = "Máximo de resultados (por defecto: 50)",
            .minimum = 1,
            .maximum = 500,
            .default_value = "50"},
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
            .description = "Filtros previos a la agrupación (mismo formato que buscar_iniciativas)",
            .max_items = 20},
    };
};

template<>
struct agentio::field_traits<portfolio::agent::totalizar_importes::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "campo_importe",
            .description = "Campo numérico a sumar (ej: \"importe_2025\", \"budget_2025\", \"importe_aprobado_2025\", "
                           "\"importe_facturacion_2025\")",
            .min_length = 1},
        {.name = "campo_agrupacion",
            .description = "Campo por el que agrupar. Si no se indica, devuelve solo el total global.",
            .min_length = 1},
        {.name = "filtros", .description = "Filtros previos a la agregación", .max_items = 20},
    };
};

template<>
struct agentio::field_traits<portfolio::agent::describir_tabla::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "tabla", .description = "Nombre de la tabla a describir", .min_length = 1, .max_length = 64},
    };
};

template<>
struct agentio::field_traits<portfolio::agent::obtener_valores_campo::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "tabla", .description = "Nombre de la tabla", .min_length = 1, .max_length = 64},
        {.name = "campo", .description = "Nombre del campo", .min_length = 1, .max_length = 128},
        {.name = "limite",
            .description = "Máximo de valores distintos a devolver (por defecto: 100)",
            .minimum = 1,
            .maximum = 1000,
            .default_value = "100"},
    };
};

template<>
struct agentio::field_traits<portfolio::agent::serie_grafico>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "nombre", .description = "Nombre de la serie (aparece en la leyenda), ej: \"2025\"", .max_length = 80},
        {.name = "valores",
            .description = "Un valor por categoría, en el mismo orden que categorias",
            .min_items = 1,
            .max_items = 200},
    };
};

template<>
struct agentio::field_traits<portfolio::agent::generar_grafico::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "tipo",
            .description = "bar (barras, comparar categorías), pie (tarta, reparto de un total; pocas categorías), "
                           "line (evolución en el tiempo), stacked_bar (barras apiladas, composición por categoría)",
            .default_value = "\"bar\""},
        {.name = "titulo", .description = "Título del gráfico", .min_length = 1, .max_length = 200},
        {.name = "categorias",
            .description =
                "Etiquetas del eje X o de los sectores (ej: unidades, años). Más de 15 se agrupan en \"Otros\"",
            .min_items = 1,
            .max_items = 200},
        {.name = "series",
            .description = "Series de valores: una para bar y pie; una o varias para line y stacked_bar",
            .min_items = 1,
            .max_items = 10},
        {.name = "etiqueta_x", .description = "Título del eje X (opcional)", .max_length = 100},
        {.name = "etiqueta_y", .description = "Título del eje Y (opcional)", .max_length = 100},
        {.name = "unidad",
            .description =
                "Cómo se muestran los valores: euros (1.234,5 €; M€/k€ en el eje), numero, porcentaje (valores de 0 "
                "a 100)",
            .default_value = "\"euros\""},
    };
};

#undef PORTFOLIO_FILTROS_HELP
