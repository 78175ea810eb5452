// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Pass E: the reference tables (parametros: the distinct values of the
// dropdown columns in canonical order; etiquetas_destacadas) and the indexes.
#include "portfolio/generator/passes.hpp"
#include "portfolio/generator/text.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace portfolio::generator {

namespace {

struct ParamSpec
{
    std::string nombre, tabla, columna;
    std::vector<std::string_view> canon;
    std::string_view descripcion;
};
template<class A>
std::vector<std::string_view> sv(A const& a)
{
    return std::vector<std::string_view>(std::begin(a), std::end(a));
}

std::vector<ParamSpec> param_specs()
{
    std::vector<std::string_view> estados, tipos, l2s, benef;
    for(auto const& e : kEstados)
        estados.push_back(e.name);
    for(auto const& tp : kTipos)
        tipos.push_back(tp.name);
    for(auto const& l : l2_table())
        l2s.push_back(l.name);
    for(auto const& b : kTiposBeneficio)
        benef.push_back(b.name);
    std::vector<std::string_view> doc;
    for(auto const& d : doc_tipos())
        doc.push_back(d.name);
    std::vector<std::string_view> ambitos;
    for(auto const& p : kPrefixes)
        ambitos.push_back(p.ambito);
    std::vector<ParamSpec> v = {
        {"estado_de_la_iniciativa", "datos_relevantes", "estado_de_la_iniciativa", estados,
            "Estado de la iniciativa en su ciclo de vida."},
        {"unidad", "datos_relevantes", "unidad", sv(kUnidades), "Unidad de negocio promotora."},
        {"cluster", "datos_relevantes", "cluster", sv(kClusters), "Agrupación de unidades de negocio."},
        {"tipo", "datos_relevantes", "tipo", tipos, "Tipo de iniciativa."},
        {"origen", "datos_relevantes", "origen", sv(kOrigenes), "Origen o motivación de la iniciativa."},
        {"digital_framework_level_1", "datos_relevantes", "digital_framework_level_1", sv(kL1),
            "Ámbito del marco digital (nivel 1)."},
        {"digital_framework_level_2", "datos_relevantes", "digital_framework_level_2", l2s,
            "Subámbito del marco digital (nivel 2)."},
        {"prioridad", "datos_relevantes", "prioridad", sv(kPrioridades), "Prioridad de la iniciativa."},
        {"alineacion_estrategica", "datos_relevantes", "alineacion_estrategica", sv(kAlineacion),
            "Grado de alineación con el plan estratégico."},
        {"capex_opex", "datos_relevantes", "capex_opex", sv(kCapexOpex), "Naturaleza contable del gasto."},
        {"cini", "datos_relevantes", "cini", sv(kCinis), "Código CINI de la inversión regulada."},
        {"ambito_geografico", "datos_relevantes", "ambito_geografico", ambitos,
            "Ámbito geográfico (prefijo del portfolio_id)."},
        {"riesgo", "datos_relevantes", "riesgo", sv(kRiesgos), "Nivel de riesgo calculado."},
        {"semaforo", "datos_relevantes", "semaforo", sv(kSemaforos), "Semáforo del último avance registrado."},
        {"referente_negocio", "datos_relevantes", "referente_negocio", {}, "Referente de negocio de la iniciativa."},
        {"referente_bi", "datos_relevantes", "referente_bi", {}, "Referente BI (Business Intelligence) asignado."},
        {"responsable_ti", "datos_relevantes", "responsable_ti", {}, "Responsable de Tecnología asignado."},
        {"proveedor_principal", "datos_relevantes", "proveedor_principal", sv(kProveedores), "Proveedor principal."},
        {"hechos.estado", "hechos", "estado", sv(kHechoEstados), "Estado de un hecho presupuestario."},
        {"hechos.calidad_estimacion", "hechos", "calidad_estimacion", sv(kCalidad),
            "Calidad de la estimación del importe."},
        {"acciones.estado", "acciones", "estado", sv(kAccionEstados), "Estado de una acción."},
        {"acciones.prioridad", "acciones", "prioridad", sv(kNivel3), "Prioridad de una acción."},
        {"documentos.estado", "documentos", "estado", sv(kDocEstados), "Estado del procesamiento del documento."},
        {"documentos.tipo_documento", "documentos", "tipo_documento", doc, "Tipo de documento."},
        {"etiquetas.etiqueta", "etiquetas", "etiqueta", sv(kEtiquetas), "Etiqueta asignable a una iniciativa."},
        {"notas.tipo_nota", "notas", "tipo_nota", sv(kTiposNota), "Tipo de nota."},
        {"dependencias.tipo_dependencia", "dependencias", "tipo_dependencia", sv(kTiposDependencia),
            "Tipo de dependencia."},
        {"dependencias.estado", "dependencias", "estado", sv(kEstadosDependencia), "Estado de la dependencia."},
        {"dependencias.criticidad", "dependencias", "criticidad", sv(kNivel3), "Criticidad de la dependencia."},
        {"beneficios.tipo_beneficio", "beneficios", "tipo_beneficio", benef, "Tipo de beneficio."},
        {"beneficios.estado", "beneficios", "estado", sv(kBenefEstados), "Estado del beneficio."},
        {"ltp.estado", "ltp", "estado", sv(kLtpEstados), "Estado de una línea de trabajo planificada."},
        {"datos_ejecucion.estado_hito", "datos_ejecucion", "estado_hito", sv(kHitoEstados),
            "Estado de un hito de ejecución."},
        {"avance.estado_semaforo", "avance", "estado_semaforo", sv(kSemaforos), "Semáforo de un registro de avance."},
        {"estado_especial.estado_especial", "estado_especial", "estado_especial", sv(kEstadosEspeciales),
            "Estado especial de una iniciativa."},
        {"investment_memos.estado_memo", "investment_memos", "estado_memo", sv(kMemoEstados),
            "Estado de un investment memo."},
        {"impacto_aatt.area_tecnica", "impacto_aatt", "area_tecnica", sv(kAreasTecnicas), "Área técnica impactada."},
        {"impacto_aatt.tipo_impacto", "impacto_aatt", "tipo_impacto", sv(kTiposImpacto), "Tipo de impacto."},
        {"impacto_aatt.nivel_impacto", "impacto_aatt", "nivel_impacto", sv(kRiesgos), "Nivel de impacto."},
        {"justificaciones.tipo_justificacion", "justificaciones", "tipo_justificacion", sv(kTiposJustificacion),
            "Tipo de justificación."},
        {"fichas.tipo_ficha", "fichas", "tipo_ficha", sv(kTiposFicha), "Tipo de ficha."},
        {"informacion_economica.clasificacion_regulatoria", "informacion_economica", "clasificacion_regulatoria",
            sv(kClasifReg), "Clasificación regulatoria de la inversión."},
        {"wbes.sociedad", "wbes", "sociedad", sv(kSociedades), "Sociedad del grupo titular de la WBE."},
        {"wbes.estado_wbe", "wbes", "estado_wbe", sv(kWbeEstados), "Estado de la WBE."},
    };
    return v;
}

} // namespace

void insert_parametros(agentio::sqlite::connection& db, Tables& t)
{
    for(auto const& p : param_specs())
    {
        std::string const sql = cat("SELECT DISTINCT ", p.columna, " FROM ", p.tabla, " WHERE ", p.columna,
            " IS NOT NULL");
        auto st = db.prepare(sql);
        if(!st)
            throw std::runtime_error("SQLite error preparing (" + truncate_utf8(sql, 80) +
                "): " + db.last_error_message());
        std::vector<std::string> vals;
        for(;;)
        {
            auto const row = st->step();
            if(!row)
                throw std::runtime_error(cat("SQLite error reading values of ", p.nombre, ": ",
                    db.last_error_message()));
            if(!*row)
                break;
            vals.emplace_back(st->column_text(0));
        }
        auto rank = [&](std::string const& v) -> std::size_t {
            auto it = std::find(p.canon.begin(), p.canon.end(), std::string_view(v));
            return it == p.canon.end() ? p.canon.size() : static_cast<std::size_t>(it - p.canon.begin());
        };
        std::sort(vals.begin(), vals.end(), [&](std::string const& a, std::string const& b) {
            std::size_t const ra = rank(a), rb = rank(b);
            if(ra != rb)
                return ra < rb;
            std::string const ka = sort_key(a), kb = sort_key(b);
            if(ka != kb)
                return ka < kb;
            return a < b;
        });
        int orden = 0;
        for(auto const& v : vals)
        {
            std::string_view desc = p.descripcion;
            if(p.nombre == "estado_de_la_iniciativa")
                for(auto const& e : kEstados)
                    if(e.name == v)
                        desc = e.descripcion;
            t.parametros.set("nombre_parametro", p.nombre)
                .set("valor", v)
                .set("orden", ++orden)
                .set("descripcion", desc);
            t.parametros.insert();
        }
    }
}

void insert_destacadas(Tables& t)
{
    int orden = 0;
    for(auto const& d : kDestacadas)
    {
        ++orden;
        t.etiquetas_destacadas.set("etiqueta", d.etiqueta)
            .set("color", d.color)
            .set("descripcion", d.descripcion)
            .set("orden", orden)
            .set("fecha_creacion", ymd(2024, 1, 15) + days{21 * orden});
        t.etiquetas_destacadas.insert();
    }
}

void create_indexes(agentio::sqlite::connection& db, Tables& t)
{
    for(Table* tb : t.all())
    {
        if(!tb->has_portfolio_id())
            continue;
        bool const unique = tb == &t.datos_relevantes || tb == &t.iniciativas || tb == &t.datos_descriptivos ||
            tb == &t.informacion_economica;
        execute(db,
            cat(unique ? "CREATE UNIQUE INDEX ux_" : "CREATE INDEX ix_", tb->name(), "_portfolio_id ON ", tb->name(),
                "(portfolio_id)"));
    }
    execute(db, "CREATE INDEX ix_datos_relevantes_estado ON datos_relevantes(estado_de_la_iniciativa)");
    execute(db, "CREATE INDEX ix_datos_relevantes_unidad ON datos_relevantes(unidad)");
    execute(db, "CREATE INDEX ix_documentos_items_documento_id ON documentos_items(documento_id)");
    execute(db, "CREATE INDEX ix_grupos_iniciativas_componente ON grupos_iniciativas(portfolio_id_componente)");
    execute(db, "CREATE INDEX ix_dependencias_relacionado ON dependencias(portfolio_id_relacionado)");
    execute(db, "CREATE INDEX ix_parametros_nombre ON parametros(nombre_parametro, orden)");
}

} // namespace portfolio::generator
