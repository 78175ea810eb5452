// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The main fields of datos_relevantes and what they mean, in Spanish: the
// data-model part of the agent's system prompt. A test checks every name
// against the generated database, so the prompt cannot name a column that
// does not exist.
#pragma once

#include <array>
#include <string_view>

namespace portfolio {

struct field_group
{
    std::string_view title;   // "Identificación y clasificación"
    std::string_view fields;  // comma-separated column names ("budget_YYYY" stands for 2024..2028)
    std::string_view meaning; // what they mean, one or two sentences
};

inline constexpr std::array<field_group, 9> datos_relevantes_fields{{
    {"Identificación y clasificación",
        "portfolio_id, nombre, unidad, cluster, tipo, origen, digital_framework_level_1, digital_framework_level_2, "
        "prioridad, alineacion_estrategica, ambito_geografico",
        "portfolio_id tiene la forma PREFIJO_AA_NNN (ej: SPA_25_001; el prefijo es el ámbito geográfico). unidad es "
        "la unidad de negocio (14 valores) y cluster su agrupación; digital_framework_level_2 pertenece a un único "
        "digital_framework_level_1."},
    {"Estado y ciclo de vida",
        "estado_de_la_iniciativa, fecha_ultimo_estado, dias_en_estado, estado_especial, fecha_alta, fecha_inicio, "
        "fecha_fin",
        "15 estados en orden de ciclo de vida: Borrador, Recibida, En Estudio, Revisión Regulación, Pendiente de "
        "Aprobación, Aprobada, En Planificación, En Contratación, En Ejecución, En Pruebas, En Pausa, En Cierre, "
        "Finalizado, Cancelado, Rechazado. Fechas en formato AAAA-MM-DD."},
    {"Personas y proveedores", "referente_negocio, referente_bi, responsable_ti, proveedor_principal",
        "Responsables de negocio, de BI y de TI, y el proveedor principal (nulo si aún no hay)."},
    {"Importes por año (AAAA = 2024 a 2028)",
        "budget_YYYY, importe_YYYY, importe_aprobado_YYYY, importe_facturacion_YYYY",
        "En euros. budget = presupuesto inicial; importe = importe vigente (último hecho presupuestario del año); "
        "importe_aprobado = último importe aprobado; importe_facturacion = suma facturada (solo 2024 y 2025). "
        "Nulo cuando el año no aplica."},
    {"Totales y ratios",
        "budget_total, importe_total, importe_aprobado_total, importe_facturacion_total, desviacion_importe, "
        "porcentaje_desviacion, porcentaje_ejecucion, importe_pendiente_facturar_2025, en_presupuesto_del_anio, "
        "capex_opex, cini",
        "Totales 2024-2028; desviacion_importe = importe_total - budget_total; porcentajes de 0 a 100; "
        "en_presupuesto_del_anio vale 1 si tiene importe 2025 y no está cancelada ni rechazada."},
    {"Grupos de iniciativas", "es_grupo, portfolio_id_grupo, nombre_grupo, num_componentes",
        "Las iniciativas grupo (es_grupo = 1) suman los importes de sus componentes: para totalizar importes sin "
        "contar dos veces filtra es_grupo = 0."},
    {"Avance y riesgo", "porcentaje_avance, fecha_ultimo_avance, semaforo, riesgo, tiene_investment_memo, afecta_aatt",
        "semaforo: Verde, Ámbar o Rojo; riesgo: Alto, Medio o Bajo. Los campos booleanos valen 0 o 1."},
    {"Contadores de registros relacionados",
        "num_hechos, num_documentos, num_documentos_procesados, num_notas, num_acciones, num_acciones_pendientes, "
        "num_etiquetas, etiquetas, num_dependencias, num_ltp, num_wbes, num_beneficios, beneficio_total_estimado",
        "Número de filas de cada tabla relacionada; etiquetas es la lista de etiquetas separadas por comas."},
    {"Actividad reciente",
        "fecha_ultima_nota, ultima_nota, fecha_proxima_accion, fecha_proximo_hito, fecha_actualizacion",
        "Última nota, próxima acción pendiente y próximo hito planificado."},
}};

/// The data's "today": amounts default to this year when the user names none.
inline constexpr std::string_view data_today = "2025-06-30";
inline constexpr int current_year = 2025;

} // namespace portfolio
