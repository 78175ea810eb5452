// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Pass C, follow-up: etiquetas, dependencias, notas, acciones, descripciones,
// justificaciones, estado_especial, impacto_aatt and investment_memos.
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

std::string texto_nota(Ctx const& c, Ini const& x, int tipo, Date d, Rng& r)
{
    auto const persona = [&]() -> std::string const& { return c.person(pick_person(c, x, r)); };
    if(x.is_group && r.chance(0.5))
        return cat("Revisión conjunta de las ", static_cast<int>(x.comps.size()),
            " iniciativas del programa; se acuerda consolidar el reporting mensual en un único cuadro de mando.");
    switch(tipo)
    {
    case 0:
    {
        int const v = r.range(0, 3);
        if(v == 0)
            return cat("Reunión de seguimiento con ", persona(),
                ": el avance se mantiene según lo previsto y no se identifican bloqueos.");
        if(v == 1)
            return cat("Se revisa el plan de trabajo con ",
                x.proveedor >= 0 ? kProveedores[x.proveedor] : std::string_view("el equipo de Sistemas"),
                "; se acuerda reforzar el equipo durante ", kMeses[(month_of(d) % 12)], '.');
        if(v == 2)
            return cat("Actualizada la planificación: la puesta en producción se prevé para ",
                mes_anio(std::max(d, x.inicio) + days{r.range(60, 240)}), '.');
        std::string_view const ent = r.pick(kEntregables);
        return cat("El proveedor confirma la entrega del ", ent, " para el ", fecha_larga(d + days{r.range(10, 60)}),
            '.');
    }
    case 1:
    {
        int const v = r.range(0, 2);
        if(v == 0)
            return cat("El Comité de Inversiones solicita detallar el caso de negocio antes de aprobar el importe de ",
                std::max(2024, year_of(d) + (month_of(d) >= 9 ? 1 : 0)), '.');
        if(v == 1)
            return cat("Presentada la iniciativa en el comité mensual de ", kUnidades[x.unidad],
                "; se valida el enfoque propuesto.");
        return "El comité aprueba continuar con la siguiente fase, condicionada a la revisión de costes.";
    }
    case 2:
    {
        std::string_view const rie = r.pick(kRiesgosTexto);
        if(r.chance(0.5))
            return cat("Riesgo identificado: ", rie, ". Se propone un plan de mitigación con ", persona(),
                " como responsable.");
        int const sem = r.range(2, 8);
        std::string_view const ent = r.pick(kEntregables);
        return cat("Se detecta un retraso de ", sem, " semanas en el ", ent, " debido a ", rie, '.');
    }
    case 3:
    {
        if(r.chance(0.5))
            return cat("Se decide priorizar el despliegue ", contexto(x), " frente al resto de ámbitos.");
        OptMoney const imp = x.importe[yi(std::clamp(year_of(d), 2024, 2028))];
        if(imp && *imp > 0)
            return cat("Se acuerda ajustar el importe de ", std::clamp(year_of(d), 2024, 2028), " a ", eur(*imp),
                " tras la revisión del alcance.");
        return "Se acuerda mantener el alcance actual y revisar la estimación en el próximo comité.";
    }
    default:
    {
        int const v = r.range(0, 2);
        if(v == 0)
            return "Se adjunta la documentación actualizada en el repositorio de la iniciativa.";
        if(v == 1)
            return cat("Cambio de interlocutor en negocio: ", c.person(x.ref_neg), " asume el rol de referente.");
        return cat("Sesión informativa con los usuarios clave de ", kUnidades[x.unidad], " para presentar el alcance.");
    }
    }
}

std::string texto_accion(Ini const& x, Rng& r)
{
    int const v = r.range(0, 11);
    switch(v)
    {
    case 0: return "Preparar la documentación para el Comité de Inversiones";
    case 1: return "Solicitar oferta a proveedores homologados";
    case 2: return cat("Validar el alcance funcional con ", kUnidades[x.unidad]);
    case 3: return "Actualizar la planificación detallada del proyecto";
    case 4: return cat("Revisar la estimación económica de ", r.range(2025, 2026));
    case 5: return "Coordinar las pruebas de aceptación con los usuarios clave";
    case 6: return "Completar el análisis de riesgos de ciberseguridad";
    case 7:
        return cat("Cerrar el contrato con ",
            x.proveedor >= 0 ? kProveedores[x.proveedor] : std::string_view("el proveedor adjudicatario"));
    case 8: return cat("Enviar el informe de avance a la dirección de ", kUnidades[x.unidad]);
    case 9: return "Registrar las WBE en SAP";
    case 10: return "Definir los KPIs de seguimiento de beneficios";
    default: return cat("Planificar el despliegue ", contexto(x));
    }
}

} // namespace

void gen_etiquetas(Ctx& c, Tables& t, Ini& x, Rng& r)
{
    int const n = count_from(r, std::array<double, 5>{25, 30, 25, 13, 7});
    if(n == 0)
        return;
    std::array<double, std::size(kEtiquetas)> w{};
    w.fill(1.0);
    switch(x.l1)
    {
    case 0:
        w[12] *= 4;
        w[18] *= 4;
        break;
    case 1: w[13] *= 6; break;
    case 2:
        w[4] *= 6;
        w[11] *= 6;
        break;
    case 3:
        w[14] *= 4;
        w[16] *= 3;
        break;
    case 4:
        w[10] *= 8;
        w[14] *= 2;
        break;
    case 5:
        w[6] *= 6;
        w[17] *= 3;
        w[9] *= 3;
        break;
    case 6:
        w[8] *= 4;
        w[16] *= 5;
        w[3] *= 2;
        w[19] *= 2;
        break;
    default: break;
    }
    if(x.l2 == 10)
        w[4] *= 3;
    if(x.origen == 2)
        w[7] *= 6;
    if(x.origen == 3)
        w[9] *= 4;
    if(x.prioridad == 0)
    {
        w[0] *= 4;
        w[1] *= 3;
    }
    if(x.tipo == kTipoPoC || x.tipo == kTipoPiloto)
    {
        w[15] *= 4;
        w[5] *= 2;
    }
    if(x.is_group)
    {
        w[1] *= 3;
        w[2] *= 3;
    }
    std::vector<int> picked;
    for(int k = 0; k < n; ++k)
    {
        auto const i = r.weighted(w);
        picked.push_back(static_cast<int>(i));
        w[i] = 0.0;
    }
    std::sort(picked.begin(), picked.end());
    std::vector<std::string> names;
    for(int i : picked)
    {
        t.etiquetas.set("portfolio_id", x.pid)
            .set("etiqueta", kEtiquetas[i])
            .set("fecha_asignacion", random_between(r, x.alta, std::min(x.alta + days{300}, kToday)))
            .set("asignado_por", c.person(pick_person(c, x, r)));
        t.etiquetas.insert();
        names.emplace_back(kEtiquetas[i]);
    }
    x.n_etiq = static_cast<int>(names.size());
    x.etiquetas = join(names, ", ", ", ");
}

void gen_dependencias(Ctx& c, Tables& t, Ini& x, std::size_t self, Rng& r)
{
    if(!r.chance(0.3))
        return;
    int const n = r.range(1, 3);
    std::size_t const total = c.inis.size();
    for(int k = 0; k < n; ++k)
    {
        bool const internal = total > 1 && r.chance(0.6);
        std::string desc;
        std::optional<std::string> rel_pid, rel_nom;
        int tipo;
        if(internal)
        {
            std::size_t j = self;
            for(int a = 0; a < 6; ++a)
            {
                std::size_t const cand = r.index(total);
                if(cand == self)
                    continue;
                j = cand;
                if(kUnidadCluster[c.inis[cand].unidad] == kUnidadCluster[x.unidad])
                    break;
            }
            if(j == self)
                j = (self + 1) % total;
            Ini const& o = c.inis[j];
            rel_pid = o.pid;
            rel_nom = o.nombre;
            tipo = std::array<int, 4>{0, 1, 3, 4}[r.index(4)];
            int const v = r.range(0, 4);
            desc = v == 0 ? cat("Necesita los datos que proporcionará la iniciativa ", o.pid, '.')
                : v == 1  ? cat("Comparte la plataforma tecnológica desplegada por ", o.pid, '.')
                : v == 2  ? cat("Depende de la finalización de la integración prevista en ", o.pid, '.')
                : v == 3  ? cat("Requiere que ", o.pid, " esté en producción antes del despliegue.")
                          : cat("Reutiliza los componentes desarrollados en ", o.pid, '.');
        }
        else
        {
            tipo = std::array<int, 3>{0, 2, 3}[r.index(3)];
            int const v = r.range(0, 5);
            desc = v == 0 ? std::string("Disponibilidad del entorno de pruebas de SAP S/4HANA.")
                : v == 1  ? with_dot(cat("Renovación del contrato marco con ", r.pick(kProveedores)))
                : v == 2  ? std::string("Publicación de la circular de la CNMC sobre metodología retributiva.")
                : v == 3 ? cat("Aprobación del presupuesto ", r.range(2025, 2026), " por el Consejo de Administración.")
                : v == 4 ? std::string("Disponibilidad del equipo de Ciberseguridad para la revisión de arquitectura.")
                         : cat("Despliegue previo de la red de comunicaciones ", contexto(x), '.');
        }
        int const est = x.phase() == DONE ? 2 : static_cast<int>(r.weighted(std::array<double, 3>{55, 15, 30}));
        std::optional<Date> fc;
        if(r.chance(0.8))
            fc = kToday + days{r.range(-120, 240)};
        t.dependencias.set("portfolio_id", x.pid)
            .set("tipo_dependencia", kTiposDependencia[tipo])
            .set("descripcion", desc)
            .set("portfolio_id_relacionado", rel_pid)
            .set("nombre_relacionado", rel_nom)
            .set("criticidad", kNivel3[r.weighted(std::array<double, 3>{25, 50, 25})])
            .set("estado", kEstadosDependencia[est])
            .set("fecha_compromiso", fc);
        t.dependencias.insert();
        ++x.n_dep;
    }
}

void gen_notas(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w)
{
    Phase const ph = x.phase();
    int n = 0;
    if(x.is_group)
        n = r.range(1, 3);
    else
        switch(ph)
        {
        case PRE: n = r.range(0, 2); break;
        case APR: n = r.range(0, 3); break;
        case EXEC: n = r.range(1, 6); break;
        case DONE: n = r.range(0, 4); break;
        default: n = r.range(1, 2); break;
        }
    if(n == 0)
        return;
    Date const stop = std::max(stop_date(x), x.alta);
    std::vector<Date> ds;
    for(int k = 0; k < n; ++k)
        ds.push_back(random_between(r, x.alta, stop));
    std::sort(ds.begin(), ds.end());
    for(int k = 0; k < n; ++k)
    {
        Date const d = ds[static_cast<std::size_t>(k)];
        int tipo = static_cast<int>(r.weighted(std::array<double, 5>{40, 15, 15, 15, 15}));
        std::string txt;
        bool const last = k + 1 == n;
        if(last && ph == CANC && !x.is_group)
        {
            tipo = 3;
            txt = cat(
                "Se comunica la cancelación de la iniciativa a los equipos implicados y se cierran las partidas abiertas.");
        }
        else if(last && ph == REJ)
        {
            tipo = 1;
            txt = "El Comité de Inversiones no aprueba la propuesta; se archiva la documentación.";
        }
        else
        {
            txt = texto_nota(c, x, tipo, d, r);
        }
        t.notas.set("portfolio_id", x.pid)
            .set("fecha", d)
            .set("tipo_nota", kTiposNota[tipo])
            .set("registrado_por", c.person(pick_person(c, x, r)))
            .set("nota", txt);
        t.notas.insert();
        ++x.n_notas;
        x.fecha_ult_nota = d;
        x.ult_nota = txt;
        w.activity.push_back(d);
    }
}

void gen_acciones(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w)
{
    Phase const ph = x.phase();
    int n = 0;
    if(x.is_group)
        n = r.range(0, 2);
    else
        switch(ph)
        {
        case PRE: n = r.range(0, 3); break;
        case APR: n = r.range(1, 4); break;
        case EXEC: n = r.range(0, 5); break;
        case DONE: n = r.range(0, 2); break;
        default: n = r.range(0, 1); break;
        }
    for(int k = 0; k < n; ++k)
    {
        Date const cre = random_between(r, x.alta, kToday);
        Date const lim = cre + days{r.range(7, 120)};
        int est;
        if(ph == DONE)
            est = r.chance(0.9) ? 2 : 3;
        else if(ph == CANC || ph == REJ)
            est = r.chance(0.6) ? 3 : 2;
        else if(lim < kToday)
            est = std::array<int, 3>{2, 0, 3}[r.weighted(std::array<double, 3>{75, 15, 10})];
        else
            est = std::array<int, 3>{0, 1, 2}[r.weighted(std::array<double, 3>{50, 35, 15})];
        std::optional<Date> cierre;
        if(est >= 2)
            cierre = std::min(cre + days{r.range(1, std::max(1, days_between(cre, lim) + 10))}, kToday);
        std::optional<std::string> com;
        if(r.chance(0.4))
        {
            int const v = r.range(0, 2);
            com = v == 0 ? std::string("Acordado en la última reunión de seguimiento.")
                : v == 1 ? cat("Requiere coordinación con ", c.person(x.resp_ti), '.')
                         : std::string("Prioridad revisada por la Oficina del Portfolio.");
        }
        t.acciones.set("portfolio_id", x.pid)
            .set("accion", texto_accion(x, r))
            .set("responsable", c.person(pick_person(c, x, r)))
            .set("prioridad", kNivel3[r.weighted(std::array<double, 3>{30, 50, 20})])
            .set("estado", kAccionEstados[est])
            .set("fecha_creacion", cre)
            .set("fecha_limite", lim)
            .set("fecha_cierre", cierre)
            .set("comentarios", com);
        t.acciones.insert();
        ++x.n_acciones;
        w.activity.push_back(cre);
        if(est <= 1)
        {
            ++x.n_acc_pend;
            if(!x.prox_accion || lim < *x.prox_accion)
                x.prox_accion = lim;
        }
    }
}

void gen_descripciones(Ctx& c, Tables& t, Ini& x, Rng& r)
{
    std::string_view const obj = objetivo(x);
    auto add = [&](std::string_view tipo, std::string const& txt) {
        t.descripciones.set("portfolio_id", x.pid)
            .set("tipo_descripcion", tipo)
            .set("descripcion", txt)
            .set("fecha_modificacion", random_between(r, x.alta, kToday))
            .set("autor", c.person(r.chance(0.7) ? x.ref_neg : x.resp_ti));
        t.descripciones.insert();
    };
    if(x.is_group)
    {
        x.descripcion_corta = cat("Programa que agrupa ", static_cast<int>(x.comps.size()), " iniciativas de ",
            kUnidades[x.unidad], " para ", obj, '.');
        add("Descripción general",
            cat(x.nombre, ". Programa que agrupa ", static_cast<int>(x.comps.size()), " iniciativas de la unidad de ",
                kUnidades[x.unidad], " con el objetivo común de ", obj,
                ". Se gestiona de forma coordinada en el ámbito ", kL1[x.l1], " con un único cuadro de mando."));
        return;
    }
    x.descripcion_corta = cat(upper_first(obj), ' ', contexto(x), '.');
    add("Descripción general",
        cat(x.nombre, ". La iniciativa, impulsada por la unidad de ", kUnidades[x.unidad], ", pretende ", obj,
            ". Se enmarca en el ámbito ", kL1[x.l1], " (", l2_table()[static_cast<std::size_t>(x.l2)].name,
            "). Origen: ", kOrigenes[x.origen], "; prioridad ", lower_first(kPrioridades[x.prioridad]), '.'));
    if(r.chance(0.7))
        add("Objetivo",
            cat("El objetivo es ", obj, ' ', contexto(x), ". Para ello se plantea ", accion_nombre(x), '.'));
    if(r.chance(0.6))
    {
        std::vector<std::string> items;
        for(int i : distinct(r, static_cast<int>(std::size(kAlcanceItems)), 3))
            items.emplace_back(kAlcanceItems[i]);
        add("Alcance",
            cat("El alcance incluye ", join(items, ", ", " y "),
                ". Quedan fuera del alcance las adaptaciones de sistemas no vinculados a ", kUnidades[x.unidad], '.'));
    }
    if(r.chance(0.3))
        add("Situación actual",
            cat("Actualmente los procesos ", contexto(x),
                " se apoyan en herramientas heterogéneas y con un elevado componente manual, lo que impide ", obj,
                " con la agilidad necesaria."));
    if(r.chance(0.4))
    {
        auto const& kinds = l1_beneficios()[static_cast<std::size_t>(x.l1)];
        std::vector<std::string> b;
        for(int k : kinds)
            b.push_back(lower_first(kTiposBeneficio[k].name));
        add("Beneficios esperados",
            cat("Se esperan beneficios en términos de ", join(b, ", ", " y "), ", con un retorno estimado inferior a ",
                r.range(2, 5), " años."));
    }
}

void gen_justificaciones(Ctx& c, Tables& t, Ini& x, Rng& r)
{
    Phase const ph = x.phase();
    auto add = [&](int tipo, std::string const& txt, Date d, std::string_view estado_rel) {
        t.justificaciones.set("portfolio_id", x.pid)
            .set("tipo_justificacion", kTiposJustificacion[tipo])
            .set("justificacion", txt)
            .set("estado_relacionado", estado_rel)
            .set("fecha", d)
            .set("autor", c.person(r.chance(0.7) ? x.ref_neg : c.people.pmo[r.index(c.people.pmo.size())]));
        t.justificaciones.insert();
    };
    Date const near = clamp(x.fecha_estado - days{r.range(0, 60)}, x.alta, kToday);
    if(ph == CANC)
    {
        static constexpr std::string_view m[] = {"la repriorización del portfolio digital",
            "el solapamiento con otra iniciativa de la unidad", "la falta de presupuesto en el ejercicio",
            "un cambio de estrategia tecnológica", "el incumplimiento de requisitos por parte del proveedor",
            "la decisión de cubrir la necesidad con soluciones corporativas existentes"};
        add(3, cat("Se cancela la iniciativa por ", r.pick(m), '.'), x.cierre, kEstados[x.estado].name);
    }
    else if(ph == REJ)
    {
        static constexpr std::string_view m[] = {"falta de priorización frente a otras iniciativas",
            "un caso de negocio insuficiente", "la ausencia de presupuesto disponible",
            "no estar alineada con el plan estratégico"};
        add(4, cat("El Comité de Inversiones rechaza la propuesta por ", r.pick(m), '.'), x.cierre,
            kEstados[x.estado].name);
    }
    else if(x.estado == kEstadoPausa)
    {
        add(5, cat("Se paraliza temporalmente la ejecución por ", r.pick(kRiesgosTexto), '.'), x.fecha_estado,
            kEstados[x.estado].name);
    }
    if(x.is_group)
        return;
    OptMoney const b = sum_opt(x.budget), i = sum_opt(x.importe);
    if(ph != CANC && ph != REJ && b && i && *b > 0)
    {
        double const pct = 100.0 * static_cast<double>(*i - *b) / static_cast<double>(*b);
        if(std::fabs(pct) > 10.0 && r.chance(0.7))
        {
            static constexpr std::string_view up[] = {"la incorporación de nuevos requisitos",
                "el incremento de tarifas del proveedor", "la ampliación del despliegue a nuevas zonas"};
            static constexpr std::string_view dn[] = {"eficiencias obtenidas en la adjudicación",
                "la reducción del alcance inicial", "el traspaso de actividades a otra iniciativa"};
            add(1,
                pct > 0 ? cat("El importe total se incrementa un ", num1(pct),
                              " % respecto al presupuesto inicial por ", r.pick(up), '.')
                        : cat("El importe total se reduce un ", num1(-pct), " % respecto al presupuesto inicial por ",
                              r.pick(dn), '.'),
                near, kEstados[x.estado].name);
        }
    }
    if(ph == EXEC && x.fin && *x.fin < kToday)
    {
        std::string const txt = cat("La finalización prevista para ", mes_anio(*x.fin), " se retrasa por ",
            r.pick(kRiesgosTexto), '.');
        add(2, txt, clamp(*x.fin + days{r.range(0, 20)}, x.alta, kToday), kEstados[x.estado].name);
    }
    if((ph == APR || ph == EXEC || ph == DONE) && r.chance(0.25))
    {
        static constexpr std::string_view m[] = {"completar la documentación requerida",
            "la aprobación del Comité de Inversiones", "la firma del contrato con el proveedor",
            "superar las pruebas de aceptación"};
        add(0, cat("Se solicita el paso a «", kEstados[x.estado].name, "» tras ", r.pick(m), '.'), x.fecha_estado,
            kEstados[x.estado].name);
    }
    if((ph == EXEC || ph == APR) && r.chance(0.08))
        add(6, cat("Se amplía el alcance para incluir el despliegue ", contexto(x), '.'), near,
            kEstados[x.estado].name);
}

void gen_estado_especial(Ctx& c, Tables& t, Ini& x, Rng& r)
{
    Phase const ph = x.phase();
    bool const open = ph == PRE || ph == APR || ph == EXEC;
    bool active = open && r.chance(x.is_group ? 0.1 : 0.09);
    bool historic = !active && r.chance(0.04);
    if(!active && !historic)
        return;
    std::array<double, std::size(kEstadosEspeciales)> w{15, 20, 25, 15, 10, 15};
    if(x.unidad == 11 || x.estado == kEstadoRevReg)
        w[4] *= 4;
    if(ph == PRE)
        w[0] *= 2;
    static constexpr std::string_view com[] = {"Congelada hasta la revisión del presupuesto del ejercicio.",
        "El Comité revisará el caso de negocio en su próxima sesión.",
        "Declarada prioridad estratégica por la Dirección Digital.",
        "Bloqueada hasta la resolución de una dependencia crítica.",
        "A la espera de la publicación de la normativa aplicable.", "Tramitación acelerada por urgencia de negocio."};
    auto add = [&](int v, bool act, Date ini, std::optional<Date> fin) {
        t.estado_especial.set("portfolio_id", x.pid)
            .set("estado_especial", kEstadosEspeciales[v])
            .set("activo", act ? 1 : 0)
            .set("fecha_inicio", ini)
            .set("fecha_fin", fin)
            .set("comentario", com[v])
            .set("registrado_por", c.person(c.people.pmo[r.index(c.people.pmo.size())]));
        t.estado_especial.insert();
    };
    Date const start = clamp(kToday - days{r.range(5, 200)}, x.alta, kToday);
    if(historic || r.chance(0.3))
    {
        int const v = static_cast<int>(r.weighted(w));
        Date const hs = clamp(start - days{r.range(60, 300)}, x.alta, start);
        add(v, false, hs, start);
        w[static_cast<std::size_t>(v)] = 0.0;
    }
    if(active)
    {
        int const v = static_cast<int>(r.weighted(w));
        add(v, true, start, std::nullopt);
        x.estado_especial = v;
    }
}

void gen_impacto(Ctx& c, Tables& t, Ini& x, Rng& r)
{
    if(x.phase() == REJ)
        return;
    if(!r.chance(x.unidad <= 4 ? 0.5 : 0.05))
        return;
    static constexpr std::string_view frase[] = {
        "requiere adaptar los procedimientos de trabajo de los equipos de campo",
        "exige integrar la solución con los sistemas de control existentes",
        "implica redefinir roles y responsabilidades en el área",
        "requiere formar a los técnicos en el uso de las nuevas herramientas"};
    for(int a : distinct(r, static_cast<int>(std::size(kAreasTecnicas)), r.range(1, 3)))
    {
        int const ti = static_cast<int>(r.index(std::size(kTiposImpacto)));
        t.impacto_aatt.set("portfolio_id", x.pid)
            .set("area_tecnica", kAreasTecnicas[a])
            .set("tipo_impacto", kTiposImpacto[ti])
            .set("nivel_impacto", kRiesgos[r.weighted(std::array<double, 3>{25, 45, 30})])
            .set("descripcion", cat("Impacto en el área de ", kAreasTecnicas[a], ": ", frase[ti], '.'))
            .set("requiere_formacion", r.chance(0.5) || ti == 3 ? 1 : 0)
            .set("fecha_evaluacion", random_between(r, x.alta, std::min(x.alta + days{200}, kToday)))
            .set("evaluado_por", c.person(pick_person(c, x, r)));
        t.impacto_aatt.insert();
        x.aatt = true;
    }
}

void gen_memos(Ctx& c, Tables& t, Ini& x, Rng& r)
{
    if(x.is_group || x.estado <= 1)
        return;
    OptMoney const bt = sum_opt(x.budget);
    if(!bt || *bt < 40000000 || !r.chance(0.85))
        return;
    Phase const ph = x.phase();
    int const versions = r.chance(0.25) ? 2 : 1;
    bool const rec = kTipos[x.tipo].recurrente;
    Date const f1 = clamp(x.alta + days{r.range(10, 90)}, x.alta, kToday);
    for(int v = 1; v <= versions; ++v)
    {
        auto const& src = v == 1 ? x.budget : x.importe;
        std::array<OptMoney, 7> b{};
        for(std::size_t k = 0; k < 5; ++k)
            b[k] = src[k];
        OptMoney lastv;
        for(std::size_t k = 0; k < 5; ++k)
            if(b[k])
                lastv = b[k];
        int const fy = x.fin ? year_of(*x.fin) : 0;
        if(lastv && *lastv > 0 && b[4] && (rec || fy >= 2029))
            b[5] = round_to(static_cast<double>(*lastv) * r.uniform(0.8, 1.1), 100000);
        if(b[5] && (fy >= 2030 || (rec && r.chance(0.6))))
            b[6] = round_to(static_cast<double>(*b[5]) * r.uniform(0.8, 1.1), 100000);
        OptMoney const tot = sum_opt(b);
        bool const last = v == versions;
        int est;
        if(!last)
            est = 4;
        else if(ph == APR || ph == EXEC || ph == DONE)
            est = 2;
        else if(ph == REJ)
            est = 3;
        else if(ph == CANC)
            est = x.was_approved ? 2 : 1;
        else
            est = (x.estado == kEstadoPendAprob || x.estado == kEstadoRevReg) ? 1 : 0;
        Date const fm = v == 1 ? f1 : std::min(f1 + days{r.range(30, 200)}, kToday);
        OptMoney van;
        std::optional<double> tir, pb;
        if(r.chance(0.8) && tot)
        {
            van = round_to(static_cast<double>(*tot) * r.uniform(0.3, 2.5), 100000);
            tir = round1(r.uniform(6.0, 32.0));
            pb = round1(r.uniform(1.5, 7.0));
        }
        std::string res = cat("Investment memo ", de_accion(x), ". Se solicita un presupuesto total de ",
            eur(tot.value_or(0)), " para ",
            periodo_txt(x).empty() ? std::string("los próximos ejercicios") : periodo_txt(x), '.');
        if(van)
            res += cat(" El VAN estimado es de ", eur(*van), " con una TIR del ", num1(*tir),
                " % y un periodo de retorno de ", num1(*pb), " años.");
        if(v > 1)
            res += " Esta versión actualiza los importes tras la revisión del alcance.";
        t.investment_memos.set("portfolio_id", x.pid)
            .set("version", v)
            .set("titulo", cat("Investment Memo ", x.pid, " - ", truncate_utf8(x.nombre, 90), v > 1 ? " (v2)" : ""))
            .set("fecha_memo", fm)
            .set("estado_memo", kMemoEstados[est])
            .set("autor", c.person(x.ref_neg));
        for(int k = 0; k < 7; ++k)
            t.investment_memos.money(cat("budget_", 2024 + k), b[static_cast<std::size_t>(k)]);
        t.investment_memos.money("budget_total", tot)
            .money("van", van)
            .set("tir", tir)
            .set("payback_anios", pb)
            .set("resumen", res);
        t.investment_memos.insert();
        if(last)
        {
            x.van = van;
            x.tir = tir;
            x.payback = pb;
        }
    }
    x.memo = true;
}

} // namespace portfolio::generator
