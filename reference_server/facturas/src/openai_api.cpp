// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "openai_api.hpp"

#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

namespace facturas {

namespace asio = boost::asio;
namespace cc = agentio::chat_completions;

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
            "El modelo '{model}' no llama a herramientas del cliente."};
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
        observer.on_sql = [&sink](std::string const& sql) { sink(cc::reasoning_delta{"SQL: " + sql + "\n"}); };
        observer.on_rows = [&sink](ask_result const& rows) {
            sink(cc::reasoning_delta{std::to_string(rows.row_count) + (rows.truncated ? "+" : "") + " filas\n"});
        };
        observer.on_chunk = [&sink, &streamed_answer](std::string_view text) {
            streamed_answer = true;
            sink(cc::content_delta{std::string(text)});
        };
        auto result = co_await agent_.ask(session, question, observer);
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
