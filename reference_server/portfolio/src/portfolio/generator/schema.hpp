// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// The 26 tables of the sample database (see docs/apps/portfolio/data-model.md), in
// TABLA_DESCRIPCIONES order. A column spec is "name:T|I|R", '!' for NOT NULL;
// every table starts with `id INTEGER PRIMARY KEY`.
#include "portfolio/generator/table_writer.hpp"

#include <vector>

namespace portfolio::generator {

struct Tables
{
    Table datos_relevantes{"datos_relevantes",
        {"portfolio_id:T!", "nombre:T!", "unidad:T!", "cluster:T!", "tipo:T!", "origen:T", "estado_de_la_iniciativa:T!",
            "fecha_ultimo_estado:T", "dias_en_estado:I", "digital_framework_level_1:T", "digital_framework_level_2:T",
            "prioridad:T", "alineacion_estrategica:T", "ambito_geografico:T", "referente_negocio:T", "referente_bi:T",
            "responsable_ti:T", "proveedor_principal:T", "fecha_alta:T", "fecha_inicio:T", "fecha_fin:T",
            "capex_opex:T", "cini:T", "budget_2024:R", "budget_2025:R", "budget_2026:R", "budget_2027:R",
            "budget_2028:R", "importe_2024:R", "importe_2025:R", "importe_2026:R", "importe_2027:R", "importe_2028:R",
            "importe_aprobado_2024:R", "importe_aprobado_2025:R", "importe_aprobado_2026:R", "importe_aprobado_2027:R",
            "importe_aprobado_2028:R", "importe_facturacion_2024:R", "importe_facturacion_2025:R",
            "importe_facturacion_2026:R", "importe_facturacion_2027:R", "importe_facturacion_2028:R", "budget_total:R",
            "importe_total:R", "importe_aprobado_total:R", "importe_facturacion_total:R", "desviacion_importe:R",
            "porcentaje_desviacion:R", "porcentaje_ejecucion:R", "importe_pendiente_facturar_2025:R",
            "en_presupuesto_del_anio:I!", "es_grupo:I!", "portfolio_id_grupo:T", "nombre_grupo:T", "num_componentes:I!",
            "num_hechos:I!", "num_documentos:I!", "num_documentos_procesados:I!", "num_notas:I!", "num_acciones:I!",
            "num_acciones_pendientes:I!", "num_etiquetas:I!", "etiquetas:T", "num_dependencias:I!", "num_ltp:I!",
            "num_wbes:I!", "num_beneficios:I!", "beneficio_total_estimado:R", "porcentaje_avance:R",
            "fecha_ultimo_avance:T", "semaforo:T", "riesgo:T", "estado_especial:T", "tiene_investment_memo:I!",
            "afecta_aatt:I!", "fecha_ultima_nota:T", "ultima_nota:T", "fecha_proxima_accion:T", "fecha_proximo_hito:T",
            "fecha_actualizacion:T"}};
    Table iniciativas{"iniciativas",
        {"portfolio_id:T!", "nombre:T!", "unidad:T!", "tipo:T!", "estado_de_la_iniciativa:T!", "fecha_alta:T",
            "fecha_inicio:T", "fecha_fin:T", "budget_2024:R", "budget_2025:R", "budget_2026:R", "budget_2027:R",
            "budget_2028:R", "budget_total:R", "es_grupo:I!", "portfolio_id_grupo:T", "fecha_modificacion:T"}};
    Table datos_descriptivos{"datos_descriptivos",
        {"portfolio_id:T!", "nombre:T!", "descripcion_corta:T", "unidad:T!", "cluster:T!", "tipo:T!", "origen:T",
            "digital_framework_level_1:T", "digital_framework_level_2:T", "prioridad:T", "alineacion_estrategica:T",
            "ambito_geografico:T", "referente_negocio:T", "referente_bi:T", "responsable_ti:T", "proveedor_principal:T",
            "codigo_jira:T", "fecha_alta:T"}};
    Table informacion_economica{"informacion_economica",
        {"portfolio_id:T!", "cini:T", "capex_opex:T", "clasificacion_regulatoria:T", "centro_coste:T",
            "orden_inversion:T", "moneda:T!", "porcentaje_capex:I", "importe_total:R", "importe_aprobado_total:R",
            "van:R", "tir:R", "payback_anios:R", "ahorro_anual_estimado:R", "vida_util_anios:I",
            "fecha_aprobacion_economica:T"}};
    Table hechos{"hechos",
        {"portfolio_id:T!", "id_hecho:I!", "partida_presupuestaria:I!", "fecha:T!", "estado:T!", "importe:R!",
            "calidad_estimacion:T", "racional:T", "registrado_por:T"}};
    Table beneficios{"beneficios",
        {"portfolio_id:T!", "anio:I!", "tipo_beneficio:T!", "descripcion:T", "valor:R!", "unidad_medida:T!",
            "estado:T!", "fecha_registro:T"}};
    Table etiquetas{"etiquetas", {"portfolio_id:T!", "etiqueta:T!", "fecha_asignacion:T!", "asignado_por:T"}};
    Table justificaciones{"justificaciones",
        {"portfolio_id:T!", "tipo_justificacion:T!", "justificacion:T!", "estado_relacionado:T", "fecha:T!",
            "autor:T"}};
    Table ltp{"ltp",
        {"portfolio_id:T!", "tarea:T!", "responsable:T", "estado:T!", "fecha_inicio:T", "fecha_fin:T",
            "comentarios:T"}};
    Table wbes{"wbes",
        {"portfolio_id:T!", "anio:I!", "codigo_wbe:T!", "descripcion_wbe:T", "tipo_wbe:T", "sociedad:T",
            "importe_asignado:R", "estado_wbe:T", "fecha_creacion:T"}};
    Table dependencias{"dependencias",
        {"portfolio_id:T!", "tipo_dependencia:T!", "descripcion:T!", "portfolio_id_relacionado:T",
            "nombre_relacionado:T", "criticidad:T", "estado:T!", "fecha_compromiso:T"}};
    Table notas{"notas", {"portfolio_id:T!", "fecha:T!", "tipo_nota:T!", "registrado_por:T", "nota:T!"}};
    Table avance{"avance",
        {"portfolio_id:T!", "fecha:T!", "porcentaje_avance:R!", "porcentaje_previsto:R", "estado_semaforo:T",
            "comentario:T", "registrado_por:T"}};
    Table acciones{"acciones",
        {"portfolio_id:T!", "accion:T!", "responsable:T", "prioridad:T", "estado:T!", "fecha_creacion:T!",
            "fecha_limite:T", "fecha_cierre:T", "comentarios:T"}};
    Table descripciones{"descripciones",
        {"portfolio_id:T!", "tipo_descripcion:T!", "descripcion:T!", "fecha_modificacion:T", "autor:T"}};
    Table estado_especial{"estado_especial",
        {"portfolio_id:T!", "estado_especial:T!", "activo:I!", "fecha_inicio:T!", "fecha_fin:T", "comentario:T",
            "registrado_por:T"}};
    Table investment_memos{"investment_memos",
        {"portfolio_id:T!", "version:I!", "titulo:T!", "fecha_memo:T!", "estado_memo:T!", "autor:T", "budget_2024:R",
            "budget_2025:R", "budget_2026:R", "budget_2027:R", "budget_2028:R", "budget_2029:R", "budget_2030:R",
            "budget_total:R", "van:R", "tir:R", "payback_anios:R", "resumen:T"}};
    Table impacto_aatt{"impacto_aatt",
        {"portfolio_id:T!", "area_tecnica:T!", "tipo_impacto:T!", "nivel_impacto:T!", "descripcion:T",
            "requiere_formacion:I!", "fecha_evaluacion:T", "evaluado_por:T"}};
    Table facturacion{"facturacion",
        {"portfolio_id:T!", "anio:I!", "mes:I!", "fecha_factura:T!", "numero_factura:T!", "proveedor:T", "concepto:T",
            "importe:R!"}};
    Table fichas{"fichas",
        {"portfolio_id:T!", "periodo:T!", "tipo_ficha:T!", "fecha_ficha:T!", "estado_general:T", "porcentaje_avance:R",
            "importe_ejecutado_acumulado:R", "hitos_periodo:T", "riesgos_periodo:T", "proximos_pasos:T",
            "elaborado_por:T"}};
    Table documentos{"documentos",
        {"portfolio_id:T!", "nombre_fichero:T!", "tipo_documento:T!", "formato:T!", "version:I!", "tamano_bytes:I!",
            "num_paginas:I", "fecha_subida:T!", "subido_por:T", "estado:T!", "fecha_procesado:T", "resumen_documento:T",
            "num_items:I!", "observaciones:T"}};
    Table documentos_items{"documentos_items",
        {"portfolio_id:T!", "documento_id:I!", "orden:I!", "seccion:T!", "pagina:I", "tipo_contenido:T!",
            "contenido:T!", "num_palabras:I!"}};
    Table grupos_iniciativas{"grupos_iniciativas",
        {"portfolio_id:T!", "portfolio_id_componente:T!", "nombre_grupo:T!", "nombre_componente:T!",
            "unidad_componente:T", "estado_componente:T", "importe_total_componente:R", "orden:I!", "fecha_alta:T"}};
    Table datos_ejecucion{"datos_ejecucion",
        {"portfolio_id:T!", "hito:T!", "orden:I!", "fecha_planificada:T!", "fecha_real:T", "estado_hito:T!",
            "responsable:T", "comentario:T"}};
    Table parametros{"parametros", {"nombre_parametro:T!", "valor:T!", "orden:I!", "descripcion:T"}};
    Table etiquetas_destacadas{"etiquetas_destacadas",
        {"etiqueta:T!", "color:T!", "descripcion:T", "orden:I!", "fecha_creacion:T"}};

    /// In TABLA_DESCRIPCIONES order.
    std::vector<Table*> all()
    {
        return {&datos_relevantes, &iniciativas, &datos_descriptivos, &informacion_economica, &hechos, &beneficios,
            &etiquetas, &justificaciones, &ltp, &wbes, &dependencias, &notas, &avance, &acciones, &descripciones,
            &estado_especial, &investment_memos, &impacto_aatt, &facturacion, &fichas, &documentos, &documentos_items,
            &grupos_iniciativas, &datos_ejecucion, &parametros, &etiquetas_destacadas};
    }
};

} // namespace portfolio::generator
