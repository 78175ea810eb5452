// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "agent/chat.hpp"

#include <agentio/llm/context.hpp>

#include "app/error_body.hpp"
#include "api/rest_api.hpp"

#include <agentio/chat_completions.hpp>
#include <agentio/llm/environment.hpp>
#include <agentio/text.hpp>
#include <agentio/http/url.hpp>
#include <agentio/http/json_response.hpp>
#include <agentio/json_text.hpp>
#include <agentio/sse/writer.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <ctime>

namespace portfolio::agent {

namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
namespace json = boost::json;
namespace llm = agentio::llm;

namespace {

std::string field(std::size_t index, std::string_view name)
{
    return "messages[" + std::to_string(index) + "]." + std::string(name);
}

// What a run journals, in the chat protocol's exact shape and field order
// (docs/apps/portfolio/chat.md), spaced as Python's json.dumps writes it. The journal id
// becomes the SSE `id:` line.
std::optional<agentio::threads::event_record> to_record(agentio::threads::run_event const& e,
    agentio::threads::run_context const& run)
{
    using agentio::json_layout;
    auto record = [](char const* type, json::value const& data) {
        return agentio::threads::event_record{0, type, agentio::to_json_text(data, json_layout::spaced)};
    };
    auto finished = [&](char const* status) {
        json::object o;
        o["status"] = status;
        o["thread_id"] = run.thread_id;
        o["run_id"] = run.run_id;
        return record("done", o);
    };
    if(auto const* restart = std::get_if<agentio::threads::round_restart>(&e))
    {
        json::object o;
        o["iteration"] = restart->iteration;
        o["discard_after"] = restart->discard_after;
        return record("round_restart", o);
    }
    if(std::holds_alternative<agentio::threads::run_cancelled>(e))
        return finished("cancelled");
    if(auto const* wait = std::get_if<agentio::threads::approval_pending>(&e))
    {
        json::object o;
        o["run_id"] = run.run_id;
        o["tool_call_id"] = wait->tool_call_id;
        o["tool"] = wait->tool;
        o["input"] = wait->input;
        if(wait->in_doubt) // its process died during the call: it may or may not have acted
            o["in_doubt"] = true;
        return record("approval_required", o);
    }
    auto const& ev = std::get<agentio::agent::event>(e);
    if(auto const* d = std::get_if<agentio::agent::text_delta>(&ev))
        return record("chunk", json::object{{"content", d->text}});
    if(std::holds_alternative<agentio::agent::round_end>(ev))
        return agentio::threads::event_record{0, "clear_streaming", "{}"};
    // A call as the model writes it (an extension of the protocol: a client that does not know them skips them).
    if(auto const* begun = std::get_if<agentio::agent::tool_call_started>(&ev))
    {
        json::object o;
        o["tool_call_id"] = begun->tool_call_id;
        o["tool"] = begun->tool;
        o["iteration"] = begun->iteration;
        return record("tool_call_start", o);
    }
    if(auto const* part = std::get_if<agentio::agent::tool_input_delta>(&ev))
    {
        json::object o;
        o["tool_call_id"] = part->tool_call_id;
        o["delta"] = part->partial_json;
        return record("tool_call_delta", o);
    }
    if(auto const* c = std::get_if<agentio::agent::tool_call>(&ev))
    {
        json::object o;
        o["tool"] = c->tool;
        o["input_summary"] = c->input_summary;
        o["input_raw"] = c->input_raw;
        o["thinking"] = c->thinking;
        o["result_summary"] = c->result_summary;
        o["duration_ms"] = c->duration_ms;
        o["iteration"] = c->iteration;
        o["tool_call_id"] = c->tool_call_id; // after the specified fields: which call this is, for the page
        return record("tool_call", o);
    }
    if(std::holds_alternative<agentio::agent::done>(ev))
        return finished("completed");
    if(auto const* err = std::get_if<agentio::agent::error>(&ev))
        return record("error", json::object{{"message", err->message}});
    return std::nullopt; // round_complete: the checkpoint is the server's, not the client's
}

bool is_final_event(agentio::threads::event_record const& e)
{
    return e.type == "done" || e.type == "error";
}

} // namespace

parsed_chat parse_chat_request(std::string_view body, chat_limits const& limits)
{
    parsed_chat out;
    auto fail = [&](unsigned status, std::string detail) {
        out.messages.clear();
        out.thread_id.reset();
        out.status = status;
        out.detail = std::move(detail);
        return out;
    };
    auto parsed = api::parse_json_body(body);
    if(auto const* e = std::get_if<api::api_error>(&parsed))
        return fail(static_cast<unsigned>(e->status), e->detail);
    auto const& v = std::get<json::value>(parsed);
    if(!v.is_object())
        return fail(422, "El cuerpo debe ser un objeto JSON con el campo 'messages'");
    for(auto const& kv : v.get_object())
        if(kv.key() != "messages" && kv.key() != "thread_id" && kv.key() != "busy_policy")
            return fail(422,
                std::string(kv.key()) + ": campo desconocido (se admiten: messages, thread_id, busy_policy)");
    if(auto const* policy = v.get_object().if_contains("busy_policy"); policy && !policy->is_null())
    {
        auto const parsed_policy = policy->is_string() ? agentio::threads::parse_busy_policy(policy->get_string())
                                                       : std::nullopt;
        if(!parsed_policy)
            return fail(400, "busy_policy: se esperaba 'reject', 'enqueue' o 'interrupt'");
        out.when_busy = *parsed_policy;
    }
    if(auto const* thread = v.get_object().if_contains("thread_id"); thread && !thread->is_null())
    {
        if(!thread->is_string() || !is_valid_id(thread->get_string()))
            return fail(400, "thread_id: identificador de conversación no válido");
        out.thread_id = std::string(thread->get_string());
    }
    auto const* list = v.get_object().if_contains("messages");
    if(!list)
        return fail(422, "messages: campo obligatorio");
    if(!list->is_array())
        return fail(422, "messages: debe ser una lista de mensajes");
    auto const& messages = list->get_array();
    if(messages.empty())
        return fail(422, "messages: la lista no puede estar vacía");
    if(messages.size() > limits.max_messages)
        return fail(422, "messages: como máximo " + std::to_string(limits.max_messages) + " mensajes");
    std::size_t total = 0;
    for(std::size_t i = 0; i < messages.size(); ++i)
    {
        if(!messages[i].is_object())
            return fail(422, "messages[" + std::to_string(i) + "]: debe ser un objeto {\"role\", \"content\"}");
        auto const& m = messages[i].get_object();
        for(auto const& kv : m)
            if(kv.key() != "role" && kv.key() != "content")
                return fail(422, field(i, kv.key()) + ": campo desconocido (se admiten: role, content)");
        auto const* role = m.if_contains("role");
        if(!role)
            return fail(422, field(i, "role") + ": campo obligatorio");
        if(!role->is_string() || (role->get_string() != "user" && role->get_string() != "assistant"))
            return fail(422, field(i, "role") + ": debe ser 'user' o 'assistant'");
        auto const* content = m.if_contains("content");
        if(!content)
            return fail(422, field(i, "content") + ": campo obligatorio");
        if(!content->is_string())
            return fail(422, field(i, "content") + ": debe ser un texto");
        std::string_view const text = content->get_string();
        if(text.find_first_not_of(" \t\r\n") == std::string_view::npos)
            return fail(422, field(i, "content") + ": no puede estar vacío");
        if(text.size() > limits.max_message_chars)
            return fail(422,
                field(i, "content") + ": como máximo " + std::to_string(limits.max_message_chars) + " caracteres");
        total += text.size();
        if(total > limits.max_total_chars)
            return fail(422,
                "messages: la conversación supera " + std::to_string(limits.max_total_chars) + " caracteres");
        bool const is_user = role->get_string() == "user";
        out.messages.push_back(is_user ? llm::message::user(std::string(text))
                                       : llm::message::assistant(std::string(text)));
    }
    if(out.messages.back().role != llm::role::user)
        return fail(422, field(messages.size() - 1, "role") + ": el último mensaje debe ser del usuario");
    if(out.thread_id && out.messages.size() != 1)
        return fail(422,
            "messages: con thread_id, solo el nuevo mensaje del usuario (la conversación ya está guardada)");
    return out;
}

bool is_valid_id(std::string_view id) noexcept
{
    if(id.size() != 36)
        return false;
    for(std::size_t i = 0; i < id.size(); ++i)
    {
        char const c = id[i];
        bool const dash = i == 8 || i == 13 || i == 18 || i == 23;
        if(dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    return true;
}

std::string describe_provider_error(llm::error const& e, chat_settings const& settings)
{
    bool const anthropic = settings.provider == provider_kind::anthropic;
    std::string const key_var = anthropic ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
    switch(e.what)
    {
    case llm::error::kind::http_status:
        if(e.status == 401 || e.status == 403)
            return "El proveedor del modelo rechazó la clave de API (" + std::to_string(e.status) + "): revise " +
                key_var;
        if(e.status == 404 || e.type == "not_found_error" || e.type == "model_not_found")
            return "El modelo '" + settings.effective_model() +
                "' no existe o no está disponible para esta clave: "
                "cambie AGENT_MODEL (" +
                e.message + ")";
        if(e.status == 429)
            return "Se superó el límite de peticiones del proveedor del modelo; inténtelo de nuevo en unos momentos";
        if(e.status == 529 || e.type == "overloaded_error")
            return "El proveedor del modelo está saturado; inténtelo de nuevo en unos momentos";
        return "El proveedor del modelo respondió con un error (" + std::to_string(e.status) + "): " + e.message;
    case llm::error::kind::stream_error:
        if(e.type == "overloaded_error")
            return "El proveedor del modelo está saturado; inténtelo de nuevo en unos momentos";
        return "El proveedor del modelo informó de un error: " + e.message;
    case llm::error::kind::connection: return "No se pudo conectar con el proveedor del modelo: " + e.message;
    case llm::error::kind::timeout: return "El proveedor del modelo no respondió a tiempo: " + e.message;
    case llm::error::kind::protocol: return "La respuesta del modelo se interrumpió: " + e.message;
    case llm::error::kind::cancelled: return "Cancelado";
    case llm::error::kind::configuration: return e.message;
    case llm::error::kind::overloaded: return "El servidor está sobrecargado; inténtelo de nuevo en unos momentos";
    }
    return e.message;
}

std::string describe_run(agentio::agent::run_result const& result, std::chrono::milliseconds elapsed,
    std::string_view cancel_reason)
{
    using outcome = agentio::agent::run_result::outcome;
    auto plural = [](std::size_t n, char const* one, char const* many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    std::string line = "chat: ";
    std::string const ms = std::to_string(elapsed.count()) + " ms";
    switch(result.status)
    {
    case outcome::completed: line += "completada en " + ms; break;
    case outcome::failed: line += "fallida tras " + ms + " (" + result.error_message + ")"; break;
    case outcome::suspended: line += "en espera de aprobación tras " + ms; break;
    case outcome::cancelled:
        line += "cancelada tras " + ms;
        if(cancel_reason == "cancelled")
            line += " (el usuario la detuvo)";
        else if(cancel_reason == "detached")
            line += " (nadie la leía)";
        else if(cancel_reason == "lease lost")
            line += " (otro proceso la continúa)";
        else if(cancel_reason == "store failed")
            line += " (fallo del almacén de conversaciones)";
        else
            line += " (el servidor se detiene)";
        break;
    }
    line += " · " + plural(result.rounds, "ronda", "rondas") + " · " +
        plural(result.tools.size(), "herramienta", "herramientas") +
        " · tokens: " + std::to_string(result.usage.input_tokens) + " de entrada, " +
        std::to_string(result.usage.output_tokens) + " de salida";
    // A provider's message may span lines; the log keeps one line per chat.
    for(char& c : line)
        if(c == '\n' || c == '\r')
            c = ' ';
    return line;
}

namespace {

// Operators see each chat's fate in one line: its fields, and the sentence describe_run writes.
void log_run(agentio::log::logger& log, std::string const& model, agentio::threads::run_context const& run,
    agentio::agent::run_result const& result, std::string_view cancel_reason, std::chrono::milliseconds elapsed)
{
    auto const level = result.status == agentio::agent::outcome::failed ? agentio::log::level::warn
                                                                        : agentio::log::level::info;
    if(!log.enabled(level))
        return;
    agentio::log::context const about{.request_id = {},
        .user = {},
        .session = {},
        .thread = std::string(run.thread_id),
        .run = std::string(run.run_id)};
    log.write(level, "chat.run", about,
        {{"model", model}, {"outcome", agentio::agent::to_string(result.status)},
            {"reason", result.status == agentio::agent::outcome::cancelled ? cancel_reason : std::string_view()},
            {"rounds", result.rounds}, {"tool_calls", result.tools.size()}, {"input_tokens", result.usage.input_tokens},
            {"output_tokens", result.usage.output_tokens}, {"duration_ms", elapsed.count()},
            {"error", result.error_message}, {"summary", describe_run(result, elapsed, cancel_reason)}});
}

// One provider origin carries every chat's stream at once, and the API origin
// every tool call: a cap of a few connections would queue chats behind each
// other. Enterprise proxies apply to the provider, never to our own API. Each
// traced call is a client span of the tracer (when there is one).
agentio::http::client_options client_options(bool use_proxy, agentio::trace::tracer* tracer = nullptr)
{
    auto o = agentio::llm::provider_client_options();
    if(!use_proxy)
        o.proxy = {};
    o.tracer = tracer;
    return o;
}

// This process as a lease holder: readable in the runs table, unique among replicas.
std::string holder_name()
{
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    auto const id = boost::uuids::to_string(boost::uuids::random_generator()());
    return std::string(host) + ":" + std::to_string(::getpid()) + ":" + id.substr(0, 8);
}

std::string iso_time(agentio::threads::timestamp t)
{
    auto const ms = t.time_since_epoch().count();
    std::time_t const seconds = static_cast<std::time_t>(ms / 1000);
    std::tm utc{};
    ::gmtime_r(&seconds, &utc);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &utc);
    char out[48];
    std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms % 1000));
    return out;
}

// A conversation's title: its first question, on one line, shortened.
std::string title_of(std::vector<llm::message> const& messages)
{
    std::string text;
    for(auto const& m : messages)
        if(m.role == llm::role::user)
        {
            text = m.text();
            break;
        }
    std::string out;
    for(char c : text)
    {
        bool const space = c == ' ' || c == '\n' || c == '\r' || c == '\t';
        if(space && (out.empty() || out.back() == ' '))
            continue;
        out += space ? ' ' : c;
    }
    while(!out.empty() && out.back() == ' ')
        out.pop_back();
    constexpr std::size_t max_bytes = 80;
    if(out.size() > max_bytes)
    {
        out.resize(agentio::utf8_byte_prefix(out, max_bytes));
        out += "…";
    }
    return out;
}

// A stored message as the page shows it: its text, the tools it called, the
// results it carried.
json::object message_view(agentio::threads::item const& item)
{
    json::object o;
    o["seq"] = item.seq;
    o["role"] = item.message.role == llm::role::user ? "user" : "assistant";
    o["text"] = item.message.text();
    json::array calls;
    json::array results;
    for(auto const& b : item.message.content)
    {
        if(auto const* call = std::get_if<llm::tool_use_block>(&b))
            calls.push_back(json::object{{"id", call->id}, {"tool", call->name}, {"input", call->input}});
        else if(auto const* r = std::get_if<llm::tool_result_block>(&b))
        {
            std::string text;
            for(auto const& c : r->content)
                if(auto const* t = std::get_if<llm::text_block>(&c))
                    text += t->text;
            results.push_back(json::object{{"tool_use_id", r->tool_use_id}, {"is_error", r->is_error}, {"text", text}});
        }
    }
    if(!calls.empty())
        o["tool_calls"] = std::move(calls);
    if(!results.empty())
        o["tool_results"] = std::move(results);
    o["run_id"] = item.run_id;
    return o;
}

json::object thread_view(agentio::threads::thread_info const& t)
{
    json::object o;
    o["id"] = t.id;
    o["title"] = t.title;
    o["agent"] = t.agent;
    o["created_at"] = iso_time(t.created_at);
    o["updated_at"] = iso_time(t.updated_at);
    return o;
}

bhttp::message_generator json_response(bhttp::status status, json::value const& body, agentio::http::request const& req)
{
    auto res = agentio::http::json_response(status, body, req);
    res.set(bhttp::field::server, "agentio-portfolio");
    return res;
}

bhttp::message_generator error_reply(bhttp::status status, std::string const& detail, agentio::http::request const& req)
{
    return portfolio::error_response(status, detail, req.version(), req.keep_alive());
}

bhttp::message_generator method_not_allowed(agentio::http::request const& req, char const* allowed)
{
    auto res = portfolio::error_response(bhttp::status::method_not_allowed,
        std::string("Método no permitido; usa ") + allowed, req.version(), req.keep_alive());
    res.set(bhttp::field::allow, allowed);
    return res;
}

// The store failed: the answer says so without losing the request's meaning.
bhttp::message_generator store_unavailable(agentio::threads::error const& e, agentio::http::request const& req)
{
    return error_reply(bhttp::status::service_unavailable,
        "El almacén de conversaciones no está disponible (" + e.message + "); inténtelo de nuevo en unos momentos",
        req);
}

// A query parameter's value as sent (the numbers asked for need no decoding), or nothing.
std::optional<std::string> query_param(std::string_view target, std::string_view name)
{
    auto const q = target.find('?');
    if(q == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = target.substr(q + 1);
    while(!rest.empty())
    {
        auto const amp = rest.find('&');
        auto const pair = rest.substr(0, amp);
        auto const eq = pair.find('=');
        if(pair.substr(0, eq) == name)
            return std::string(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1));
        rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    }
    return std::nullopt;
}

// A non-negative event id, or nothing.
std::optional<std::int64_t> parse_event_id(std::string_view text)
{
    std::int64_t v = 0;
    auto const [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if(text.empty() || ec != std::errc() || ptr != text.data() + text.size() || v < 0)
        return std::nullopt;
    return v;
}

} // namespace

chat_service::chat_service(asio::any_io_executor ex, chat_settings settings, agentio::threads::thread_store& store,
    charts::chart_store* charts, charts::render_options chart_options, chat_limits limits)
    : settings_(std::move(settings))
    , limits_(limits)
    , http_(std::make_unique<agentio::http::client>(ex, client_options(true)))
    , api_http_(std::make_unique<agentio::http::client>(ex, client_options(false)))
    , store_(store)
{
    tool_env_.charts = charts;
    tool_env_.chart_options = std::move(chart_options);
    keys_ = agentio::http::api_keys(settings_.api_keys);
}

chat_service::~chat_service() = default;

void chat_service::start(asio::ip::tcp::endpoint self, std::shared_ptr<asio::ssl::context> self_tls)
{
    std::string base = settings_.api_base_url;
    if(base.empty())
        base = agentio::http::url_of(self, "/api/v1", self_tls ? "https" : "http");
    // Built again now that the telemetry is known: the calls' client spans go to its tracer.
    http_ = std::make_unique<agentio::http::client>(http_->get_executor(), client_options(true, telemetry_.tracer));
    auto api_options = client_options(false, telemetry_.tracer);
    if(self_tls)
        api_options.tls = std::move(self_tls);
    api_http_ = std::make_unique<agentio::http::client>(api_http_->get_executor(), api_options);
    api_ = std::make_unique<api_client>(*api_http_, base);

    agentio::agent::options options;
    options.model = settings_.effective_model();
    options.system = system_prompt();
    options.max_tokens = settings_.max_tokens;
    options.temperature = settings_.temperature;
    // A thread longer than the model's window keeps answering: its oldest turns are summarized (or left out).
    options.context.policy = settings_.context_policy;
    options.context.count_tokens = settings_.count_tokens;
    options.context.window = agentio::llm::context_window_for(options.model, options.max_tokens,
        settings_.context_window ? std::optional<std::uint64_t>(settings_.context_window) : std::nullopt)
                                 .tokens;
    options.context.estimator = std::make_shared<agentio::llm::token_estimator>();
    options.limits.max_rounds = settings_.max_tool_rounds;
    options.texts = spanish_messages;
    options.describe_error = [settings = settings_](llm::error const& e) {
        return describe_provider_error(e, settings);
    };
    options.telemetry = telemetry_;

    tool_env_.api = api_.get();
    auto tools = make_portfolio_tools(tool_env_, spanish_messages);
    // AGENT_APPROVAL_TOOLS: names the model knows, or the server does not start.
    for(auto const& name : settings_.approval_tools)
    {
        auto const d = tools.descriptors();
        if(std::none_of(d.begin(), d.end(), [&](agentio::tool_descriptor const& t) { return t.name == name; }))
            throw std::runtime_error("AGENT_APPROVAL_TOOLS: no hay ninguna herramienta '" + name + "'");
    }
    if(!settings_.approval_tools.empty())
        options.requires_approval = [names = settings_.approval_tools](std::string_view tool) {
            return std::find(names.begin(), names.end(), tool) != names.end();
        };
    if(settings_.provider == provider_kind::anthropic)
    {
        llm::provider_options p;
        p.api_key = settings_.anthropic_api_key;
        p.base_url = settings_.anthropic_base_url;
        p.on_retry = on_retry_;
        llm::anthropic_wire::options wire;
        wire.version = *llm::anthropic::parse_api_version(settings_.anthropic_version);
        provider_.emplace(llm::anthropic_provider(*http_, std::move(p), wire));
    }
    else
    {
        llm::provider_options p;
        p.api_key = settings_.openai_api_key;
        p.base_url = settings_.openai_base_url;
        p.on_retry = on_retry_;
        provider_.emplace(llm::openai_provider(*http_, std::move(p)));
    }
    agent_.emplace(*provider_, std::move(tools), std::move(options));
    agentio::chat_completions::agent_model_options as_model;
    as_model.card.id = "portfolio";
    as_model.card.created = 1764115200;
    as_model.card.extra["description"] = "El asistente de la cartera de proyectos: consultas, agregados y gráficos";
    as_model.agent = agent_->options(); // AGENT_APPROVAL_TOOLS too: their calls stop for a person over AG-UI
    as_model.describe_approval = [](agentio::agent::approval_request const& call) {
        return call.in_doubt ? "La llamada a «" + call.tool +
                "» empezó cuando el servidor se detuvo y puede haberse hecho ya: ¿la repito?"
                             : "¿Apruebas la llamada a «" + call.tool + "»?";
    };
    openai_model_ =
        std::make_shared<agentio::chat_completions::agent_model<agentio::llm::any_provider, portfolio_tools>>(
            *provider_, agent_->tools(), std::move(as_model));

    agentio::threads::run_manager_options run_options;
    run_options.holder = holder_name();
    run_options.detach_grace = settings_.detach_grace;
    run_options.on_end = [log = log_, model = settings_.effective_model()](agentio::threads::run_context const& run,
                             agentio::agent::run_result const& result, std::string_view cancel_reason,
                             std::chrono::milliseconds elapsed) {
        if(log)
            log_run(*log, model, run, result, cancel_reason, elapsed);
    };
    runs_ = std::make_unique<agentio::threads::run_manager<portfolio_agent>>(http_->get_executor(), store_, *agent_,
        &to_record, &is_final_event, std::move(run_options));
    runs_->start();
}

void chat_service::stop_runs()
{
    if(runs_)
        runs_->stop();
}

std::optional<std::string> chat_service::owner_of(agentio::http::request const& req) const
{
    return keys_.owner_of(req);
}

namespace {

bhttp::message_generator unauthorized(agentio::http::request const& req)
{
    auto res = portfolio::error_response(bhttp::status::unauthorized,
        "Falta una clave de API válida: envíela como 'Authorization: Bearer CLAVE'", req.version(), req.keep_alive());
    res.set(bhttp::field::www_authenticate, "Bearer");
    return res;
}

} // namespace

asio::awaitable<std::optional<bhttp::message_generator>> chat_service::handle(agentio::http::request&& req,
    agentio::http::any_stream& stream)
{
    if(req.method() != bhttp::verb::post)
        co_return method_not_allowed(req, "POST");
    auto const owner = owner_of(req);
    if(!owner)
        co_return unauthorized(req);
    auto parsed = parse_chat_request(req.body(), limits_);
    if(parsed.status != 0)
        co_return error_reply(static_cast<bhttp::status>(parsed.status), parsed.detail, req);
    if(stopping_)
        co_return bhttp::message_generator(portfolio::error_response(bhttp::status::service_unavailable,
            "El servidor se está deteniendo; inténtelo de nuevo en unos momentos", req.version(), false));
    if(auto reason = settings_.unavailable_reason(); reason || !runs_)
        co_return error_reply(bhttp::status::service_unavailable, reason ? *reason : "El asistente no está disponible",
            req);

    // The router's server span: the run and the store's work join its trace.
    std::string const traceparent(req["traceparent"]);
    // A new conversation is created with its first run, in one write.
    agentio::threads::thread_info info{.id = {},
        .owner = *owner,
        .agent = "portfolio",
        .title = {},
        .created_at = {},
        .updated_at = {},
        .metadata = {}};
    if(parsed.thread_id)
    {
        auto const traced = store_.under(traceparent);
        auto const found = co_await traced->find_thread(*parsed.thread_id, *owner);
        if(!found)
            co_return store_unavailable(found.error(), req);
        if(!*found)
            co_return error_reply(bhttp::status::not_found, "thread_id: la conversación no existe", req);
        info.id = *parsed.thread_id;
    }
    else
    {
        info.id = boost::uuids::to_string(boost::uuids::random_generator()());
        info.title = title_of(parsed.messages);
    }
    std::string const thread_id = info.id;
    auto const when_busy = parsed.when_busy.value_or(settings_.busy_policy);
    auto starting = parsed.thread_id
        ? runs_->start_run(thread_id, *owner, std::move(parsed.messages), when_busy, traceparent)
        : runs_->start_run(std::move(info), std::move(parsed.messages), traceparent);
    auto const started = co_await std::move(starting);
    if(!started)
    {
        if(started.error().code == agentio::threads::errc::thread_busy)
            co_return error_reply(bhttp::status::conflict,
                "thread_id: la conversación tiene una respuesta en curso; espere a que termine, deténgala o envíe "
                "el mensaje con busy_policy 'enqueue' o 'interrupt'",
                req);
        co_return store_unavailable(started.error(), req);
    }
    co_await stream_run(req, stream, thread_id, started->run_id, *owner, 0);
    co_return std::nullopt;
}

asio::awaitable<void> chat_service::stream_run(agentio::http::request const& req, agentio::http::any_stream& stream,
    std::string const& thread_id, std::string const& run_id, std::string const& owner, std::int64_t after)
{
    struct counted
    {
        std::atomic<std::size_t>& n;
        explicit counted(std::atomic<std::size_t>& c) : n(c) { ++n; }
        ~counted() { --n; }
    } count_this_stream(streaming_);
    agentio::sse::basic_writer writer(stream);
    writer.headers().set("X-Thread-Id", thread_id);
    writer.headers().set("X-Run-Id", run_id);
    if(auto ec = co_await writer.start(req.version()))
    {
        co_await writer.finish();
        co_return;
    }
    auto send = [&writer](agentio::threads::event_record const& e) -> asio::awaitable<bool> {
        auto const ec = co_await writer.send(e.type, e.data, std::to_string(e.id));
        co_return !ec;
    };
    // A client that leaves stops its reading at once (the writer's disconnect
    // signal); the run goes on for AGENT_DETACH_GRACE, waiting for a reattach.
    agentio::threads::error failure;
    auto end = agentio::threads::stream_end::reader_gone;
    try
    {
        auto const ex = co_await asio::this_coro::executor;
        end = co_await asio::co_spawn(ex, runs_->stream(run_id, owner, after, send, &failure),
            asio::bind_cancellation_slot(writer.disconnect_slot(), asio::use_awaitable));
    }
    catch(boost::system::system_error const&)
    {
    }
    if(end == agentio::threads::stream_end::store_failed)
    {
        json::object o;
        o["message"] = "No se pudo leer la respuesta guardada: el almacén de conversaciones falló (" + failure.message +
            ")";
        co_await writer.send("error", agentio::to_json_text(o, agentio::json_layout::spaced));
    }
    co_await writer.finish();
}

asio::awaitable<std::optional<bhttp::message_generator>> chat_service::handle_run(agentio::http::request&& req,
    agentio::http::any_stream& stream, std::string_view run_id, std::string_view action)
{
    bool const events = action == "events";
    bool const approvals = action == "approvals";
    if(!events && !approvals && action != "cancel")
        co_return error_reply(bhttp::status::not_found, "Ruta no encontrada: " + std::string(req.target()), req);
    if(events && req.method() != bhttp::verb::get)
        co_return method_not_allowed(req, "GET");
    if(!events && req.method() != bhttp::verb::post)
        co_return method_not_allowed(req, "POST");
    auto const owner = owner_of(req);
    if(!owner)
        co_return unauthorized(req);
    if(!is_valid_id(run_id))
        co_return error_reply(bhttp::status::bad_request, "run_id: identificador de ejecución no válido", req);
    if(!runs_)
        co_return error_reply(bhttp::status::service_unavailable, "El asistente no está disponible", req);

    std::int64_t after = 0;
    if(events)
    {
        // Last-Event-ID is what a browser's EventSource sends on reconnection; ?after= is for the rest.
        if(auto const last = req["Last-Event-ID"]; !last.empty())
        {
            auto const id = parse_event_id(last);
            if(!id)
                co_return error_reply(bhttp::status::bad_request,
                    "Last-Event-ID: se esperaba el número de un evento, recibido '" + std::string(last) + "'", req);
            after = *id;
        }
        else if(auto const q = query_param(req.target(), "after"))
        {
            auto const id = parse_event_id(*q);
            if(!id)
                co_return error_reply(bhttp::status::bad_request,
                    "after: se esperaba el número de un evento, recibido '" + *q + "'", req);
            after = *id;
        }
    }
    if(approvals)
        co_return co_await handle_approval(req, run_id, *owner);
    auto const run = co_await store_.find_run(run_id, *owner);
    if(!run)
        co_return store_unavailable(run.error(), req);
    if(!*run) // unknown, or another owner's: the same answer
        co_return error_reply(bhttp::status::not_found, "run_id: la ejecución no existe", req);
    if(events)
    {
        co_await stream_run(req, stream, (*run)->thread_id, (*run)->id, *owner, after);
        co_return std::nullopt;
    }
    if(agentio::threads::is_final((*run)->status))
        co_return error_reply(bhttp::status::conflict, "La ejecución ya terminó", req);
    auto const cancelled = co_await runs_->cancel(std::string(run_id), *owner);
    if(!cancelled)
        co_return store_unavailable(cancelled.error(), req);
    if(!*cancelled)
        co_return error_reply(bhttp::status::conflict, "La ejecución ya terminó", req);
    json::object o;
    o["run_id"] = run_id;
    o["status"] = "cancelling";
    co_return json_response(bhttp::status::accepted, o, req);
}

asio::awaitable<bhttp::message_generator> chat_service::handle_approval(agentio::http::request const& req,
    std::string_view run_id, std::string const& owner)
{
    auto parsed = api::parse_json_body(req.body());
    if(auto const* e = std::get_if<api::api_error>(&parsed))
        co_return error_reply(static_cast<bhttp::status>(e->status), e->detail, req);
    auto const& v = std::get<json::value>(parsed);
    if(!v.is_object())
        co_return error_reply(bhttp::status::unprocessable_entity,
            "El cuerpo debe ser un objeto JSON con tool_call_id y approved", req);
    auto const& o = v.get_object();
    for(auto const& kv : o)
        if(kv.key() != "tool_call_id" && kv.key() != "approved" && kv.key() != "reason")
            co_return error_reply(bhttp::status::unprocessable_entity,
                std::string(kv.key()) + ": campo desconocido (se admiten: tool_call_id, approved, reason)", req);
    agentio::agent::approval_decision decision;
    auto const* call = o.if_contains("tool_call_id");
    if(!call || !call->is_string() || call->get_string().empty())
        co_return error_reply(bhttp::status::unprocessable_entity,
            "tool_call_id: campo obligatorio (el identificador de la llamada que espera aprobación)", req);
    decision.tool_call_id = std::string(call->get_string());
    auto const* approved = o.if_contains("approved");
    if(!approved || !approved->is_bool())
        co_return error_reply(bhttp::status::unprocessable_entity, "approved: campo obligatorio (true o false)", req);
    decision.approved = approved->get_bool();
    if(auto const* reason = o.if_contains("reason"); reason && !reason->is_null())
    {
        if(!reason->is_string())
            co_return error_reply(bhttp::status::unprocessable_entity, "reason: debe ser un texto", req);
        if(reason->get_string().size() > 2000)
            co_return error_reply(bhttp::status::unprocessable_entity, "reason: como máximo 2000 caracteres", req);
        decision.reason = std::string(reason->get_string());
    }
    auto const outcome = co_await runs_->decide(std::string(run_id), owner, decision);
    if(!outcome)
        co_return store_unavailable(outcome.error(), req);
    using agentio::threads::decision_outcome;
    switch(*outcome)
    {
    case decision_outcome::not_found:
        co_return error_reply(bhttp::status::not_found, "run_id: la ejecución no existe", req);
    case decision_outcome::not_waiting:
        co_return error_reply(bhttp::status::conflict, "La ejecución no espera ninguna aprobación", req);
    case decision_outcome::unknown_call:
        co_return error_reply(bhttp::status::conflict,
            "tool_call_id: la llamada '" + decision.tool_call_id + "' no espera aprobación", req);
    case decision_outcome::recorded:
    case decision_outcome::resumed: break;
    }
    json::object body;
    body["run_id"] = run_id;
    body["status"] = *outcome == decision_outcome::resumed ? "running" : "waiting";
    co_return json_response(bhttp::status::accepted, body, req);
}

asio::awaitable<std::optional<bhttp::message_generator>> chat_service::handle_threads(agentio::http::request&& req,
    std::string_view thread_id)
{
    auto const owner = owner_of(req);
    if(!owner)
        co_return unauthorized(req);
    if(thread_id.empty())
    {
        if(req.method() != bhttp::verb::get)
            co_return method_not_allowed(req, "GET");
        std::size_t limit = 50;
        if(auto const q = query_param(req.target(), "limit"))
        {
            auto const n = parse_event_id(*q);
            if(!n || *n < 1 || *n > 200)
                co_return error_reply(bhttp::status::unprocessable_entity,
                    "limit: se esperaba un número entre 1 y 200, recibido '" + *q + "'", req);
            limit = static_cast<std::size_t>(*n);
        }
        auto const list = co_await store_.list_threads(*owner, limit);
        if(!list)
            co_return store_unavailable(list.error(), req);
        json::array out;
        for(auto const& t : *list)
            out.push_back(thread_view(t));
        co_return json_response(bhttp::status::ok, json::object{{"threads", std::move(out)}}, req);
    }
    if(req.method() != bhttp::verb::get && req.method() != bhttp::verb::delete_)
        co_return method_not_allowed(req, "GET, DELETE");
    if(!is_valid_id(thread_id))
        co_return error_reply(bhttp::status::bad_request, "thread_id: identificador de conversación no válido", req);
    auto const found = co_await store_.find_thread(thread_id, *owner);
    if(!found)
        co_return store_unavailable(found.error(), req);
    if(!*found) // unknown, or another owner's: the same answer
        co_return error_reply(bhttp::status::not_found, "thread_id: la conversación no existe", req);
    auto const latest = co_await store_.latest_run(thread_id, *owner);
    if(!latest)
        co_return store_unavailable(latest.error(), req);
    if(req.method() == bhttp::verb::delete_)
    {
        // A run still writing is stopped first; the deletion fences off whatever it would write next.
        if(*latest && !agentio::threads::is_final((*latest)->status) && runs_)
            co_await runs_->cancel((*latest)->id, *owner);
        auto const deleted = co_await store_.delete_thread(thread_id, *owner);
        if(!deleted)
            co_return store_unavailable(deleted.error(), req);
        agentio::http::response res{bhttp::status::no_content, req.version()};
        res.set(bhttp::field::server, "agentio-portfolio");
        res.keep_alive(req.keep_alive());
        co_return bhttp::message_generator(std::move(res));
    }
    auto const items = co_await store_.load_items(thread_id);
    if(!items)
        co_return store_unavailable(items.error(), req);
    auto view = thread_view(**found);
    json::array messages;
    for(auto const& item : *items)
        messages.push_back(message_view(item));
    view["messages"] = std::move(messages);
    if(*latest)
    {
        json::object run;
        run["run_id"] = (*latest)->id;
        run["status"] = agentio::threads::to_string((*latest)->status);
        run["last_event_id"] = (*latest)->last_event_id;
        view["run"] = std::move(run);
    }
    else
        view["run"] = nullptr;
    co_return json_response(bhttp::status::ok, view, req);
}

} // namespace portfolio::agent
