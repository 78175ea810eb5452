// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "openai_api.hpp"

#include <agentio/json_text.hpp>

#include <boost/json/parse.hpp>

#include <algorithm>
#include <optional>
#include <variant>

namespace normativa {

namespace asio = boost::asio;
namespace json = boost::json;
namespace cc = agentio::chat_completions;

namespace {

class law_model final : public cc::question_model
{
public:
    explicit law_model(rag_service& service) : cc::question_model(listing(), spanish()), service_(service) {}

private:
    static cc::model_card listing()
    {
        cc::model_card c;
        c.id = "normativa";
        c.created = 1764115200;
        c.extra["description"] = "Preguntas sobre la normativa laboral española, con los artículos citados";
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

    bool pauses_for_approval() const noexcept override { return !service_.config().approval_tools.empty(); }

    asio::awaitable<void> answer(std::string asked, cc::request, cc::call_context const& ctx,
        cc::output_sink sink) override
    {
        std::optional<cc::paused_answer> fresh; // named: GCC 12 destroys a co_await's temporaries twice
        co_await run(std::move(asked), ctx, std::move(sink), std::move(fresh));
    }

    // The turn a person decided on, run on from where it waited (in a thread of its own, as each question is).
    asio::awaitable<void> resume(cc::paused_answer paused, cc::request, cc::call_context const& ctx,
        cc::output_sink sink) override
    {
        auto const& tools = service_.config().approval_tools;
        for(auto const& block : paused.turn.content)
            if(auto const* call = std::get_if<agentio::llm::tool_use_block>(&block))
            {
                bool const needs = std::find(tools.begin(), tools.end(), call->name) != tools.end();
                bool const decided = std::any_of(paused.decisions.begin(), paused.decisions.end(),
                    [&](cc::approval const& d) { return d.tool_call_id == call->id; });
                if(needs && !decided)
                {
                    sink(cc::failed{cc::invalid_request("La llamada '" + call->id + "' a «" + call->name +
                            "» también espera una decisión.",
                        "decisions", "missing_decision")});
                    co_return;
                }
            }
        std::string question = std::move(paused.question);
        std::optional<cc::paused_answer> resumed = std::move(paused);
        co_await run(std::move(question), ctx, std::move(sink), std::move(resumed));
    }

    asio::awaitable<void> run(std::string asked, cc::call_context const& ctx, cc::output_sink sink,
        std::optional<cc::paused_answer> resumed)
    {
        agent_request question{std::move(asked), std::nullopt};
        question.traceparent = std::string(ctx.traceparent());
        auto prepared = co_await service_.prepare(std::move(question), ctx.user);
        if(!prepared)
        {
            sink(cc::failed{{prepared.error().status, prepared.error().message, {}, {}, {}}});
            co_return;
        }
        (*prepared)->may_pause = true;
        if(resumed)
        {
            (*prepared)->paused_turn = std::move(resumed->turn);
            for(auto const& d : resumed->decisions)
                (*prepared)->decisions.push_back({d.tool_call_id, d.approved, d.reason});
        }
        bool ended = false;
        event_sink events = [&sink, &ended](sse_event const& e) {
            if(ended)
                return;
            boost::system::error_code ec;
            auto const data = json::parse(e.data, ec);
            json::object const empty;
            auto const& o = !ec && data.is_object() ? data.get_object() : empty;
            if(e.type == "token")
            {
                if(auto const* t = o.if_contains("text"); t && t->is_string())
                    sink(cc::content_delta{std::string(t->get_string())});
            }
            else if(e.type == "tool_status")
            {
                auto const* tool = o.if_contains("tool");
                auto const* args = o.if_contains("args");
                // A line for the OpenAI clients; AG-UI's show the call itself (tool_activity, below).
                sink(cc::reasoning_delta{"→ " + (tool && tool->is_string() ? std::string(tool->get_string()) : "") +
                        "(" + (args ? agentio::to_json_text(*args) : "") + ")\n",
                    true});
            }
            else if(e.type == "done")
            {
                std::string line;
                if(auto const* sources = o.if_contains("sources"); sources && sources->is_array())
                    for(auto const& s : sources->get_array())
                        if(s.is_object())
                        {
                            auto text = [&](char const* key) {
                                auto const* v = s.get_object().if_contains(key);
                                return v && v->is_string() ? std::string(v->get_string()) : std::string();
                            };
                            line.append(line.empty() ? "fuentes: " : "; ").append(text("section"));
                            if(auto const law = text("law"); !law.empty())
                                line.append(" (").append(law).append(")");
                        }
                if(!line.empty())
                    sink(cc::reasoning_delta{line + "\n"});
                sink(cc::finished{cc::finish_reason::stop, {}});
                ended = true;
            }
            else if(e.type == "error")
            {
                auto const* m = o.if_contains("message");
                sink(cc::failed{{502, m && m->is_string() ? std::string(m->get_string()) : "error", "server_error", {},
                    "agent_failed"}});
                ended = true;
            }
        };
        auto calls = [&sink, &ended](agentio::agent::event const& e) {
            if(ended)
                return;
            cc::forward_tool_activity(e, sink);
            // A call of RAG_APPROVAL_TOOLS: the answer stops, to be resumed with the person's decision.
            if(auto const* wait = std::get_if<agentio::agent::approval_required>(&e))
            {
                sink(cc::stop_for_approval(*wait, [](agentio::agent::approval_request const& call) {
                    return call.in_doubt
                        ? "La llamada a «" + call.tool + "» empezó y puede haberse hecho ya: ¿la repito?"
                        : "¿Apruebas la llamada a «" + call.tool + "» con " + agentio::to_json_text(call.input) + "?";
                }));
                ended = true;
            }
        };
        co_await service_.run(std::move(*prepared), std::move(events), std::move(calls));
    }

    rag_service& service_;
};

} // namespace

std::shared_ptr<cc::model> make_openai_model(rag_service& service)
{
    return std::make_shared<law_model>(service);
}

} // namespace normativa
