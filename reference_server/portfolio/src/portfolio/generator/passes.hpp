// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// The generation passes, in the order generate_database() runs them:
//   A. people, portfolio ids and each initiative's base attributes, dates and amounts;
//   B. groups (programmes) formed from existing initiatives;
//   C. each initiative's child tables (hechos, facturacion, avance, documentos, ...);
//   D. group aggregates, then the 1:1 tables (datos_relevantes, iniciativas, ...);
//   E. grupos_iniciativas and the reference tables (parametros, etiquetas_destacadas), then the indexes.
#include "portfolio/generator/model.hpp"
#include "portfolio/generator/random.hpp"
#include "portfolio/generator/schema.hpp"

#include <cstddef>
#include <cstdint>

namespace portfolio::generator {

// Pass A (initiatives.cpp)
People make_people(std::uint64_t seed);
void assign_ids(Ctx& c);
void gen_base(Ctx& c, Ini& x, Rng& r);
// Pass B (initiatives.cpp)
void form_groups(Ctx& c);
// Pass C (child_tables.cpp)
void gen_children(Ctx& c, Tables& t, std::size_t i);
// Pass D (summary_tables.cpp)
void aggregate_group(Ctx& c, Ini& g);
void insert_one_to_one(Ctx& c, Tables& t, std::size_t i);
// Pass E (summary_tables.cpp, reference_tables.cpp)
void insert_grupos(Ctx& c, Tables& t);
void insert_destacadas(Tables& t);
void insert_parametros(agentio::sqlite::connection& db, Tables& t);
void create_indexes(agentio::sqlite::connection& db, Tables& t);

} // namespace portfolio::generator
