// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Pass C, budget and execution: hechos (budget line history), facturacion,
// wbes, avance, datos_ejecucion (milestones), fichas, ltp and beneficios.
#include "portfolio/generator/child_tables.hpp"
#include "portfolio/generator/text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace portfolio::generator {

namespace {

std::string racional_hecho(int estado, int y, Ini const& x, Date d, Rng& r)
{
    std::string_view const u = kUnidades[x.unidad];
    switch(estado)
    {
    case H_PROP:
    {
        int const v = r.range(0, 2);
        if(v == 0)
            return cat("Presupuesto solicitado en la planificación anual ", y, '.');
        if(v == 1)
            return cat("Estimación inicial de la partida ", y, " elaborada por ", u, '.');
        return cat("Importe propuesto según el caso de negocio presentado por ", u, '.');
    }
    case H_REV:
    {
        static constexpr std::string_view t[] = {"Revisión del importe tras el análisis de alcance con Sistemas.",
            "Ajuste de la estimación tras recibir ofertas de proveedores.",
            "Revisión solicitada por Control de Gestión.",
            "Actualización de la estimación con el detalle de la planificación."};
        return std::string(r.pick(t));
    }
    case H_APROB:
        return r.chance(0.6) ? cat("Aprobado en el Comité de Inversiones de ", mes_anio(d), '.')
                             : cat("Aprobación de la partida ", y, " por la Dirección de ", u, '.');
    case H_AMPL:
    {
        static constexpr std::string_view t[] = {"Solicitud de ampliación por incremento del alcance funcional.",
            "Ampliación solicitada por nuevos requisitos regulatorios.",
            "Ampliación por sobrecoste en la integración con los sistemas existentes."};
        return std::string(r.pick(t));
    }
    case H_RED:
    {
        static constexpr std::string_view t[] = {"Reducción por replanificación de actividades al ejercicio siguiente.",
            "Liberación de importe no necesario tras la adjudicación.",
            "Ajuste a la baja por eficiencias en la contratación."};
        return std::string(r.pick(t));
    }
    case H_RECH:
        return r.chance(0.5) ? std::string("Rechazado por el Comité de Inversiones por falta de priorización.")
                             : std::string("Rechazado: el caso de negocio no justifica la inversión solicitada.");
    default: return "Cancelación de la iniciativa; se mantiene únicamente el importe ya ejecutado.";
    }
}

} // namespace

void gen_hechos(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w)
{
    struct Row
    {
        Date fecha;
        int year, ord, estado;
        i64 importe;
    };
    std::vector<Row> rows;
    Phase const ph = x.phase();
    int const cy = ph == CANC ? year_of(x.cierre) : 9999;
    int ord = 0;
    for(int k = 0; k < kNumYears; ++k)
    {
        auto const kk = static_cast<std::size_t>(k);
        if(!x.budget[kk] && !x.importe[kk])
            continue;
        int const y = kFirstYear + k;
        i64 const b = x.budget[kk] ? *x.budget[kk] : *x.importe[kk];
        i64 const imp = x.importe[kk].value_or(b);
        std::vector<std::pair<int, i64>> ch{{H_PROP, b}};
        bool terminal = false;
        if(ph == PRE)
        {
            if(imp != b)
                ch.push_back({H_REV, imp});
            else if(r.chance(0.35))
                ch.push_back({H_REV, b});
        }
        else if(ph == REJ)
        {
            if(r.chance(0.5))
                ch.push_back({H_REV, b});
            ch.push_back({H_RECH, 0});
            terminal = true;
        }
        else
        {
            OptMoney const a = x.aprobado[kk];
            i64 ref = b;
            if(a)
            {
                if(r.chance(0.4))
                    ch.push_back({H_REV, b});
                ch.push_back({H_APROB, *a});
                ref = *a;
            }
            if(ph == CANC && y >= cy)
            {
                ch.push_back({H_CANC, imp});
                terminal = true;
            }
            else if(imp != ref)
            {
                ch.push_back({a ? (imp > ref ? H_AMPL : H_RED) : H_REV, imp});
            }
        }
        // budget cycle of year y: proposals from September of y-1, approvals by April of y
        Date lo = std::max(x.alta, ymd(y - 1, 9, 1));
        Date hi = terminal ? x.cierre : std::min(kToday, ymd(y, 4, 30));
        if(!terminal)
        {
            if(kToday < lo)
                lo = std::max(x.alta, kToday - days{240}); // future years: proposals made in the last months
            hi = std::max(hi, std::min(kToday, lo + days{90}));
        }
        else if(hi < lo)
        {
            lo = std::max(x.alta, hi - days{200}); // year after the cancellation / rejection
        }
        auto const ds = chain_dates(r, lo, hi, static_cast<int>(ch.size()), terminal);
        for(std::size_t j = 0; j < ch.size(); ++j)
            rows.push_back({ds[j], y, ord++, ch[j].first, ch[j].second});
    }
    std::stable_sort(rows.begin(), rows.end(), [](Row const& a, Row const& b) {
        if(a.fecha != b.fecha)
            return a.fecha < b.fecha;
        if(a.year != b.year)
            return a.year < b.year;
        return a.ord < b.ord;
    });
    int id = 0;
    for(Row const& h : rows)
    {
        ++id;
        if(h.estado == H_APROB)
        {
            auto& ad = w.aprob_date[yi(h.year)];
            if(!ad || *ad < h.fecha)
                ad = h.fecha;
            if(!x.fecha_aprob || h.fecha < *x.fecha_aprob)
                x.fecha_aprob = h.fecha;
        }
        int cal = 1;
        if(h.estado == H_APROB)
            cal = r.chance(0.7) ? 0 : 1;
        else if(h.estado == H_PROP && h.year >= 2027)
            cal = r.chance(0.5) ? 2 : 1;
        else
            cal = static_cast<int>(r.weighted(std::array<double, 3>{25, 55, 20}));
        t.hechos.set("portfolio_id", x.pid)
            .set("id_hecho", id)
            .set("partida_presupuestaria", h.year)
            .set("fecha", h.fecha)
            .set("estado", kHechoEstados[h.estado])
            .money("importe", h.importe)
            .set("calidad_estimacion", kCalidad[cal])
            .set("racional", racional_hecho(h.estado, h.year, x, h.fecha, r))
            .set("registrado_por", c.person(r.chance(0.6) ? c.people.pmo[r.index(c.people.pmo.size())] : x.ref_neg));
        t.hechos.insert();
        w.activity.push_back(h.fecha);
    }
    x.n_hechos = id;
}

void gen_facturacion(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w)
{
    Date const stop = stop_date(x);
    for(int y = 2024; y <= 2025; ++y)
    {
        auto const kk = yi(y);
        if(!x.fact[kk])
            continue;
        i64 const total = *x.fact[kk];
        int lo = std::max(month_index(x.inicio), y * 12);
        int hi = std::min(month_index(stop), y * 12 + 11);
        if(hi < lo)
            lo = hi = std::min(y * 12 + 11, month_index(kToday));
        std::vector<int> months;
        for(int m = lo; m <= hi; ++m)
            if(r.chance(0.8))
                months.push_back(m);
        if(months.empty())
            months.push_back(hi);
        std::vector<double> wt;
        double ws = 0.0;
        for(std::size_t j = 0; j < months.size(); ++j)
        {
            wt.push_back(r.uniform(0.5, 1.5));
            ws += wt.back();
        }
        i64 acc = 0;
        for(std::size_t j = 0; j < months.size(); ++j)
        {
            i64 const part = j + 1 == months.size()
                ? total - acc
                : static_cast<i64>(std::floor(static_cast<double>(total) * wt[j] / ws));
            acc += part;
            if(part <= 0)
                continue;
            int const nparts = (part > 2000000 && r.chance(0.15)) ? 2 : 1;
            i64 const first = nparts == 2 ? to_cents(static_cast<double>(part) * r.uniform(0.3, 0.7)) : part;
            int const mi = months[j];
            for(int p = 0; p < nparts; ++p)
            {
                i64 const amt = p == 0 ? first : part - first;
                Date const f = std::min(from_month_index(mi, r.range(3, 28)), kToday);
                c.invoice_no += r.range(1, 7);
                std::string_view prov = (x.proveedor >= 0 && r.chance(0.85)) ? kProveedores[x.proveedor]
                                                                             : r.pick(kProveedores);
                std::string_view const mes = kMeses[mi % 12];
                std::string concepto;
                if(x.tipo == kTipoLicencias)
                    concepto = cat("Licencias y suscripciones ", y);
                else if(x.tipo == kTipoServicio)
                    concepto = cat("Servicio gestionado - ", mes, ' ', y);
                else
                {
                    int const v = r.range(0, 3);
                    concepto = v == 0 ? cat("Servicios profesionales ", mes, ' ', y)
                        : v == 1      ? cat("Certificación de trabajos de ", mes, ' ', y)
                        : v == 2      ? cat("Desarrollo evolutivo - hito ", r.range(1, 6))
                                      : cat("Soporte y mantenimiento ", mes, ' ', y);
                }
                t.facturacion.set("portfolio_id", x.pid)
                    .set("anio", y)
                    .set("mes", mi % 12 + 1)
                    .set("fecha_factura", f)
                    .set("numero_factura", cat("FV-", y, '-', pad(c.invoice_no, 6)))
                    .set("proveedor", prov)
                    .set("concepto", concepto)
                    .money("importe", amt);
                t.facturacion.insert();
                w.invoices.push_back({mi, amt});
            }
        }
    }
}

void gen_wbes(Tables& t, Ini& x, Rng& r, Work& w)
{
    Phase const ph = x.phase();
    for(int k = 0; k < kNumYears; ++k)
    {
        auto const kk = static_cast<std::size_t>(k);
        if(!x.aprobado[kk])
            continue;
        int const y = kFirstYear + k;
        bool const capex = x.capex == 0 || (x.capex == 2 && r.chance(0.6));
        std::string const code = cat(capex ? "P-" : "O-", kPrefixes[x.prefix].code, '.', pad(x.yy, 2), '.',
            pad(x.seq, 3), '.', pad(y % 100, 2));
        bool const cerrada = ph == DONE || ph == CANC || (y < 2025 && r.chance(0.8));
        std::optional<Date> fc;
        if(w.aprob_date[kk])
            fc = std::min(*w.aprob_date[kk] + days{r.range(1, 20)}, kToday);
        // A year's approved amount is split over 1-3 elements (work packages),
        // as real WBS do; the parts add up to the approved amount exactly.
        static constexpr std::string_view kPaquetes[] = {"Desarrollo", "Infraestructura", "Licencias",
            "Servicios profesionales", "Despliegue"};
        int const parts = *x.aprobado[kk] >= 5000000 ? r.range(1, 3) : 1;
        i64 remaining = *x.aprobado[kk];
        for(int part = 0; part < parts; ++part)
        {
            i64 const amount = part + 1 == parts ? remaining : remaining * r.range(30, 60) / 100;
            remaining -= amount;
            t.wbes.set("portfolio_id", x.pid)
                .set("anio", y)
                .set("codigo_wbe", parts == 1 ? code : cat(code, '.', part + 1))
                .set("descripcion_wbe",
                    parts == 1 ? cat(short_name(x.nombre, 60), " - ", y)
                               : cat(short_name(x.nombre, 45), " - ",
                                     kPaquetes[static_cast<std::size_t>((x.seq + part) % 5)], " - ", y))
                .set("tipo_wbe", capex ? "CAPEX" : "OPEX")
                .set("sociedad", kSociedades[kUnidadCluster[x.unidad]])
                .money("importe_asignado", OptMoney(amount))
                .set("estado_wbe", kWbeEstados[cerrada ? 1 : 0])
                .set("fecha_creacion", fc);
            t.wbes.insert();
            ++x.n_wbes;
        }
    }
}

void gen_avance(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w)
{
    Phase const ph = x.phase();
    if(!(ph == APR || ph == EXEC || ph == DONE || ph == CANC))
        return;
    if(x.inicio > kToday)
        return;
    Date const stop = stop_date(x);
    if(stop < x.inicio)
        return;
    double const dur = std::max(30, days_between(x.inicio, plan_end(x)));
    std::vector<Date> dates;
    for(Date q = quarter_end_of(std::max(x.inicio, ymd(2023, 1, 1))); q <= stop; q = month_end(month_index(q) + 3))
        dates.push_back(q);
    if(ph == DONE && x.fin && (dates.empty() || dates.back() < *x.fin))
        dates.push_back(*x.fin);
    if(dates.empty())
        return;
    double prev = 0.0;
    for(std::size_t j = 0; j < dates.size(); ++j)
    {
        Date const d = dates[j];
        bool const last = j + 1 == dates.size();
        double const expected = std::clamp(days_between(x.inicio, d) / dur, 0.0, 1.0) * 100.0;
        double real;
        if(ph == APR)
        {
            real = std::min(8.0, expected * 0.15 + r.uniform(0.0, 2.0));
        }
        else
        {
            Date const dd = (x.estado == kEstadoPausa && d > x.fecha_estado) ? x.fecha_estado : d;
            double const e2 = std::clamp(days_between(x.inicio, dd) / dur, 0.0, 1.0) * 100.0;
            real = e2 * x.perf + r.uniform(-3.0, 3.0);
        }
        real = std::clamp(real, prev, 99.0);
        if(last && ph == DONE)
            real = 100.0;
        if(last && x.estado == kEstadoCierre)
            real = std::max(real, r.uniform(95.0, 99.0));
        if(last && x.estado == kEstadoPruebas)
            real = std::max(real, r.uniform(75.0, 92.0));
        real = round1(real);
        prev = real;
        double const diff = expected - real;
        int const sem = (ph == DONE && last) ? 0 : diff < 8.0 ? 0 : diff < 20.0 ? 1 : 2;
        std::optional<std::string> com;
        if(r.chance(0.7))
        {
            if(sem == 0)
                com = r.chance(0.5) ? std::string("Avance conforme a la planificación.")
                                    : std::string("Se completan las tareas previstas en el periodo.");
            else if(sem == 1)
                com = cat("Ligero retraso en el ", r.pick(kEntregables),
                    "; se prevé recuperarlo en el siguiente trimestre.");
            else
                com = cat("Retraso significativo por ", r.pick(kRiesgosTexto), '.');
            if(ph == DONE && last)
                com = std::string("Iniciativa finalizada y entregada a operación.");
        }
        t.avance.set("portfolio_id", x.pid)
            .set("fecha", d)
            .set("porcentaje_avance", real)
            .set("porcentaje_previsto", round1(expected))
            .set("estado_semaforo", kSemaforos[sem])
            .set("comentario", com)
            .set("registrado_por", c.person(r.chance(0.6) ? x.resp_ti : c.people.pmo[r.index(c.people.pmo.size())]));
        t.avance.insert();
        w.avance.push_back({d, real, round1(expected), sem});
        w.activity.push_back(d);
    }
    x.avance = w.avance.back().real;
    x.fecha_avance = w.avance.back().fecha;
    x.semaforo = w.avance.back().sem;
}

void gen_hitos(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w)
{
    Phase const ph = x.phase();
    if(!(ph == APR || ph == EXEC || ph == DONE || ph == CANC))
        return;
    if(ph == CANC && !x.was_approved)
        return;
    auto const& names = hitos_de_tipo(x.tipo);
    int const n = static_cast<int>(names.size());
    int const dur = std::max(30, days_between(x.inicio, plan_end(x)));
    std::vector<Date> planned;
    for(int j = 0; j < n; ++j)
        planned.push_back(x.inicio + days{7 + (n > 1 ? (dur - 7) * j / (n - 1) : 0)});
    int cnt = 0;
    switch(ph)
    {
    case DONE: cnt = n; break;
    case EXEC:
    {
        double const p = x.avance.value_or(0.0);
        cnt = std::clamp(static_cast<int>(std::floor(p / 100.0 * n + 0.35)), 1, n - 1);
        if(x.estado == kEstadoPruebas)
            cnt = std::max(cnt, n - 2);
        if(x.estado == kEstadoCierre)
            cnt = n - 1;
        cnt = std::max(cnt, 1);
        break;
    }
    case APR: cnt = planned[0] <= kToday ? 1 : 0; break;
    case CANC:
        while(cnt < n && planned[static_cast<std::size_t>(cnt)] <= x.cierre && r.chance(0.8))
            ++cnt;
        break;
    default: break;
    }
    Date const cap = ph == DONE && x.fin ? *x.fin : ph == CANC ? x.cierre : kToday;
    Date prev = x.inicio;
    for(int j = 0; j < n; ++j)
    {
        Hito h{std::string(names[static_cast<std::size_t>(j)]), planned[static_cast<std::size_t>(j)], std::nullopt, 2};
        std::optional<std::string> com;
        if(j < cnt)
        {
            Date real = std::max(h.planned + days{r.range(-10, 35)}, prev + days{1});
            real = std::min(real, cap);
            prev = real;
            h.real = real;
            h.estado = 0;
            if(days_between(h.planned, real) > 20)
                com = std::string("Completado con retraso respecto a la planificación inicial.");
        }
        else if(ph == CANC)
        {
            h.estado = 4;
            com = std::string("Hito anulado por la cancelación de la iniciativa.");
        }
        else if(h.planned < kToday)
        {
            h.estado = 3;
            com = cat("Replanificado por ", r.pick(kRiesgosTexto), '.');
        }
        else
        {
            h.estado = (j == cnt && days_between(kToday, h.planned) <= 90) ? 1 : 2;
        }
        double const u = r.uniform();
        int const resp = u < 0.5 ? x.resp_ti : u < 0.8 ? x.ref_neg : c.people.pmo[r.index(c.people.pmo.size())];
        t.datos_ejecucion.set("portfolio_id", x.pid)
            .set("hito", h.name)
            .set("orden", j + 1)
            .set("fecha_planificada", h.planned)
            .set("fecha_real", h.real)
            .set("estado_hito", kHitoEstados[h.estado])
            .set("responsable", c.person(resp))
            .set("comentario", com);
        t.datos_ejecucion.insert();
        if(h.estado != 0 && h.estado != 4 && (!x.prox_hito || h.planned < *x.prox_hito))
            x.prox_hito = h.planned;
        w.hitos.push_back(std::move(h));
    }
}

void gen_fichas(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w)
{
    if(w.avance.empty())
        return;
    Date const stop = stop_date(x);
    for(int q = 0; q < 6; ++q)
    {
        int const y = 2024 + q / 4, qi = q % 4;
        Date const qs = ymd(y, qi * 3 + 1, 1);
        Date const qe = month_end(y * 12 + qi * 3 + 2);
        if(qe < x.inicio || stop < qs)
            continue;
        AvanceRow const* a = nullptr;
        for(auto const& row : w.avance)
            if(row.fecha <= qe)
                a = &row;
        i64 acc = 0;
        for(auto const& [mi, cents] : w.invoices)
            if(mi <= month_index(qe))
                acc += cents;
        std::vector<std::string> done;
        for(auto const& h : w.hitos)
            if(h.real && qs <= *h.real && *h.real <= qe)
                done.push_back(h.name);
        std::string const hitos = done.empty() ? std::string("Sin hitos relevantes en el periodo.")
                                               : cat("Hitos completados: ", join(done, "; ", "; "), '.');
        std::optional<std::string> riesgos;
        if(a && a->sem > 0)
            riesgos = cat("Riesgo principal: ", r.pick(kRiesgosTexto), '.');
        std::string prox;
        for(auto const& h : w.hitos)
            if(!h.real && h.estado != 4 && qe < h.planned)
            {
                prox = cat("Próximo hito: ", h.name, " (previsto para ", mes_anio(h.planned), ").");
                break;
            }
        if(prox.empty())
            prox = x.phase() == DONE ? std::string("Cierre administrativo y traspaso a mantenimiento.")
                                     : std::string("Continuar con la ejecución según la planificación.");
        t.fichas.set("portfolio_id", x.pid)
            .set("periodo", cat(y, "-T", qi + 1))
            .set("tipo_ficha", kTiposFicha[qi == 3 ? 1 : 0])
            .set("fecha_ficha", std::min(qe + days{r.range(5, 20)}, kToday))
            .set("estado_general", a ? std::optional<std::string>(std::string(kSemaforos[a->sem])) : std::nullopt)
            .set("porcentaje_avance", a ? std::optional<double>(a->real) : std::nullopt)
            .money("importe_ejecutado_acumulado", acc)
            .set("hitos_periodo", hitos)
            .set("riesgos_periodo", riesgos)
            .set("proximos_pasos", prox)
            .set("elaborado_por", c.person(c.people.pmo[r.index(c.people.pmo.size())]));
        t.fichas.insert();
    }
}

void gen_ltp(Ctx& c, Tables& t, Ini& x, Rng& r)
{
    Phase const ph = x.phase();
    if(!(ph == PRE || ph == APR || ph == EXEC))
        return;
    int const n = count_from(r, std::array<double, 5>{35, 20, 20, 15, 10});
    for(int idx : distinct(r, static_cast<int>(std::size(kLtpTareas)), n))
    {
        Date const ini = kToday - days{r.range(-30, 120)};
        Date const fin = ini + days{r.range(14, 150)};
        int est;
        if(fin < kToday)
            est = static_cast<int>(std::array<int, 3>{2, 3, 1}[r.weighted(std::array<double, 3>{70, 10, 20})]);
        else if(kToday < ini)
            est = 0;
        else
            est = static_cast<int>(std::array<int, 3>{1, 3, 0}[r.weighted(std::array<double, 3>{75, 10, 15})]);
        std::optional<std::string> com;
        if(est == 3)
            com = cat("Bloqueada por ", r.pick(kRiesgosTexto), '.');
        else if(r.chance(0.5))
        {
            int const v = r.range(0, 2);
            com = v == 0 ? with_dot(cat("Coordinado con el equipo de ",
                               x.proveedor >= 0 ? kProveedores[x.proveedor] : std::string_view("Sistemas")))
                : v == 1 ? cat("Pendiente de validación por ", kUnidades[x.unidad], '.')
                         : std::string("Se revisará en la próxima reunión de seguimiento.");
        }
        t.ltp.set("portfolio_id", x.pid)
            .set("tarea", kLtpTareas[idx])
            .set("responsable", c.person(pick_person(c, x, r)))
            .set("estado", kLtpEstados[est])
            .set("fecha_inicio", ini)
            .set("fecha_fin", fin)
            .set("comentarios", com);
        t.ltp.insert();
        ++x.n_ltp;
    }
}

void gen_beneficios(Tables& t, Ini& x, Rng& r)
{
    Phase const ph = x.phase();
    if(ph == REJ || ph == CANC)
        return;
    if(!r.chance(ph == PRE ? 0.6 : 0.85))
        return;
    int const n = r.range(1, 4);
    auto const& kinds = l1_beneficios()[static_cast<std::size_t>(x.l1)];
    int const ys = std::clamp(x.fin ? year_of(*x.fin) : year_of(x.inicio) + 1, 2024, 2028);
    OptMoney const tot = sum_opt(x.importe);
    for(int j = 0; j < n; ++j)
    {
        int const tb = kinds[r.index(kinds.size())];
        int const anio = r.range(ys, 2028);
        double valor = 0.0;
        std::string desc;
        switch(tb)
        {
        case 0:
        case 1:
        case 5:
        {
            double const base = tot && *tot > 0 ? static_cast<double>(*tot) * r.uniform(0.08, 0.5)
                                                : r.lognormal(std::log(5.0e6), 0.8);
            valor = static_cast<double>(round_to(base, 10000)) / 100.0;
            if(valor <= 0)
                valor = 100.0;
            desc = tb == 0 ? cat("Ahorro anual de costes operativos derivado ", de_accion(x), '.')
                : tb == 1
                ? cat("Ingresos adicionales asociados ", a_accion(x), '.')
                : cat("Reducción de la exposición a riesgos operativos y sanciones gracias ", a_accion(x), '.');
            break;
        }
        case 2:
            valor = r.range(300, 25000);
            desc = cat("Horas de trabajo manual evitadas al año ", contexto(x), '.');
            break;
        case 3:
            valor = r.range(5, 4000);
            desc = "Toneladas de CO2 equivalente evitadas al año.";
            break;
        case 4:
            valor = r.range(1, 8);
            desc = "Mejora esperada del NPS de los clientes afectados.";
            break;
        default:
            valor = round1(r.uniform(0.2, 6.0));
            desc = "Reducción del TIEPI en las zonas de despliegue.";
            break;
        }
        int est = r.chance(0.4) ? 1 : 0;
        if(anio <= 2025 && (ph == DONE || ph == EXEC) && r.chance(0.5))
            est = 2;
        t.beneficios.set("portfolio_id", x.pid)
            .set("anio", anio)
            .set("tipo_beneficio", kTiposBeneficio[tb].name)
            .set("descripcion", desc)
            .set("valor", valor)
            .set("unidad_medida", kTiposBeneficio[tb].unidad_medida)
            .set("estado", kBenefEstados[est])
            .set("fecha_registro", random_between(r, x.alta, std::min(x.alta + days{400}, kToday)));
        t.beneficios.insert();
        ++x.n_benef;
        if(kTiposBeneficio[tb].unidad_medida == "€")
            x.benef_eur = x.benef_eur.value_or(0) + to_cents(valor * 100.0);
    }
}

} // namespace portfolio::generator
