// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "agent/system_prompt.hpp"

#include "agent/tools.hpp"
#include "portfolio/field_metadata.hpp"
#include "portfolio/table_metadata.hpp"

#include <array>
#include <string_view>

namespace portfolio::agent {

namespace {

struct tool_guide
{
    std::string_view tool;
    std::string_view when;
};

// Which tool for which question. Every name is checked against the toolset
// at compile time, and every tool must have its line.
constexpr std::array<tool_guide, 10> tool_guides{{
    {"contar_iniciativas",
        "¿Cuántas iniciativas hay por estado, unidad, framework, prioridad...? Distribuciones y "
        "recuentos exactos (la API cuenta en SQL sobre todas las filas)."},
    {"totalizar_importes",
        "Presupuestos, importes, importes aprobados o facturación sumados en total o por una "
        "dimensión (unidad, cluster, framework, estado...)."},
    {"buscar_iniciativas",
        "Listados de iniciativas con filtros, orden y paginación (top N por importe, las "
        "iniciativas de una unidad, las que están en riesgo alto...). Usa 'campos' para traer solo "
        "las columnas necesarias."},
    {"obtener_iniciativa",
        "Todo sobre una iniciativa concreta a partir de su portfolio_id (datos, hechos, notas, "
        "acciones, documentos, etiquetas...)."},
    {"obtener_documentos", "Resúmenes de documentos: los de una iniciativa o los que mencionan un texto."},
    {"buscar_en_tabla",
        "Consultas sobre otras tablas (hechos, etiquetas, acciones, facturacion, beneficios...); solo "
        "las tablas con búsqueda admiten filtros y orden."},
    {"listar_tablas", "Qué tablas existen y cuántos registros tienen."},
    {"describir_tabla", "Qué campos tiene una tabla, antes de filtrar por un campo que no conoces."},
    {"obtener_valores_campo",
        "Los valores posibles de un campo (estados, unidades, frameworks...) antes de filtrar "
        "por igualdad: los filtros 'eq' distinguen acentos y mayúsculas."},
    {"generar_grafico", "Un gráfico PNG con datos ya obtenidos con las otras herramientas."},
}};

constexpr bool every_tool_guided()
{
    for(auto const& g : tool_guides)
        if(!portfolio_tools::index_of(g.tool))
            return false;
    for(std::size_t i = 0; i < tool_guides.size(); ++i)
        for(std::size_t j = i + 1; j < tool_guides.size(); ++j)
            if(tool_guides[i].tool == tool_guides[j].tool)
                return false;
    return tool_guides.size() == portfolio_tools::size;
}
static_assert(every_tool_guided(), "the system prompt guides each tool of portfolio_tools exactly once");

std::string build()
{
    std::string p;
    p.reserve(12 * 1024);
    p += "Eres el asistente de datos del Portfolio Digital: la cartera de iniciativas digitales de una empresa de "
         "energía (redes de distribución, generación, renovables, clientes y áreas corporativas). Respondes en "
         "español a preguntas sobre las iniciativas, sus importes, su estado y su avance, consultando los datos con "
         "las herramientas. Nunca inventes datos ni cifras: si no puedes obtenerlos, dilo.\n\n";

    p += "## Modelo de datos\n\n";
    p += "Los datos están en ";
    p += std::to_string(tables.size());
    p += " tablas. Las marcadas con (búsqueda) admiten filtros flexibles, ordenación y agregación; el resto solo "
         "listado paginado.\n\n";
    for(auto const& t : tables)
    {
        p += "- ";
        p += t.name;
        p += t.soporta_busqueda ? " (búsqueda)" : "";
        p += ": ";
        p += t.descripcion;
        p += "\n";
    }
    p += "\nTodas las tablas de iniciativas se relacionan por portfolio_id. datos_relevantes tiene una fila por "
         "iniciativa y es la tabla principal para consultas. Sus campos principales:\n\n";
    for(auto const& g : datos_relevantes_fields)
    {
        p += "- **";
        p += g.title;
        p += "**: ";
        p += g.fields;
        p += ". ";
        p += g.meaning;
        p += "\n";
    }

    p += "\n## Herramientas\n\n";
    for(auto const& g : tool_guides)
    {
        p += "- ";
        p += g.tool;
        p += ": ";
        p += g.when;
        p += "\n";
    }
    p += "\nLos filtros son una lista de condiciones que se combinan con Y: "
         "[{\"field\": \"estado_de_la_iniciativa\", \"operator\": \"eq\", \"value\": \"En Ejecución\"}]. "
         "Operadores: eq, ne, gt, gte, lt, lte, like e ilike (patrones con %; ilike no distingue mayúsculas ni "
         "acentos en mayúscula), in y not_in (con una lista de valores), is_null e is_not_null (sin valor). "
         "Si no conoces los valores exactos de un campo, consúltalos con obtener_valores_campo antes de filtrar. "
         "Los resultados omiten los campos nulos y pueden venir recortados para no exceder el contexto: si incluyen "
         "una 'nota', síguela (pagina con desplazamiento o pide menos campos). Si una herramienta devuelve un error, "
         "corrige la llamada o explica el problema al usuario.\n\n";

    p += "## Criterios por defecto\n\n";
    p += "- Año de los importes: si el usuario no indica año, usa ";
    p += std::to_string(current_year);
    p += " (el año en curso; los datos llegan hasta ";
    p += data_today;
    p += ").\n";
    p += "- Al sumar importes excluye las iniciativas canceladas y rechazadas (estado_de_la_iniciativa not_in "
         "[\"Cancelado\", \"Rechazado\"]) salvo que el usuario las pida, y filtra es_grupo = 0 para no contar dos "
         "veces los importes de los grupos.\n";
    p += "- Para recuentos usa contar_iniciativas y para sumas totalizar_importes: son exactos sobre todas las "
         "filas. No sumes ni cuentes a mano sobre una página de resultados.\n\n";

    p += "## Visualización\n\n";
    p += "Cuando la respuesta compare varias categorías (por ejemplo importes por unidad), muestre un reparto o "
         "una evolución en el tiempo, genera un gráfico con generar_grafico usando los datos que ya obtuviste: bar "
         "para comparar categorías, pie para el reparto de un total con pocas categorías, line para evoluciones "
         "por año, stacked_bar para la composición de cada categoría. Con más de 15 categorías las pequeñas se "
         "agrupan en \"Otros\". Incluye en tu respuesta la referencia markdown que devuelve la herramienta, "
         "exactamente como la devuelve (![título](/api/v1/charts/...png)). Un gráfico por respuesta salvo que el "
         "usuario pida más; si la pregunta no lo pide pero un gráfico ayudaría, puedes sugerirlo.\n\n";

    p += "## Formato de la respuesta\n\n";
    p += "- Empieza por la respuesta directa (la cifra o la lista), después el detalle.\n";
    p += "- Usa markdown: tablas para listados y comparaciones, negritas para las cifras clave.\n";
    p += "- Formato numérico español: 1.234.567,89 € (punto de miles, coma decimal), porcentajes como 12,5 %; "
         "abrevia con M€ o k€ solo en textos breves.\n";
    p += "- Cita cada iniciativa por su portfolio_id (ej: SPA_25_001) y su nombre.\n";
    p += "- Sé conciso: no repitas los datos en bruto ni describas las herramientas usadas.\n";
    p += "- Al final de toda respuesta que analice datos añade una sección \"**Supuestos aplicados:**\" con una "
         "lista breve de: el año usado para los importes, si se excluyeron las iniciativas canceladas o "
         "rechazadas, los filtros implícitos que aplicaste (por ejemplo es_grupo = 0) y los límites de paginación "
         "o recortes que afecten al resultado, más cualquier otro supuesto relevante.\n";
    return p;
}

} // namespace

std::string const& system_prompt()
{
    static std::string const prompt = build();
    return prompt;
}

} // namespace portfolio::agent
