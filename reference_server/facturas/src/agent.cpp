// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "agent.hpp"

#include "prompts.hpp"
#include "sql_text.hpp"

#include <agentio/json_text.hpp>
#include <agentio/llm/compaction.hpp>
#include <agentio/llm/context.hpp>
#include <agentio/messages.hpp>
#include <agentio/llm/provider.hpp>
#include <agentio/threads/turn.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/this_coro.hpp>

#include <boost/json/parse.hpp>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <utility>

namespace facturas {

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;
namespace mcp = agentio::mcp;

namespace {

// A step that failed: its stable code, what a person should read of it (Spanish) and, for a refused query, the
// server's own words, which go back to the model in the repair round.
class failure : public std::runtime_error
{
public:
    failure(std::string code, std::string const& message, std::string detail = {})
        : std::runtime_error(message)
        , code_(std::move(code))
        , detail_(std::move(detail))
    {
    }
    std::string const& code() const noexcept { return code_; }
    std::string const& detail() const noexcept { return detail_; }

private:
    std::string code_;
    std::string detail_;
};

std::string_view trim(std::string_view s)
{
    auto const first = s.find_first_not_of(" \t\r\n");
    if(first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// `sentence` (Spanish, without its final period), then the untranslatable detail quoted, if there is one.
std::string with_detail(std::string sentence, std::string_view detail)
{
    if(!trim(detail).empty())
        sentence.append(": ").append(quote(detail));
    return sentence + ".";
}

// agentio-sqlite-mcp writes SQLite's message after this: the sentence around it is ours to write.
constexpr std::string_view sqlite_refusal_prefix = "SQLite rechazó la consulta: ";

std::string_view without_sqlite_prefix(std::string_view message)
{
    message = trim(message);
    if(message.starts_with(sqlite_refusal_prefix))
        message.remove_prefix(sqlite_refusal_prefix.size());
    return message;
}

// The server's refusal, {error_code, message}, structured or as text; else its whole text as an sql_error.
std::pair<std::string, std::string> refusal_of(agentio::tool_result const& r)
{
    auto const refusal = result_object(r);
    auto const* code = refusal ? refusal->if_contains("error_code") : nullptr;
    auto const* message = refusal ? refusal->if_contains("message") : nullptr;
    return {code && code->is_string() ? std::string(code->get_string()) : "sql_error",
        message && message->is_string() ? std::string(message->get_string()) : r.joined_text()};
}

// The sentence that leads a refusal of the MCP server, by its code (any other server may send its own).
std::string refusal_sentence(std::string_view code)
{
    if(code == "sql_error")
        return "La consulta SQL falló";
    if(code == "query_validation_failed")
        return "El servidor MCP no admitió la consulta";
    if(code == "query_timeout")
        return "La consulta tardó demasiado y el servidor MCP la canceló";
    if(code == "result_too_large")
        return "El resultado de la consulta es demasiado grande";
    return "El servidor MCP rechazó la consulta";
}

// What happened to the MCP server, by the kind of the client's failure.
std::string_view client_failure_clause(boost::system::error_code const& ec)
{
    if(ec == asio::error::operation_aborted)
        return "la llamada se canceló";
    if(ec == mcp::client_errc::server_error)
        return "respondió con un error";
    if(ec == mcp::client_errc::timeout)
        return "no respondió a tiempo";
    if(ec == mcp::client_errc::transport_failed)
        return "no arrancó o la conexión falló";
    if(ec == mcp::client_errc::closed)
        return "la conexión se cerró";
    if(ec == mcp::client_errc::protocol_error)
        return "respondió algo que no es MCP";
    if(ec == mcp::client_errc::unsupported_version)
        return "no habla ninguna versión del protocolo que conozcamos";
    if(ec == mcp::client_errc::not_connected)
        return "el cliente no estaba conectado";
    return "falló";
}

std::string thread_of(std::string const& session_id)
{
    return "facturas-" + session_id;
}

constexpr std::string_view query_tool = "sqlite_run_select";

void notify(ask_observer const& o, std::string_view step, std::string_view message)
{
    if(o.on_step)
        o.on_step(step, message);
}

asio::awaitable<void> close_quietly(mcp::client c)
{
    try
    {
        co_await c.close();
    }
    catch(std::exception const&)
    {
    }
}

} // namespace

std::optional<json::object> result_object(agentio::tool_result const& r)
{
    if(r.structured && r.structured->is_object())
        return r.structured->get_object();
    boost::system::error_code ec;
    auto parsed = json::parse(r.joined_text(), ec);
    if(!ec && parsed.is_object())
        return std::move(parsed.get_object());
    return std::nullopt;
}

std::string quote(std::string_view detail)
{
    constexpr std::size_t most = 500; // SQLite's messages are short; a server may send a whole page
    std::string text(trim(detail));
    for(auto& c : text)
        if(c == '\n' || c == '\r' || c == '\t')
            c = ' ';
    if(text.size() > most)
    {
        std::size_t cut = most;
        while(cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) // not inside a UTF-8 character
            --cut;
        text.resize(cut);
        text += "…";
    }
    return "«" + text + "»";
}

std::string refusal_message(std::string_view code, std::string_view message)
{
    return with_detail(refusal_sentence(code), without_sqlite_prefix(message));
}

std::string mcp_failure_message(std::string_view doing, mcp::client_error const& e)
{
    auto const ec = e.code();
    std::string_view const why = client_failure_clause(ec);
    // what() ends with the error code's own (English) words, which `why` has already said.
    std::string detail = e.what();
    if(auto const at = detail.rfind(": " + ec.message()); at != std::string::npos)
        detail.resize(at);
    return with_detail(std::string(doing) + " (" + std::string(why) + ")", detail);
}

std::string model_failure_message(llm::error const& e)
{
    using kind = llm::error::kind;
    switch(e.what)
    {
    case kind::connection: return with_detail("No se pudo conectar con el proveedor del modelo", e.message);
    case kind::timeout: return with_detail("El proveedor del modelo no respondió a tiempo", e.message);
    case kind::http_status:
        if(e.status == 401 || e.status == 403)
            return with_detail("El proveedor del modelo rechazó la clave (HTTP " + std::to_string(e.status) + ")",
                e.message);
        return with_detail("El proveedor del modelo respondió con un error (HTTP " + std::to_string(e.status) + ")",
            e.message);
    case kind::stream_error:
        if(e.type == "overloaded_error")
            return with_detail("El proveedor del modelo está saturado", e.message);
        return with_detail("El proveedor del modelo informó de un error a mitad de la respuesta", e.message);
    case kind::protocol: return with_detail("La respuesta del modelo llegó cortada o mal formada", e.message);
    case kind::cancelled: return with_detail("La llamada al modelo se canceló", e.message);
    case kind::configuration: return with_detail("La configuración del proveedor del modelo no es válida", e.message);
    case kind::overloaded:
        return with_detail("Este servidor está sobrecargado (sin memoria o sin descriptores de fichero)", e.message);
    }
    return with_detail("El proveedor del modelo falló", e.message);
}

std::string answer_for_error(std::string_view code)
{
    if(code == "invalid_request")
        return "No he podido atender la petición: falta la pregunta o la sesión, o no son válidas.";
    if(code == "query_validation_failed")
        return "No he podido convertir tu pregunta en una consulta de lectura válida. Prueba a reformularla.";
    if(code == "sql_error")
        return "La base de datos rechazó la consulta generada para tu pregunta, incluso tras corregirla. Prueba a "
               "reformularla.";
    if(code == "query_timeout")
        return "La consulta tardaba demasiado y se ha cancelado. Prueba con una pregunta más concreta.";
    if(code == "result_too_large")
        return "El resultado es demasiado grande para mostrarlo. Prueba a acotar la pregunta (un año, un país…).";
    if(code == "session_busy")
        return "Esta conversación ya tiene una pregunta en curso. Espera a que termine y vuelve a preguntar.";
    if(code == "interrupted")
        return "Esta pregunta se ha interrumpido porque ha llegado otra en la misma conversación.";
    if(code == "llm_unavailable")
        return "El modelo de lenguaje no está disponible en este momento. Inténtalo de nuevo en unos minutos.";
    if(code == "mcp_unavailable")
        return "El servidor de datos de facturas no está disponible en este momento. Inténtalo de nuevo en unos "
               "minutos.";
    return "Ha ocurrido un error inesperado al responder. Inténtalo de nuevo.";
}

json::object ask_result::to_json() const
{
    json::object o;
    o["session_id"] = session_id;
    o["answer"] = answer;
    o["sql"] = sql.empty() ? json::value(nullptr) : json::value(sql);
    o["columns"] = columns;
    o["rows"] = rows;
    o["row_count"] = row_count;
    o["truncated"] = truncated;
    o["error_code"] = error_code.empty() ? json::value(nullptr) : json::value(error_code);
    o["error_message"] = error_message.empty() ? json::value(nullptr) : json::value(error_message);
    return o;
}

invoice_agent::invoice_agent(settings s, mcp_endpoint endpoint, llm::any_provider& provider,
    agentio::threads::thread_store& store)
    : settings_(std::move(s))
    , endpoint_(std::move(endpoint))
    , provider_(provider)
    , store_(store)
    , model_(settings_.effective_model())
{
}

bool invoice_agent::mcp_connected() const
{
    std::lock_guard lock(mutex_);
    return mcp_.has_value();
}

asio::awaitable<mcp::client> invoice_agent::mcp()
{
    {
        std::lock_guard lock(mutex_);
        if(mcp_)
            co_return *mcp_;
    }
    auto const ex = co_await asio::this_coro::executor;
    std::shared_ptr<mcp::client_transport> transport;
    if(!endpoint_.url.empty())
    {
        mcp::http_transport_options t;
        t.url = endpoint_.url;
        t.http.tracer = telemetry_.tracer; // each traced call to the server is a client span
        transport = mcp::make_http_transport(ex, std::move(t));
    }
    else
    {
        mcp::process_options p;
        try
        {
            p = mcp::process_options::from_command_line(endpoint_.command);
        }
        catch(std::invalid_argument const& e)
        {
            throw failure("mcp_unavailable",
                with_detail("La orden de INVOICE_AGENT_MCP_COMMAND no es válida", e.what()));
        }
        // The server's log lines join this process's stderr: a log file of ours is not its to write and rotate
        // too (an `env LOG_FILE=... agentio-sqlite-mcp` command gives it one of its own).
        p.environment = {{"AGENTIO_LOG_FILE", std::nullopt}, {"LOG_FILE", std::nullopt}};
        transport = mcp::make_stdio_transport(ex, std::move(p));
    }
    mcp::client_options o;
    o.name = "agentio-facturas";
    o.request_timeout = settings_.mcp_timeout;
    mcp::client fresh(std::move(transport), std::move(o));
    std::optional<failure> failed;
    try
    {
        co_await fresh.connect();
    }
    catch(mcp::client_error const& e)
    {
        failed.emplace("mcp_unavailable", mcp_failure_message("No se pudo conectar con el servidor MCP", e));
    }
    if(failed)
        throw *failed;
    bool ours = false;
    mcp::client chosen = fresh;
    {
        std::lock_guard lock(mutex_);
        if(!mcp_)
        {
            mcp_ = fresh;
            ours = true;
        }
        chosen = *mcp_;
    }
    if(!ours) // another request connected first: keep one connection
        asio::co_spawn(ex, close_quietly(fresh), asio::detached);
    co_return chosen;
}

void invoice_agent::forget_mcp(mcp::client const& broken)
{
    std::lock_guard lock(mutex_);
    if(mcp_ && mcp_->get_executor() == broken.get_executor())
        mcp_.reset();
    schema_.reset();
}

asio::awaitable<void> invoice_agent::close()
{
    std::optional<mcp::client> c;
    {
        std::lock_guard lock(mutex_);
        c.swap(mcp_);
    }
    if(c)
        co_await close_quietly(*c);
}

asio::awaitable<json::object> invoice_agent::schema()
{
    {
        std::lock_guard lock(mutex_);
        if(schema_ && std::chrono::steady_clock::now() - schema_at_ < settings_.schema_ttl)
            co_return *schema_;
    }
    auto c = co_await mcp();
    mcp::call_options o;
    o.timeout = settings_.mcp_timeout;
    agentio::tool_result r;
    std::optional<failure> failed;
    try
    {
        json::value const no_arguments = json::object();
        r = co_await c.call_tool("sqlite_get_schema", no_arguments, o);
    }
    catch(mcp::client_error const& e)
    {
        failed.emplace("mcp_unavailable", mcp_failure_message("El servidor MCP no dio el esquema", e));
        forget_mcp(c);
    }
    if(failed)
        throw *failed;
    if(r.is_error)
        throw failure("mcp_unavailable",
            with_detail("El servidor MCP no dio el esquema", without_sqlite_prefix(refusal_of(r).second)));
    auto given = result_object(r);
    if(!given)
        throw failure("mcp_unavailable",
            with_detail("El servidor MCP dio un esquema que no es un objeto JSON", r.joined_text()));
    std::lock_guard lock(mutex_);
    schema_ = std::move(*given);
    schema_at_ = std::chrono::steady_clock::now();
    co_return *schema_;
}

asio::awaitable<json::object> invoice_agent::run_query(std::string const& sql,
    agentio::agent::run_reporter const& report)
{
    auto c = co_await mcp();
    mcp::call_options o;
    o.timeout = settings_.mcp_timeout;
    json::value const arguments = json::object{{"sql", sql}, {"max_rows", settings_.sql_max_rows}};
    agentio::tool_result r;
    std::optional<failure> failed;
    // The query is the pipeline's tool call: an execute_tool span, and a tool_call record.
    auto const started = std::chrono::steady_clock::now();
    auto span = report.start_tool(query_tool, {}, arguments);
    std::string const traceparent = span.traceparent(); // the query joins the question's trace in the MCP server
    o.traceparent = traceparent;
    try
    {
        r = co_await c.call_tool(std::string(query_tool), arguments, o);
    }
    catch(mcp::client_error const& e)
    {
        if(e.code() == mcp::client_errc::timeout)
            failed.emplace("query_timeout",
                "El servidor MCP no respondió a la consulta en " + std::to_string(settings_.mcp_timeout.count()) +
                    " s.");
        else
        {
            failed.emplace("mcp_unavailable", mcp_failure_message("La llamada al servidor MCP falló", e));
            forget_mcp(c);
        }
    }
    {
        std::string const error = failed ? std::string(failed->what()) : r.is_error ? r.joined_text() : std::string();
        std::string_view const outcome = failed && failed->code() == "query_timeout" ? "timeout"
            : failed || r.is_error                                                   ? "error"
                                                                                     : "ok";
        agentio::agent::tool_call_record const record{query_tool, {}, outcome,
            std::chrono::steady_clock::now() - started, error};
        report.tool_call(span, record, r);
    }
    if(failed)
        throw *failed;
    if(r.is_error)
    {
        auto [code, message] = refusal_of(r);
        auto const text = refusal_message(code, message);
        throw failure(std::move(code), text, std::string(without_sqlite_prefix(message)));
    }
    auto rows = result_object(r);
    if(!rows)
        throw failure("mcp_unavailable",
            with_detail("El servidor MCP devolvió un resultado sin filas", r.joined_text()));
    co_return std::move(*rows);
}

namespace {

// The provider's own count of a request near the window's edge (AGENT_COUNT_TOKENS).
struct provider_count
{
    llm::any_provider* provider;
    asio::awaitable<boost::system::result<std::uint64_t, llm::error>> operator()(llm::request const& r) const
    {
        return provider->count_tokens(r);
    }
};

} // namespace

asio::awaitable<std::string> invoice_agent::complete(std::string const& system,
    std::vector<llm::message> const& messages, std::function<void(std::string_view)> const* on_text,
    agentio::agent::run_reporter const& report)
{
    if(auto why = settings_.llm_unavailable_reason())
        throw failure("llm_unavailable", *why);
    llm::request request;
    request.model = model_;
    request.system = system;
    request.messages = messages;
    request.max_tokens = 2048;
    request.temperature = 0.0;
    // Within the model's window: the session's history is bounded (max_history_turns), so a request that
    // outgrows the window is rare, and a summary of its older questions is not kept (they leave the history
    // within a few questions); AGENT_CONTEXT_POLICY says whether they are summarized or left out.
    llm::context_plan plan{.window = settings_.model.window(model_, request.max_tokens).tokens,
        .policy = settings_.model.context_policy,
        .room = 0.95,
        .summary_max_tokens = 1024,
        .texts = &agentio::spanish_messages,
        .count_tokens = {}};
    if(settings_.model.count_tokens)
        plan.count_tokens = provider_count{&provider_};
    auto fitted = co_await llm::fit_context(provider_, request, messages, nullptr, plan, estimator_);
    if(!fitted)
        throw failure("llm_unavailable",
            agentio::format_message(agentio::spanish_messages.context_turn_too_big,
                {{"tokens", std::to_string(fitted.error().tokens)},
                    {"window", std::to_string(fitted.error().window)}}));
    fitted->apply(request, messages);
    auto const estimated = llm::token_estimator::raw_tokens(request);
    std::function<void(std::string_view)> forward;
    if(on_text && *on_text)
        forward = *on_text;
    auto answered = co_await report.complete(provider_, request, std::move(forward)); // a chat span, a record
    if(!answered)
        throw failure("llm_unavailable", model_failure_message(answered.error()));
    estimator_.calibrate(estimated, answered->tokens);
    co_return answered->assistant.text();
}

std::vector<invoice_agent::exchange> invoice_agent::history(std::vector<agentio::threads::item> const& items) const
{
    std::vector<exchange> turns;
    if(settings_.max_history_turns == 0)
        return turns;
    for(auto const& item : items)
    {
        auto const& m = item.message;
        if(m.role == llm::role::user)
        {
            bool const only_results = !m.content.empty() &&
                std::all_of(m.content.begin(), m.content.end(),
                    [](auto const& b) { return std::holds_alternative<llm::tool_result_block>(b); });
            if(!only_results)
                turns.push_back({m.text(), {}, {}});
            continue;
        }
        if(turns.empty())
            continue;
        for(auto const& b : m.content)
            if(auto const* use = std::get_if<llm::tool_use_block>(&b);
                use && use->name == query_tool && use->input.is_object())
                if(auto const* sql = use->input.get_object().if_contains("sql"); sql && sql->is_string())
                    turns.back().sql = sql->get_string();
        if(auto text = m.text(); !text.empty())
            turns.back().answer = std::move(text);
    }
    if(turns.size() > settings_.max_history_turns)
        turns.erase(turns.begin(), turns.end() - settings_.max_history_turns);
    return turns;
}

namespace {

// The turn as the model would have seen it: the question, the query as a
// call of the MCP tool and its outcome, then the answer.
std::vector<llm::message> turn_messages(std::string const& question, ask_result const& result)
{
    std::vector<llm::message> messages{llm::message::user(question)};
    if(!result.sql.empty())
    {
        llm::message call{llm::role::assistant, {}};
        call.content.emplace_back(llm::tool_use_block{"sql_1", std::string(query_tool),
            json::object{{"sql", result.sql}}, {}});
        llm::message outcome{llm::role::user, {}};
        llm::tool_result_block r{"sql_1", {}, !result.error_code.empty()};
        r.content.emplace_back(llm::text_block{result.error_code.empty()
                ? std::to_string(result.row_count) + " filas"
                : result.error_code + ": " + result.error_message});
        outcome.content.emplace_back(std::move(r));
        messages.push_back(std::move(call));
        messages.push_back(std::move(outcome));
    }
    messages.push_back(llm::message::assistant(result.answer));
    return messages;
}

// Between the pipeline's steps: a turn another message interrupted ends here.
void stop_if_interrupted(std::optional<agentio::threads::turn> const& held)
{
    if(held && held->interrupted())
        throw failure("interrupted", "Otra pregunta de la misma conversación ha interrumpido esta.");
}

} // namespace

asio::awaitable<ask_result> invoice_agent::ask(std::string session_id, std::string question,
    ask_observer const& observer, std::optional<std::string> approved_sql)
{
    ask_result r;
    r.session_id = session_id;
    // The question as one run: its invoke_agent span (under the request's), its calls' spans and records.
    agentio::agent::run_reporter report(telemetry_, "pipeline", model_, provider_.name(), observer.traceparent,
        session_id);
    unsigned const max_rows = settings_.sql_max_rows;
    std::optional<failure> failed;
    std::optional<agentio::threads::turn> held;
    try
    {
        notify(observer, "history", "Recuperando la conversación");
        // The session's thread, held for this question: a second one waits its turn.
        agentio::threads::turn_request wanted;
        wanted.thread_id = thread_of(session_id);
        wanted.agent = "facturas";
        wanted.title = agentio::threads::make_title(question, 120);
        wanted.when_busy = settings_.busy_policy; // AGENT_BUSY_POLICY
        wanted.traceparent =
            agentio::trace::format_traceparent(report.context()); // its reads and writes: spans of the run
        auto begun = co_await agentio::threads::begin_turn(store_, std::move(wanted));
        if(!begun && begun.error().code == agentio::threads::errc::thread_busy)
            throw failure("session_busy", "La sesión ya tiene una pregunta en curso.");
        if(!begun) // the store failed: answer without history, and say so in the log
            std::fprintf(stderr, "agentio-facturas: the history of session %s was not read: %s\n", session_id.c_str(),
                begun.error().message.c_str());
        else
            held.emplace(std::move(*begun));
        auto const turns = held ? history(held->history()) : std::vector<exchange>{};

        std::string system;
        std::vector<llm::message> messages;
        std::string text;
        if(approved_sql)
            text = *approved_sql; // what the person approved: neither generated again nor changed
        else
        {
            notify(observer, "schema", "Consultando el esquema de la base de datos");
            auto const schema_object = co_await schema();
            auto const schema_text = describe_schema(schema_object);

            notify(observer, "generate_sql", "Generando la consulta SQL");
            system = sql_system_prompt(schema_text, max_rows);
            for(auto const& t : turns)
            {
                messages.push_back(llm::message::user(t.question));
                messages.push_back(llm::message::assistant(t.sql.empty() ? t.answer : t.sql));
            }
            messages.push_back(llm::message::user(question));
            text = co_await complete(system, messages, nullptr, report);
            // A safe point between steps: a question sent meanwhile with AGENT_BUSY_POLICY=interrupt goes first.
            stop_if_interrupted(held);
        }

        json::object result;
        for(int round = 0;; ++round)
        {
            notify(observer, "validate_sql", "Validando la consulta");
            auto prepared = prepare_query(text, max_rows);
            if(!prepared)
                throw failure("query_validation_failed", prepared.error());
            r.sql = strip_code_fences(text);
            if(observer.on_sql)
                observer.on_sql(r.sql);
            // Personal data is read only once a person says so: the query waits, unrun.
            if(observer.may_pause && !approved_sql)
                r.awaiting_approval = mentioned_tables(r.sql, settings_.approval_tables);
            if(!r.awaiting_approval.empty())
                break;

            notify(observer, "execute_sql", "Ejecutando la consulta en el servidor MCP");
            std::string rejected;
            try
            {
                result = co_await run_query(*prepared, report);
            }
            catch(failure const& f)
            {
                if(f.code() != "sql_error" || round == 1 || approved_sql) // an approved query is not rewritten
                    throw;
                rejected = f.detail().empty() ? f.what() : f.detail();
            }
            if(rejected.empty())
                break;
            // One repair round: SQLite's own words go back to the model.
            notify(observer, "repair_sql", "Corrigiendo la consulta");
            messages.push_back(llm::message::assistant(text));
            messages.push_back(llm::message::user(repair_message(rejected)));
            text = co_await complete(system, messages, nullptr, report);
        }
        if(r.awaiting_approval.empty())
        {
            if(auto const* c = result.if_contains("columns"); c && c->is_array())
                r.columns = c->get_array();
            if(auto const* rows = result.if_contains("rows"); rows && rows->is_array())
                r.rows = rows->get_array();
            r.row_count = static_cast<std::int64_t>(r.rows.size());
            if(auto const* t = result.if_contains("truncated"); t && t->is_bool())
                r.truncated = t->get_bool() || r.rows.size() >= max_rows;
            if(observer.on_rows)
                observer.on_rows(r);
            stop_if_interrupted(held);

            notify(observer, "generate_answer", "Redactando la respuesta");
            std::vector<llm::message> const answer_messages{
                llm::message::user(answer_message(question, r.sql, result))};
            r.answer = co_await complete(answer_system_prompt(), answer_messages, &observer.on_chunk, report);
            if(r.answer.empty())
                throw failure("llm_unavailable", "El modelo devolvió una respuesta vacía.");
        }
    }
    catch(failure const& f)
    {
        failed = f;
    }
    catch(std::exception const& e)
    {
        failed.emplace("internal_error", with_detail("Error interno del agente", e.what()));
    }
    if(failed)
    {
        r.error_code = failed->code();
        r.error_message = failed->what();
        r.answer = answer_for_error(r.error_code);
        if(r.error_code != "sql_error" && r.error_code != "query_validation_failed")
            r.columns.clear(), r.rows.clear(), r.row_count = 0;
    }
    if(held && !r.awaiting_approval.empty())
    {
        // Nothing happened yet: the session's history gets the exchange once the query runs.
        auto saved = co_await held->finish({}, agentio::threads::run_status::cancelled);
        if(!saved)
            std::fprintf(stderr, "agentio-facturas: the turn of session %s was not ended: %s\n", session_id.c_str(),
                saved.error().message.c_str());
    }
    else if(held)
    {
        auto const messages = turn_messages(question, r);
        auto const status = r.error_code.empty() ? agentio::threads::run_status::completed
            : r.error_code == "interrupted"      ? agentio::threads::run_status::cancelled
                                                 : agentio::threads::run_status::failed;
        auto saved = co_await held->finish(messages, status);
        if(!saved)
            std::fprintf(stderr, "agentio-facturas: the turn of session %s was not saved: %s\n", session_id.c_str(),
                saved.error().message.c_str());
    }
    agentio::agent::run_summary summary;
    summary.status = !r.awaiting_approval.empty() ? agentio::agent::outcome::suspended
        : r.error_code.empty()                    ? agentio::agent::outcome::completed
        : r.error_code == "interrupted"           ? agentio::agent::outcome::cancelled
                                                  : agentio::agent::outcome::failed;
    summary.answer = r.answer;
    if(summary.status == agentio::agent::outcome::failed)
        summary.error_message = r.error_code + ": " + r.error_message;
    report.finish(summary, 0);
    co_return r;
}

} // namespace facturas
