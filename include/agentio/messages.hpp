//
// agentio/messages.hpp
// ~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The sentences agentio writes itself, for the model (an argument that does
// not validate, a tool that failed) and for people (the provider is down, the
// run took too long). They are data an application supplies, in its own
// language; the defaults are plain English.
//

#ifndef AGENTIO_MESSAGES_HPP
#define AGENTIO_MESSAGES_HPP

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace agentio {

/** The texts agentio writes, one member a sentence.

    A text may name values in braces, replaced when it is written (see
    @ref format_message); each member's comment lists the names it gets.
    An application passes its own, for example in Spanish:

    @code
    inline constexpr agentio::messages spanish{
        .missing_field = "falta este campo obligatorio",
        .unknown_tool = "herramienta desconocida '{tool}'; herramientas disponibles: {available}",
        // ... members not given keep their English default
    };
    @endcode
*/
struct messages
{
    // --- argument validation: one problem at a JSON Pointer -----------------
    /// {expected}, {actual}: JSON type names
    std::string_view type_mismatch = "expected {expected}, got {actual}";
    std::string_view missing_field = "required field is missing";
    std::string_view unknown_field_none_allowed = "unknown field (none is allowed)";
    /// {allowed}: the field names allowed, comma-separated
    std::string_view unknown_field = "unknown field (allowed: {allowed})";
    /// {values}: the values allowed, comma-separated
    std::string_view not_one_of = "must be one of {values}";
    /// {value}
    std::string_view not_equal = "must be {value}";
    /// {operator} (`>=`, `<=`, `>`, `<`), {bound}
    std::string_view out_of_range = "must be {operator} {bound}";
    /// {n} in each of the six below
    std::string_view too_short = "must have at least {n} characters";
    std::string_view too_long = "must have at most {n} characters";
    std::string_view too_few_items = "must have at least {n} items";
    std::string_view too_many_items = "must have at most {n} items";
    std::string_view too_few_fields = "must have at least {n} fields";
    std::string_view too_many_fields = "must have at most {n} fields";
    std::string_view no_alternative = "matches none of the allowed forms";
    /// {n}: how many forms it matches
    std::string_view not_exactly_one = "must match exactly one of the allowed forms (matches {n})";
    std::string_view nothing_allowed = "no value is allowed here";
    std::string_view excluded_form = "must not match the excluded form";
    std::string_view schema_too_deep = "the schema nests too deeply for this value";
    std::string_view schema_too_complex = "the schema is too complex to check for this value";
    /// How the root is named where a JSON Pointer would be empty.
    std::string_view root = "(root)";
    /// {n}: errors not listed
    std::string_view more_errors = "and {n} more errors";

    // --- tool calls: results the model reads --------------------------------
    /// {tool}, {available}: the tool names, comma-separated
    std::string_view unknown_tool = "unknown tool '{tool}'; available tools: {available}";
    /// {tool}; the problems follow, one a line
    std::string_view invalid_arguments = "Invalid arguments for tool '{tool}':";
    /// {tool}
    std::string_view arguments_not_convertible = "The arguments of tool '{tool}' could not be converted";
    /// {tool}, {reason}
    std::string_view tool_failed = "Tool '{tool}' failed: {reason}";
    /// {input}: the text the model sent
    std::string_view arguments_not_json = "The arguments are not valid JSON: {input}";
    /// {tool}, {seconds}
    std::string_view tool_timed_out = "The tool '{tool}' did not answer within {seconds} s";
    /// {tool}, {reason}: a person decided not to run the call
    std::string_view approval_rejected = "The user rejected the call to '{tool}': {reason}";
    /// {tool}
    std::string_view approval_rejected_without_reason = "The user rejected the call to '{tool}'";

    // --- a run's end: what the user reads -----------------------------------
    /// {message}: the provider's or the transport's text, in each of the four below
    std::string_view provider_unreachable = "Could not reach the model provider: {message}";
    /// and {status}: the HTTP status
    std::string_view provider_http_error = "The model provider answered with an error ({status}): {message}";
    std::string_view provider_stream_error = "The model provider reported an error: {message}";
    std::string_view provider_answer_cut = "The model's answer was cut off: {message}";
    std::string_view provider_overloaded = "The model provider is overloaded; try again in a moment.";
    std::string_view server_overloaded = "The server is overloaded; try again in a moment.";
    std::string_view cancelled = "Cancelled.";
    std::string_view token_limit = "The answer was cut off: it reached the token limit.";
    std::string_view refused = "The model declined to answer this request.";
    std::string_view context_too_long = "The conversation is too long for the model.";
    std::string_view round_limit = "Reached the iteration limit";
    std::string_view run_deadline = "The conversation took too long.";
};

/// One value for a name in a message.
using message_argument = std::pair<std::string_view, std::string_view>;

/** Writes a message: each `{name}` of `text` replaced by its value.

    A name without a value, and a brace that opens no name, stay as written.
*/
inline std::string format_message(std::string_view text, std::initializer_list<message_argument> args = {})
{
    std::string out;
    out.reserve(text.size() + 32);
    while(!text.empty())
    {
        auto const open = text.find('{');
        out.append(text.substr(0, open));
        if(open == std::string_view::npos)
            break;
        text.remove_prefix(open);
        auto const close = text.find('}');
        std::string_view const name = close == std::string_view::npos ? std::string_view{} : text.substr(1, close - 1);
        auto const* arg = std::find_if(args.begin(), args.end(),
            [&](message_argument const& a) { return a.first == name; });
        if(close == std::string_view::npos || arg == args.end())
        {
            out.push_back('{');
            text.remove_prefix(1);
            continue;
        }
        out.append(arg->second);
        text.remove_prefix(close + 1);
    }
    return out;
}

/** The library's sentences in Spanish, for applications that speak it (each
    may still override any of them). */
inline constexpr messages spanish_messages{
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

} // namespace agentio

#endif
