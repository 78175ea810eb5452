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
    /// {tool}: the call's start could not be recorded (the run lost its process), so it did not run
    std::string_view call_not_recorded = "The call to '{tool}' was not run: it could not be recorded";
    /** {tool}, {reason}: a call that may or may not have acted before a crash, which a person chose not
        to run again */
    std::string_view call_in_doubt_rejected =
        "The call to '{tool}' was interrupted and may or may not have taken effect; the user chose not to run it "
        "again. {reason}";

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
    /// {tokens}: the latest turn's estimated size, system prompt and tools included; {window}: what the model reads
    std::string_view context_turn_too_big =
        "The latest message is too long for the model: about {tokens} tokens, and it reads at most {window}.";
    // --- compaction (llm::fit_context): the older turns summarized ----------
    /// The summarizing call's system prompt.
    std::string_view compaction_instructions =
        "You summarize a conversation between a user and an assistant so that the assistant can continue it without "
        "its older messages. Keep what the rest of the conversation may need: the user's goals and preferences, "
        "facts, names, figures, dates and decisions, what the tools returned that still matters, and the questions "
        "left open. Write in the conversation's language, in plain prose or short lists, with no preamble.";
    /// Opens the summarizing call's message; the conversation follows it, between <conversation> tags.
    std::string_view compaction_request = "Summarize this conversation.";
    /// Before an earlier summary that the new one must include.
    std::string_view compaction_previous = "Summary of what came before it, to include in yours:";
    /// Heads the summary where the model reads it (after the system prompt).
    std::string_view compaction_heading =
        "Summary of the earlier part of this conversation (its messages are no longer shown):";
    std::string_view round_limit = "Reached the iteration limit";
    std::string_view run_deadline = "The conversation took too long.";

    // --- typed answers (orchestrator::run<T>) --------------------------------
    /// Sent back to the model when its answer does not follow the schema. {errors}: one a line, `pointer: message`
    std::string_view answer_invalid =
        "Your answer does not follow the JSON Schema it must follow:\n{errors}\nAnswer again with only the JSON "
        "value, corrected.";
    /// The problem (at the root) of an answer without a JSON object
    std::string_view answer_not_json = "the answer has no JSON object";
    /// The run's failure. {attempts}, {errors}: the last answer's problems, one a line
    std::string_view answer_failed = "The model did not give a valid answer in {attempts} attempts:\n{errors}";

    // --- ReAct (agent::react): the prompt's instructions --------------------
    // The protocol's markers (`Question:`, `Thought:`, `Action:`, `Action Input:`,
    // `Observation:`, `Final Answer:`) are not texts: they stay in English.
    std::string_view react_intro =
        "Answer the following questions as best you can. You have access to the following tools:";
    /// One tool of the list. {name}, {description}, {schema}: its input's JSON Schema
    std::string_view react_tool = "{name}: {description}\n    Action Input (JSON Schema): {schema}";
    std::string_view react_format = "Use the following format:";
    /// What follows `Question:` in the format; the next six follow their markers too
    std::string_view react_question = "the input question you must answer";
    std::string_view react_thought = "you should always think about what to do";
    /// {tools}: the tool names, comma-separated
    std::string_view react_action = "the action to take, should be one of [{tools}]";
    std::string_view react_action_input = "the input to the action, a JSON object that matches the tool's schema";
    std::string_view react_observation = "the result of the action";
    std::string_view react_repeat = "... (this Thought/Action/Action Input/Observation can repeat N times)";
    std::string_view react_final_thought = "I now know the final answer";
    std::string_view react_final_answer = "the final answer to the original input question";
    std::string_view react_rules = "Write one Action and its Action Input at a time, then stop: the Observation "
                                   "will be given to you. Never write an Observation yourself.";
    std::string_view react_begin = "Begin!";
    /// Sent when the step limit comes: the model answers from what it has (keep `Final Answer:`)
    std::string_view react_out_of_steps = "You have no steps left. Do not take any more actions: using only the "
                                          "observations above, write your final answer now, as 'Final Answer: ...'.";

    // --- ReAct: a reply that does not follow the format (the model reads it) --
    std::string_view react_missing_action = "Invalid Format: Missing 'Action:' after 'Thought:'";
    std::string_view react_missing_tool = "Invalid Format: Missing the tool name after 'Action:'";
    std::string_view react_missing_action_input = "Invalid Format: Missing 'Action Input:' after 'Action:'";
    /// {input}: what the model wrote after `Action Input:`
    std::string_view react_input_not_json =
        "Invalid Format: 'Action Input:' must be followed by a JSON object, not: {input}";
    std::string_view react_action_and_answer = "Invalid Format: the reply has both an 'Action:' and a "
                                               "'Final Answer:'; write either one action or the final answer";
    std::string_view react_empty_answer = "Invalid Format: Missing the answer after 'Final Answer:'";

    // --- plan and execute (agent::plan_execute): the prompts ----------------
    /// The planner's request. {request}: the user's; {tools}: the tools, one
    /// a line (`plan_tool` each, or `plan_no_tools`); {min}, {max}: the steps allowed
    std::string_view plan_prompt =
        "Make a plan to answer the request below: {min} to {max} steps, in order, each one a task that can be "
        "done on its own with the tools listed, given the results of the steps before it. The results of the "
        "steps must be enough to write the answer.\n\nTools:\n{tools}\n\nRequest: {request}\n\n"
        "Reply with only a JSON object, and no other text: {\"steps\": [\"first step\", \"second step\"]}";
    /// The replanner's request: the names of `plan_prompt`, and {plan}: the previous steps (`plan_step_item`
    /// each), {results}: their results (`plan_result_item` each), {answer}, {verdict}: the verifier's reply
    std::string_view plan_replan_prompt =
        "A plan was carried out to answer the request below, but the answer written from its results was not "
        "judged to answer it fully.\n\nRequest: {request}\n\nThe plan:\n{plan}\n\nThe results of its steps:\n"
        "{results}\n\nThe answer:\n{answer}\n\nThe reviewer's verdict: {verdict}\n\nMake a new plan of {min} to "
        "{max} steps, in order, that gets what is missing; each step a task that can be done on its own with the "
        "tools listed, given the results of the steps before it.\n\nTools:\n{tools}\n\n"
        "Reply with only a JSON object, and no other text: {\"steps\": [\"first step\", \"second step\"]}";
    /// One tool of {tools}. {name}, {description}
    std::string_view plan_tool = "- {name}: {description}";
    std::string_view plan_no_tools = "(none)";
    /// Sent back when a reply is not a plan. {errors}: one a line, `pointer: message`; {min}, {max}
    std::string_view plan_invalid = "Your reply is not a valid plan:\n{errors}\nReply with only a JSON object "
                                    "{\"steps\": [...]} whose steps are {min} to {max} non-empty strings.";
    /// The problem (at the root) of a reply without a JSON object
    std::string_view plan_not_json = "the reply has no JSON object";
    /// One step of a plan. {index}: from 1, {step}
    std::string_view plan_step_item = "{index}. {step}";
    /// One step's result. {index}, {step}, {result}
    std::string_view plan_result_item = "{index}. {step}\n{result}";
    /// What a step's run is asked. {request}, {step}, {index}: from 1, {count}: the plan's steps,
    /// {previous}: `plan_previous_results`, or nothing for the first step
    std::string_view plan_step_prompt =
        "You are carrying out step {index} of {count} of a plan made to answer this request: {request}\n\n"
        "{previous}Your step: {step}\n\nDo this step only, with the tools if you need them, and reply with its "
        "result.";
    /// {results}: the previous steps' results (`plan_result_item` each)
    std::string_view plan_previous_results = "Results of the previous steps:\n{results}\n\n";
    /// The request for the answer. {request}, {results}
    std::string_view plan_answer_prompt =
        "Write the answer to the request below from the results of the steps carried out for it. Answer the "
        "request directly, for the person who made it, without describing the steps.\n\nRequest: {request}\n\n"
        "Results:\n{results}";
    /// The verifier's request. {request}, {results}, {answer}, {yes}, {no}: the verdict's tokens
    std::string_view plan_verify_prompt =
        "Does the answer below fully answer the request, given the results of the steps? Reply with exactly one "
        "word: {yes} if it does, {no} if it does not, and nothing else.\n\nRequest: {request}\n\nResults:\n"
        "{results}\n\nAnswer:\n{answer}\n\nReply {yes} or {no}.";

    // --- plan and execute: a run's failures (the user reads them) -----------
    /// {attempts}, {errors}: the last reply's problems, one a line
    std::string_view plan_failed = "The model did not write a valid plan in {attempts} attempts:\n{errors}";
    /// {index}: from 1, {step}
    std::string_view plan_step_needs_approval =
        "Step {index} of the plan ({step}) called a tool that needs a person's approval, which a plan cannot wait for.";

    // --- choosing a strategy (agent::classify): the classifier's prompt ----
    /// {request}: the user's request. The reply must be one of the four labels, exactly.
    std::string_view strategy_prompt =
        "Choose how an assistant with tools should handle the request below. Reply with one label and nothing "
        "else:\n"
        "tools - a direct question that one or two tool calls answer;\n"
        "react - an exploratory question whose next step depends on what each step finds;\n"
        "plan_execute - several distinct tasks, or a comparison or report that needs planned steps;\n"
        "chat - a greeting, thanks, small talk or a rewrite of an earlier answer: no tool is needed.\n\n"
        "Request: {request}\n\nLabel:";

    // --- the steps of a run as a client reads them (chat_completions) --------
    /// {strategy}: tools, react, plan_execute or chat
    std::string_view activity_strategy = "strategy: {strategy}";
    /// {text}: the model's thought (ReAct)
    std::string_view activity_thought = "{text}";
    /// {reason}: what was wrong with the reply (ReAct)
    std::string_view activity_malformed = "reply not in the expected format: {reason}";
    /// {steps}: the steps, `plan_step_item` each (plan and execute)
    std::string_view activity_plan = "plan:\n{steps}";
    /// {index}: from 1, {count}, {text}
    std::string_view activity_step = "step {index}/{count}: {text}";
    /// {verdict}: yes, no or unparseable
    std::string_view activity_verdict = "verification: {verdict}";
    /// {revision}: from 2
    std::string_view activity_replan = "replanning (revision {revision})";

    // --- a program's command line and variables (app::command_line) ---------
    std::string_view usage_heading = "usage:";
    /// {program}
    std::string_view usage_hint = "'{program} --help' shows the usage";
    std::string_view command_missing = "a command is missing";
    /// {command}
    std::string_view command_unknown = "unknown command '{command}'";
    /// {option}
    std::string_view option_unknown = "unknown option '{option}'";
    /// {option}
    std::string_view option_value_missing = "{option}: the value is missing";
    /// {option}, {min}, {max}, {value}; also for a variable (its name as {option})
    std::string_view option_not_a_number = "{option}: expected a whole number from {min} to {max}, got '{value}'";
    /// {option}, {values}: the values allowed, comma-separated, {value}; also for a variable
    std::string_view option_not_one_of = "{option}: expected one of {values}, got '{value}'";
    /// {option}, {other}
    std::string_view option_needs = "{option} needs {other}";
    /// {command}, {argument}: an argument or an option with its value, as the usage writes it
    std::string_view argument_missing = "{command}: {argument} is missing";
    /// {argument}: the same, for a program without commands
    std::string_view required_missing = "{argument} is missing";
    /// {argument}
    std::string_view argument_unexpected = "unexpected argument '{argument}'";

    // --- the weather in words (tools::weather): the WMO codes Open-Meteo gives --
    std::string_view weather_0 = "clear sky";
    std::string_view weather_1 = "mainly clear";
    std::string_view weather_2 = "partly cloudy";
    std::string_view weather_3 = "overcast";
    std::string_view weather_45 = "fog";
    std::string_view weather_48 = "depositing rime fog";
    std::string_view weather_51 = "light drizzle";
    std::string_view weather_53 = "moderate drizzle";
    std::string_view weather_55 = "dense drizzle";
    std::string_view weather_56 = "light freezing drizzle";
    std::string_view weather_57 = "dense freezing drizzle";
    std::string_view weather_61 = "slight rain";
    std::string_view weather_63 = "moderate rain";
    std::string_view weather_65 = "heavy rain";
    std::string_view weather_66 = "light freezing rain";
    std::string_view weather_67 = "heavy freezing rain";
    std::string_view weather_71 = "slight snow fall";
    std::string_view weather_73 = "moderate snow fall";
    std::string_view weather_75 = "heavy snow fall";
    std::string_view weather_77 = "snow grains";
    std::string_view weather_80 = "slight rain showers";
    std::string_view weather_81 = "moderate rain showers";
    std::string_view weather_82 = "violent rain showers";
    std::string_view weather_85 = "slight snow showers";
    std::string_view weather_86 = "heavy snow showers";
    std::string_view weather_95 = "thunderstorm";
    std::string_view weather_96 = "thunderstorm with slight hail";
    std::string_view weather_99 = "thunderstorm with heavy hail";
    /// A code not in the table, or none.
    std::string_view weather_unknown = "unknown";
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
    .call_not_recorded = "La llamada a '{tool}' no se ejecutó: no se pudo registrar",
    .call_in_doubt_rejected = "La llamada a '{tool}' se interrumpió y puede que haya tenido efecto o no; el "
                              "usuario decidió no repetirla. {reason}",
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
    .context_turn_too_big =
        "El último mensaje es demasiado largo para el modelo: unos {tokens} tokens, y lee como mucho {window}.",
    .compaction_instructions =
        "Resumes una conversación entre un usuario y un asistente para que el asistente pueda continuarla sin sus "
        "mensajes antiguos. Conserva lo que el resto de la conversación pueda necesitar: los objetivos y "
        "preferencias del usuario, los hechos, nombres, cifras, fechas y decisiones, lo que devolvieron las "
        "herramientas que aún importe y las preguntas pendientes. Escribe en el idioma de la conversación, en prosa "
        "sencilla o listas breves, sin preámbulo.",
    .compaction_request = "Resume esta conversación.",
    .compaction_previous = "Resumen de lo anterior, que el tuyo debe incluir:",
    .compaction_heading = "Resumen de la parte anterior de esta conversación (sus mensajes ya no se muestran):",
    .round_limit = "Se alcanzó el límite de iteraciones",
    .run_deadline = "Se agotó el tiempo máximo de la conversación.",
    .answer_invalid = "Tu respuesta no sigue el JSON Schema que debe seguir:\n{errors}\nResponde de nuevo solo con "
                      "el valor JSON, corregido.",
    .answer_not_json = "la respuesta no tiene ningún objeto JSON",
    .answer_failed = "El modelo no dio una respuesta válida en {attempts} intentos:\n{errors}",
    .react_intro = "Responde lo mejor que puedas a las preguntas siguientes. Tienes acceso a estas herramientas:",
    .react_tool = "{name}: {description}\n    Action Input (JSON Schema): {schema}",
    .react_format = "Usa este formato:",
    .react_question = "la pregunta que debes responder",
    .react_thought = "piensa siempre qué hacer",
    .react_action = "la acción que vas a realizar, una de [{tools}]",
    .react_action_input = "la entrada de la acción, un objeto JSON que cumple el esquema de la herramienta",
    .react_observation = "el resultado de la acción",
    .react_repeat = "... (este Thought/Action/Action Input/Observation puede repetirse N veces)",
    .react_final_thought = "ya sé la respuesta final",
    .react_final_answer = "la respuesta final a la pregunta original",
    .react_rules = "Escribe una sola Action con su Action Input cada vez y detente: la Observation se te dará. "
                   "No escribas nunca una Observation tú mismo.",
    .react_begin = "¡Empieza!",
    .react_out_of_steps = "No te quedan pasos. No realices más acciones: con las observaciones anteriores, escribe "
                          "ya tu respuesta final, como 'Final Answer: ...'.",
    .react_missing_action = "Formato no válido: falta 'Action:' después de 'Thought:'",
    .react_missing_tool = "Formato no válido: falta el nombre de la herramienta después de 'Action:'",
    .react_missing_action_input = "Formato no válido: falta 'Action Input:' después de 'Action:'",
    .react_input_not_json = "Formato no válido: 'Action Input:' debe ir seguido de un objeto JSON, no de: {input}",
    .react_action_and_answer = "Formato no válido: la respuesta tiene a la vez 'Action:' y 'Final Answer:'; "
                               "escribe una acción o la respuesta final",
    .react_empty_answer = "Formato no válido: falta la respuesta después de 'Final Answer:'",
    .plan_prompt =
        "Haz un plan para responder a la petición siguiente: de {min} a {max} pasos, en orden, cada uno una tarea "
        "que se pueda hacer por sí sola con las herramientas de la lista, dados los resultados de los pasos "
        "anteriores. Los resultados de los pasos deben bastar para escribir la respuesta.\n\nHerramientas:\n"
        "{tools}\n\nPetición: {request}\n\nResponde solo con un objeto JSON, sin ningún otro texto: "
        "{\"steps\": [\"primer paso\", \"segundo paso\"]}",
    .plan_replan_prompt =
        "Se llevó a cabo un plan para responder a la petición siguiente, pero la respuesta escrita con sus "
        "resultados no se consideró completa.\n\nPetición: {request}\n\nEl plan:\n{plan}\n\nLos resultados de "
        "sus pasos:\n{results}\n\nLa respuesta:\n{answer}\n\nEl veredicto del revisor: {verdict}\n\nHaz un plan "
        "nuevo de {min} a {max} pasos, en orden, que consiga lo que falta; cada paso una tarea que se pueda hacer "
        "por sí sola con las herramientas de la lista, dados los resultados de los pasos anteriores.\n\n"
        "Herramientas:\n{tools}\n\nResponde solo con un objeto JSON, sin ningún otro texto: "
        "{\"steps\": [\"primer paso\", \"segundo paso\"]}",
    .plan_tool = "- {name}: {description}",
    .plan_no_tools = "(ninguna)",
    .plan_invalid = "Tu respuesta no es un plan válido:\n{errors}\nResponde solo con un objeto JSON "
                    "{\"steps\": [...]} cuyos pasos sean de {min} a {max} textos no vacíos.",
    .plan_not_json = "la respuesta no tiene ningún objeto JSON",
    .plan_step_item = "{index}. {step}",
    .plan_result_item = "{index}. {step}\n{result}",
    .plan_step_prompt = "Estás llevando a cabo el paso {index} de {count} de un plan para responder a esta "
                        "petición: {request}\n\n{previous}Tu paso: {step}\n\nHaz solo este paso, con las "
                        "herramientas si las necesitas, y responde con su resultado.",
    .plan_previous_results = "Resultados de los pasos anteriores:\n{results}\n\n",
    .plan_answer_prompt = "Escribe la respuesta a la petición siguiente con los resultados de los pasos llevados a "
                          "cabo para ella. Responde directamente a la petición, para quien la hizo, sin describir "
                          "los pasos.\n\nPetición: {request}\n\nResultados:\n{results}",
    .plan_verify_prompt = "¿Responde por completo la respuesta siguiente a la petición, dados los resultados de los "
                          "pasos? Contesta con una sola palabra: {yes} si la responde, {no} si no, y nada más.\n\n"
                          "Petición: {request}\n\nResultados:\n{results}\n\nRespuesta:\n{answer}\n\n"
                          "Contesta {yes} o {no}.",
    .plan_failed = "El modelo no escribió un plan válido en {attempts} intentos:\n{errors}",
    .plan_step_needs_approval = "El paso {index} del plan ({step}) llamó a una herramienta que necesita la "
                                "aprobación de una persona, y un plan no puede esperarla.",
    .strategy_prompt =
        "Elige cómo debe atender un asistente con herramientas la petición siguiente. Responde con una etiqueta y "
        "nada más:\n"
        "tools - una pregunta directa que responden una o dos llamadas a herramientas;\n"
        "react - una pregunta exploratoria en la que cada paso depende de lo que encuentre el anterior;\n"
        "plan_execute - varias tareas distintas, o una comparación o un informe que necesita pasos planificados;\n"
        "chat - un saludo, un agradecimiento, una charla o reescribir una respuesta anterior: no hace falta ninguna "
        "herramienta.\n\n"
        "Petición: {request}\n\nEtiqueta:",
    .activity_strategy = "estrategia: {strategy}",
    .activity_thought = "{text}",
    .activity_malformed = "respuesta fuera del formato esperado: {reason}",
    .activity_plan = "plan:\n{steps}",
    .activity_step = "paso {index}/{count}: {text}",
    .activity_verdict = "verificación: {verdict}",
    .activity_replan = "nuevo plan (revisión {revision})",
    .usage_heading = "uso:",
    .usage_hint = "«{program} --help» muestra el uso",
    .command_missing = "falta la orden",
    .command_unknown = "orden desconocida '{command}'",
    .option_unknown = "opción desconocida '{option}'",
    .option_value_missing = "{option}: falta el valor",
    .option_not_a_number = "{option}: se esperaba un número entero entre {min} y {max}, recibido '{value}'",
    .option_not_one_of = "{option}: se esperaba uno de {values}, recibido '{value}'",
    .option_needs = "{option} necesita {other}",
    .argument_missing = "{command}: falta {argument}",
    .required_missing = "falta {argument}",
    .argument_unexpected = "argumento inesperado '{argument}'",
    .weather_0 = "despejado",
    .weather_1 = "mayormente despejado",
    .weather_2 = "parcialmente nublado",
    .weather_3 = "cubierto",
    .weather_45 = "niebla",
    .weather_48 = "niebla con escarcha",
    .weather_51 = "llovizna ligera",
    .weather_53 = "llovizna moderada",
    .weather_55 = "llovizna intensa",
    .weather_56 = "llovizna helada ligera",
    .weather_57 = "llovizna helada intensa",
    .weather_61 = "lluvia débil",
    .weather_63 = "lluvia moderada",
    .weather_65 = "lluvia fuerte",
    .weather_66 = "lluvia helada débil",
    .weather_67 = "lluvia helada fuerte",
    .weather_71 = "nevada débil",
    .weather_73 = "nevada moderada",
    .weather_75 = "nevada fuerte",
    .weather_77 = "granos de nieve",
    .weather_80 = "chubascos débiles",
    .weather_81 = "chubascos moderados",
    .weather_82 = "chubascos muy fuertes",
    .weather_85 = "chubascos de nieve débiles",
    .weather_86 = "chubascos de nieve fuertes",
    .weather_95 = "tormenta",
    .weather_96 = "tormenta con granizo débil",
    .weather_99 = "tormenta con granizo fuerte",
    .weather_unknown = "desconocido",
};

} // namespace agentio

#endif
