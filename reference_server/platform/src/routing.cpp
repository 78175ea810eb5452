// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "routing.hpp"

namespace platform {

agentio::agent::keyword_rules routing_rules()
{
    agentio::agent::keyword_rules r;
    // Several tasks, or work that needs a plan (seed 002: "then", "after that", "comprehensive").
    r.plan_execute = {"luego", "después", "a continuación", "primero", "finalmente", "por último", "compara",
        "comparación", "informe", "resumen completo", "paso a paso", "y además", "también", "then", "after that",
        "first", "finally", "compare", "comparison", "report", "comprehensive", "step by step", "and also"};
    // Joins of clauses: two of them (or one with a plan word) make a batch of tasks.
    r.clause_separators = {";", "y", "and"};
    r.plan_threshold = 2;
    // Exploratory questions, where each step depends on what the last found.
    r.react = {"investiga", "averigua", "busca", "encuentra", "por qué", "explora", "descubre", "investigate",
        "find out", "search", "look up", "why", "explore", "figure out"};
    r.otherwise = agentio::agent::strategy::tools;
    return r;
}

} // namespace platform
