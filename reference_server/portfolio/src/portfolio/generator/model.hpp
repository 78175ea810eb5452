// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// The generator's model: the people, one Ini per initiative (its attributes,
// amounts and the aggregates filled while writing its child tables), and the
// context shared by the passes.
#include "portfolio/db_generator.hpp"
#include "portfolio/generator/calendar.hpp"
#include "portfolio/generator/money.hpp"
#include "portfolio/generator/vocabulary.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace portfolio::generator {

struct People
{
    std::vector<std::string> names;
    std::vector<std::vector<int>> by_unit;
    std::vector<int> bi, ti, pmo;
};

struct Ini
{
    std::string pid;
    int prefix = 0, yy = 0, seq = 0;
    std::string nombre;
    int unidad = 0, tipo = 0, origen = 0, estado = 0, l1 = 0, l2 = 0, prioridad = 0, alineacion = 0, capex = 0;
    int cini = -1, clasif = 1;
    int ref_neg = 0, ref_bi = -1, resp_ti = 0, proveedor = -1;
    int verb = 0, obj = 0, ctx = 0;
    bool generic_ctx = false; // framework outside the unit's usual ones: no unit-specific context phrase
    Date alta, inicio, fecha_estado;
    std::optional<Date> fin;
    Date cierre; // cancellation / rejection date (CANC, REJ)
    bool was_approved = false;
    double perf = 1.0;
    std::array<OptMoney, kNumYears> budget{}, importe{}, aprobado{}, fact{};
    // groups
    bool is_group = false;
    int group = -1;
    std::vector<int> comps;
    // aggregates filled while generating the child tables
    int n_hechos = 0, n_docs = 0, n_docs_ok = 0, n_notas = 0, n_acciones = 0, n_acc_pend = 0, n_etiq = 0, n_dep = 0,
        n_ltp = 0, n_wbes = 0, n_benef = 0;
    std::string etiquetas;
    OptMoney benef_eur;
    std::optional<double> avance;
    std::optional<Date> fecha_avance;
    int semaforo = -1;
    int estado_especial = -1;
    bool memo = false, aatt = false;
    std::optional<Date> fecha_ult_nota;
    std::string ult_nota;
    std::optional<Date> prox_accion, prox_hito, fecha_aprob;
    Date fecha_act;
    std::string descripcion_corta;
    std::string codigo_jira;
    OptMoney van;
    std::optional<double> tir, payback;

    Phase phase() const { return kEstados[estado].phase; }
    int first_year_active() const
    {
        for(int k = 0; k < kNumYears; ++k)
            if(budget[static_cast<std::size_t>(k)] || importe[static_cast<std::size_t>(k)])
                return kFirstYear + k;
        return 0;
    }
};

inline std::string make_pid(int prefix, int yy, int seq)
{
    std::string s(kPrefixes[prefix].code);
    s += '_';
    s += static_cast<char>('0' + yy / 10);
    s += static_cast<char>('0' + yy % 10);
    s += '_';
    std::string n = std::to_string(seq);
    while(n.size() < 3)
        n = "0" + n;
    return s + n;
}

struct Ctx
{
    generator_options opt;
    People people;
    std::vector<Ini> inis;
    std::unordered_set<std::string> names;
    int invoice_no = 0;
    std::string const& person(int idx) const { return people.names[static_cast<std::size_t>(idx)]; }
};

/// The planned end: fecha_fin, or a year after the start when there is none.
inline Date plan_end(Ini const& x)
{
    Date e = x.fin ? *x.fin : add_months(x.inicio, 12);
    return e <= x.inicio ? x.inicio + days{30} : e;
}

} // namespace portfolio::generator
