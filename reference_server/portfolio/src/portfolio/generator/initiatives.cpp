// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Passes A and B: people, portfolio ids, each initiative's base attributes,
// dates and amounts; then the groups (programmes).
#include "portfolio/generator/passes.hpp"
#include "portfolio/generator/text.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace portfolio::generator {

namespace {

double phase_mult(int yy, Phase ph)
{
    static constexpr double m[6][6] = {
        // PRE  APR  EXEC DONE CANC REJ
        {0.1, 0.3, 0.8, 4.0, 1.5, 1.5}, // 21
        {0.1, 0.3, 0.8, 4.0, 1.5, 1.5}, // 22
        {0.3, 0.5, 1.0, 2.5, 1.2, 1.2}, // 23
        {0.6, 0.8, 1.2, 1.2, 1.0, 1.0}, // 24
        {1.3, 1.4, 1.0, 0.3, 0.8, 0.8}, // 25
        {4.0, 0.8, 0.0, 0.0, 0.3, 0.3}, // 26
    };
    return m[std::clamp(yy - kYearMin, 0, 5)][ph];
}

std::string make_name(Ctx& c, Ini& x, Rng& r)
{
    auto const& objs = l2_table()[static_cast<std::size_t>(x.l2)].objetos;
    auto const& ctxs = unit_contexts()[static_cast<std::size_t>(x.unidad)];
    std::vector<int> const fit = fitting_objects(x.l2, x.unidad);
    std::string n;
    for(int attempt = 0; attempt < 10; ++attempt)
    {
        x.verb = static_cast<int>(r.index(std::size(kVerbos)));
        x.obj = fit[r.index(fit.size())];
        x.ctx = static_cast<int>(r.index(ctxs.size()));
        n = cat(kVerbos[x.verb].name, ' ', objs[static_cast<std::size_t>(x.obj)]);
        if(!x.generic_ctx && r.chance(0.85))
            n += cat(' ', ctxs[static_cast<std::size_t>(x.ctx)]);
        if(r.chance(0.05))
            n += kSufijos[r.index(3)];
        if(c.names.insert(n).second)
            return n;
    }
    for(auto const s : kSufijos)
    {
        std::string m = n + std::string(s);
        if(c.names.insert(m).second)
            return m;
    }
    std::string m = cat(n, " (", x.pid, ')');
    c.names.insert(m);
    return m;
}

void gen_dates(Ini& x, Rng& r)
{
    Phase const ph = x.phase();
    int const y0 = 2000 + x.yy;
    x.inicio = ymd(y0, 1, 1) + days{r.range(0, 175)};
    x.alta = x.inicio - days{r.range(45, 300)};
    if(x.alta > kToday)
        x.alta = kToday - days{r.range(0, 120)};
    Tipo const& t = kTipos[x.tipo];
    int const months = r.range(t.min_months, t.max_months);
    Date fin = add_months(x.inicio, months) + days{r.range(-10, 10)};
    switch(ph)
    {
    case EXEC:
        if(x.inicio > kToday - days{30})
            x.inicio = kToday - days{r.range(30, 160)};
        if(x.estado == kEstadoCierre)
            fin = kToday + days{r.range(-20, 75)};
        else if(fin <= kToday + days{20})
            fin = r.chance(0.15) ? kToday - days{r.range(1, 150)} : kToday + days{r.range(30, 540)};
        if(fin < x.inicio + days{60})
            fin = x.inicio + days{60 + r.range(0, 60)};
        x.fin = fin;
        x.fecha_estado = x.estado == kEstadoEnEjecucion ? std::min(x.inicio + days{r.range(0, 45)}, kToday)
                                                        : std::max(x.inicio, kToday - days{r.range(0, 120)});
        break;
    case DONE:
        fin = std::min(fin, kToday - days{r.range(5, 520)});
        if(fin < ymd(2024, 1, 15) && r.chance(0.75))
            fin = std::min(ymd(2024, 1, 15) + days{r.range(0, 480)}, kToday - days{5});
        if(fin < x.inicio + days{75})
            x.inicio = fin - days{r.range(90, 420)};
        x.fin = fin;
        x.fecha_estado = std::min(fin + days{r.range(0, 30)}, kToday);
        break;
    case APR:
        if(x.inicio < kToday)
            x.inicio = kToday + days{r.range(-45, 200)};
        if(r.chance(0.95))
            x.fin = add_months(x.inicio, months);
        x.fecha_estado = kToday - days{r.range(0, 200)};
        break;
    case PRE:
        if(x.inicio < kToday)
            x.inicio = kToday + days{r.range(-30, 300)};
        if(r.chance(0.75))
            x.fin = add_months(x.inicio, months);
        x.fecha_estado = kToday - days{r.range(0, 240)};
        break;
    case CANC:
    {
        if(r.chance(0.7))
            x.fin = fin;
        int const span = std::max(1, days_between(x.alta + days{30}, kToday));
        x.cierre = clamp(x.alta + days{30 + r.range(0, span - 1)}, x.alta + days{1}, kToday);
        x.was_approved = x.cierre > x.inicio ? r.chance(0.75) : r.chance(0.3);
        x.fecha_estado = x.cierre;
        break;
    }
    case REJ:
    {
        int const span = std::max(21, std::min(300, days_between(x.alta, kToday)));
        x.cierre = std::min(x.alta + days{r.range(20, span)}, kToday);
        if(r.chance(0.6))
            x.fin = fin;
        x.fecha_estado = x.cierre;
        break;
    }
    }
    if((ph == EXEC || ph == DONE) && x.alta > x.inicio - days{10})
        x.alta = x.inicio - days{r.range(20, 200)};
    x.fecha_estado = clamp(x.fecha_estado, x.alta, kToday);
    if(ph == CANC || ph == REJ)
        x.cierre = x.fecha_estado;
    x.perf = r.uniform(0.7, 1.08);
}

void gen_amounts(Ini& x, Rng& r)
{
    Phase const ph = x.phase();
    Date const end_ref = plan_end(x);
    int const first = std::max(kFirstYear, year_of(x.inicio));
    int last = std::min(kFirstYear + kNumYears - 1, year_of(end_ref));
    bool const rec = kTipos[x.tipo].recurrente;
    if(!rec && last >= 2027 && r.chance(0.35))
        last = std::max(first, 2026);
    if(last < first)
        return;

    double total = r.lognormal(std::log(260000.0 * 100.0) + kUnidadSizeAdj[x.unidad] + kTipos[x.tipo].size_adj, 1.0);
    if(r.chance(0.015))
        total *= r.uniform(4.0, 10.0);
    total = std::clamp(total, 5000.0 * 100.0, 45.0e6 * 100.0);
    std::array<double, kNumYears> w{};
    double ws = 0.0;
    for(int y = first; y <= last; ++y)
    {
        int const m = std::max(1, months_overlap(x.inicio, end_ref, y));
        w[yi(y)] = m * r.uniform(0.7, 1.3);
        ws += w[yi(y)];
    }
    for(int y = first; y <= last; ++y)
    {
        double const b = total * w[yi(y)] / ws;
        i64 const step = b >= 5.0e6 ? 100000 : 10000; // 1.000 € or 100 €
        x.budget[yi(y)] = std::max(step, round_to(b, step));
    }

    int const cy = (ph == CANC) ? year_of(x.cierre) : 9999;
    for(int y = first; y <= last; ++y)
    {
        auto const k = yi(y);
        i64 const b = *x.budget[k];
        switch(ph)
        {
        case PRE:
            x.importe[k] = r.chance(0.8) ? b : round_to(static_cast<double>(b) * r.lognormal(0.0, 0.12), 10000);
            break;
        case REJ: x.importe[k] = 0; break;
        default:
        {
            i64 const imp = r.chance(0.55) ? b : to_cents(static_cast<double>(b) * r.lognormal(0.02, 0.18));
            x.importe[k] = imp;
            bool approve = false;
            if(ph == CANC && (y > cy || !x.was_approved))
                approve = false;
            else
            {
                double const p = y <= 2025 ? (ph == APR ? 0.9 : 0.97) : (y == 2026 ? 0.35 : 0.15);
                approve = r.chance(p);
            }
            if(approve)
            {
                double const u = r.uniform();
                x.aprobado[k] = u < 0.7 ? imp
                    : u < 0.9           ? to_cents(static_cast<double>(imp) * r.uniform(0.75, 0.99))
                                        : to_cents(static_cast<double>(imp) * r.uniform(1.01, 1.12));
            }
            if(ph == CANC && y > cy)
                x.importe[k] = 0;
        }
        }
    }

    // invoiced amounts (only 2024 and 2025; monthly rows are generated later)
    Date stop = ph == DONE ? *x.fin : ph == CANC ? x.cierre : kToday;
    stop = std::min(stop, kToday);
    for(int y = std::max(first, 2024); y <= std::min(last, 2025); ++y)
    {
        auto const k = yi(y);
        OptMoney base = x.aprobado[k];
        if(!base && (ph == EXEC || ph == DONE) && r.chance(0.25))
            base = x.importe[k];
        if(!base || *base <= 0)
            continue;
        int const m_plan = std::max(1, months_overlap(x.inicio, end_ref, y));
        int const m_act = months_overlap(x.inicio, stop, y);
        if(m_act == 0)
            continue;
        double const ratio = std::min(1.0, static_cast<double>(m_act) / m_plan);
        double frac = 0.0;
        switch(ph)
        {
        case EXEC: frac = ratio * r.uniform(0.6, 1.05); break;
        case DONE: frac = ratio * r.uniform(0.85, 1.0); break;
        case APR: frac = r.chance(0.12) ? r.uniform(0.02, 0.1) : 0.0; break;
        case CANC: frac = y < cy ? ratio * r.uniform(0.6, 1.0) : (y == cy ? ratio * r.uniform(0.05, 0.5) : 0.0); break;
        default: break;
        }
        frac = std::min(frac, 1.0);
        i64 const f = to_cents(static_cast<double>(*base) * frac);
        if(f >= 50000)
            x.fact[k] = f;
    }
    if(ph == CANC && cy >= first && cy <= last)
        x.importe[yi(cy)] = x.fact[yi(cy)].value_or(0);
}

} // namespace

// ───────────────────────────── Pass A: people, ids, base attributes ─────────────────────────────

People make_people(std::uint64_t seed)
{
    Rng r = Rng::stream(seed, P_PEOPLE, 0);
    People p;
    std::unordered_set<std::string> used;
    auto fresh = [&]() -> int {
        for(;;)
        {
            std::string_view const a1 = r.pick(kApellidos);
            std::string_view a2 = r.pick(kApellidos);
            while(a2 == a1)
                a2 = r.pick(kApellidos);
            std::string n = cat(r.pick(kNombres), ' ', a1, ' ', a2);
            if(used.insert(n).second)
            {
                p.names.push_back(std::move(n));
                return static_cast<int>(p.names.size()) - 1;
            }
        }
    };
    p.by_unit.resize(kNumUnidades);
    for(auto& v : p.by_unit)
        for(int k = 0; k < 6; ++k)
            v.push_back(fresh());
    for(int k = 0; k < 18; ++k)
        p.bi.push_back(fresh());
    for(int k = 0; k < 22; ++k)
        p.ti.push_back(fresh());
    for(int k = 0; k < 8; ++k)
        p.pmo.push_back(fresh());
    return p;
}

void assign_ids(Ctx& c)
{
    int const n = c.opt.initiatives;
    Rng r = Rng::stream(c.opt.seed, P_IDS, 0);
    constexpr int np = static_cast<int>(std::size(kPrefixes));
    constexpr int ny = static_cast<int>(std::size(kYearWeights));
    std::array<double, np> pw{};
    for(int i = 0; i < np; ++i)
        pw[static_cast<std::size_t>(i)] = kPrefixes[i].weight;
    std::vector<int> count(np * ny, 0);
    struct Key
    {
        int prefix, yy, seq;
    };
    std::vector<Key> keys;
    keys.reserve(static_cast<std::size_t>(n));
    for(int i = 0; i < n; ++i)
    {
        int const p = static_cast<int>(r.weighted(pw));
        int const y = static_cast<int>(r.weighted(kYearWeights));
        int b = p * ny + y;
        while(count[static_cast<std::size_t>(b)] >= 9999)
            b = (b + 1) % (np * ny); // 4-digit sequences at most
        int const seq = ++count[static_cast<std::size_t>(b)];
        keys.push_back({b / ny, b % ny + kYearMin, seq});
    }
    std::sort(keys.begin(), keys.end(), [](Key const& a, Key const& b) {
        if(a.prefix != b.prefix)
            return kPrefixes[a.prefix].code < kPrefixes[b.prefix].code;
        if(a.yy != b.yy)
            return a.yy < b.yy;
        return a.seq < b.seq;
    });
    c.inis.resize(static_cast<std::size_t>(n));
    for(std::size_t i = 0; i < keys.size(); ++i)
    {
        Ini& x = c.inis[i];
        x.prefix = keys[i].prefix;
        x.yy = keys[i].yy;
        x.seq = keys[i].seq;
        x.pid = make_pid(x.prefix, x.yy, x.seq);
    }
}

void gen_base(Ctx& c, Ini& x, Rng& r)
{
    auto const& l2s = l2_table();
    x.unidad = static_cast<int>(r.weighted(kUnidadPeso));
    std::array<double, kNumTiposBase> tw{};
    for(int k = 0; k < kNumTiposBase; ++k)
        tw[static_cast<std::size_t>(k)] = kTipos[k].weight;
    x.tipo = static_cast<int>(r.weighted(tw));

    std::array<double, kNumL1> w1{};
    w1.fill(0.3);
    static constexpr double prim[] = {10.0, 6.0, 4.0};
    auto const& pl = unit_l1()[static_cast<std::size_t>(x.unidad)];
    for(std::size_t k = 0; k < pl.size(); ++k)
        w1[static_cast<std::size_t>(pl[k])] = prim[k];
    x.l1 = static_cast<int>(r.weighted(w1));
    std::vector<int> cand;
    for(int pass = 0; pass < 2 && cand.empty(); ++pass)
    {
        if(pass == 1)
            x.l1 = pl[0];
        for(std::size_t j = 0; j < l2s.size(); ++j)
            if(l2s[j].l1 == x.l1 && !fitting_objects(static_cast<int>(j), x.unidad).empty())
                cand.push_back(static_cast<int>(j));
    }
    x.l2 = cand[r.index(cand.size())];
    x.generic_ctx = std::find(pl.begin(), pl.end(), x.l1) == pl.end();

    std::array<double, kNumEstados> we{};
    for(int k = 0; k < kNumEstados; ++k)
        we[static_cast<std::size_t>(k)] = kEstados[k].weight * phase_mult(x.yy, kEstados[k].phase);
    x.estado = static_cast<int>(r.weighted(we));
    Phase const ph = x.phase();

    std::array<double, std::size(kOrigenPeso)> wo{};
    std::copy(std::begin(kOrigenPeso), std::end(kOrigenPeso), wo.begin());
    if(x.unidad == 11)
        wo[2] *= 5;
    if(x.unidad == 13)
    {
        wo[2] *= 3;
        wo[3] *= 2;
    }
    if(x.unidad == 12)
        wo[3] *= 2;
    if(x.l1 == 2 || x.l1 == 6)
        wo[4] *= 2;
    x.origen = static_cast<int>(r.weighted(wo));
    x.prioridad = static_cast<int>(r.weighted(kPrioridadPeso));
    x.alineacion = static_cast<int>(r.weighted(kAlineacionPeso));

    if(x.tipo == kTipoPoC)
        x.capex = r.chance(0.8) ? 1 : 2;
    else if(x.tipo == kTipoServicio)
        x.capex = r.chance(0.85) ? 1 : 2;
    else if(x.tipo == kTipoLicencias)
        x.capex = static_cast<int>(r.weighted(std::array<double, 3>{40, 50, 10}));
    else
        x.capex = static_cast<int>(r.weighted(std::array<double, 3>{62, 20, 18}));
    x.clasif = (kUnidadCluster[x.unidad] == 0 && x.capex != 1 && r.chance(0.7)) ? 0 : 1;
    x.cini = x.clasif == 0 ? static_cast<int>(r.index(std::size(kCinis))) : -1;

    auto const& neg = c.people.by_unit[static_cast<std::size_t>(x.unidad)];
    x.ref_neg = neg[r.index(neg.size())];
    x.ref_bi = r.chance(ph == PRE ? 0.7 : 0.88) ? c.people.bi[r.index(c.people.bi.size())] : -1;
    x.resp_ti = c.people.ti[r.index(c.people.ti.size())];
    x.proveedor = r.chance(ph == PRE ? 0.5 : 0.9) ? static_cast<int>(r.index(std::size(kProveedores))) : -1;
    x.nombre = make_name(c, x, r);
    x.codigo_jira = cat("PDIG-", 1000 + static_cast<int>(&x - c.inis.data()) * 3 + r.range(0, 2));
    gen_dates(x, r);
    gen_amounts(x, r);
}

// ───────────────────────────── Pass B: groups ─────────────────────────────

void form_groups(Ctx& c)
{
    int const n = static_cast<int>(c.inis.size());
    int const g = n >= 20 ? n / 20 : 0;
    if(g == 0)
        return;
    Rng r = Rng::stream(c.opt.seed, P_GROUPS, 0);
    std::vector<int> order(static_cast<std::size_t>(n));
    for(int i = 0; i < n; ++i)
        order[static_cast<std::size_t>(i)] = i;
    for(int i = n - 1; i > 0; --i)
        std::swap(order[static_cast<std::size_t>(i)], order[r.index(static_cast<std::size_t>(i) + 1)]);
    std::vector<char> taken(static_cast<std::size_t>(n), 0);
    std::vector<int> groups(order.begin(), order.begin() + g);
    std::sort(groups.begin(), groups.end());
    for(int gi : groups)
        taken[static_cast<std::size_t>(gi)] = 1;
    // candidate pools per unit, in shuffled order
    std::vector<std::vector<int>> pool(kNumUnidades);
    for(std::size_t k = static_cast<std::size_t>(g); k < order.size(); ++k)
    {
        int const i = order[k];
        if(c.inis[static_cast<std::size_t>(i)].phase() != REJ)
            pool[static_cast<std::size_t>(c.inis[static_cast<std::size_t>(i)].unidad)].push_back(i);
    }
    std::vector<std::size_t> ptr(kNumUnidades, 0);
    std::size_t any_ptr = static_cast<std::size_t>(g);
    for(int gi : groups)
    {
        Ini& grp = c.inis[static_cast<std::size_t>(gi)];
        int const want = r.range(2, 6);
        auto& pu = pool[static_cast<std::size_t>(grp.unidad)];
        auto& pp = ptr[static_cast<std::size_t>(grp.unidad)];
        std::vector<int> comps;
        while(static_cast<int>(comps.size()) < want && pp < pu.size())
        {
            int const i = pu[pp++];
            if(!taken[static_cast<std::size_t>(i)])
            {
                taken[static_cast<std::size_t>(i)] = 1;
                comps.push_back(i);
            }
        }
        while(static_cast<int>(comps.size()) < want && any_ptr < order.size())
        {
            int const i = order[any_ptr++];
            if(!taken[static_cast<std::size_t>(i)] && c.inis[static_cast<std::size_t>(i)].phase() != REJ)
            {
                taken[static_cast<std::size_t>(i)] = 1;
                comps.push_back(i);
            }
        }
        if(comps.size() < 2)
        { // not enough components: stays a normal initiative
            for(int i : comps)
                taken[static_cast<std::size_t>(i)] = 0;
            continue;
        }
        std::sort(comps.begin(), comps.end());
        grp.is_group = true;
        grp.comps = comps;
        for(int i : comps)
            c.inis[static_cast<std::size_t>(i)].group = gi;
    }
    // recompute the group records from their components
    for(int gi : groups)
    {
        Ini& grp = c.inis[static_cast<std::size_t>(gi)];
        if(!grp.is_group)
            continue;
        Ini const& f0 = c.inis[static_cast<std::size_t>(grp.comps.front())];
        c.names.erase(grp.nombre);
        grp.tipo = kTipoGrupo;
        grp.l1 = f0.l1;
        grp.l2 = f0.l2;
        bool any_exec = false, any_apr = false, any_pre = false, any_done = false, all_closed = true;
        Date ini = f0.inicio, alta = f0.alta, fe = f0.fecha_estado;
        std::optional<Date> fin;
        bool fin_null = false;
        int prio = 3;
        for(int i : grp.comps)
        {
            Ini const& x = c.inis[static_cast<std::size_t>(i)];
            Phase const p = x.phase();
            any_exec |= p == EXEC;
            any_apr |= p == APR;
            any_pre |= p == PRE;
            any_done |= p == DONE;
            all_closed &= (p == DONE || p == CANC || p == REJ);
            ini = std::min(ini, x.inicio);
            alta = std::min(alta, x.alta);
            fe = std::max(fe, x.fecha_estado);
            if(x.fin)
                fin = fin ? std::max(*fin, *x.fin) : *x.fin;
            else
                fin_null = true;
            prio = std::min(prio, x.prioridad);
        }
        grp.estado = any_exec ? kEstadoEnEjecucion
            : all_closed      ? (any_done ? kEstadoFinalizado : kEstadoCancelado)
            : any_apr         ? kEstadoAprobada
            : any_pre         ? kEstadoEnEstudio
                              : kEstadoEnEjecucion;
        grp.inicio = ini;
        grp.alta = alta;
        grp.fecha_estado = fe;
        grp.fin = fin_null && grp.phase() != DONE ? std::nullopt : fin;
        grp.cierre = fe;
        grp.prioridad = prio;
        grp.was_approved = true;
        grp.cini = -1;
        grp.clasif = 1;
        for(int k = 0; k < kNumYears; ++k)
        {
            auto const kk = static_cast<std::size_t>(k);
            std::vector<OptMoney> b, im, ap, fa;
            for(int i : grp.comps)
            {
                Ini const& x = c.inis[static_cast<std::size_t>(i)];
                b.push_back(x.budget[kk]);
                im.push_back(x.importe[kk]);
                ap.push_back(x.aprobado[kk]);
                fa.push_back(x.fact[kk]);
            }
            grp.budget[kk] = sum_opt(b);
            grp.importe[kk] = sum_opt(im);
            grp.aprobado[kk] = sum_opt(ap);
            grp.fact[kk] = sum_opt(fa);
        }
        static constexpr std::string_view pat[] = {"Programa ", "Plan de ",
            "Programa de transformación: ", "Iniciativa tractora de "};
        int const gy = 2000 + grp.yy;
        std::string name;
        for(int attempt = 0; attempt < 8 && name.empty(); ++attempt)
        {
            std::string candidate;
            int const v = r.range(0, 3);
            if(v == 0)
                candidate = cat(pat[0], kL1[grp.l1], " en ", kUnidades[grp.unidad], ' ', gy);
            else if(v == 1)
                candidate = cat(pat[1], l2_table()[static_cast<std::size_t>(grp.l2)].name, " - ", kUnidades[grp.unidad],
                    ' ', gy);
            else if(v == 2)
                candidate = cat(pat[2], l2_table()[static_cast<std::size_t>(grp.l2)].name, " (", kUnidades[grp.unidad],
                    ')');
            else
                candidate = cat(pat[3], l2_table()[static_cast<std::size_t>(grp.l2)].name, " en ",
                    kUnidades[grp.unidad]);
            if(c.names.insert(candidate).second)
                name = candidate;
        }
        if(name.empty())
        {
            name = cat("Programa ", kL1[grp.l1], " (", grp.pid, ')');
            c.names.insert(name);
        }
        grp.nombre = name;
    }
}

} // namespace portfolio::generator
