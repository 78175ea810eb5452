// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "openai_api.hpp"

#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

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
    explicit invoice_model(invoice_agent& agent) : cc::question_model(listing(), spanish()), agent_(agent) {}

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
            "El modelo '{model}' nunca espera aprobaciones: no hay nada que decidir."};
    }

    asio::awaitable<void> answer(std::string question, cc::request r, cc::call_context const& ctx,
        cc::output_sink sink) override
    {
        // The agent keeps its own history by session: the request's, or a new one.
        std::string session = ctx.session;
        if(auto const* id = r.extra.if_contains("session_id"); session.empty() && id && id->is_string())
            session = std::string(id->get_string());
        if(session.empty())
            session = "v1-" + boost::uuids::to_string(boost::uuids::random_generator()());
        bool streamed_answer = false;
        ask_observer observer;
        observer.traceparent = std::string(ctx.traceparent());
        observer.on_step = [&sink](std::string_view step, std::string_view message) {
            sink(cc::reasoning_delta{std::string(step).append(": ").append(message).append("\n")});
        };
        // The query is the pipeline's tool call: a line for the OpenAI clients, the call itself for AG-UI's.
        using phase = cc::tool_activity::phase;
        std::string open_call; // the query sent and not yet answered
        int queries = 0;
        auto end_call = [&sink, &open_call](std::string result, bool is_error) {
            if(open_call.empty())
                return;
            sink(cc::tool_activity{phase::finished, std::exchange(open_call, {}), std::string(query_tool_name), {},
                std::move(result), is_error});
        };
        observer.on_sql = [&](std::string const& sql) {
            end_call("SQLite rechazó la consulta; se corrige", true); // the repair round's second query
            open_call = session + "-sql-" + std::to_string(++queries);
            sink(cc::reasoning_delta{"SQL: " + sql + "\n", true});
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
        auto result = co_await agent_.ask(session, question, observer);
        end_call(result.error_message.empty() ? "la consulta falló" : result.error_message, true);
        // A failed step still answers in Spanish (why it could not), as /ask does.
        if(!streamed_answer)
            sink(cc::content_delta{result.answer});
        sink(cc::finished{cc::finish_reason::stop, {}});
    }

    invoice_agent& agent_;
};

} // namespace

std::shared_ptr<cc::model> make_openai_model(invoice_agent& agent)
{
    return std::make_shared<invoice_model>(agent);
}

} // namespace facturas
