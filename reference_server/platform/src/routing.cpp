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
    // Messages that need no tool: greetings, thanks, goodbyes, and rewrites of the last answer. A message of
    // these words and at most two others is plain chat: one model call without the tool menu.
    r.chat = {"hola", "buenas", "buenos días", "buenas tardes", "buenas noches", "qué tal", "gracias", "muchas gracias",
        "mil gracias", "perfecto", "genial", "vale", "de acuerdo", "adiós", "hasta luego", "hasta pronto", "reescribe",
        "reformula", "resume", "resúmelo", "acórtalo", "simplifícalo", "tradúcelo", "traduce", "respuesta",
        "tu respuesta", "anterior", "más corto", "más corta", "más breve", "más claro", "más clara", "más sencillo",
        "en inglés", "en español", "hello", "hi", "hey", "good morning", "good evening", "how are you", "thanks",
        "thank you", "great", "ok", "okay", "bye", "goodbye", "rewrite", "rephrase", "summarize", "shorten",
        "translate", "your answer", "answer", "shorter", "simpler", "clearer", "in english", "in spanish"};
    r.chat_other_words = 2;
    r.otherwise = agentio::agent::strategy::tools;
    return r;
}

} // namespace platform
