// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "agent.hpp"

#include "prompts.hpp"

#include <agentio/agent/orchestrator.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/provider.hpp>
#include <agentio/messages.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <regex>

namespace normativa {

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;
namespace retrieval = agentio::retrieval;
namespace threads = agentio::threads;

namespace {

std::size_t code_points(std::string_view s)
{
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(),
        [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

bool blank(std::string_view s)
{
    return s.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

std::string event_json(json::object const& o)
{
    return agentio::to_json_text(o);
}

// "Artículo 48. Suspensión…" → "Art. 48"; "Disposición adicional décima. …" → "Disposición adicional décima".
std::string section_label(std::string_view title, std::int64_t)
{
    static std::regex const article(R"(^Artículo (\d+(?: bis| ter| quater)?)\..*)");
    std::match_results<std::string_view::const_iterator> m;
    if(std::regex_match(title.begin(), title.end(), m, article))
        return "Art. " + m[1].str();
    auto const dot = title.find('.');
    return std::string(title.substr(0, dot));
}

std::string describe_provider_error(llm::error const& e, settings const& s)
{
    if(e.what == llm::error::kind::http_status && (e.status == 401 || e.status == 403))
        return "El proveedor del modelo rechazó la clave: revise ANTHROPIC_API_KEY u OPENAI_API_KEY.";
    if(e.what == llm::error::kind::http_status && e.status == 404)
        return "El modelo '" + s.model.effective_model() + "' no existe para este proveedor: revise AGENT_MODEL.";
    return agentio::format_message(agentio::spanish_messages.provider_http_error,
        {{"status", std::to_string(e.status)}, {"message", e.message}});
}

} // namespace

// ---------------------------------------------------------------------------
// requests

boost::system::result<agent_request, api_error> parse_agent_request(std::string_view body, settings const& s)
{
    boost::system::error_code ec;
    auto v = json::parse(body, ec);
    if(ec || !v.is_object())
        return api_error{400, "el cuerpo debe ser un objeto JSON con message y, opcionalmente, threadId"};
    auto const& o = v.get_object();
    agent_request out;
    for(auto const& [key, value] : o)
        if(key != "message" && key != "threadId" && key != "busyPolicy")
            return api_error{400, std::string(key) + ": campo desconocido (se admiten message, threadId y busyPolicy)"};
    auto const* message = o.if_contains("message");
    if(!message || !message->is_string() || blank(message->get_string()))
        return api_error{400, "message: campo obligatorio (la pregunta)"};
    out.message = message->get_string();
    if(code_points(out.message) > s.max_message_chars)
        return api_error{400,
            "message: demasiado largo (máximo " + std::to_string(s.max_message_chars) + " caracteres)"};
    if(auto const* thread = o.if_contains("threadId"); thread && !thread->is_null())
    {
        if(!thread->is_string())
            return api_error{400, "threadId: debe ser un texto (el threadId de una respuesta anterior)"};
        out.thread_id = std::string(thread->get_string());
    }
    if(auto const* policy = o.if_contains("busyPolicy"); policy && !policy->is_null())
    {
        auto const parsed = policy->is_string() ? agentio::threads::parse_busy_policy(policy->get_string())
                                                : std::nullopt;
        if(!parsed)
            return api_error{400, "busyPolicy: se esperaba 'reject', 'enqueue' o 'interrupt'"};
        out.when_busy = *parsed;
    }
    return out;
}

boost::system::result<pipeline_request, api_error> parse_pipeline_request(std::string_view body, settings const& s)
{
    boost::system::error_code ec;
    auto v = json::parse(body, ec);
    if(ec || !v.is_object())
        return api_error{400, "el cuerpo debe ser un objeto JSON con messages y, opcionalmente, previousChunkIds"};
    auto const& o = v.get_object();
    for(auto const& [key, value] : o)
        if(key != "messages" && key != "previousChunkIds")
            return api_error{400, std::string(key) + ": campo desconocido (se admiten messages y previousChunkIds)"};
    auto const* messages = o.if_contains("messages");
    if(!messages || !messages->is_array() || messages->get_array().empty())
        return api_error{400, "messages: campo obligatorio (la conversación, con la pregunta al final)"};
    auto const& list = messages->get_array();
    if(list.size() > 40)
        return api_error{400, "messages: como máximo 40 mensajes"};
    pipeline_request out;
    for(std::size_t i = 0; i < list.size(); ++i)
    {
        auto const where = "messages[" + std::to_string(i) + "]";
        auto const* m = list[i].if_object();
        auto const* role = m ? m->if_contains("role") : nullptr;
        auto const* content = m ? m->if_contains("content") : nullptr;
        if(!role || !role->is_string() || (role->get_string() != "user" && role->get_string() != "assistant"))
            return api_error{400, where + ".role: debe ser \"user\" o \"assistant\""};
        if(!content || !content->is_string() || blank(content->get_string()))
            return api_error{400, where + ".content: debe ser un texto no vacío"};
        if(code_points(content->get_string()) > s.max_message_chars * 4)
            return api_error{400, where + ".content: demasiado largo"};
        auto text = std::string(content->get_string());
        out.messages.push_back(role->get_string() == "user" ? llm::message::user(std::move(text))
                                                            : llm::message::assistant(std::move(text)));
    }
    if(out.messages.back().role != llm::role::user)
        return api_error{400, "messages: el último mensaje debe ser del usuario (la pregunta)"};
    if(code_points(out.messages.back().text()) > s.max_message_chars)
        return api_error{400,
            "messages: la pregunta es demasiado larga (máximo " + std::to_string(s.max_message_chars) + " caracteres)"};
    if(auto const* previous = o.if_contains("previousChunkIds"); previous && !previous->is_null())
    {
        if(!previous->is_array() || previous->get_array().size() > 50)
            return api_error{400, "previousChunkIds: debe ser una lista de como máximo 50 ids numéricos"};
        for(auto const& id : previous->get_array())
        {
            if(!id.is_int64() || id.get_int64() <= 0)
                return api_error{400, "previousChunkIds: debe ser una lista de ids numéricos"};
            out.previous_chunk_ids.push_back(id.get_int64());
        }
    }
    return out;
}

// ---------------------------------------------------------------------------
// sources

void source_list::add(json::object const& chunk)
{
    auto const* id = chunk.if_contains("id");
    if(!id || !id->is_int64() || !seen_.insert(id->get_int64()).second)
        return;
    auto const text = [&](char const* key) -> std::string {
        auto const* v = chunk.if_contains(key);
        return v && v->is_string() ? std::string(v->get_string()) : std::string();
    };
    sources_.push_back(json::object{{"id", id->get_int64()}, {"law", text("law")},
        {"section", section_label(text("section"), id->get_int64())}, {"chapter", text("chapter")},
        {"collection", text("collection")}});
}

void source_list::collect(std::span<llm::message const> messages)
{
    for(auto const& m : messages)
        for(auto const& block : m.content)
            if(auto const* r = std::get_if<llm::tool_result_block>(&block); r && !r->is_error)
                for(auto const& part : r->content)
                    if(auto const* t = std::get_if<llm::text_block>(&part))
                    {
                        boost::system::error_code ec;
                        auto v = json::parse(t->text, ec);
                        if(!ec && v.is_array())
                            for(auto const& c : v.get_array())
                                if(c.is_object())
                                    add(c.get_object());
                    }
}

std::vector<std::int64_t> source_list::ids() const
{
    std::vector<std::int64_t> out;
    for(auto const& s : sources_)
        out.push_back(s.at("id").get_int64());
    return out;
}

// ---------------------------------------------------------------------------
// rag_service

namespace {

double milliseconds(std::chrono::steady_clock::duration d)
{
    return std::chrono::duration<double, std::milli>(d).count();
}

// The log's line for an answer of the agent: how it ended, its rounds, tools, tokens and time.
void log_run(agentio::log::logger& log, std::string const& model, std::string const& thread_id,
    agentio::agent::run_result const& result, bool interrupted, std::string const& error, std::size_t sources,
    std::chrono::steady_clock::duration elapsed)
{
    bool const failed = result.status == agentio::agent::outcome::failed && !interrupted;
    agentio::log::context const about{.request_id = {}, .user = {}, .session = {}, .thread = thread_id, .run = {}};
    log.write(failed ? agentio::log::level::warn : agentio::log::level::info, "agent.run", about,
        {{"model", model},
            {"outcome", interrupted ? std::string_view("interrupted") : agentio::agent::to_string(result.status)},
            {"rounds", result.rounds}, {"tool_calls", result.tools.size()}, {"input_tokens", result.usage.input_tokens},
            {"output_tokens", result.usage.output_tokens}, {"sources", sources}, {"duration_ms", milliseconds(elapsed)},
            {"error", error}});
}

// The log's line for an answer of the fixed pipeline: its chunks of context, tokens and time.
void log_pipeline(agentio::log::logger* log, std::string const& model, std::string const& error, std::size_t chunks,
    llm::usage const& usage, std::chrono::steady_clock::duration elapsed)
{
    if(!log)
        return;
    log->write(error.empty() ? agentio::log::level::info : agentio::log::level::warn, "pipeline.run",
        {{"model", model}, {"outcome", error.empty() ? "completed" : "failed"}, {"chunks", chunks},
            {"input_tokens", usage.input_tokens}, {"output_tokens", usage.output_tokens},
            {"duration_ms", milliseconds(elapsed)}, {"error", error}});
}

} // namespace

rag_service::rag_service(settings s, llm::any_provider* provider, threads::thread_store& store,
    tool_environment const& tools, agentio::log::logger* log)
    : settings_(std::move(s))
    , provider_(provider)
    , log_(log)
    , store_(store)
    , tool_env_(tools)
    , tools_(make_tools(tools))
{
}

rag_service::~rag_service() = default;

asio::awaitable<boost::system::result<std::shared_ptr<rag_service::prepared>, api_error>>
rag_service::prepare(agent_request request, std::string owner)
{
    if(!provider_)
        co_return api_error{503, "El modelo no está configurado: " + settings_.llm_unavailable_reason().value_or("")};
    bool const continued = request.thread_id.has_value();
    agentio::threads::turn_request wanted;
    wanted.thread_id = request.thread_id.value_or("");
    wanted.owner = std::move(owner);
    wanted.create = !continued; // a thread named must exist
    wanted.agent = "normativa";
    wanted.title = agentio::threads::make_title(request.message, 80);
    wanted.when_busy = request.when_busy.value_or(settings_.busy_policy);
    wanted.traceparent = request.traceparent;
    auto begun = co_await agentio::threads::begin_turn(store_, std::move(wanted));
    if(!begun)
    {
        auto const& e = begun.error();
        if(e.code == agentio::threads::errc::not_found)
            co_return api_error{404, "threadId: conversación no encontrada"};
        if(e.code == agentio::threads::errc::thread_busy)
            co_return api_error{409,
                "Esta conversación ya tiene una respuesta en curso; envíe el mensaje con "
                "busyPolicy 'enqueue' para que espere su turno o 'interrupt' para detenerla"};
        co_return api_error{503,
            (continued ? "No se pudo leer la conversación: " : "No se pudo crear la conversación: ") + e.message};
    }
    auto made = std::make_shared<prepared>(prepared{std::move(*begun), std::move(request.message)});
    made->traceparent = std::move(request.traceparent);
    co_return made;
}

asio::awaitable<void> rag_service::run(std::shared_ptr<prepared> run, event_sink sink,
    std::function<void(agentio::agent::event const&)> on_agent)
{
    auto const started = std::chrono::steady_clock::now();
    auto const thread_id = run->turn.thread().id;
    std::vector<llm::message> conversation;
    for(auto& item : run->turn.history())
        conversation.push_back(std::move(item.message));
    auto const first_new = conversation.size();
    conversation.push_back(llm::message::user(run->message));
    if(run->paused_turn)
        conversation.push_back(*run->paused_turn); // its calls run now, as the decisions say

    agentio::agent::options options;
    options.model = settings_.model.effective_model();
    options.system = agent_system_prompt(settings_.max_tool_rounds);
    options.max_tokens = settings_.max_tokens;
    // A thread longer than the model's window keeps answering: its oldest turns are summarized (or left out).
    options.context = {.window = settings_.model.window(options.model, options.max_tokens).tokens,
        .policy = settings_.model.context_policy,
        .count_tokens = settings_.model.count_tokens,
        .estimator = estimator_};
    // Each tool round is a model call, and the answer one more, made without tools.
    options.limits.max_rounds = settings_.max_tool_rounds + 1;
    options.limits.last_round_answers = true;
    options.texts = agentio::spanish_messages;
    options.describe_error = [this](llm::error const& e) { return describe_provider_error(e, settings_); };
    options.telemetry = telemetry_;
    if(run->may_pause && !settings_.approval_tools.empty())
        options.requires_approval = [this](std::string_view tool) {
            return std::find(settings_.approval_tools.begin(), settings_.approval_tools.end(), tool) !=
                settings_.approval_tools.end();
        };
    agentio::agent::orchestrator<llm::any_provider, normativa_tools> agent{*provider_, tools_, std::move(options)};

    source_list sources;
    std::optional<std::string> failure;
    auto on_event = [&](agentio::agent::event const& e) {
        if(on_agent)
            on_agent(e);
        if(auto const* end = std::get_if<agentio::agent::round_end>(&e))
            for(auto const* call : end->calls)
                sink({"tool_status", event_json({{"tool", call->name}, {"args", call->input}})});
        else if(auto const* t = std::get_if<agentio::agent::text_delta>(&e))
            sink({"token", event_json({{"text", t->text}})});
        else if(auto const* round = std::get_if<agentio::agent::round_complete>(&e))
            sources.collect(round->messages);
        else if(auto const* err = std::get_if<agentio::agent::error>(&e))
            failure = err->message;
    };
    // The thread's summary stands for its older turns; a new one (the thread outgrew the window) is kept.
    // Named: GCC 12 destroys a braced temporary in a co_await expression twice.
    agentio::agent::run_options how{.summary = run->turn.summary(), .idempotency_scope = thread_id};
    how.traceparent = run->traceparent;
    how.conversation_id = thread_id;
    how.decisions = run->decisions;
    // A message sent with busyPolicy 'interrupt' stops this run at its next safe point.
    auto const ex = co_await asio::this_coro::executor;
    auto const result = co_await asio::co_spawn(ex, agent.run(conversation, on_event, how),
        asio::bind_cancellation_slot(run->turn.interruption_slot(ex), asio::use_awaitable));
    bool const interrupted = run->turn.interrupted();
    if(result.summary)
        (void)co_await run->turn.save_summary(*result.summary); // if it fails, the next turn summarizes again
    // What reaches the thread: the whole exchange when it finished, what it
    // had finished when a new message interrupted it, else the question alone
    // (the next turn sees what was asked).
    bool const completed = result.status == agentio::agent::run_result::outcome::completed;
    if(log_)
        log_run(*log_, settings_.model.effective_model(), thread_id, result, interrupted, failure.value_or(""),
            sources.sources().size(), std::chrono::steady_clock::now() - started);
    auto const keep = completed || interrupted ? std::span<llm::message const>(conversation).subspan(first_new)
                                               : std::span<llm::message const>(conversation).subspan(first_new, 1);
    // A run that waits for a person ends here with its question: the door that asked keeps the turn, and the
    // decisions go on in a run of their own.
    bool const suspended = result.status == agentio::agent::run_result::outcome::suspended;
    auto saved = co_await run->turn.finish(keep,
        completed                      ? agentio::threads::run_status::completed
            : interrupted || suspended ? agentio::threads::run_status::cancelled
                                       : agentio::threads::run_status::failed);
    if(!saved)
    {
        sink({"error", event_json({{"message", "No se pudo guardar la conversación: " + saved.error().message}})});
        co_return;
    }
    if(suspended)
        sink({"approval", event_json({{"threadId", thread_id}})});
    else if(completed)
        sink({"done", event_json({{"threadId", thread_id}, {"sources", sources.sources()}})});
    else if(interrupted)
        sink({"error",
            event_json({{"message", "Respuesta interrumpida por un mensaje nuevo en la conversación"},
                {"threadId", thread_id}, {"interrupted", true}})});
    else // the thread exists and holds the question: the client may go on in it
        sink({"error",
            event_json({{"message", failure.value_or(std::string(agentio::spanish_messages.cancelled))},
                {"threadId", thread_id}})});
}

asio::awaitable<void> rag_service::run_pipeline(pipeline_request request, event_sink sink)
{
    auto const started = std::chrono::steady_clock::now();
    auto const model = settings_.model.effective_model();
    llm::usage spent;
    if(!provider_)
    {
        std::string const message = "El modelo no está configurado: " + settings_.llm_unavailable_reason().value_or("");
        sink({"error", event_json({{"message", message}})});
        log_pipeline(log_, model, message, 0, spent, std::chrono::steady_clock::now() - started);
        co_return;
    }
    auto const question = request.messages.back().text();

    // 1. The question as search keywords.
    std::string keywords = question;
    {
        auto const system = expansion_system_prompt();
        std::vector<llm::message> const ask{
            llm::message::user("Pregunta: " + question + "\n\nResponde solo con las palabras clave.")};
        llm::request r;
        r.model = model;
        r.system = system;
        r.messages = ask;
        r.max_tokens = 100;
        r.temperature = 0.0;
        auto expanded = co_await llm::complete(*provider_, r);
        if(!expanded)
        {
            auto const message = describe_provider_error(expanded.error(), settings_);
            sink({"error", event_json({{"message", message}})});
            log_pipeline(log_, model, message, 0, spent, std::chrono::steady_clock::now() - started);
            co_return;
        }
        spent += expanded->tokens;
        keywords = keywords_from_expansion(expanded->assistant.text(), question);
    }

    // 2. Search; the context is what was found, then what the client carried over.
    std::vector<retrieval::chunk> context;
    source_list sources;
    if(tool_env_.search)
    {
        retrieval::search_request r{.text = keywords, .top_k = 8};
        auto found = co_await tool_env_.search->search(r);
        if(!found)
        {
            std::string const message = "No se pudo consultar el índice: " + found.error().message;
            sink({"error", event_json({{"message", message}})});
            log_pipeline(log_, model, message, 0, spent, std::chrono::steady_clock::now() - started);
            co_return;
        }
        for(auto& h : found->hits)
        {
            sources.add(chunk_json(h.item, h.score));
            context.push_back(std::move(h.item));
        }
        std::vector<std::int64_t> carried;
        for(auto id : request.previous_chunk_ids)
            if(std::none_of(context.begin(), context.end(), [id](retrieval::chunk const& c) { return c.id == id; }))
                carried.push_back(id);
        carried.resize(std::min<std::size_t>(carried.size(), 12 - std::min<std::size_t>(12, context.size())));
        auto previous = co_await tool_env_.search->source().chunks(std::move(carried));
        if(previous)
            for(auto& c : *previous)
                context.push_back(std::move(c));
    }

    // 3. The answer, streamed.
    auto const system = answer_system_prompt(context);
    llm::request r;
    r.model = model;
    r.system = system;
    r.messages = request.messages;
    r.max_tokens = settings_.max_tokens;
    // Named: a closure made inside a co_await expression is what GCC 12 mishandles.
    std::function<void(std::string_view)> on_text = [&sink](std::string_view text) {
        sink({"token", event_json({{"text", text}})});
    };
    auto answer = co_await llm::complete(*provider_, r, std::move(on_text));
    if(!answer)
    {
        auto const message = describe_provider_error(answer.error(), settings_);
        sink({"error", event_json({{"message", message}})});
        log_pipeline(log_, model, message, context.size(), spent, std::chrono::steady_clock::now() - started);
        co_return;
    }
    spent += answer->tokens;
    json::array ids;
    for(auto const& c : context)
        ids.push_back(c.id);
    sink({"done", event_json({{"contextChunkIds", ids}, {"sources", sources.sources()}})});
    log_pipeline(log_, model, {}, context.size(), spent, std::chrono::steady_clock::now() - started);
}

asio::awaitable<boost::system::result<json::object, api_error>> rag_service::thread_view(std::string id,
    std::string owner)
{
    auto found = co_await store_.find_thread(id, owner);
    if(!found)
        co_return api_error{503, "No se pudo leer la conversación: " + found.error().message};
    if(!*found)
        co_return api_error{404, "threadId: conversación no encontrada"};
    auto items = co_await store_.load_items(id);
    if(!items)
        co_return api_error{503, "No se pudo leer la conversación: " + items.error().message};
    json::array messages;
    source_list sources;
    for(auto const& item : *items)
    {
        auto const& m = item.message;
        if(m.role == llm::role::user)
        {
            auto const text = m.text();
            if(!text.empty()) // tool results are user messages without text
            {
                messages.push_back(json::object{{"role", "user"}, {"text", text}});
                sources = {};
            }
            sources.collect(std::span(&m, 1));
            continue;
        }
        bool const calls_tools = std::any_of(m.content.begin(), m.content.end(),
            [](llm::content_block const& b) { return std::holds_alternative<llm::tool_use_block>(b); });
        if(!calls_tools)
            messages.push_back(json::object{{"role", "assistant"}, {"text", m.text()}, {"sources", sources.sources()}});
    }
    co_return json::object{{"threadId", id}, {"title", (*found)->title}, {"messages", messages}};
}

} // namespace normativa
