// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The sentences agentio writes for the model and the user, in Spanish: the
// agent's language (its prompt, its tools' messages and its errors).
#ifndef PORTFOLIO_AGENT_MESSAGES_HPP
#define PORTFOLIO_AGENT_MESSAGES_HPP

#include <agentio/messages.hpp>

namespace portfolio::agent {

inline constexpr agentio::messages spanish_messages{
    .type_mismatch = "se esperaba {expected}, se recibió {actual}",
    .missing_field = "falta este campo obligatorio",
    .unknown_field_none_allowed = "campo desconocido (no se admite ninguno)",
    .unknown_field = "campo desconocido (se admiten: {allowed})",
    .not_one_of = "debe ser uno de {values}",
    .not_equal = "debe ser {value}",
    .out_of_range = "debe ser {operator} {bound}",
    .too_short = "debe tener al menos {n} caracteres",
    .too_long = "debe tener como máximo {n} caracteres",
    .too_few_items = "debe tener al menos {n} elementos",
    .too_many_items = "debe tener como máximo {n} elementos",
    .too_few_fields = "debe tener al menos {n} campos",
    .too_many_fields = "debe tener como máximo {n} campos",
    .no_alternative = "no coincide con ninguna de las formas admitidas",
    .not_exactly_one = "debe coincidir con exactamente una de las formas admitidas (coincide con {n})",
    .nothing_allowed = "no se admite ningún valor aquí",
    .excluded_form = "no debe coincidir con la forma excluida",
    .schema_too_deep = "el esquema se anida demasiado para este valor",
    .schema_too_complex = "el esquema es demasiado complejo para comprobar este valor",
    .root = "(raíz)",
    .more_errors = "y {n} errores más",
    .unknown_tool = "herramienta desconocida '{tool}'; herramientas disponibles: {available}",
    .invalid_arguments = "Argumentos no válidos para la herramienta '{tool}':",
    .arguments_not_convertible = "Los argumentos de la herramienta '{tool}' no se pudieron convertir",
    .tool_failed = "La herramienta '{tool}' falló: {reason}",
    .arguments_not_json = "Los argumentos no son JSON válido: {input}",
    .tool_timed_out = "La herramienta '{tool}' no respondió en {seconds} s",
    .approval_rejected = "El usuario rechazó la llamada a '{tool}': {reason}",
    .approval_rejected_without_reason = "El usuario rechazó la llamada a '{tool}'",
    .provider_unreachable = "No se pudo conectar con el proveedor del modelo: {message}",
    .provider_http_error = "El proveedor del modelo respondió con un error ({status}): {message}",
    .provider_stream_error = "El proveedor del modelo informó de un error: {message}",
    .provider_answer_cut = "La respuesta del modelo se interrumpió: {message}",
    .provider_overloaded = "El proveedor del modelo está saturado; inténtelo de nuevo en unos momentos.",
    .server_overloaded = "El servidor está sobrecargado; inténtelo de nuevo en unos momentos.",
    .cancelled = "Cancelado.",
    .token_limit = "La respuesta se cortó al alcanzar el límite de tokens.",
    .refused = "El modelo declinó responder a esta petición.",
    .context_too_long = "La conversación es demasiado larga para el modelo.",
    .round_limit = "Se alcanzó el límite de iteraciones",
    .run_deadline = "Se agotó el tiempo máximo de la conversación.",
};

} // namespace portfolio::agent

#endif
