// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Pass C: the phrase and date helpers shared by the child-table writers, and
// gen_children(), which runs the writers of one initiative in a fixed order
// on the initiative's own random stream.
#include "portfolio/generator/child_tables.hpp"
#include "portfolio/generator/passes.hpp"
#include "portfolio/generator/text.hpp"

#include <algorithm>

namespace portfolio::generator {

std::string_view objetivo(Ini const& x)
{
    return l2_table()[static_cast<std::size_t>(x.l2)].objetivo;
}
std::string contexto(Ini const& x)
{
    if(x.generic_ctx)
        return cat("en el ámbito de ", kUnidades[x.unidad]);
    return std::string(unit_contexts()[static_cast<std::size_t>(x.unidad)][static_cast<std::size_t>(x.ctx)]);
}
std::string objeto(Ini const& x)
{
    auto const& o = l2_table()[static_cast<std::size_t>(x.l2)].objetos;
    return std::string(o[static_cast<std::size_t>(x.obj) % o.size()]);
}
/// "la implantación de plataforma de mantenimiento predictivo en subestaciones"
std::string accion_nombre(Ini const& x)
{
    return cat(kVerbos[x.verb].articulo, ' ', lower_first(kVerbos[x.verb].name), ' ', objeto(x), ' ', contexto(x));
}
/// "del despliegue de ..." / "de la implantación de ..."
std::string de_accion(Ini const& x)
{
    std::string const a = accion_nombre(x);
    return a.rfind("el ", 0) == 0 ? "del " + a.substr(3) : "de " + a;
}
/// "al despliegue de ..." / "a la implantación de ..."
std::string a_accion(Ini const& x)
{
    std::string const a = accion_nombre(x);
    return a.rfind("el ", 0) == 0 ? "al " + a.substr(3) : "a " + a;
}
std::pair<int, int> active_years(Ini const& x)
{
    int a = 0, b = 0;
    for(int k = 0; k < kNumYears; ++k)
        if(x.budget[static_cast<std::size_t>(k)] || x.importe[static_cast<std::size_t>(k)])
        {
            if(!a)
                a = kFirstYear + k;
            b = kFirstYear + k;
        }
    return {a, b};
}
std::string periodo_txt(Ini const& x)
{
    auto [a, b] = active_years(x);
    if(!a)
        return "";
    return a == b ? cat("el ejercicio ", a) : cat("el periodo ", a, '-', b);
}
Date stop_date(Ini const& x)
{
    Date s = x.phase() == DONE && x.fin ? *x.fin : (x.phase() == CANC || x.phase() == REJ) ? x.cierre : kToday;
    return std::min(s, kToday);
}
int pick_person(Ctx const& c, Ini const& x, Rng& r)
{
    double const u = r.uniform();
    if(u < 0.35)
        return x.ref_neg;
    if(u < 0.6)
        return x.resp_ti;
    if(u < 0.75 && x.ref_bi >= 0)
        return x.ref_bi;
    return c.people.pmo[r.index(c.people.pmo.size())];
}

/// Increasing dates in [lo, hi] (strictly increasing when the window allows it);
/// if last_at_hi the last one is exactly hi.
std::vector<Date> chain_dates(Rng& r, Date lo, Date hi, int k, bool last_at_hi)
{
    std::vector<Date> d;
    if(hi < lo)
        lo = hi;
    int const span = days_between(lo, hi);
    if(span < 2 * k + 1)
    { // tiny window: evenly spaced, possibly on the same day
        for(int j = 0; j < k; ++j)
            d.push_back(lo + days{k > 1 ? span * j / (k - 1) : (last_at_hi ? span : 0)});
        return d;
    }
    Date cur = lo + days{r.range(0, std::max(0, span / (k + 1)))};
    d.push_back(cur);
    for(int j = 1; j < k; ++j)
    {
        int const rem = k - j;
        int const step = std::max(1, days_between(cur, hi) / (rem + 1));
        cur = cur + days{r.range(1, step)};
        d.push_back(cur);
    }
    if(last_at_hi)
        d.back() = hi;
    return d;
}

std::vector<int> distinct(Rng& r, int n, int k)
{
    std::vector<int> v(static_cast<std::size_t>(n));
    for(int i = 0; i < n; ++i)
        v[static_cast<std::size_t>(i)] = i;
    k = std::min(k, n);
    for(int i = 0; i < k; ++i)
        std::swap(v[static_cast<std::size_t>(i)],
            v[static_cast<std::size_t>(i) + r.index(static_cast<std::size_t>(n - i))]);
    v.resize(static_cast<std::size_t>(k));
    return v;
}
int count_from(Rng& r, std::span<double const> w)
{
    return static_cast<int>(r.weighted(w));
}
Date random_between(Rng& r, Date lo, Date hi)
{
    return hi < lo ? lo : lo + days{r.range(0, days_between(lo, hi))};
}

void gen_children(Ctx& c, Tables& t, std::size_t i)
{
    Ini& x = c.inis[i];
    Rng r = Rng::stream(c.opt.seed, x.is_group ? P_GROUPCHILD : P_CHILD, i);
    Work w;
    if(!x.is_group)
    {
        gen_hechos(c, t, x, r, w);
        gen_facturacion(c, t, x, r, w);
        gen_wbes(t, x, r, w);
        gen_avance(c, t, x, r, w);
        gen_hitos(c, t, x, r, w);
        gen_fichas(c, t, x, r, w);
        gen_ltp(c, t, x, r);
        gen_beneficios(t, x, r);
    }
    gen_etiquetas(c, t, x, r);
    if(!x.is_group)
        gen_dependencias(c, t, x, i, r);
    gen_notas(c, t, x, r, w);
    gen_acciones(c, t, x, r, w);
    gen_descripciones(c, t, x, r);
    gen_justificaciones(c, t, x, r);
    gen_estado_especial(c, t, x, r);
    if(!x.is_group)
    {
        gen_impacto(c, t, x, r);
        gen_memos(c, t, x, r);
    }
    gen_documentos(c, t, x, r, w);
    Date act = std::max(x.alta, x.fecha_estado);
    for(Date d : w.activity)
        act = std::max(act, d);
    x.fecha_act = std::min(act, kToday);
}

} // namespace portfolio::generator
