// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Passes D and E: the calculated fields (group aggregates, risk), the 1:1
// tables (iniciativas, datos_descriptivos, informacion_economica,
// datos_relevantes) and grupos_iniciativas.
#include "portfolio/generator/passes.hpp"
#include "portfolio/generator/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace portfolio::generator {

namespace {

std::optional<std::string_view> riesgo_de(Ini const& x)
{
    Phase const ph = x.phase();
    if(ph == CANC || ph == REJ)
        return std::nullopt;
    if(ph == DONE)
        return kRiesgos[2];
    int score = 0;
    if(x.fin && *x.fin < kToday)
        score += 2;
    if(x.semaforo == 2)
        score += 2;
    else if(x.semaforo == 1)
        score += 1;
    OptMoney const b = sum_opt(x.budget), i = sum_opt(x.importe);
    if(b && i && *b > 0)
    {
        double const pct = std::fabs(100.0 * static_cast<double>(*i - *b) / static_cast<double>(*b));
        score += pct > 20.0 ? 2 : pct > 10.0 ? 1 : 0;
    }
    if(x.estado_especial == 0 || x.estado_especial == 3)
        score += 1;
    if(x.estado == kEstadoPausa)
        score += 1;
    return kRiesgos[score >= 3 ? 0 : score >= 1 ? 1 : 2];
}

std::optional<std::string> person_opt(Ctx const& c, int idx)
{
    if(idx < 0)
        return std::nullopt;
    return c.person(idx);
}

} // namespace

// ───────────────────────────── Pass D/E: calculated fields and 1:1 tables ─────────────────────────────

void aggregate_group(Ctx& c, Ini& g)
{
    double sum = 0.0;
    int n = 0;
    for(int i : g.comps)
    {
        Ini const& x = c.inis[static_cast<std::size_t>(i)];
        if(x.avance)
        {
            sum += *x.avance;
            ++n;
            g.semaforo = std::max(g.semaforo, x.semaforo);
            if(!g.fecha_avance || *g.fecha_avance < *x.fecha_avance)
                g.fecha_avance = x.fecha_avance;
        }
        if(x.prox_hito && (!g.prox_hito || *x.prox_hito < *g.prox_hito))
            g.prox_hito = x.prox_hito;
        g.fecha_act = std::max(g.fecha_act, x.fecha_act);
    }
    if(n > 0)
        g.avance = round1(sum / n);
}

void insert_one_to_one(Ctx& c, Tables& t, std::size_t i)
{
    Ini const& x = c.inis[i];
    Rng r = Rng::stream(c.opt.seed, 6, i);
    OptMoney const bt = sum_opt(x.budget), it = sum_opt(x.importe), at = sum_opt(x.aprobado), ft = sum_opt(x.fact);
    std::optional<std::string> grp_pid, grp_nom;
    if(x.group >= 0)
    {
        grp_pid = c.inis[static_cast<std::size_t>(x.group)].pid;
        grp_nom = c.inis[static_cast<std::size_t>(x.group)].nombre;
    }
    std::optional<std::string_view> cini;
    if(x.cini >= 0)
        cini = kCinis[x.cini];
    std::optional<std::string_view> prov;
    if(x.proveedor >= 0)
        prov = kProveedores[x.proveedor];
    std::string_view const cluster = kClusters[kUnidadCluster[x.unidad]];
    std::string_view const l2 = l2_table()[static_cast<std::size_t>(x.l2)].name;

    // iniciativas
    t.iniciativas.set("portfolio_id", x.pid)
        .set("nombre", x.nombre)
        .set("unidad", kUnidades[x.unidad])
        .set("tipo", kTipos[x.tipo].name)
        .set("estado_de_la_iniciativa", kEstados[x.estado].name)
        .set("fecha_alta", x.alta)
        .set("fecha_inicio", x.inicio)
        .set("fecha_fin", x.fin);
    for(int k = 0; k < kNumYears; ++k)
        t.iniciativas.money(cat("budget_", kFirstYear + k), x.budget[static_cast<std::size_t>(k)]);
    t.iniciativas.money("budget_total", bt)
        .set("es_grupo", x.is_group ? 1 : 0)
        .set("portfolio_id_grupo", grp_pid)
        .set("fecha_modificacion", x.fecha_act);
    t.iniciativas.insert();

    // datos_descriptivos
    t.datos_descriptivos.set("portfolio_id", x.pid)
        .set("nombre", x.nombre)
        .set("descripcion_corta", x.descripcion_corta)
        .set("unidad", kUnidades[x.unidad])
        .set("cluster", cluster)
        .set("tipo", kTipos[x.tipo].name)
        .set("origen", kOrigenes[x.origen])
        .set("digital_framework_level_1", kL1[x.l1])
        .set("digital_framework_level_2", l2)
        .set("prioridad", kPrioridades[x.prioridad])
        .set("alineacion_estrategica", kAlineacion[x.alineacion])
        .set("ambito_geografico", kPrefixes[x.prefix].ambito)
        .set("referente_negocio", c.person(x.ref_neg))
        .set("referente_bi", person_opt(c, x.ref_bi))
        .set("responsable_ti", c.person(x.resp_ti))
        .set("proveedor_principal", prov)
        .set("codigo_jira", x.codigo_jira)
        .set("fecha_alta", x.alta);
    t.datos_descriptivos.insert();

    // informacion_economica
    Phase const ph = x.phase();
    std::optional<std::string> oi;
    if(x.capex != 1 && !x.is_group && (ph == APR || ph == EXEC || ph == DONE || (ph == CANC && x.was_approved)))
        oi = cat("OI-", x.fecha_aprob ? year_of(*x.fecha_aprob) : year_of(x.inicio), '-',
            pad(10000 + static_cast<int>(i) * 7 + r.range(0, 6), 5));
    OptMoney van = x.van;
    std::optional<double> tir = x.tir, pb = x.payback;
    if(!x.memo && it && *it > 0 && !x.is_group && ph != REJ && r.chance(0.55))
    {
        van = round_to(static_cast<double>(*it) * r.uniform(0.2, 2.5), 100000);
        tir = round1(r.uniform(4.0, 35.0));
        pb = round1(r.uniform(1.0, 8.0));
    }
    OptMoney ahorro = x.benef_eur;
    if(!ahorro && it && *it > 0 && !x.is_group && r.chance(0.45))
        ahorro = round_to(static_cast<double>(*it) * r.uniform(0.05, 0.4), 100000);
    std::optional<int> vida;
    if(x.capex != 1)
        vida = r.range(3, 10);
    t.informacion_economica.set("portfolio_id", x.pid)
        .set("cini", cini)
        .set("capex_opex", kCapexOpex[x.capex])
        .set("clasificacion_regulatoria", kClasifReg[x.clasif])
        .set("centro_coste", cat("CC-", kUnidadCodigo[x.unidad], '-', pad(r.range(100, 999), 3)))
        .set("orden_inversion", oi)
        .set("moneda", "EUR")
        .set("porcentaje_capex",
            x.capex == 0       ? 100
                : x.capex == 1 ? 0
                               : r.range(40, 85))
        .money("importe_total", it)
        .money("importe_aprobado_total", at)
        .money("van", van)
        .set("tir", tir)
        .set("payback_anios", pb)
        .money("ahorro_anual_estimado", ahorro)
        .set("vida_util_anios", vida)
        .set("fecha_aprobacion_economica", x.fecha_aprob);
    t.informacion_economica.insert();

    // datos_relevantes
    Table& d = t.datos_relevantes;
    d.set("portfolio_id", x.pid)
        .set("nombre", x.nombre)
        .set("unidad", kUnidades[x.unidad])
        .set("cluster", cluster)
        .set("tipo", kTipos[x.tipo].name)
        .set("origen", kOrigenes[x.origen])
        .set("estado_de_la_iniciativa", kEstados[x.estado].name)
        .set("fecha_ultimo_estado", x.fecha_estado)
        .set("dias_en_estado", days_between(x.fecha_estado, kToday))
        .set("digital_framework_level_1", kL1[x.l1])
        .set("digital_framework_level_2", l2)
        .set("prioridad", kPrioridades[x.prioridad])
        .set("alineacion_estrategica", kAlineacion[x.alineacion])
        .set("ambito_geografico", kPrefixes[x.prefix].ambito)
        .set("referente_negocio", c.person(x.ref_neg))
        .set("referente_bi", person_opt(c, x.ref_bi))
        .set("responsable_ti", c.person(x.resp_ti))
        .set("proveedor_principal", prov)
        .set("fecha_alta", x.alta)
        .set("fecha_inicio", x.inicio)
        .set("fecha_fin", x.fin)
        .set("capex_opex", kCapexOpex[x.capex])
        .set("cini", cini);
    for(int k = 0; k < kNumYears; ++k)
    {
        auto const kk = static_cast<std::size_t>(k);
        int const y = kFirstYear + k;
        d.money(cat("budget_", y), x.budget[kk])
            .money(cat("importe_", y), x.importe[kk])
            .money(cat("importe_aprobado_", y), x.aprobado[kk])
            .money(cat("importe_facturacion_", y), x.fact[kk]);
    }
    OptMoney desv;
    std::optional<double> pdesv, pejec;
    if(bt && it)
        desv = *it - *bt;
    if(bt && it && *bt > 0)
        pdesv = round1(100.0 * static_cast<double>(*it - *bt) / static_cast<double>(*bt));
    i64 const imp_ej = x.importe[0].value_or(0) + x.importe[1].value_or(0);
    if(imp_ej > 0)
        pejec = round1(100.0 * static_cast<double>(x.fact[0].value_or(0) + x.fact[1].value_or(0)) /
            static_cast<double>(imp_ej));
    OptMoney pend;
    if(x.aprobado[1])
        pend = *x.aprobado[1] - x.fact[1].value_or(0);
    bool const en_pres = x.importe[1].value_or(0) > 0 && ph != CANC && ph != REJ;
    std::optional<std::string_view> est_esp;
    if(x.estado_especial >= 0)
        est_esp = kEstadosEspeciales[x.estado_especial];
    std::optional<std::string_view> sem;
    if(x.semaforo >= 0)
        sem = kSemaforos[x.semaforo];
    d.money("budget_total", bt)
        .money("importe_total", it)
        .money("importe_aprobado_total", at)
        .money("importe_facturacion_total", ft)
        .money("desviacion_importe", desv)
        .set("porcentaje_desviacion", pdesv)
        .set("porcentaje_ejecucion", pejec)
        .money("importe_pendiente_facturar_2025", pend)
        .set("en_presupuesto_del_anio", en_pres ? 1 : 0)
        .set("es_grupo", x.is_group ? 1 : 0)
        .set("portfolio_id_grupo", grp_pid)
        .set("nombre_grupo", grp_nom)
        .set("num_componentes", static_cast<int>(x.comps.size()))
        .set("num_hechos", x.n_hechos)
        .set("num_documentos", x.n_docs)
        .set("num_documentos_procesados", x.n_docs_ok)
        .set("num_notas", x.n_notas)
        .set("num_acciones", x.n_acciones)
        .set("num_acciones_pendientes", x.n_acc_pend)
        .set("num_etiquetas", x.n_etiq)
        .set("etiquetas", x.etiquetas.empty() ? std::optional<std::string>() : std::optional<std::string>(x.etiquetas))
        .set("num_dependencias", x.n_dep)
        .set("num_ltp", x.n_ltp)
        .set("num_wbes", x.n_wbes)
        .set("num_beneficios", x.n_benef)
        .money("beneficio_total_estimado", x.benef_eur)
        .set("porcentaje_avance", x.avance)
        .set("fecha_ultimo_avance", x.fecha_avance)
        .set("semaforo", sem)
        .set("riesgo", riesgo_de(x))
        .set("estado_especial", est_esp)
        .set("tiene_investment_memo", x.memo ? 1 : 0)
        .set("afecta_aatt", x.aatt ? 1 : 0)
        .set("fecha_ultima_nota", x.fecha_ult_nota)
        .set("ultima_nota", x.fecha_ult_nota ? std::optional<std::string>(x.ult_nota) : std::nullopt)
        .set("fecha_proxima_accion", x.prox_accion)
        .set("fecha_proximo_hito", x.prox_hito)
        .set("fecha_actualizacion", x.fecha_act);
    d.insert();
}

void insert_grupos(Ctx& c, Tables& t)
{
    for(std::size_t gi = 0; gi < c.inis.size(); ++gi)
    {
        Ini const& g = c.inis[gi];
        if(!g.is_group)
            continue;
        Rng r = Rng::stream(c.opt.seed, 7, gi);
        int orden = 0;
        for(int ci : g.comps)
        {
            Ini const& x = c.inis[static_cast<std::size_t>(ci)];
            t.grupos_iniciativas.set("portfolio_id", g.pid)
                .set("portfolio_id_componente", x.pid)
                .set("nombre_grupo", g.nombre)
                .set("nombre_componente", x.nombre)
                .set("unidad_componente", kUnidades[x.unidad])
                .set("estado_componente", kEstados[x.estado].name)
                .money("importe_total_componente", sum_opt(x.importe))
                .set("orden", ++orden)
                .set("fecha_alta",
                    clamp(std::max(g.alta, x.alta) + days{r.range(0, 60)}, std::max(g.alta, x.alta), kToday));
            t.grupos_iniciativas.insert();
        }
    }
}

} // namespace portfolio::generator
