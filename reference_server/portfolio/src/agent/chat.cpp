// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "agent/chat.hpp"

#include "app/error_body.hpp"
#include "api/rest_api.hpp"

#include <agentio/text.hpp>
#include <agentio/http/url.hpp>
#include <agentio/json_text.hpp>
#include <agentio/sse/writer.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

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

// The SSE `data` of an agent event, in the chat protocol's exact shape and
// field order (docs/agent.md), spaced as Python's json.dumps writes it.
std::pair<std::string_view, std::string> to_sse(agentio::agent::event const& e)
{
    using agentio::json_layout;
    auto text = [](json::value const& v) { return agentio::to_json_text(v, json_layout::spaced); };
    struct visitor
    {
        decltype(text)& write;
        std::pair<std::string_view, std::string> operator()(agentio::agent::text_delta const& d) const
        {
            return {"chunk", write(json::object{{"content", d.text}})};
        }
        std::pair<std::string_view, std::string> operator()(agentio::agent::round_end const&) const
        {
            return {"clear_streaming", "{}"};
        }
        std::pair<std::string_view, std::string> operator()(agentio::agent::tool_call const& c) const
        {
            json::object o;
            o["tool"] = c.tool;
            o["input_summary"] = c.input_summary;
            o["input_raw"] = c.input_raw;
            o["thinking"] = c.thinking;
            o["result_summary"] = c.result_summary;
            o["duration_ms"] = c.duration_ms;
            o["iteration"] = c.iteration;
            return {"tool_call", write(o)};
        }
        std::pair<std::string_view, std::string> operator()(agentio::agent::round_complete const&) const
        {
            return {}; // checkpoints are the server's, not the client's
        }
        std::pair<std::string_view, std::string> operator()(agentio::agent::done const&) const
        {
            return {"done", write(json::object{{"status", "completed"}})};
        }
        std::pair<std::string_view, std::string> operator()(agentio::agent::error const& err) const
        {
            return {"error", write(json::object{{"message", err.message}})};
        }
    };
    return std::visit(visitor{text}, e);
}

} // namespace

parsed_chat parse_chat_request(std::string_view body, chat_limits const& limits)
{
    parsed_chat out;
    auto fail = [&](unsigned status, std::string detail) {
        out.messages.clear();
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
        if(kv.key() != "messages")
            return fail(422, std::string(kv.key()) + ": campo desconocido (se admite: messages)");
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
    return out;
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

std::string describe_run(agentio::agent::run_result const& result, std::chrono::milliseconds elapsed, bool client_left)
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
    case outcome::cancelled:
        line += "cancelada tras " + ms +
            (client_left ? " (el cliente cerró la conexión)" : " (el servidor se detiene)");
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

// Operators see each chat's fate in one line; one fputs keeps lines whole
// across the server's threads.
void log_line(std::string const& message)
{
    std::time_t const now = std::time(nullptr);
    std::tm local{};
    ::localtime_r(&now, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S ", &local);
    std::fputs((stamp + agentio::log_text(message) + "\n").c_str(), stderr);
}

// One provider origin carries every chat's stream at once, and the API origin
// every tool call: a cap of a few connections would queue chats behind each
// other. Enterprise proxies apply to the provider, never to our own API.
agentio::http::client_options client_options(bool use_proxy)
{
    agentio::http::client_options o;
    o.max_connections_per_origin = 100000;
    o.watch_idle_connections = true; // the server runs until stopped: no connection lingers in CLOSE_WAIT
    if(use_proxy)
        o.proxy = agentio::http::proxy_settings::from_environment();
    return o;
}

} // namespace

chat_service::chat_service(asio::any_io_executor ex, chat_settings settings, charts::chart_store* charts,
    charts::render_options chart_options, chat_limits limits)
    : settings_(std::move(settings))
    , limits_(limits)
    , http_(std::make_unique<agentio::http::client>(ex, client_options(true)))
    , api_http_(std::make_unique<agentio::http::client>(ex, client_options(false)))
{
    tool_env_.charts = charts;
    tool_env_.chart_options = std::move(chart_options);
}

chat_service::~chat_service() = default;

void chat_service::start(asio::ip::tcp::endpoint self, std::shared_ptr<asio::ssl::context> self_tls)
{
    std::string base = settings_.api_base_url;
    if(base.empty())
        base = agentio::http::url_of(self, "/api/v1", self_tls ? "https" : "http");
    if(self_tls)
    {
        auto o = client_options(false);
        o.tls = std::move(self_tls);
        api_http_ = std::make_unique<agentio::http::client>(api_http_->get_executor(), o);
    }
    api_ = std::make_unique<api_client>(*api_http_, base);

    agentio::agent::options options;
    options.model = settings_.effective_model();
    options.system = system_prompt();
    options.max_tokens = settings_.max_tokens;
    options.temperature = settings_.temperature;
    options.limits.max_rounds = settings_.max_tool_rounds;
    options.texts = spanish_messages;
    options.describe_error = [settings = settings_](llm::error const& e) {
        return describe_provider_error(e, settings);
    };

    tool_env_.api = api_.get();
    auto tools = make_portfolio_tools(tool_env_, spanish_messages);
    if(settings_.provider == provider_kind::anthropic)
    {
        llm::provider_options p;
        p.api_key = settings_.anthropic_api_key;
        p.base_url = settings_.anthropic_base_url;
        llm::anthropic_wire::options wire;
        wire.version = *llm::anthropic::parse_api_version(settings_.anthropic_version);
        provider_.emplace(llm::anthropic_provider(*http_, std::move(p), wire));
    }
    else
    {
        llm::provider_options p;
        p.api_key = settings_.openai_api_key;
        p.base_url = settings_.openai_base_url;
        provider_.emplace(llm::openai_provider(*http_, std::move(p)));
    }
    agent_.emplace(*provider_, std::move(tools), std::move(options));
}

asio::awaitable<std::optional<bhttp::message_generator>> chat_service::handle(agentio::http::request&& req,
    agentio::http::any_stream& stream)
{
    if(req.method() != bhttp::verb::post)
    {
        auto res = portfolio::error_response(bhttp::status::method_not_allowed, "Método no permitido; usa POST",
            req.version(), req.keep_alive());
        res.set(bhttp::field::allow, "POST");
        co_return bhttp::message_generator(std::move(res));
    }
    auto parsed = parse_chat_request(req.body(), limits_);
    if(parsed.status != 0)
        co_return bhttp::message_generator(portfolio::error_response(static_cast<bhttp::status>(parsed.status),
            parsed.detail, req.version(), req.keep_alive()));
    if(stopping_)
        co_return bhttp::message_generator(portfolio::error_response(bhttp::status::service_unavailable,
            "El servidor se está deteniendo; inténtelo de nuevo en unos momentos", req.version(), false));
    if(auto reason = settings_.unavailable_reason(); reason || !agent_)
        co_return bhttp::message_generator(portfolio::error_response(bhttp::status::service_unavailable,
            reason ? *reason : "El asistente no está disponible", req.version(), req.keep_alive()));

    struct counted
    {
        std::atomic<std::size_t>& n;
        explicit counted(std::atomic<std::size_t>& c) : n(c) { ++n; }
        ~counted() { --n; }
    } count_this_chat(running_);
    agentio::sse::basic_writer writer(stream);
    if(auto ec = co_await writer.start(req.version()))
    {
        co_await writer.finish();
        co_return std::nullopt;
    }
    auto sink = [&writer](agentio::agent::event const& e) -> asio::awaitable<bool> {
        auto const [type, data] = to_sse(e);
        if(type.empty())
            co_return true;
        auto const ec = co_await writer.send(type, data);
        co_return !ec;
    };
    auto conversation = std::move(parsed.messages);
    auto const ex = co_await asio::this_coro::executor;
    // The run stops when the client leaves: the writer's disconnect signal
    // cancels it, which stops the model's stream and the running tools.
    auto run = [&]() -> asio::awaitable<agentio::agent::run_result> { return agent_->run(conversation, sink); };
    auto const started = std::chrono::steady_clock::now();
    auto slot = writer.disconnect_slot();
    auto token = asio::bind_cancellation_slot(slot, asio::use_awaitable);
    auto const result = co_await asio::co_spawn(ex, run(), token);
    log_line(describe_run(result,
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started),
        writer.client_gone() && !stopping_)); // a shutdown's forced close looks like the client leaving
    co_await writer.finish();
    co_return std::nullopt;
}

} // namespace portfolio::agent
