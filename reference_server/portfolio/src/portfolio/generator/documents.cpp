// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Pass C, documents: documentos (file name, size, state, summary) and their
// sections in documentos_items, written from the initiative's data so far.
#include "portfolio/generator/child_tables.hpp"
#include "portfolio/generator/text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace portfolio::generator {

namespace {

std::string money_or_dash(OptMoney m)
{
    return m ? eur(*m) : std::string("-");
}

std::string eco_tabla(Ini const& x)
{
    std::string s = "Año | Presupuesto | Importe | Aprobado | Facturado";
    bool any = false;
    for(int k = 0; k < kNumYears; ++k)
    {
        auto const kk = static_cast<std::size_t>(k);
        if(!x.budget[kk] && !x.importe[kk])
            continue;
        any = true;
        s += cat('\n', kFirstYear + k, " | ", money_or_dash(x.budget[kk]), " | ", money_or_dash(x.importe[kk]), " | ",
            money_or_dash(x.aprobado[kk]), " | ", money_or_dash(x.fact[kk]));
    }
    if(!any)
        return "Sin importes planificados para el periodo 2024-2028.";
    return s;
}

std::string conclusion_doc(Ctx const& c, Ini const& x, int tipo, Rng& r)
{
    Phase const ph = x.phase();
    switch(tipo)
    {
    case D_ACTA:
        if(ph == REJ)
            return "El comité acuerda no aprobar la propuesta por falta de priorización frente a otras iniciativas.";
        if(ph == CANC)
            return "El comité acuerda la cancelación de la iniciativa y el cierre de las partidas abiertas.";
        if(ph == PRE)
            return "El comité solicita completar el análisis económico antes de su aprobación.";
        return "El comité acuerda aprobar la iniciativa y solicita un seguimiento trimestral del avance.";
    case D_IM:
    case D_BC:
        if(ph == REJ)
            return "La recomendación final es no abordar la iniciativa en el ejercicio actual.";
        return cat("Se recomienda su aprobación por su alineación con el ámbito ", kL1[x.l1],
            " y por el retorno esperado.");
    case D_INFORME:
        if(x.avance)
            return cat("El avance global se sitúa en el ", num1(*x.avance), " % con semáforo ",
                kSemaforosMinus[std::max(0, x.semaforo)], '.');
        return "El informe no reporta todavía avance físico.";
    case D_OFERTA:
        return cat("La oferta incluye ", r.range(3, 12),
            " meses de garantía y soporte posterior a la puesta en producción.");
    default:
        return cat("El documento identifica como responsable de negocio a ", c.person(x.ref_neg),
            " y como responsable técnico a ", c.person(x.resp_ti), '.');
    }
}

/// Invoiced amount up to (and including) the month of `d`.
OptMoney facturado_a(Work const& w, Date d)
{
    OptMoney s;
    for(auto const& [mi, cents] : w.invoices)
        if(mi <= month_index(d))
            s = s.value_or(0) + cents;
    return s;
}
/// Last progress record on or before `d`.
AvanceRow const* avance_a(Work const& w, Date d)
{
    AvanceRow const* a = nullptr;
    for(auto const& row : w.avance)
        if(row.fecha <= d)
            a = &row;
    return a;
}

std::string doc_resumen(Ctx const& c, Ini const& x, int tipo, Date subida, Work const& w, Rng& r)
{
    std::string const nom = cat("«", x.nombre, "»");
    std::string_view const uni = kUnidades[x.unidad];
    std::string_view const obj = objetivo(x);
    OptMoney const tot = sum_opt(x.importe), apr = sum_opt(x.aprobado), fac = sum_opt(x.fact), bud = sum_opt(x.budget);
    std::string_view const prov = x.proveedor >= 0
        ? kProveedores[x.proveedor]
        : kProveedores[static_cast<std::size_t>(x.seq) % std::size(kProveedores)];
    std::vector<std::string> s;
    switch(tipo)
    {
    case D_BC:
        s.push_back(cat("El business case de la iniciativa ", x.pid, ' ', nom, " justifica la necesidad de ", obj,
            '.'));
        break;
    case D_IM:
        s.push_back(cat("El investment memo presenta al Comité de Inversiones la iniciativa ", nom, " (", x.pid,
            "), promovida por la unidad de ", uni, '.'));
        break;
    case D_FICHA:
        s.push_back(cat("La ficha recoge los datos principales de la iniciativa ", x.pid, ", ", nom,
            ", cuyo referente de negocio es ", c.person(x.ref_neg), '.'));
        break;
    case D_ACTA:
        s.push_back(cat("El acta del Comité de Inversiones del ",
            fecha_larga(std::max(x.alta, subida - days{r.range(1, 10)})), " recoge el tratamiento de la iniciativa ",
            x.pid, ' ', nom, '.'));
        break;
    case D_EF:
        s.push_back(cat("La especificación funcional detalla los requisitos de ", nom, " (", x.pid,
            ") para la unidad de ", uni, '.'));
        break;
    case D_OFERTA:
        s.push_back(cat("La oferta de ", prov, " para ", nom, " (", x.pid,
            ") propone un equipo mixto de consultoría y desarrollo."));
        break;
    case D_INFORME:
        s.push_back(cat("El informe de seguimiento de ", mes_anio(subida), " resume el estado de la iniciativa ", x.pid,
            ' ', nom, '.'));
        break;
    default:
        s.push_back(cat("El plan de proyecto de ", nom, " (", x.pid,
            ") establece las fases, los hitos y los recursos necesarios."));
        break;
    }
    if(x.is_group)
        s.push_back(cat("El programa agrupa ", static_cast<int>(x.comps.size()), " iniciativas de ", uni,
            " con el objetivo común de ", obj, '.'));
    else if(tipo == D_BC)
        s.push_back(cat("La solución propuesta consiste en ", accion_nombre(x), '.'));
    else
    {
        int const v = r.range(0, 2);
        s.push_back(v == 0 ? cat("Su objetivo principal es ", obj, ' ', contexto(x), '.')
                : v == 1   ? cat("La iniciativa persigue ", obj, '.')
                           : cat("Se plantea con el fin de ", obj, ", dentro del ámbito ", kL1[x.l1], '.'));
    }
    auto const [y1, y2] = active_years(x);
    std::string const per = y1 == y2 ? cat("el ejercicio ", y1) : cat("el periodo ", y1, '-', y2);
    if(tot && *tot > 0)
    {
        switch(tipo)
        {
        case D_OFERTA:
        {
            i64 const ofertado = round_to(static_cast<double>(*tot) * r.uniform(0.3, 0.9), 100);
            int const meses = r.range(4, 24);
            s.push_back(cat("El importe ofertado asciende a ", eur(ofertado),
                " (IVA no incluido), con un plazo de ejecución de ", meses, " meses."));
        }
        break;
        case D_INFORME:
            if(OptMoney const fa = x.is_group ? fac : facturado_a(w, subida))
                s.push_back(cat("A la fecha del informe se han facturado ", eur(*fa), ", un ",
                    num1(100.0 * static_cast<double>(*fa) / static_cast<double>(*tot)), " % del importe previsto de ",
                    eur(*tot), '.'));
            else
                s.push_back(cat("Todavía no se ha registrado facturación sobre un importe previsto de ", eur(*tot),
                    '.'));
            break;
        case D_IM:
        {
            int ymax = y1;
            i64 bmax = 0;
            for(int k = 0; k < kNumYears; ++k)
            {
                i64 const v = x.budget[static_cast<std::size_t>(k)].value_or(0);
                if(v > bmax)
                {
                    bmax = v;
                    ymax = kFirstYear + k;
                }
            }
            s.push_back(cat("Se solicita un presupuesto total de ", eur(bud.value_or(*tot)), " para ", per,
                ", del que ", eur(bmax), " corresponden a ", ymax, '.'));
            break;
        }
        default:
            s.push_back(cat("El importe total estimado asciende a ", eur(*tot), " para ", per,
                apr && *apr > 0 ? cat(", de los cuales ", eur(*apr), " ya están aprobados.") : std::string(".")));
        }
    }
    else if(bud && *bud > 0)
    {
        s.push_back(cat("El presupuesto inicialmente solicitado era de ", eur(*bud),
            ", sin importe vigente tras la decisión adoptada."));
    }
    else
    {
        s.push_back("El documento no recoge importes económicos para el periodo 2024-2028.");
    }
    std::vector<std::string> opt;
    Phase const ph = x.phase();
    if(ph == DONE && x.fin)
        opt.push_back(cat("La iniciativa finalizó el ", fecha_larga(*x.fin), '.'));
    else if(ph == CANC)
        opt.push_back(cat("La iniciativa fue cancelada el ", fecha_larga(x.cierre), '.'));
    else if(ph == REJ)
        opt.push_back(cat("La propuesta planteaba el inicio de los trabajos el ", fecha_larga(x.inicio), '.'));
    else if(x.inicio <= subida && (ph == EXEC || ph == APR))
        opt.push_back(cat("Los trabajos comenzaron el ", fecha_larga(x.inicio),
            x.fin ? cat(" y su finalización está prevista para ", mes_anio(*x.fin), '.')
                  : std::string(", sin fecha de finalización comprometida.")));
    else
        opt.push_back(cat("El inicio está previsto para el ", fecha_larga(x.inicio),
            x.fin ? cat(" y la finalización para ", mes_anio(*x.fin), '.') : std::string(".")));
    auto const rr = distinct(r, static_cast<int>(std::size(kRiesgosTexto)), 2);
    if(r.chance(0.5))
        opt.push_back(cat("Entre los principales riesgos se identifican ", kRiesgosTexto[rr[0]], " y ",
            kRiesgosTexto[rr[1]], '.'));
    else
        opt.push_back(cat("Como riesgo principal se señala ", kRiesgosTexto[rr[0]], ", que se mitigará mediante ",
            r.pick(kMitigaciones), '.'));
    if(tipo == D_INFORME && !x.is_group)
    {
        AvanceRow const* a = avance_a(w, subida);
        opt.push_back(a ? cat("El avance global se sitúa en el ", num1(a->real), " % con semáforo ",
                              kSemaforosMinus[a->sem], '.')
                        : std::string("El informe no reporta todavía avance físico."));
    }
    else
    {
        opt.push_back(conclusion_doc(c, x, tipo, r));
    }
    for(auto& o : opt)
        if(r.chance(0.75))
            s.push_back(std::move(o));
    return join(s, " ", " ");
}

std::string section_text(Ctx const& c, Ini const& x, int kind, int tipo, Date subida, Work const& w, Rng& r)
{
    std::string_view const obj = objetivo(x);
    switch(kind)
    {
    case S_RES:
        if(tipo == D_ACTA)
            return cat("Se presenta la iniciativa ", x.pid, " «", x.nombre, "», en estado «", kEstados[x.estado].name,
                "», cuya finalidad es ", obj, '.');
        return cat(upper_first(accion_nombre(x)), " para ", obj, ". Unidad promotora: ", kUnidades[x.unidad],
            "; referente de negocio: ", c.person(x.ref_neg), '.');
    case S_SIT:
        return cat("Actualmente los procesos ", contexto(x),
            " se apoyan en herramientas heterogéneas y con un elevado componente manual, lo que impide ", obj,
            " con la agilidad necesaria. Se han identificado ineficiencias en la calidad de los datos y en los tiempos de respuesta.");
    case S_PROP:
        if(r.chance(0.5))
            return cat("Se propone ", accion_nombre(x), ", con un despliegue en ", r.range(2, 4),
                " fases y una arquitectura integrada con los sistemas corporativos.");
        return "Se han analizado tres alternativas (desarrollo a medida, solución de mercado y extensión de la plataforma actual); se recomienda la solución de mercado por coste total y plazo.";
    case S_ALC:
    {
        std::vector<std::string> items;
        for(int i : distinct(r, static_cast<int>(std::size(kAlcanceItems)), 3))
            items.emplace_back(kAlcanceItems[i]);
        return cat("El alcance incluye ", join(items, ", ", " y "), '.');
    }
    case S_ECO: return eco_tabla(x);
    case S_PLAN:
    {
        std::vector<std::string> names;
        if(!w.hitos.empty())
            for(auto const& h : w.hitos)
                names.push_back(h.name);
        else
            for(auto const n : hitos_de_tipo(x.tipo))
                names.emplace_back(n);
        return cat("Inicio: ", fecha_larga(x.inicio),
            ". Fin previsto: ", x.fin ? mes_anio(*x.fin) : std::string("por determinar"),
            ". Hitos principales: ", join(names, ", ", " y "), '.');
    }
    case S_RIE:
    {
        auto const rr = distinct(r, static_cast<int>(std::size(kRiesgosTexto)), 3);
        return cat("Riesgos identificados: 1) ", kRiesgosTexto[rr[0]], "; 2) ", kRiesgosTexto[rr[1]], "; 3) ",
            kRiesgosTexto[rr[2]], ". Medida de mitigación principal: ", r.pick(kMitigaciones), '.');
    }
    case S_BEN:
    {
        auto const& kinds = l1_beneficios()[static_cast<std::size_t>(x.l1)];
        std::vector<std::string> b;
        for(int k : kinds)
            b.push_back(lower_first(kTiposBeneficio[k].name));
        return cat("Se esperan beneficios en términos de ", join(b, ", ", " y "),
            ". El retorno de la inversión se estima en ", r.range(2, 5), " años.");
    }
    case S_CON:
        if(tipo == D_INFORME)
        {
            for(auto const& h : w.hitos)
                if(!h.real && h.estado != 4)
                    return cat("Próximos pasos: completar el hito «", h.name, "», previsto para ", mes_anio(h.planned),
                        '.');
            return "Próximos pasos: cierre administrativo y traspaso al servicio de mantenimiento.";
        }
        return x.phase() == REJ ? std::string("No se recomienda abordar la iniciativa en el ejercicio actual.")
                                : cat("Se recomienda abordar ", accion_nombre(x), " en los plazos propuestos.");
    case S_ACU:
    {
        std::string const a1 = conclusion_doc(c, x, D_ACTA, r);
        return cat("1. ", a1,
            "\n2. Realizar un seguimiento trimestral del avance y de la facturación.\n3. Revisar los beneficios comprometidos en el próximo comité.");
    }
    case S_EQU:
        if(tipo == D_ACTA)
        {
            std::vector<std::string> names{c.person(x.ref_neg), c.person(x.resp_ti)};
            for(int i : distinct(r, static_cast<int>(c.people.pmo.size()), r.range(1, 3)))
                names.push_back(c.person(c.people.pmo[static_cast<std::size_t>(i)]));
            return cat("Asistentes: ", join(names, ", ", " y "), '.');
        }
        return cat("Referente de negocio: ", c.person(x.ref_neg),
            ".\nReferente BI: ", x.ref_bi >= 0 ? c.person(x.ref_bi) : std::string("sin asignar"),
            ".\nResponsable TI: ", c.person(x.resp_ti), ".\nProveedor: ",
            with_dot(x.proveedor >= 0 ? std::string(kProveedores[x.proveedor])
                                      : std::string("pendiente de adjudicación")));
    case S_REQ:
    {
        auto const rq = distinct(r, static_cast<int>(std::size(kRequisitos)), 3);
        return cat("RF-01: ", kRequisitos[rq[0]], "\nRF-02: ", kRequisitos[rq[1]], "\nRF-03: ", kRequisitos[rq[2]]);
    }
    default:
    {
        OptMoney const fac = x.is_group ? sum_opt(x.fact) : facturado_a(w, subida);
        AvanceRow const* a = avance_a(w, subida);
        std::string s = a ? cat("Durante el periodo el avance global alcanza el ", num1(a->real), " % (semáforo ",
                                kSemaforosMinus[a->sem], ").")
                          : std::string("Durante el periodo no se ha registrado avance físico.");
        if(fac)
            s += cat(" Facturado acumulado: ", eur(*fac), '.');
        return s;
    }
    }
}

} // namespace

void gen_documentos(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w)
{
    Phase const ph = x.phase();
    int n = 0;
    std::array<double, 8> tw{}; // BC IM FICHA ACTA EF OFERTA INFORME PLAN
    if(x.is_group)
    {
        n = r.range(1, 2);
        tw = {0, 0, 2, 1, 0, 0, 2, 0};
    }
    else
        switch(ph)
        {
        case PRE:
            n = r.range(0, 2);
            tw = {4, 0, 4, 0, 1, 1, 0, 0};
            break;
        case APR:
            n = r.range(1, 3);
            tw = {3, 0, 3, 2, 1, 2, 0, 2};
            break;
        case EXEC:
            n = r.range(1, 5);
            tw = {1, 0, 2, 2, 2, 1, 4, 2};
            break;
        case DONE:
            n = r.range(1, 4);
            tw = {0, 0, 2, 2, 1, 0, 3, 1};
            break;
        case CANC:
            n = r.range(0, 2);
            tw = {2, 0, 2, 3, 0, 0, 0, 0};
            break;
        default:
            n = r.range(0, 1);
            tw = {2, 0, 2, 3, 0, 0, 0, 0};
            break;
        }
    struct Doc
    {
        int tipo, estado;
        Date subida;
    };
    std::vector<Doc> docs;
    auto new_doc = [&](int tipo) {
        int const est = static_cast<int>(r.weighted(std::array<double, 4>{6, 83, 5, 6}));
        Date const sub = est == 0 ? clamp(kToday - days{r.range(0, 10)}, x.alta, kToday)
                                  : random_between(r, x.alta, kToday);
        docs.push_back({tipo, est, sub});
    };
    if(x.memo)
        new_doc(D_IM);
    for(int k = 0; k < n; ++k)
        new_doc(static_cast<int>(r.weighted(tw)));
    std::stable_sort(docs.begin(), docs.end(), [](Doc const& a, Doc const& b) { return a.subida < b.subida; });
    std::array<int, 8> version{};
    auto const& dt = doc_tipos();
    for(Doc const& d : docs)
    {
        int const v = ++version[static_cast<std::size_t>(d.tipo)];
        std::string const vs = v > 1 ? cat("_v", v) : std::string();
        std::string fname;
        switch(d.tipo)
        {
        case D_BC: fname = cat("Business_Case_", x.pid, '_', slug(x.nombre, 3), vs, ".pdf"); break;
        case D_IM: fname = cat("IM_", x.pid, "_v", v, ".pdf"); break;
        case D_FICHA: fname = cat("Ficha_", x.pid, vs, ".docx"); break;
        case D_ACTA: fname = cat("Acta_Comite_Inversiones_", iso(d.subida), '_', x.pid, ".pdf"); break;
        case D_EF: fname = cat("EF_", x.pid, '_', slug(x.nombre, 4), vs, ".docx"); break;
        case D_OFERTA:
            fname = cat("Oferta_", slug(x.proveedor >= 0 ? kProveedores[x.proveedor] : r.pick(kProveedores), 2), '_',
                x.pid, vs, ".pdf");
            break;
        case D_INFORME:
            fname = cat("Informe_Seguimiento_", x.pid, '_', year_of(d.subida), pad(month_of(d.subida), 2), vs, ".pdf");
            break;
        default: fname = cat("Plan_Proyecto_", x.pid, vs, ".xlsx"); break;
        }
        DocTipo const& ty = dt[static_cast<std::size_t>(d.tipo)];
        i64 const size = static_cast<i64>(std::clamp(r.lognormal(std::log(600000.0), 0.8), 20000.0, 25.0e6));
        std::optional<int> pages;
        if(ty.formato == "XLSX")
            pages = r.range(1, 6);
        else if(d.tipo == D_ACTA)
            pages = r.range(2, 8);
        else
            pages = r.range(3, 45);
        std::optional<std::string> resumen, obs;
        std::optional<Date> proc;
        if(d.estado != 0)
            proc = std::min(d.subida + days{r.range(0, 2)}, kToday);
        if(d.estado == 1)
            resumen = doc_resumen(c, x, d.tipo, d.subida, w, r);
        else if(d.estado == 0)
            obs = std::string("En cola de procesamiento.");
        else if(d.estado == 2)
        {
            static constexpr std::string_view e[] = {"No se pudo extraer texto: documento escaneado sin OCR.",
                "Formato de archivo dañado o protegido con contraseña.", "Tiempo máximo de procesamiento excedido."};
            obs = std::string(r.pick(e));
        }
        else
        {
            static constexpr std::string_view e[] = {"Documento duplicado de una versión anterior.",
                "Documento sin contenido relevante para el resumen.", "Plantilla vacía."};
            obs = std::string(r.pick(e));
        }
        int const nitems = d.estado == 1 ? std::min(static_cast<int>(ty.secciones.size()), r.range(3, 6)) : 0;
        t.documentos.set("portfolio_id", x.pid)
            .set("nombre_fichero", fname)
            .set("tipo_documento", ty.name)
            .set("formato", ty.formato)
            .set("version", v)
            .set("tamano_bytes", size)
            .set("num_paginas", pages)
            .set("fecha_subida", d.subida)
            .set("subido_por", c.person(pick_person(c, x, r)))
            .set("estado", kDocEstados[d.estado])
            .set("fecha_procesado", proc)
            .set("resumen_documento", resumen)
            .set("num_items", nitems)
            .set("observaciones", obs);
        i64 const doc_id = t.documentos.insert();
        ++x.n_docs;
        if(d.estado == 1)
            ++x.n_docs_ok;
        w.activity.push_back(d.subida);
        int page = 1;
        for(int k = 0; k < nitems; ++k)
        {
            auto const& [title, kind] = ty.secciones[static_cast<std::size_t>(k)];
            std::string const txt = section_text(c, x, kind, d.tipo, d.subida, w, r);
            std::string_view const tc = kind == S_ECO               ? "Tabla"
                : (kind == S_EQU || kind == S_REQ || kind == S_ACU) ? "Lista"
                                                                    : "Texto";
            t.documentos_items.set("portfolio_id", x.pid)
                .set("documento_id", doc_id)
                .set("orden", k + 1)
                .set("seccion", title)
                .set("pagina", std::min(page, pages.value_or(page)))
                .set("tipo_contenido", tc)
                .set("contenido", txt)
                .set("num_palabras", count_words(txt));
            t.documentos_items.insert();
            page += r.range(1, 4);
        }
    }
}

} // namespace portfolio::generator
