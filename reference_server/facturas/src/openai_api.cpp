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

class invoice_model final : public cc::model
{
public:
    explicit invoice_model(invoice_agent& agent) : agent_(agent)
    {
        card_.id = "facturas";
        card_.created = 1764115200;
        card_.extra["description"] = "Preguntas en español sobre las facturas, respondidas con SQL de solo lectura";
    }

    cc::model_card const& card() const noexcept override { return card_; }

    asio::awaitable<void> complete(cc::request r, cc::call_context const& ctx, cc::output_sink sink) override
    {
        if(r.messages.empty() || r.messages.back().role != agentio::llm::role::user ||
            r.messages.back().text().find_first_not_of(" \t\r\n") == std::string::npos)
        {
            sink(cc::failed{cc::invalid_request("El último mensaje debe ser la pregunta del usuario, con texto.",
                "messages", "invalid_value")});
            co_return;
        }
        if(!r.tools.empty())
        {
            sink(cc::failed{cc::invalid_request("El modelo 'facturas' no llama a herramientas del cliente.", "tools",
                "invalid_value")});
            co_return;
        }
        // The agent keeps its own history by session: the request's, or a new one.
        std::string session = ctx.session;
        if(auto const* id = r.extra.if_contains("session_id"); session.empty() && id && id->is_string())
            session = std::string(id->get_string());
        if(session.empty())
            session = "v1-" + boost::uuids::to_string(boost::uuids::random_generator()());
        bool streamed_answer = false;
        ask_observer observer;
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
        auto const question = r.messages.back().text();
        auto result = co_await agent_.ask(session, question, observer);
        // A failed step still answers in Spanish (why it could not), as /ask does.
        if(!streamed_answer)
            sink(cc::content_delta{result.answer});
        sink(cc::finished{cc::finish_reason::stop, {}});
    }

private:
    invoice_agent& agent_;
    cc::model_card card_;
};

} // namespace

std::shared_ptr<cc::model> make_openai_model(invoice_agent& agent)
{
    return std::make_shared<invoice_model>(agent);
}

} // namespace facturas
