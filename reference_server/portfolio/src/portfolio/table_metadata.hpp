// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The portfolio's 26 tables: Spanish descriptions, which
// tables offer flexible search, and their URL prefixes. One place, used by the
// REST API, the tools, the MCP server and the system prompt alike.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace portfolio {

struct table_info
{
    std::string_view name;        // SQLite table name, e.g. "datos_relevantes"
    std::string_view prefix;      // URL prefix under /api/v1, e.g. "datos-relevantes"
    std::string_view descripcion; // Spanish description
    bool soporta_busqueda;        // POST /search and /aggregate
    bool one_per_initiative;      // 1:1 with the initiative: a single object in /portfolio/{id}
};

// Order: as listed here, datos_relevantes first, which is also the order of
// listings and of the cross-table /portfolio/{id} answer.
inline constexpr std::array<table_info, 26> tables{{
    {"datos_relevantes", "datos-relevantes",
        "Vista consolidada con 60+ campos calculados por iniciativa — tabla principal para consultas", true, true},
    {"iniciativas", "iniciativas", "Tabla maestra de iniciativas con presupuestos por año (2024-2028)", true, true},
    {"datos_descriptivos", "datos-descriptivos",
        "Datos descriptivos: nombre, unidad, framework, cluster, tipo, referentes", true, true},
    {"informacion_economica", "informacion-economica",
        "Información económica: CINI, CAPEX/OPEX, indicadores financieros", true, true},
    {"hechos", "hechos", "Hechos/hitos presupuestarios con importes y estados", true, false},
    {"beneficios", "beneficios", "Beneficios por periodo asociados a iniciativas", false, false},
    {"etiquetas", "etiquetas", "Etiquetas (tags) asociadas a iniciativas", true, false},
    {"justificaciones", "justificaciones", "Justificaciones de estado de iniciativas", false, false},
    {"ltp", "ltp", "Líneas de Trabajo Planificadas (LTPs)", false, false},
    {"wbes", "wbes", "Elementos de Estructura de Desglose de Trabajo (WBEs)", false, false},
    {"dependencias", "dependencias", "Dependencias entre iniciativas", true, false},
    {"notas", "notas", "Notas y comentarios sobre iniciativas", false, false},
    {"avance", "avance", "Datos de avance y progreso", false, false},
    {"acciones", "acciones", "Acciones pendientes o completadas", true, false},
    {"descripciones", "descripciones", "Descripciones detalladas de iniciativas", false, false},
    {"estado_especial", "estado-especial", "Estados especiales de iniciativas", false, false},
    {"investment_memos", "investment-memos", "Memos de inversión con presupuestos 2024-2030", false, false},
    {"impacto_aatt", "impacto-aatt", "Impacto en áreas técnicas (AATT)", false, false},
    {"facturacion", "facturacion", "Facturación mensual por iniciativa", false, false},
    {"fichas", "fichas", "Fichas de datos por periodo", true, false},
    {"documentos", "documentos", "Documentos asociados con resúmenes generados por IA", true, false},
    {"documentos_items", "documentos-items", "Secciones y páginas extraídas de documentos", false, false},
    {"grupos_iniciativas", "grupos-iniciativas", "Relaciones grupo-componente entre iniciativas", false, false},
    {"datos_ejecucion", "datos-ejecucion", "Datos de ejecución, hitos y progreso", false, false},
    {"parametros", "parametros", "Valores paramétricos para campos (opciones de dropdown)", false, false},
    {"etiquetas_destacadas", "etiquetas-destacadas", "Etiquetas destacadas/favoritas", false, false},
}};

inline constexpr int search_table_count = [] {
    int n = 0;
    for(auto const& t : tables)
        n += t.soporta_busqueda;
    return n;
}();
static_assert(search_table_count == 10, "ten tables support POST /search");

inline table_info const* find_table_by_name(std::string_view name) noexcept
{
    for(auto const& t : tables)
        if(t.name == name)
            return &t;
    return nullptr;
}

inline table_info const* find_table_by_prefix(std::string_view prefix) noexcept
{
    for(auto const& t : tables)
        if(t.prefix == prefix)
            return &t;
    return nullptr;
}

} // namespace portfolio
