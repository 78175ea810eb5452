// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "openai_api.hpp"

#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

#include <algorithm>
#include <optional>
#include <variant>

namespace facturas {

namespace asio = boost::asio;
namespace cc = agentio::chat_completions;
namespace json = boost::json;

// The MCP tool each question's query calls.
constexpr std::string_view query_tool_name = "sqlite_run_select";

namespace {

class invoice_model final : public cc::question_model
{
public:
    invoice_model(invoice_agent& agent, bool pauses)
        : cc::question_model(listing(), spanish())
        , agent_(agent)
        , pauses_(pauses)
    {
    }

private:
    static cc::model_card listing()
    {
        cc::model_card c;
        c.id = "facturas";
        c.created = 1764115200;
        c.extra["description"] = "Preguntas en español sobre las facturas, respondidas con SQL de solo lectura";
        return c;
    }

    static cc::question_texts spanish()
    {
        return {"El último mensaje debe ser la pregunta del usuario, con texto.",
            "El modelo '{model}' no llama a herramientas del cliente.",
            "El modelo '{model}' nunca espera aprobaciones: no hay nada que decidir.",
            "Las decisiones responden a las llamadas del modelo: el último mensaje debe ser su turno con ellas.",
            "La decisión sobre '{id}' no responde a ninguna llamada del último turno."};
    }

    bool pauses_for_approval() const noexcept override { return pauses_; }

    asio::awaitable<void> answer(std::string question, cc::request r, cc::call_context const& ctx,
        cc::output_sink sink) override
    {
        // Named: GCC 12 destroys a temporary in a co_await expression twice.
        std::string session = session_of(r, ctx);
        std::optional<resumed_query> fresh;
        co_await run(std::move(question), std::move(session), ctx, std::move(sink), std::move(fresh));
    }

    // The query a person decided on: run as approved, or the answer says it was not.
    asio::awaitable<void> resume(cc::paused_answer paused, cc::request r, cc::call_context const& ctx,
        cc::output_sink sink) override
    {
        agentio::llm::tool_use_block const* query = nullptr;
        for(auto const& block : paused.turn.content)
            if(auto const* call = std::get_if<agentio::llm::tool_use_block>(&block);
                call && call->name == query_tool_name)
                query = call;
        auto const* sql = query && query->input.is_object() ? query->input.as_object().if_contains("sql") : nullptr;
        auto const decision = std::find_if(paused.decisions.begin(), paused.decisions.end(),
            [&](cc::approval const& d) { return query && d.tool_call_id == query->id; });
        if(!sql || !sql->is_string() || decision == paused.decisions.end())
        {
            sink(cc::failed{cc::invalid_request("Falta la decisión sobre la consulta del último turno.", "decisions",
                "missing_decision")});
            co_return;
        }
        if(!decision->approved)
        {
            std::string const why = decision->reason.empty() ? std::string() : " (" + decision->reason + ")";
            sink(cc::tool_activity{cc::tool_activity::phase::finished, query->id, std::string(query_tool_name), {},
                "no aprobada" + why, true});
            sink(cc::content_delta{"No he ejecutado la consulta: no se aprobó" + why + "."});
            sink(cc::finished{cc::finish_reason::stop, {}});
            co_return;
        }
        std::string session = session_of(r, ctx);
        std::optional<resumed_query> approved = resumed_query{query->id, std::string(sql->get_string())};
        co_await run(std::move(paused.question), std::move(session), ctx, std::move(sink), std::move(approved));
    }

    struct resumed_query
    {
        std::string call_id;
        std::string sql;
    };

    static std::string session_of(cc::request const& r, cc::call_context const& ctx)
    {
        // The agent keeps its own history by session: the request's, or a new one.
        std::string session = ctx.session;
        if(auto const* id = r.extra.if_contains("session_id"); session.empty() && id && id->is_string())
            session = std::string(id->get_string());
        if(session.empty())
            session = "v1-" + boost::uuids::to_string(boost::uuids::random_generator()());
        return session;
    }

    asio::awaitable<void> run(std::string question, std::string session, cc::call_context const& ctx,
        cc::output_sink sink, std::optional<resumed_query> resumed)
    {
        bool streamed_answer = false;
        ask_observer observer;
        observer.traceparent = std::string(ctx.traceparent());
        observer.may_pause = pauses_;
        observer.on_step = [&sink](std::string_view step, std::string_view message) {
            sink(cc::reasoning_delta{std::string(step).append(": ").append(message).append("\n")});
        };
        // The query is the pipeline's tool call: a line for the OpenAI clients, the call itself for AG-UI's.
        using phase = cc::tool_activity::phase;
        std::string open_call; // the query sent and not yet answered
        auto end_call = [&sink, &open_call](std::string result, bool is_error) {
            if(open_call.empty())
                return;
            sink(cc::tool_activity{phase::finished, std::exchange(open_call, {}), std::string(query_tool_name), {},
                std::move(result), is_error});
        };
        observer.on_sql = [&](std::string const& sql) {
            end_call("SQLite rechazó la consulta; se corrige", true); // the repair round's second query
            sink(cc::reasoning_delta{"SQL: " + sql + "\n", true});
            if(resumed)
            {
                open_call = resumed->call_id; // the call shown when it waited: its result ends it
                return;
            }
            open_call = "sql-" + boost::uuids::to_string(boost::uuids::random_generator()());
            sink(cc::tool_activity{phase::ready, open_call, std::string(query_tool_name),
                agentio::to_json_text(json::object{{"sql", sql}}), {}, false});
        };
        observer.on_rows = [&sink, &end_call](ask_result const& rows) {
            auto line = std::to_string(rows.row_count) + (rows.truncated ? "+" : "") + " filas";
            sink(cc::reasoning_delta{line + "\n", true});
            end_call(std::move(line), false);
        };
        observer.on_chunk = [&sink, &streamed_answer](std::string_view text) {
            streamed_answer = true;
            sink(cc::content_delta{std::string(text)});
        };
        std::optional<std::string> approved;
        if(resumed)
            approved = resumed->sql;
        auto result = co_await agent_.ask(session, question, observer, std::move(approved));
        if(!result.awaiting_approval.empty())
        {
            // Personal data: the query waits for a person, who sees it whole and what it reads.
            std::string tables;
            for(auto const& t : result.awaiting_approval)
                tables.append(tables.empty() ? "" : ", ").append(t);
            auto const arguments = agentio::to_json_text(json::object{{"sql", result.sql}});
            cc::awaiting_approval stop;
            stop.calls.push_back({open_call, std::string(query_tool_name), arguments,
                "¿Ejecuto esta consulta? Lee datos personales (" + tables + "):\n" + result.sql, false});
            stop.turn.push_back({open_call, std::string(query_tool_name), arguments});
            sink(std::move(stop));
            co_return;
        }
        end_call(result.error_message.empty() ? "la consulta falló" : result.error_message, true);
        // A failed step still answers in Spanish (why it could not), as /ask does.
        if(!streamed_answer)
            sink(cc::content_delta{result.answer});
        sink(cc::finished{cc::finish_reason::stop, {}});
    }

    invoice_agent& agent_;
    bool pauses_;
};

} // namespace

std::shared_ptr<cc::model> make_openai_model(invoice_agent& agent)
{
    return std::make_shared<invoice_model>(agent, !agent.config().approval_tables.empty());
}

} // namespace facturas
