// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "http_api.hpp"

#include <agentio/http/json_response.hpp>
#include <agentio/json_text.hpp>
#include <agentio/sse/relay.hpp>
#include <boost/json/parse.hpp>

namespace facturas {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace json = boost::json;
namespace bhttp = boost::beast::http;

namespace {

constexpr std::size_t max_question_bytes = 4000;
constexpr std::size_t max_session_id_bytes = 128;

ask_result invalid(std::string session_id, std::string message)
{
    ask_result r;
    r.session_id = std::move(session_id);
    r.error_code = "invalid_request";
    r.error_message = std::move(message);
    r.answer = answer_for_error(r.error_code);
    return r;
}

bool session_id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == ':';
}

bhttp::message_generator json_response(bhttp::status status, json::value const& body, unsigned version)
{
    return agentio::http::json_response(status, body, version);
}

// The pipeline of one streamed question; its steps go to `sink`, then the outcome.
asio::awaitable<void> stream_question(invoice_agent& agent, ask_request question, agentio::sse::event_sink sink,
    std::string traceparent)
{
    ask_observer observer;
    observer.traceparent = std::move(traceparent);
    observer.on_step = [sink](std::string_view step, std::string_view message) {
        sink({"step", agentio::to_json_text(json::object{{"step", step}, {"message", message}})});
    };
    observer.on_sql = [sink](std::string const& sql) {
        sink({"sql", agentio::to_json_text(json::object{{"sql", sql}})});
    };
    observer.on_rows = [sink](ask_result const& r) {
        sink({"rows",
            agentio::to_json_text(json::object{{"columns", r.columns}, {"rows", r.rows}, {"row_count", r.row_count},
                {"truncated", r.truncated}})});
    };
    observer.on_chunk = [sink](std::string_view text) {
        sink({"chunk", agentio::to_json_text(json::object{{"text", text}})});
    };
    auto result = co_await agent.ask(question.session_id, question.question, observer);
    sink({result.error_code.empty() ? "done" : "error", agentio::to_json_text(result.to_json())});
}

} // namespace

boost::system::result<ask_request, ask_result> parse_ask(std::string_view body)
{
    boost::system::error_code ec;
    auto v = json::parse(body, ec);
    if(ec || !v.is_object())
        return invalid("", "El cuerpo debe ser un objeto JSON con los campos «session_id» y «question».");
    auto const& o = v.get_object();
    ask_request out;
    auto const* session = o.if_contains("session_id");
    if(!session || !session->is_string())
        return invalid("", "El campo «session_id» es obligatorio y debe ser un texto.");
    out.session_id = session->get_string();
    if(out.session_id.empty() || out.session_id.size() > max_session_id_bytes ||
        !std::all_of(out.session_id.begin(), out.session_id.end(), session_id_char))
        return invalid("", "El campo «session_id» debe tener de 1 a 128 caracteres entre letras, dígitos y «- _ . :».");
    auto const* question = o.if_contains("question");
    if(!question || !question->is_string())
        return invalid(out.session_id, "El campo «question» es obligatorio y debe ser un texto.");
    out.question = question->get_string();
    if(out.question.find_first_not_of(" \t\r\n") == std::string::npos)
        return invalid(out.session_id, "El campo «question» está vacío.");
    if(out.question.size() > max_question_bytes)
        return invalid(out.session_id,
            "El campo «question» ocupa más de " + std::to_string(max_question_bytes) + " bytes.");
    for(auto const& [key, value] : o)
        if(key != "session_id" && key != "question")
            return invalid(out.session_id,
                "El campo " + quote(key) + " no se admite; solo se admiten «session_id» y «question».");
    return out;
}

agentio::http::router<> make_routes(invoice_agent& agent, agentio::http::router_options options)
{
    agentio::http::router<> routes(std::move(options));
    routes.get("/health", [&agent](auto&& req, auto const&) -> asio::awaitable<bhttp::message_generator> {
        json::object body{{"status", "ok"}, {"mcp", agent.mcp_connected() ? "connected" : "not_connected"},
            {"llm", agent.config().llm_unavailable_reason() ? "not_configured" : "configured"}};
        co_return json_response(bhttp::status::ok, body, req.version());
    });
    routes.post("/ask", [&agent](auto&& req, auto const&) -> asio::awaitable<bhttp::message_generator> {
        auto parsed = parse_ask(req.body());
        if(!parsed)
            co_return json_response(bhttp::status::bad_request, parsed.error().to_json(), req.version());
        ask_observer traced;
        traced.traceparent = std::string(req["traceparent"]); // the server span's
        auto result = co_await agent.ask(parsed->session_id, parsed->question, traced);
        // A second question while the session's first is answered: the same body, and 409.
        auto const status = result.error_code == "session_busy" ? bhttp::status::conflict : bhttp::status::ok;
        co_return json_response(status, result.to_json(), req.version());
    });
    routes.post("/ask/stream",
        [&agent](auto&& req, auto const&,
            agentio::http::any_stream& stream) -> asio::awaitable<std::optional<bhttp::message_generator>> {
            auto parsed = parse_ask(req.body());
            if(!parsed)
                co_return json_response(bhttp::status::bad_request, parsed.error().to_json(), req.version());
            // A client that leaves cancels its question (the MCP call and the model's answer with it).
            auto work = [&agent, question = std::move(*parsed),
                            parent = std::string(req["traceparent"])](agentio::sse::event_sink sink) mutable {
                return stream_question(agent, std::move(question), std::move(sink), std::move(parent));
            };
            co_await agentio::sse::relay(stream, req.version(), std::move(work));
            co_return std::nullopt;
        });
    return routes;
}

} // namespace facturas
