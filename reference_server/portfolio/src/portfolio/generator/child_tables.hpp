// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// Pass C: each initiative's child tables. What the writers of one initiative
// share (Work: approval dates, invoices, progress, milestones, activity dates),
// the phrase helpers they all use, and the writers themselves, called by
// gen_children() in a fixed order.
#include "portfolio/generator/model.hpp"
#include "portfolio/generator/random.hpp"
#include "portfolio/generator/schema.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace portfolio::generator {

struct AvanceRow
{
    Date fecha;
    double real, previsto;
    int sem;
};
struct Hito
{
    std::string name;
    Date planned;
    std::optional<Date> real;
    int estado; // index in kHitoEstados
};
struct Work
{
    std::array<std::optional<Date>, kNumYears> aprob_date{};
    std::vector<std::pair<int, i64>> invoices; // (month index, cents)
    std::vector<AvanceRow> avance;
    std::vector<Hito> hitos;
    std::vector<Date> activity;
};

// Phrases about an initiative.
std::string_view objetivo(Ini const& x);
std::string contexto(Ini const& x);
std::string objeto(Ini const& x);
/// "la implantación de plataforma de mantenimiento predictivo en subestaciones"
std::string accion_nombre(Ini const& x);
/// "del despliegue de ..." / "de la implantación de ..."
std::string de_accion(Ini const& x);
/// "al despliegue de ..." / "a la implantación de ..."
std::string a_accion(Ini const& x);
/// First and last year with an amount (0, 0 when none).
std::pair<int, int> active_years(Ini const& x);
/// "el ejercicio 2025" / "el periodo 2024-2026" ("" when no amounts).
std::string periodo_txt(Ini const& x);

/// Where the initiative's history stops: its end when finished, its closing date when cancelled or rejected, else today.
Date stop_date(Ini const& x);
int pick_person(Ctx const& c, Ini const& x, Rng& r);
/// Increasing dates in [lo, hi] (strictly increasing when the window allows it);
/// if last_at_hi the last one is exactly hi.
std::vector<Date> chain_dates(Rng& r, Date lo, Date hi, int k, bool last_at_hi);
/// k distinct indices out of n (partial Fisher-Yates), in draw order.
std::vector<int> distinct(Rng& r, int n, int k);
int count_from(Rng& r, std::span<double const> w);
Date random_between(Rng& r, Date lo, Date hi);

// The writers (execution_tables.cpp, follow_up_tables.cpp, documents.cpp).
void gen_hechos(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w);
void gen_facturacion(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w);
void gen_wbes(Tables& t, Ini& x, Rng& r, Work& w);
void gen_avance(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w);
void gen_hitos(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w);
void gen_fichas(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w);
void gen_ltp(Ctx& c, Tables& t, Ini& x, Rng& r);
void gen_beneficios(Tables& t, Ini& x, Rng& r);
void gen_etiquetas(Ctx& c, Tables& t, Ini& x, Rng& r);
void gen_dependencias(Ctx& c, Tables& t, Ini& x, std::size_t self, Rng& r);
void gen_notas(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w);
void gen_acciones(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w);
void gen_descripciones(Ctx& c, Tables& t, Ini& x, Rng& r);
void gen_justificaciones(Ctx& c, Tables& t, Ini& x, Rng& r);
void gen_estado_especial(Ctx& c, Tables& t, Ini& x, Rng& r);
void gen_impacto(Ctx& c, Tables& t, Ini& x, Rng& r);
void gen_memos(Ctx& c, Tables& t, Ini& x, Rng& r);
void gen_documentos(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w);

} // namespace portfolio::generator
