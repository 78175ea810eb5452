// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The orchestrator with the real providers and HTTP client against the fake
// LLM on loopback: the tool loop, parallel tools, errors that go back to the
// model, retries (with an injected clock), faults, limits and cancellation.
#include <agentio/agent/orchestrator.hpp>

#include <agentio/json_text.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/llm/any_provider.hpp>
#include <agentio/llm/openai.hpp>
#include <agentio/testing/fake_llm.hpp>

#include "summaries.hpp"
#include "provider_bench.hpp"
#include "run_on.hpp"
#include "spans.hpp"
#include "spanish_messages.hpp"
#include "test_tools.hpp"
#include <boost/asio/use_future.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/describe.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>
#include "test_paths.hpp"

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;
namespace agent = agentio::agent;
namespace testing = agentio::testing;
using namespace std::chrono_literals;

using namespace agent_test;

namespace {

// A fake LLM, a client and a provider on one io_context; runs one agent run
// at a time to completion.
template<class Provider>
struct bench : provider_bench<Provider>
{
    shared_counters counters;

    explicit bench(std::chrono::milliseconds tool_delay = 0ms, llm::provider_options extra = {})
        : provider_bench<Provider>(std::move(extra))
        , tool_delay_(tool_delay)
    {
        this->fake.load_scenarios(AGENTIO_SCENARIOS);
    }

    test_tools tools()
    {
        agentio::toolset_options spanish_tools;
        spanish_tools.validation.texts = agentio_test::spanish_messages;
        return test_tools{spanish_tools, contar_iniciativas{&counters, tool_delay_}, sumar_presupuesto{&counters}};
    }

    struct outcome : event_log<agent::event>
    {
        /// The calls each `round_end` announced, by tool name (its span lives only during the call).
        std::vector<std::string> announced;
        agent::run_result result;
        std::vector<llm::message> conversation;

        std::string kinds() const
        {
            std::string out;
            char last = 0;
            for(auto const& e : events)
            {
                // Calls forming (tool_call_started, tool_input_delta) are left out: calls_stream_as_they_form checks them.
                if(std::holds_alternative<agent::tool_call_started>(e) ||
                    std::holds_alternative<agent::tool_input_delta>(e))
                    continue;
                char const k =
                    "THRCKADES"[e.index()]; // H: thinking, K: round_complete, A: approval_required, S: compacted
                if((k == 'T' || k == 'H') && last == k)
                    continue; // text or thinking deltas: one letter for a run of them
                out += k;
                last = k;
            }
            return out;
        }

        std::string text() const
        {
            std::string out;
            for(auto const& e : events)
                if(auto const* t = std::get_if<agent::text_delta>(&e))
                    out += t->text;
            return out;
        }
    };

    outcome run(std::string const& model, agent::options opts = {},
        std::string question = "¿Cuántas iniciativas hay en ejecución?", asio::cancellation_slot slot = {})
    {
        opts.model = model;
        agent::orchestrator agent{*this->provider, tools(), opts};
        outcome out;
        out.conversation.push_back(llm::message::user(std::move(question)));
        auto sink = [&](agent::event const& e) -> asio::awaitable<void> {
            out.events.push_back(e);
            if(auto const* end = std::get_if<agent::round_end>(&e))
                for(auto const* c : end->calls)
                    out.announced.push_back(c->name);
            co_return;
        };
        auto work = [&]() -> asio::awaitable<void> { out.result = co_await agent.run(out.conversation, sink); };
        this->run_to_end(work, slot);
        return out;
    }

    // A run on a conversation that already has turns (its last message the question).
    outcome run_on(std::string const& model, agent::options opts, std::vector<llm::message> conversation,
        agent::run_options how = {})
    {
        opts.model = model;
        agent::orchestrator agent{*this->provider, tools(), opts};
        outcome out;
        out.conversation = std::move(conversation);
        auto sink = [&](agent::event const& e) -> asio::awaitable<void> {
            out.events.push_back(e);
            co_return;
        };
        auto work = [&]() -> asio::awaitable<void> { out.result = co_await agent.run(out.conversation, sink, how); };
        this->run_to_end(work, {});
        return out;
    }

    template<class Sink>
    agent::run_result run_with_sink(std::string const& model, agent::options opts, Sink sink)
    {
        opts.model = model;
        agent::orchestrator agent{*this->provider, tools(), opts};
        std::vector<llm::message> conversation{llm::message::user("¿Cuántas iniciativas hay en ejecución?")};
        return agentio_test::run_on(this->ioc, agent.run(conversation, std::move(sink)), 10s);
    }

private:
    std::chrono::milliseconds tool_delay_{0};
};

testing::scenario scenario_of(std::string name, std::vector<testing::scripted_response> turns)
{
    testing::scenario s;
    s.name = std::move(name);
    for(auto& t : turns)
        s.turns.push_back({std::move(t)});
    return s;
}

testing::scripted_response says(std::string text)
{
    testing::scripted_response r;
    r.text = text;
    return r;
}

testing::scripted_response calls(std::string text, std::vector<testing::scripted_tool_call> tool_calls)
{
    testing::scripted_response r;
    r.text = text;
    r.tool_calls = std::move(tool_calls);
    return r;
}

testing::fault fault_of(testing::fault_kind kind, std::size_t times = 1)
{
    testing::fault f;
    f.kind = kind;
    f.times = times;
    return f;
}

agent::options spanish()
{
    agent::options o;
    o.texts = agentio_test::spanish_messages;
    return o;
}

} // namespace

BOOST_AUTO_TEST_SUITE(orchestrator)

BOOST_AUTO_TEST_CASE(two_rounds_with_anthropic)
{
    bench<llm::anthropic_provider> b;
    auto const out = b.run("portfolio-two-rounds");
    BOOST_TEST(out.kinds() == "TRCKTKD"); // reasoning, round end, tool call, answer, done
    BOOST_TEST((out.result.status == agent::run_result::outcome::completed));
    BOOST_TEST(out.result.rounds == 2u);
    auto const tool_calls = out.all<agent::tool_call>();
    BOOST_TEST_REQUIRE(tool_calls.size() == 1u);
    BOOST_TEST(tool_calls[0].tool == "contar_iniciativas");
    BOOST_TEST(tool_calls[0].input_summary == "campo_agrupacion=estado_de_la_iniciativa");
    BOOST_TEST(tool_calls[0].input_raw == json::parse(R"({"campo_agrupacion":"estado_de_la_iniciativa"})"));
    BOOST_TEST(tool_calls[0].thinking == "Voy a contar las iniciativas de la cartera agrupadas por estado.");
    BOOST_TEST(tool_calls[0].result_summary == "4 grupos");
    BOOST_TEST(tool_calls[0].iteration == 1u);
    BOOST_TEST(!tool_calls[0].is_error);
    BOOST_TEST(out.text() ==
        "Voy a contar las iniciativas de la cartera agrupadas por estado."
        "Hay **12 iniciativas en ejecución** de un total de 47 en la cartera. Además, 9 están "
        "planificadas, 21 finalizadas y 5 canceladas.");
    BOOST_TEST(out.result.usage.input_tokens > 0u);
    BOOST_TEST(out.result.time_to_first_text.has_value());

    // What went over the wire: the second request carries the assistant turn
    // verbatim and the tool result under the tool_use id.
    auto const requests = b.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 2u);
    auto const& second = requests[1].body.at("messages").as_array();
    BOOST_TEST_REQUIRE(second.size() == 3u);
    auto const& tool_use = second[1].at("content").as_array().at(1).as_object();
    BOOST_TEST(tool_use.at("type") == "tool_use");
    auto const& result = second[2].at("content").as_array().at(0).as_object();
    BOOST_TEST(result.at("type") == "tool_result");
    BOOST_TEST(result.at("tool_use_id") == tool_use.at("id"));
    BOOST_TEST(result.at("content").as_array().at(0).at("text") == recuento);
    BOOST_TEST(requests[0].headers["x-api-key"] == "test-key");
    BOOST_TEST(out.conversation.size() == 4u);
}

// The model's reasoning streams as thinking events, apart from the answer's
// text; the thinking block (with its signature) stays in the conversation.
BOOST_AUTO_TEST_CASE(thinking_streams_apart_from_the_answer)
{
    bench<llm::anthropic_provider> b;
    auto thinks = says("Hay 12 en ejecución.");
    thinks.thinking = testing::scripted_text::exact({"Cuento las ", "iniciativas en ejecución."});
    b.fake.add_scenario(scenario_of("piensa", {thinks}));
    auto const out = b.run("piensa");
    BOOST_TEST(out.kinds() == "HTKD");
    std::string thought;
    for(auto const& t : out.all<agent::thinking_delta>())
        thought += t.text;
    BOOST_TEST(thought == "Cuento las iniciativas en ejecución.");
    BOOST_TEST(out.text() == "Hay 12 en ejecución.");
    BOOST_TEST_REQUIRE(out.conversation.size() == 2u);
    BOOST_TEST(std::holds_alternative<llm::thinking_block>(out.conversation[1].content.at(0)));
}

// Each round's messages are announced once they are in the conversation, and
// a run given those messages resumes at the next round: the tool that
// already ran is not run again.
BOOST_AUTO_TEST_CASE(a_run_resumes_after_its_checkpoint)
{
    std::vector<std::vector<llm::message>> rounds;
    {
        bench<llm::anthropic_provider> b;
        auto const out = b.run_with_sink("portfolio-two-rounds", {}, [&](agent::event const& e) {
            if(auto const* c = std::get_if<agent::round_complete>(&e))
            {
                rounds.emplace_back(c->messages.begin(), c->messages.end());
                BOOST_TEST(c->iteration == rounds.size());
                BOOST_TEST(c->usage.input_tokens > 0u);
            }
        });
        BOOST_TEST((out.status == agent::run_result::outcome::completed));
        BOOST_TEST(b.counters.calls == 1);
    }
    BOOST_TEST_REQUIRE(rounds.size() == 2u);
    BOOST_TEST_REQUIRE(rounds[0].size() == 2u); // the model's tool call, then the results
    BOOST_TEST((rounds[0][0].role == llm::role::assistant));
    BOOST_TEST((rounds[0][1].role == llm::role::user));
    BOOST_TEST_REQUIRE(rounds[1].size() == 1u); // the answer
    BOOST_TEST(rounds[1][0].text().find("12 iniciativas") != std::string::npos);

    bench<llm::anthropic_provider> b;
    agent::orchestrator agent{*b.provider, b.tools(), agent::options{.model = "portfolio-two-rounds"}};
    std::vector<llm::message> conversation{llm::message::user("¿Cuántas iniciativas hay en ejecución?")};
    conversation.insert(conversation.end(), rounds[0].begin(), rounds[0].end());
    std::vector<unsigned> completed;
    auto sink = [&](agent::event const& e) {
        if(auto const* c = std::get_if<agent::round_complete>(&e))
            completed.push_back(c->iteration);
    };
    auto const result = agentio_test::run_on(b.ioc, agent.run(conversation, sink, 1), 10s);
    BOOST_TEST((result.status == agent::run_result::outcome::completed));
    BOOST_TEST(result.rounds == 2u);
    BOOST_TEST(b.counters.calls == 0); // the tool's result came from the checkpoint
    BOOST_TEST(b.fake.requests().size() == 1u);
    BOOST_TEST((completed == std::vector<unsigned>{2}));
    BOOST_TEST(conversation.size() == 4u);
}

BOOST_AUTO_TEST_CASE(two_rounds_with_openai)
{
    bench<llm::openai_provider> b;
    auto const out = b.run("portfolio-two-rounds");
    BOOST_TEST(out.kinds() == "TRCKTKD");
    BOOST_TEST(out.result.rounds == 2u);
    auto const requests = b.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 2u);
    BOOST_TEST(requests[0].target == "/v1/chat/completions");
    BOOST_TEST(requests[0].headers["authorization"] == "Bearer test-key");
    auto const& messages = requests[1].body.at("messages").as_array();
    BOOST_TEST(messages.back().at("role") == "tool");
    BOOST_TEST(messages.back().at("content") == recuento);
    BOOST_TEST(out.text().ends_with("21 finalizadas y 5 canceladas."));
}

// A call streams as the model writes it, on either wire: its start, then its
// arguments in fragments that join to the whole arguments round_end gives,
// all before round_end; the finished call carries the same id.
template<class Provider>
void check_calls_forming()
{
    bench<Provider> b;
    b.fake.add_scenario(scenario_of("dos-llamadas",
        {calls("Consulto.",
             {{"contar_iniciativas", json::parse(R"({"campo_agrupacion":"estado_de_la_iniciativa"})"), {}, {}},
                 {"sumar_presupuesto",
                     json::parse(R"({"campo_agrupacion":"unidad","campo_importe":"presupuesto_aprobado"})"), {}, {}}}),
            says("Listo.")}));
    auto const out = b.run("dos-llamadas");
    BOOST_TEST((out.result.status == agent::run_result::outcome::completed));
    std::vector<std::string> started;
    std::map<std::string, std::string> arguments;
    std::map<std::string, std::string> whole; // what round_end gave
    std::size_t fragments = 0;
    bool round_ended = false;
    for(auto const& e : out.events)
    {
        if(auto const* s = std::get_if<agent::tool_call_started>(&e))
        {
            BOOST_TEST(!round_ended);
            BOOST_TEST(s->iteration == 1u);
            started.push_back(s->tool);
            arguments[s->tool_call_id];
        }
        else if(auto const* d = std::get_if<agent::tool_input_delta>(&e))
        {
            BOOST_TEST(!round_ended);
            BOOST_TEST_REQUIRE(arguments.contains(d->tool_call_id)); // never before its start
            arguments[d->tool_call_id] += d->partial_json;
            ++fragments;
        }
        else if(std::holds_alternative<agent::round_end>(e))
            round_ended = true;
        else if(auto const* c = std::get_if<agent::tool_call>(&e))
            whole[c->tool_call_id] = agentio::to_json_text(c->input_raw);
    }
    std::vector<std::string> const expected{"contar_iniciativas", "sumar_presupuesto"};
    BOOST_TEST(started == expected, boost::test_tools::per_element());
    BOOST_TEST(fragments > 2u); // as written, not one piece at the end
    BOOST_TEST_REQUIRE(whole.size() == 2u);
    for(auto const& [id, text] : arguments)
    {
        BOOST_TEST_REQUIRE(whole.contains(id), id);
        BOOST_TEST(json::parse(text) == json::parse(whole[id]), id);
    }
}

BOOST_AUTO_TEST_CASE(calls_stream_as_they_form)
{
    check_calls_forming<llm::anthropic_provider>();
    check_calls_forming<llm::openai_provider>();
}

BOOST_AUTO_TEST_CASE(parallel_tools_answer_in_call_order)
{
    // The first call is the slow one: it finishes last, its result still comes first.
    bench<llm::anthropic_provider> b(60ms);
    b.fake.add_scenario(scenario_of("paralelo",
        {calls("Consulto dos cosas.",
             {{"contar_iniciativas", json::parse(R"({"campo_agrupacion":"estado_de_la_iniciativa"})"), {}, {}},
                 {"sumar_presupuesto",
                     json::parse(R"({"campo_agrupacion":"unidad","campo_importe":"presupuesto_aprobado"})"), {}, {}},
                 {"contar_iniciativas", json::parse(R"({"campo_agrupacion":"unidad"})"), {}, {}}}),
            says("Listo.")}));
    auto const out = b.run("paralelo");
    BOOST_TEST(out.kinds() == "TRCCCKTKD");
    // round_end names the calls before any of them runs, in the model's order.
    std::vector<std::string> const announced{"contar_iniciativas", "sumar_presupuesto", "contar_iniciativas"};
    BOOST_TEST(out.announced == announced, boost::test_tools::per_element());
    BOOST_TEST(b.counters.most_in_flight == 2); // both slow calls at once
    auto const requests = b.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 2u);
    auto const& results = requests[1].body.at("messages").as_array().back().at("content").as_array();
    auto const& uses = requests[1].body.at("messages").as_array()[1].at("content").as_array();
    BOOST_TEST_REQUIRE(results.size() == 3u);
    for(std::size_t i = 0; i < 3; ++i)
        BOOST_TEST(results[i].at("tool_use_id") == uses[i + 1].at("id"));
    BOOST_TEST(results[0].at("content").as_array()[0].at("text") == recuento);

    // With a cap of one, one at a time.
    bench<llm::anthropic_provider> serial(20ms);
    serial.fake.add_scenario(scenario_of("paralelo",
        {calls("",
             {{"contar_iniciativas", json::parse(R"({"campo_agrupacion":"a"})"), {}, {}},
                 {"contar_iniciativas", json::parse(R"({"campo_agrupacion":"b"})"), {}, {}}}),
            says("Listo.")}));
    agent::options one;
    one.limits.max_parallel_tools = 1;
    auto const out2 = serial.run("paralelo", one);
    BOOST_TEST(serial.counters.most_in_flight == 1);
    BOOST_TEST(serial.counters.calls == 2);
    BOOST_TEST((out2.result.status == agent::run_result::outcome::completed));
}

BOOST_AUTO_TEST_CASE(bad_calls_go_back_to_the_model)
{
    bench<llm::anthropic_provider> b;
    b.fake.add_scenario(scenario_of("errores",
        {calls("Pruebo.",
             {{"sumar_presupuesto", json::parse(R"({"campo_agrupacion":"unidad","campo_importe":"otro"})"), {}, {}},
                 {"herramienta_inexistente", json::object{}, {}, {}}}),
            says("Corregido: {{last_tool_result}}")}));
    auto const out = b.run("errores", spanish());
    BOOST_TEST((out.result.status == agent::run_result::outcome::completed));
    auto const tool_calls = out.all<agent::tool_call>();
    BOOST_TEST_REQUIRE(tool_calls.size() == 2u);
    BOOST_TEST(tool_calls[0].is_error);
    BOOST_TEST(tool_calls[1].is_error);
    BOOST_TEST(b.counters.calls == 0); // never called with arguments it cannot trust
    // What a UI shows keeps the reason, not only the line naming the tool.
    BOOST_TEST(tool_calls[0].result_summary ==
        "Argumentos no válidos para la herramienta 'sumar_presupuesto': "
        "/campo_importe: debe ser uno de presupuesto_aprobado, importe_2025");
    auto const requests = b.fake.requests();
    auto const& results = requests[1].body.at("messages").as_array().back().at("content").as_array();
    BOOST_TEST(results[0].at("is_error") == true);
    BOOST_TEST(results[0].at("content").as_array()[0].at("text") ==
        "Argumentos no válidos para la herramienta 'sumar_presupuesto':\n"
        "/campo_importe: debe ser uno de presupuesto_aprobado, importe_2025");
    BOOST_TEST(std::string(results[1].at("content").as_array()[0].at("text").as_string())
                   .starts_with("herramienta desconocida 'herramienta_inexistente'"));
}

BOOST_AUTO_TEST_CASE(a_provider_chosen_at_run_time_speaks_either_wire)
{
    for(bool const openai : {false, true})
    {
        asio::io_context ioc;
        testing::fake_llm fake{ioc.get_executor()};
        fake.load_scenarios(AGENTIO_SCENARIOS);
        BOOST_TEST_REQUIRE(fake.start().has_value());
        agentio::http::client client{ioc.get_executor()};
        llm::provider_options po;
        po.api_key = "test-key";
        po.base_url = openai ? fake.openai_base_url() : fake.anthropic_base_url();
        llm::any_provider provider = openai ? llm::any_provider(llm::openai_provider(client, po))
                                            : llm::any_provider(llm::anthropic_provider(client, po));
        BOOST_TEST((provider.target<llm::openai_provider>() != nullptr) == openai);
        shared_counters counters;
        agentio::toolset_options to;
        to.validation.texts = agentio_test::spanish_messages;
        agent::orchestrator orchestrator{provider,
            test_tools{to, contar_iniciativas{&counters}, sumar_presupuesto{&counters}},
            agent::options{.model = "portfolio-two-rounds"}};
        std::vector<llm::message> conversation{llm::message::user("¿Cuántas iniciativas hay en ejecución?")};
        std::string text;
        std::optional<agent::run_result> result;
        asio::co_spawn(ioc,
            orchestrator.run(conversation,
                [&](agent::event const& e) {
                    if(auto const* t = std::get_if<agent::text_delta>(&e))
                        text += t->text;
                }),
            [&](std::exception_ptr e, agent::run_result r) {
                if(e)
                    std::rethrow_exception(e);
                result = std::move(r);
            });
        while(!result && ioc.run_one_for(10s))
            ;
        BOOST_TEST_REQUIRE(result.has_value());
        BOOST_TEST((result->status == agent::run_result::outcome::completed), result->error_message);
        BOOST_TEST(result->rounds == 2u);
        BOOST_TEST(counters.calls == 1);
        BOOST_TEST(text.find("12 iniciativas en ejecución") != std::string::npos, text);
        auto const requests = fake.requests();
        BOOST_TEST_REQUIRE(requests.size() == 2u);
        BOOST_TEST(requests[0].target == (openai ? "/v1/chat/completions" : "/v1/messages"));
    }
}

BOOST_AUTO_TEST_CASE(an_outcome_has_a_printable_name)
{
    std::ostringstream os;
    os << agent::run_result::outcome::cancelled;
    BOOST_TEST(os.str() == "cancelled");
    BOOST_TEST(agent::to_string(agent::run_result::outcome::completed) == "completed");
    BOOST_TEST(agent::to_string(agent::run_result::outcome::failed) == "failed");
}

BOOST_AUTO_TEST_CASE(a_sink_may_return_void)
{
    bench<llm::anthropic_provider> b;
    std::vector<agent::event> events;
    auto out = b.run_with_sink("portfolio-two-rounds", spanish(), [&](agent::event const& e) { events.push_back(e); });
    BOOST_TEST((out.status == agent::run_result::outcome::completed));
    BOOST_TEST_REQUIRE(!events.empty());
    BOOST_TEST(std::holds_alternative<agent::done>(events.back()));
    static_assert(agent::event_sink<decltype([](agent::event const&) {})>);
    static_assert(!agent::event_sink<decltype([](agent::event const&) { return 1; })>);
}

BOOST_AUTO_TEST_CASE(a_slow_tool_times_out_and_the_run_goes_on)
{
    bench<llm::anthropic_provider> b(5000ms);
    agent::options o = spanish();
    o.limits.tool_timeout = 50ms;
    auto const out = b.run("portfolio-two-rounds", o);
    BOOST_TEST((out.result.status == agent::run_result::outcome::completed));
    auto const tool_calls = out.all<agent::tool_call>();
    BOOST_TEST_REQUIRE(tool_calls.size() == 1u);
    BOOST_TEST(tool_calls[0].is_error);
    BOOST_TEST(tool_calls[0].result_summary == "La herramienta 'contar_iniciativas' no respondió en 0.05 s");
    BOOST_TEST(b.counters.cancelled.load());            // the tool itself was stopped
    BOOST_TEST(out.text().starts_with("Voy a contar")); // and the model answered from the error
}

BOOST_AUTO_TEST_CASE(the_round_limit)
{
    bench<llm::anthropic_provider> b;
    b.fake.add_scenario(scenario_of("bucle",
        {calls("Otra vez.", {{"contar_iniciativas", json::parse(R"({"campo_agrupacion":"unidad"})"), {}, {}}})}));
    agent::options o = spanish();
    o.limits.max_rounds = 3;
    auto const out = b.run("bucle", o);
    BOOST_TEST(out.kinds() == "TRCKTRCKTRCKE");
    BOOST_TEST((out.result.status == agent::run_result::outcome::failed));
    BOOST_TEST(out.all<agent::error>().at(0).message == "Se alcanzó el límite de iteraciones");
    BOOST_TEST(b.fake.requests().size() == 3u);

    // With last_round_answers, the last round may not call tools: the model answers.
    o.limits.last_round_answers = true;
    auto const answers = [&o](auto& wire, char const* name) {
        wire.fake.add_scenario(scenario_of("bucle",
            {calls("Otra vez.", {{"contar_iniciativas", json::parse(R"({"campo_agrupacion":"unidad"})"), {}, {}}})}));
        auto const answered = wire.run("bucle", o);
        BOOST_TEST_CONTEXT(name)
        {
            BOOST_TEST(answered.kinds() == "TRCKTRCKTKD");
            BOOST_TEST((answered.result.status == agent::run_result::outcome::completed));
            auto const requests = wire.fake.requests();
            BOOST_TEST_REQUIRE(requests.size() == 3u);
            BOOST_TEST(!requests[1].body.as_object().contains("tool_choice"));
            auto const& choice = requests[2].body.at("tool_choice");
            BOOST_TEST((choice == "none" || (choice.is_object() && choice.at("type") == "none")));
        }
    };
    bench<llm::anthropic_provider> anthropic;
    answers(anthropic, "anthropic");
    bench<llm::openai_provider> openai;
    answers(openai, "openai");
}

BOOST_AUTO_TEST_CASE(retries_as_the_sdks)
{
    // 529 twice, then the answer: three attempts, 0.5 s and 1 s apart.
    bench<llm::anthropic_provider> b;
    auto overloaded = says("Hola.");
    overloaded.faults.push_back(fault_of(testing::fault_kind::http_error, 2));
    b.fake.add_scenario(scenario_of("saturado", {overloaded}));
    auto const out = b.run("saturado");
    BOOST_TEST(out.kinds() == "TKD");
    BOOST_TEST((b.sleeps == std::vector<std::chrono::milliseconds>{500ms, 1000ms}));
    auto const requests = b.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 3u);
    for(std::size_t i = 0; i < 3; ++i)
        BOOST_TEST(requests[i].headers["x-stainless-retry-count"] == std::to_string(i));

    // 429 with retry-after: the server's delay.
    bench<llm::anthropic_provider> limited;
    auto rate = says("Hola.");
    auto f = fault_of(testing::fault_kind::http_error, 1);
    f.status = 429;
    f.retry_after = "1";
    rate.faults.push_back(f);
    limited.fake.add_scenario(scenario_of("limitado", {rate}));
    BOOST_TEST(limited.run("limitado").kinds() == "TKD");
    BOOST_TEST((limited.sleeps == std::vector<std::chrono::milliseconds>{1000ms}));

    // x-should-retry: false wins over a 500; and a 529 that never ends gives up after three attempts.
    bench<llm::anthropic_provider> refused;
    auto no = says("Hola.");
    auto nf = fault_of(testing::fault_kind::http_error, 0);
    nf.status = 500;
    nf.x_should_retry = "false";
    no.faults.push_back(nf);
    refused.fake.add_scenario(scenario_of("no-reintentar", {no}));
    auto const out3 = refused.run("no-reintentar", spanish());
    BOOST_TEST(out3.kinds() == "E");
    BOOST_TEST(refused.fake.requests().size() == 1u);
    BOOST_TEST(
        out3.all<agent::error>().at(0).message.starts_with("El proveedor del modelo respondió con un error (500)"));

    bench<llm::anthropic_provider> down;
    auto always = says("Hola.");
    always.faults.push_back(fault_of(testing::fault_kind::http_error, 0));
    down.fake.add_scenario(scenario_of("caido", {always}));
    auto const out4 = down.run("caido");
    BOOST_TEST(down.fake.requests().size() == 3u);
    BOOST_TEST(out4.kinds() == "E");
}

BOOST_AUTO_TEST_CASE(an_overload_mid_stream)
{
    // Before anything reached the user: retried, invisibly.
    bench<llm::anthropic_provider> b;
    auto early = says("Hay 12 iniciativas.");
    auto f = fault_of(testing::fault_kind::midstream_error, 1);
    f.after_events = 1; // message_start only
    early.faults.push_back(f);
    b.fake.add_scenario(scenario_of("saturado-pronto", {early}));
    auto const out = b.run("saturado-pronto");
    BOOST_TEST(out.kinds() == "TKD");
    BOOST_TEST(out.text() == "Hay 12 iniciativas.");
    BOOST_TEST(b.fake.requests().size() == 2u);
    BOOST_TEST(b.sleeps.size() == 1u);

    // After text reached the user: a clear error, no retry.
    bench<llm::anthropic_provider> late;
    late.fake.add_scenario(scenario_of("saturado-tarde", {says("x")}));
    auto const out2 = late.run("anthropic-overloaded-midstream", spanish());
    BOOST_TEST(out2.kinds() == "TE");
    BOOST_TEST(out2.all<agent::error>().at(0).message ==
        "El proveedor del modelo está saturado; inténtelo de nuevo en unos momentos.");
    BOOST_TEST(late.fake.requests().size() == 1u);
}

BOOST_AUTO_TEST_CASE(truncated_and_broken_streams_are_errors)
{
    bench<llm::anthropic_provider> b;
    auto cut = says("Hay doce iniciativas en ejecución según la cartera.");
    auto f = fault_of(testing::fault_kind::truncate, 0);
    f.after_events = 5; // some text went out, no message_stop ever
    cut.faults.push_back(f);
    b.fake.add_scenario(scenario_of("cortado", {cut}));
    auto const out = b.run("cortado");
    BOOST_TEST(out.kinds() == "TE");
    BOOST_TEST(out.all<agent::error>().at(0).message ==
        "The model's answer was cut off: the stream ended before message_stop");

    bench<llm::openai_provider> o;
    auto gone = says("Hay doce iniciativas en ejecución según la cartera.");
    auto d = fault_of(testing::fault_kind::disconnect, 0);
    d.after_events = 3;
    gone.faults.push_back(d);
    o.fake.add_scenario(scenario_of("desconexion", {gone}));
    auto const out2 = o.run("desconexion");
    BOOST_TEST(out2.kinds() == "TE");
    BOOST_TEST((out2.result.status == agent::run_result::outcome::failed));
}

BOOST_AUTO_TEST_CASE(a_stalled_stream_hits_the_idle_timeout)
{
    llm::provider_options p;
    p.idle_timeout = 200ms;
    bench<llm::anthropic_provider> b(0ms, p);
    auto stall = says("Hola, voy a pensar un momento.");
    auto f = fault_of(testing::fault_kind::stall, 0);
    f.after_events = 5; // some text reached the user
    stall.faults.push_back(f);
    b.fake.add_scenario(scenario_of("parado", {stall}));
    auto const out = b.run("parado", spanish());
    BOOST_TEST(out.kinds() == "TE");
    BOOST_TEST(out.all<agent::error>().at(0).message.starts_with("No se pudo conectar con el proveedor del modelo"));
}

BOOST_AUTO_TEST_CASE(the_run_deadline)
{
    bench<llm::anthropic_provider> b;
    auto stall = says("Pensando.");
    auto f = fault_of(testing::fault_kind::stall, 0);
    f.after_events = 1;
    stall.faults.push_back(f);
    b.fake.add_scenario(scenario_of("eterno", {stall}));
    agent::options o = spanish();
    o.limits.run_deadline = 150ms;
    auto const out = b.run("eterno", o);
    BOOST_TEST(out.kinds() == "E");
    BOOST_TEST(out.all<agent::error>().at(0).message == "Se agotó el tiempo máximo de la conversación.");
}

BOOST_AUTO_TEST_CASE(stop_reasons_that_end_the_run)
{
    bench<llm::anthropic_provider> b;
    auto const cut = b.run("anthropic-max-tokens", spanish());
    BOOST_TEST(cut.all<agent::error>().at(0).message == "La respuesta se cortó al alcanzar el límite de tokens.");
    BOOST_TEST(b.counters.calls == 0); // the cut tool call is not run

    auto refusal = says("No puedo ayudar con eso.");
    refusal.stop_reason = "refusal";
    b.fake.add_scenario(scenario_of("rechazo", {refusal}));
    auto const refused = b.run("rechazo", spanish());
    BOOST_TEST(refused.kinds() == "TE");
    BOOST_TEST(refused.all<agent::error>().at(0).message == "El modelo declinó responder a esta petición.");
}

BOOST_AUTO_TEST_CASE(an_unknown_model)
{
    bench<llm::anthropic_provider> b;
    agent::options o;
    o.describe_error = [](llm::error const& e) { return "status " + std::to_string(e.status) + " " + e.type; };
    auto const out = b.run("no-existe", o);
    BOOST_TEST(out.kinds() == "E");
    BOOST_TEST(out.all<agent::error>().at(0).message == "status 404 not_found_error");
}

BOOST_AUTO_TEST_CASE(cancelling_stops_the_stream_and_the_tools)
{
    // Cancelled while the model streams (a stall that lasts until the client leaves).
    bench<llm::anthropic_provider> b;
    auto stall = says("Pensando en la respuesta.");
    auto f = fault_of(testing::fault_kind::stall, 0);
    f.after_events = 5;
    stall.faults.push_back(f);
    b.fake.add_scenario(scenario_of("parado", {stall}));
    asio::cancellation_signal signal;
    asio::steady_timer later(b.ioc, 100ms);
    later.async_wait([&](boost::system::error_code) { signal.emit(asio::cancellation_type::terminal); });
    auto const out = b.run("parado", {}, "hola", signal.slot());
    BOOST_TEST((out.result.status == agent::run_result::outcome::cancelled));
    BOOST_TEST(out.kinds() == "T"); // nothing after the cancellation

    // Cancelled while tools run.
    bench<llm::anthropic_provider> t(10s);
    asio::cancellation_signal signal2;
    asio::steady_timer later2(t.ioc, 100ms);
    later2.async_wait([&](boost::system::error_code) { signal2.emit(asio::cancellation_type::terminal); });
    auto const out2 = t.run("portfolio-two-rounds", {}, "hola", signal2.slot());
    BOOST_TEST((out2.result.status == agent::run_result::outcome::cancelled));
    BOOST_TEST(t.counters.cancelled.load());
    BOOST_TEST(t.fake.requests().size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_result_holds_the_answer_and_the_error_its_cause)
{
    // agent/vocabulary.hpp: the run_summary's answer is the model's last turn.
    bench<llm::anthropic_provider> b;
    auto const out = b.run("portfolio-two-rounds");
    BOOST_TEST((out.result.status == agent::outcome::completed));
    BOOST_TEST(!out.result.answer.empty());
    BOOST_TEST(out.result.answer == out.conversation.back().text());
    BOOST_TEST(out.all<agent::done>().at(0).usage.output_tokens == out.result.usage.output_tokens);

    auto const failed = b.run("no-such-model", spanish());
    BOOST_TEST((failed.result.status == agent::outcome::failed));
    BOOST_TEST(failed.result.answer.empty());
    BOOST_TEST((failed.all<agent::error>().at(0).cause == agent::error_cause::provider));
}

// --- the context window (llm/context.hpp) ----------------------------------------

// A thread of `turns` exchanges of about `bytes` each way, then the new question.
std::vector<llm::message> long_thread(std::size_t turns, std::size_t bytes)
{
    std::vector<llm::message> out;
    for(std::size_t i = 0; i < turns; ++i)
    {
        out.push_back(llm::message::user("Pregunta " + std::to_string(i) + ": " + std::string(bytes, 'p')));
        out.push_back(llm::message::assistant("Respuesta " + std::to_string(i) + ": " + std::string(bytes, 'r')));
    }
    out.push_back(llm::message::user("¿Y la última?"));
    return out;
}

testing::scenario windowed(std::string name, std::uint64_t window)
{
    auto s = scenario_of(std::move(name), {says("La última respuesta.")});
    s.context_window = window;
    return s;
}

template<class Provider>
void a_thread_longer_than_the_window_keeps_answering()
{
    bench<Provider> b;
    b.fake.add_scenario(windowed("ventana", 4000));
    auto estimator = std::make_shared<llm::token_estimator>();
    agent::options o = spanish();
    o.max_tokens = 500;
    o.context = {.window = 4000, .policy = llm::context_policy::trim, .estimator = estimator};
    auto const thread = long_thread(80, 400); // about 17 000 tokens
    auto const first = b.run_on("ventana", o, thread);
    BOOST_TEST((first.result.status == agent::outcome::completed), first.result.error_message);
    BOOST_TEST(first.result.answer == "La última respuesta.");
    BOOST_TEST(first.conversation.size() == thread.size() + 1); // the thread keeps every message
    auto const sent = b.fake.requests().back().body.at("messages").as_array();
    BOOST_TEST(sent.size() < thread.size());
    BOOST_TEST(sent.size() > 4u);
    // What was sent starts at a question (after OpenAI's system message, if any) and ends with the new one.
    auto const opening = std::find_if(sent.begin(), sent.end(),
        [](json::value const& m) { return m.at("role").as_string() != "system"; });
    BOOST_TEST_REQUIRE((opening != sent.end()));
    BOOST_TEST(opening->at("role").as_string() == "user");
    BOOST_TEST(agentio::to_json_text(*opening).find("Pregunta") != std::string::npos);
    BOOST_TEST(agentio::to_json_text(sent.back()).find("¿Y la última?") != std::string::npos);
    BOOST_TEST(b.fake.requests().size() <= 2u); // at most one refusal, while the estimate learns

    // Calibrated by the first run, the next one fits at once, and more of the thread is sent than a blind cut would.
    auto const before = b.fake.requests().size();
    auto const second = b.run_on("ventana", o, thread);
    BOOST_TEST((second.result.status == agent::outcome::completed));
    BOOST_TEST(b.fake.requests().size() == before + 1);
    BOOST_TEST(estimator->factor() != 1.0); // it learned from what the provider counted
}

template<class Provider>
void a_refusal_for_size_is_retried_with_less()
{
    // No window configured: the provider's refusal names it, and the run goes on with what fits.
    bench<Provider> b;
    b.fake.add_scenario(windowed("ventana", 4000));
    agent::options o = spanish();
    o.max_tokens = 500;
    o.context.policy = llm::context_policy::trim;
    auto const out = b.run_on("ventana", o, long_thread(80, 400));
    BOOST_TEST((out.result.status == agent::outcome::completed), out.result.error_message);
    BOOST_TEST_REQUIRE(b.fake.requests().size() == 2u);
    BOOST_TEST(b.fake.requests()[1].body.at("messages").as_array().size() <
        b.fake.requests()[0].body.at("messages").as_array().size());
}

// The fake as a model that also summarizes: a request holding a conversation to summarize gets a summary.
testing::scenario summarizing(std::string name, std::uint64_t window,
    std::string summary = "RESUMEN: se habló de presupuestos.")
{
    auto s = windowed(std::move(name), window);
    s.turns.at(0).insert(s.turns.at(0).begin(), agentio_test::summary_response(std::move(summary)));
    return s;
}

std::string system_text(testing::recorded_request const& r)
{
    if(auto const* system = r.body.as_object().if_contains("system"))
        return agentio::to_json_text(*system); // Anthropic: a string or blocks
    for(auto const& m : r.body.at("messages").as_array())
        if(m.at("role").as_string() == "system")
            return agentio::to_json_text(m.at("content"));
    return {};
}

template<class Provider>
void compaction_summarizes_the_turns_that_do_not_fit()
{
    bench<Provider> b;
    b.fake.add_scenario(summarizing("resume", 4000));
    agent::options o = spanish();
    o.max_tokens = 500;
    o.context = {.window = 4000, .summary_max_tokens = 300};
    auto const thread = long_thread(80, 400); // about 17 000 tokens
    auto const first = b.run_on("resume", o, thread);
    BOOST_TEST((first.result.status == agent::outcome::completed), first.result.error_message);
    BOOST_TEST(first.result.answer == "La última respuesta.");
    BOOST_TEST(first.conversation.size() == thread.size() + 1); // the conversation keeps every message
    auto const compactions = first.template all<agent::compacted>();
    BOOST_TEST_REQUIRE(compactions.size() == 1u);
    auto const& made = compactions.at(0);
    BOOST_TEST(made.summary.text == "RESUMEN: se habló de presupuestos.");
    BOOST_TEST(made.summary.covers > 0u);
    BOOST_TEST(made.summary.covers < thread.size() - 1);
    BOOST_TEST(llm::begins_turn(thread.at(made.summary.covers))); // whole turns summarized
    BOOST_TEST(made.calls >= 2u);                                 // 17 000 tokens read in pieces that fit the window
    BOOST_TEST(made.usage.output_tokens > 0u);
    BOOST_TEST_REQUIRE(first.result.summary.has_value());
    BOOST_TEST(first.result.summary->covers == made.summary.covers);
    BOOST_TEST(first.kinds().find('S') < first.kinds().find('T')); // before the call it made room for

    auto const& requests = b.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == made.calls + 1); // no refusal: every request fitted
    for(std::size_t i = 0; i + 1 < requests.size(); ++i)
    {
        BOOST_TEST(agentio_test::asks_for_summary(requests[i]));
        BOOST_TEST(system_text(requests[i]).find("Resumes una conversación") != std::string::npos);
    }
    // Each piece after the first carries the summary so far.
    BOOST_TEST(agentio::to_json_text(requests[1].body).find("Resumen de lo anterior") != std::string::npos);
    // The answering request: the summary after the system prompt, then the turns kept, the question last.
    auto const answering = requests.back();
    BOOST_TEST(system_text(answering).find("Resumen de la parte anterior de esta conversación") != std::string::npos);
    BOOST_TEST(system_text(answering).find("RESUMEN: se habló de presupuestos.") != std::string::npos);
    auto const sent = answering.body.at("messages").as_array();
    BOOST_TEST(agentio::to_json_text(sent.back()).find("¿Y la última?") != std::string::npos);
    BOOST_TEST(agentio::to_json_text(answering.body).find("Pregunta 0:") == std::string::npos);

    // The next turn, given the summary, needs no other: what was kept left room.
    auto next = first.conversation;
    next.push_back(llm::message::user("¿Y otra más?"));
    auto const before = requests.size();
    auto const second = b.run_on("resume", o, next, {.summary = first.result.summary});
    BOOST_TEST((second.result.status == agent::outcome::completed), second.result.error_message);
    BOOST_TEST(second.template all<agent::compacted>().empty());
    BOOST_TEST(!second.result.summary.has_value());
    BOOST_TEST_REQUIRE(b.fake.requests().size() == before + 1);
    BOOST_TEST(system_text(b.fake.requests().back()).find("RESUMEN: se habló") != std::string::npos);
    auto const resent = b.fake.requests().back().body.at("messages").as_array();
    BOOST_TEST(agentio::to_json_text(resent.back()).find("¿Y otra más?") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(compaction_summarizes_the_turns_that_do_not_fit_anthropic)
{
    compaction_summarizes_the_turns_that_do_not_fit<llm::anthropic_provider>();
}

BOOST_AUTO_TEST_CASE(compaction_summarizes_the_turns_that_do_not_fit_openai)
{
    compaction_summarizes_the_turns_that_do_not_fit<llm::openai_provider>();
}

BOOST_AUTO_TEST_CASE(a_summary_that_cannot_be_written_leaves_the_request_trimmed)
{
    bench<llm::anthropic_provider> b;
    auto s = windowed("sin-resumen", 4000);
    auto broken = agentio_test::summary_response("");
    testing::fault bad;
    bad.kind = testing::fault_kind::http_error;
    bad.status = 400;
    bad.error_type = "invalid_request_error";
    bad.error_message = "summaries are not allowed here";
    broken.faults.push_back(bad);
    s.turns.at(0).insert(s.turns.at(0).begin(), broken);
    b.fake.add_scenario(s);
    agent::options o = spanish();
    o.max_tokens = 500;
    o.context = {.window = 4000, .summary_max_tokens = 300};
    auto const out = b.run_on("sin-resumen", o, long_thread(80, 400));
    BOOST_TEST((out.result.status == agent::outcome::completed), out.result.error_message);
    BOOST_TEST(out.result.answer == "La última respuesta.");
    BOOST_TEST(out.all<agent::compacted>().empty());
    BOOST_TEST(!out.result.summary.has_value());
    BOOST_TEST_REQUIRE(b.fake.requests().size() == 2u); // the summary refused, then the trimmed request
    BOOST_TEST(system_text(b.fake.requests().back()).find("Resumen de la parte anterior") == std::string::npos);
    BOOST_TEST(b.fake.requests().back().body.at("messages").as_array().size() < 161u);
}

// Near the window's edge, Anthropic's own count decides (context_limits::count_tokens): it is asked before the
// request, the estimate learns from it, and the request fits without a refusal.
BOOST_AUTO_TEST_CASE(the_provider_counts_a_request_near_the_edge)
{
    static_assert(llm::token_counter<llm::anthropic_provider>);
    static_assert(!llm::token_counter<llm::openai_provider>);
    static_assert(llm::token_counter<llm::any_provider>); // which says when the provider held cannot count
    bench<llm::anthropic_provider> b;
    b.fake.add_scenario(windowed("contada", 4000));
    auto estimator = std::make_shared<llm::token_estimator>();
    agent::options o = spanish();
    o.max_tokens = 500;
    o.context = {.window = 4000, .policy = llm::context_policy::trim, .count_tokens = true, .estimator = estimator};
    auto const out = b.run_on("contada", o, long_thread(80, 400));
    BOOST_TEST((out.result.status == agent::outcome::completed), out.result.error_message);
    auto const requests = b.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 2u); // the count, then the request it allowed: no refusal
    BOOST_TEST(requests[0].target == "/v1/messages/count_tokens");
    BOOST_TEST(!requests[0].body.as_object().contains("max_tokens"));
    BOOST_TEST(!requests[0].body.as_object().contains("stream"));
    BOOST_TEST(requests[0].body.at("model").as_string() == "contada");
    BOOST_TEST(requests[1].target == "/v1/messages");
    // What was sent is what was counted, or less when the count found it too large.
    BOOST_TEST(requests[1].body.at("messages").as_array().size() <= requests[0].body.at("messages").as_array().size());
    BOOST_TEST(requests[0].body.at("model") == requests[1].body.at("model"));
    BOOST_TEST(estimator->factor() != 1.0);

    // A provider that cannot count is not asked: the estimate alone decides.
    llm::any_provider any{llm::openai_provider(b.client, llm::provider_options{})};
    auto const refused = [&] {
        asio::io_context ioc;
        auto f = asio::co_spawn(ioc, any.count_tokens(llm::request{}), asio::use_future);
        ioc.run();
        return f.get();
    }();
    BOOST_TEST_REQUIRE(!refused);
    BOOST_TEST((refused.error().what == llm::error::kind::configuration));
}

BOOST_AUTO_TEST_CASE(a_thread_longer_than_the_window_keeps_answering_anthropic)
{
    a_thread_longer_than_the_window_keeps_answering<llm::anthropic_provider>();
}

BOOST_AUTO_TEST_CASE(a_thread_longer_than_the_window_keeps_answering_openai)
{
    a_thread_longer_than_the_window_keeps_answering<llm::openai_provider>();
}

BOOST_AUTO_TEST_CASE(a_refusal_for_size_is_retried_with_less_anthropic)
{
    a_refusal_for_size_is_retried_with_less<llm::anthropic_provider>();
}

BOOST_AUTO_TEST_CASE(a_refusal_for_size_is_retried_with_less_openai)
{
    a_refusal_for_size_is_retried_with_less<llm::openai_provider>();
}

BOOST_AUTO_TEST_CASE(a_message_bigger_than_the_window_is_an_error_naming_the_sizes)
{
    bench<llm::anthropic_provider> b;
    b.fake.add_scenario(windowed("ventana", 4000));
    agent::options o = spanish();
    o.max_tokens = 500;
    o.context.window = 4000;
    std::vector<llm::message> const huge{llm::message::user(std::string(20000, 'x'))};
    auto const out = b.run_on("ventana", o, huge);
    BOOST_TEST((out.result.status == agent::outcome::failed));
    BOOST_TEST_REQUIRE(out.all<agent::error>().size() == 1u);
    auto const e = out.all<agent::error>().at(0);
    BOOST_TEST((e.cause == agent::error_cause::context_window));
    BOOST_TEST(e.message.find("El último mensaje es demasiado largo para el modelo: unos ") == 0u, e.message);
    BOOST_TEST(e.message.find("lee como mucho 4000") != std::string::npos, e.message);
    BOOST_TEST(b.fake.requests().empty()); // nothing sent that could not fit

    // Without a window configured the provider says so; the retry finds the same, and the user reads why.
    agent::options unmanaged = spanish();
    unmanaged.max_tokens = 500;
    auto const refused = b.run_on("ventana", unmanaged, huge);
    BOOST_TEST((refused.all<agent::error>().at(0).cause == agent::error_cause::context_window));
    BOOST_TEST(refused.all<agent::error>().at(0).message.find("El último mensaje es demasiado largo") == 0u);
    BOOST_TEST(b.fake.requests().size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

// --- telemetry: the spans of a run, the traceparent sent on, the observer's records ----------------

namespace {

namespace trace = agentio::trace;

// What an observer was told, copied (the records' views live only during the call).
struct recording_observer final : agent::observer
{
    std::vector<std::string> started;
    std::vector<std::string> runs;   // "strategy outcome rounds"
    std::vector<std::string> models; // "provider model outcome retries"
    std::vector<std::string> tools;  // "tool outcome"
    bool first_token_seen = false;

    void run_started(std::string_view strategy) override { started.emplace_back(strategy); }
    void run_finished(agent::run_record const& r) override
    {
        runs.push_back(std::string(r.strategy) + " " + std::string(agent::to_string(r.status)) + " " +
            std::to_string(r.rounds));
    }
    void model_call(agent::model_call_record const& c) override
    {
        models.push_back(std::string(c.provider) + " " + std::string(c.model) + " " + std::string(c.outcome) + " " +
            std::to_string(c.retries));
        first_token_seen = first_token_seen || c.time_to_first_token.has_value();
    }
    void tool_call(agent::tool_call_record const& t) override
    {
        tools.push_back(std::string(t.tool) + " " + std::string(t.outcome));
    }
};

using agentio_test::attribute_text;
using agentio_test::span_named;
using agentio_test::tracing_on;

constexpr char const* incoming = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

} // namespace

BOOST_AUTO_TEST_SUITE(agent_telemetry)

BOOST_AUTO_TEST_CASE(a_run_is_a_tree_of_gen_ai_spans_and_sends_its_context_on)
{
    bench<llm::anthropic_provider> b;
    trace::tracer tracer(tracing_on());
    recording_observer seen;
    auto opts = spanish();
    opts.telemetry = {&seen, &tracer, "cartera"};
    agent::run_options how;
    how.traceparent = incoming;
    how.conversation_id = "hilo-1";
    auto const out = b.run_on("portfolio-two-rounds", opts,
        {llm::message::user("¿Cuántas iniciativas hay en ejecución?")}, how);
    BOOST_TEST((out.result.status == agent::outcome::completed));

    std::vector<trace::span_data> spans;
    tracer.take(spans, 100);
    BOOST_TEST_REQUIRE(spans.size() == 4u);
    auto const* run = span_named(spans, "invoke_agent cartera");
    auto const* first = span_named(spans, "chat portfolio-two-rounds", 0);
    auto const* second = span_named(spans, "chat portfolio-two-rounds", 1);
    auto const* tool = span_named(spans, "execute_tool contar_iniciativas");
    BOOST_TEST_REQUIRE((run && first && second && tool));

    // One trace, the caller's; the run under the caller's span, the calls under the run.
    for(auto const* s : {run, first, second, tool})
    {
        BOOST_TEST(trace::to_hex(s->context.trace_id) == "0af7651916cd43dd8448eb211c80319c");
        BOOST_TEST(s->end_unix_nano >= s->start_unix_nano);
    }
    BOOST_TEST(trace::to_hex(run->parent_span_id) == "b7ad6b7169203331");
    for(auto const* s : {first, second, tool})
        BOOST_TEST((s->parent_span_id == run->context.span_id));
    BOOST_TEST((first->kind == trace::span_kind::client));
    BOOST_TEST((run->kind == trace::span_kind::internal));

    // The GenAI conventions.
    BOOST_TEST(attribute_text(*run, "gen_ai.operation.name") == "invoke_agent");
    BOOST_TEST(attribute_text(*run, "gen_ai.agent.name") == "cartera");
    BOOST_TEST(attribute_text(*run, "gen_ai.conversation.id") == "hilo-1");
    BOOST_TEST(attribute_text(*first, "gen_ai.operation.name") == "chat");
    BOOST_TEST(attribute_text(*first, "gen_ai.provider.name") == "anthropic");
    BOOST_TEST(attribute_text(*first, "gen_ai.request.model") == "portfolio-two-rounds");
    BOOST_TEST(attribute_text(*first, "gen_ai.response.finish_reasons") == "tool_use");
    BOOST_TEST(attribute_text(*second, "gen_ai.response.finish_reasons") == "end_turn");
    BOOST_TEST(!attribute_text(*first, "gen_ai.usage.input_tokens").empty());
    BOOST_TEST(std::stoll(attribute_text(*run, "gen_ai.usage.output_tokens")) > 0);
    BOOST_TEST(attribute_text(*tool, "gen_ai.operation.name") == "execute_tool");
    BOOST_TEST(attribute_text(*tool, "gen_ai.tool.name") == "contar_iniciativas");
    BOOST_TEST(!attribute_text(*tool, "gen_ai.tool.call.id").empty());
    // Contents only when asked for.
    BOOST_TEST(attribute_text(*first, "gen_ai.input.messages").empty());
    BOOST_TEST(attribute_text(*tool, "gen_ai.tool.call.arguments").empty());

    // Each model call went out with its chat span's context, and the tool got its own.
    auto const requests = b.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 2u);
    BOOST_TEST(std::string(requests[0].headers["traceparent"]) == trace::format_traceparent(first->context));
    BOOST_TEST(std::string(requests[1].headers["traceparent"]) == trace::format_traceparent(second->context));
    BOOST_TEST_REQUIRE(b.counters.traceparents.size() == 1u);
    BOOST_TEST(b.counters.traceparents[0] == trace::format_traceparent(tool->context));

    // The observer's records.
    BOOST_TEST((seen.started == std::vector<std::string>{"tools"}));
    BOOST_TEST((seen.runs == std::vector<std::string>{"tools completed 2"}));
    BOOST_TEST((seen.models ==
        std::vector<std::string>{"anthropic portfolio-two-rounds ok 0", "anthropic portfolio-two-rounds ok 0"}));
    BOOST_TEST((seen.tools == std::vector<std::string>{"contar_iniciativas ok"}));
    BOOST_TEST(seen.first_token_seen);
}

BOOST_AUTO_TEST_CASE(contents_go_on_spans_only_when_opted_in)
{
    bench<llm::anthropic_provider> b;
    auto settings = tracing_on();
    settings.capture_message_content = true;
    trace::tracer tracer(settings);
    auto opts = spanish();
    opts.telemetry = {nullptr, &tracer, "cartera"};
    auto const out = b.run("portfolio-two-rounds", opts);
    BOOST_TEST((out.result.status == agent::outcome::completed));
    std::vector<trace::span_data> spans;
    tracer.take(spans, 100);
    auto const* first = span_named(spans, "chat portfolio-two-rounds");
    auto const* tool = span_named(spans, "execute_tool contar_iniciativas");
    BOOST_TEST_REQUIRE((first && tool));
    auto const input = json::parse(attribute_text(*first, "gen_ai.input.messages"));
    BOOST_TEST(input.at(0).at("role").as_string() == "user");
    BOOST_TEST(input.at(0).at("parts").at(0).at("content").as_string() == "¿Cuántas iniciativas hay en ejecución?");
    auto const output = json::parse(attribute_text(*first, "gen_ai.output.messages"));
    BOOST_TEST(output.at(0).at("parts").as_array().back().at("type").as_string() == "tool_call");
    BOOST_TEST(json::parse(attribute_text(*tool, "gen_ai.tool.call.arguments")).at("campo_agrupacion").is_string());
    BOOST_TEST(attribute_text(*tool, "gen_ai.tool.call.result").find("En ejecución") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_runs_carry_the_strategy_their_telemetry_names)
{
    // A tool loop offered no tools is plain chat (chat_completions::strategy_model): counted as such.
    bench<llm::anthropic_provider> b;
    recording_observer seen;
    auto opts = spanish();
    opts.telemetry = {&seen, nullptr, "charla"};
    opts.telemetry.strategy = "chat";
    auto const out = b.run_on("portfolio-two-rounds", opts,
        {llm::message::user("¿Cuántas iniciativas hay en ejecución?")}, {});
    BOOST_TEST((out.result.status == agent::outcome::completed));
    BOOST_TEST((seen.started == std::vector<std::string>{"chat"}));
    BOOST_TEST((seen.runs == std::vector<std::string>{"chat completed 2"}));
}

BOOST_AUTO_TEST_CASE(a_tracer_that_is_off_passes_the_context_on_unchanged)
{
    bench<llm::anthropic_provider> b;
    trace::tracer off; // OTEL unset: records nothing
    auto opts = spanish();
    opts.telemetry = {nullptr, &off, "cartera"};
    agent::run_options how;
    how.traceparent = incoming;
    auto const out = b.run_on("portfolio-two-rounds", opts,
        {llm::message::user("¿Cuántas iniciativas hay en ejecución?")}, how);
    BOOST_TEST((out.result.status == agent::outcome::completed));
    BOOST_TEST(off.ended() == 0u);
    for(auto const& r : b.fake.requests())
        BOOST_TEST(std::string(r.headers["traceparent"]) == incoming);
    BOOST_TEST((b.counters.traceparents == std::vector<std::string>{incoming}));

    // Without telemetry at all, nothing is sent.
    bench<llm::anthropic_provider> plain;
    plain.run("portfolio-two-rounds", spanish());
    for(auto const& r : plain.fake.requests())
        BOOST_TEST((r.headers.find("traceparent") == r.headers.end()));
}

BOOST_AUTO_TEST_CASE(a_failed_call_and_the_providers_retries)
{
    std::vector<std::string> retries;
    llm::provider_options extra;
    extra.on_retry = [&](std::string_view model, unsigned retry, llm::error const& failure) {
        retries.push_back(std::string(model) + " " + std::to_string(retry) + " " + std::to_string(failure.status));
    };
    bench<llm::anthropic_provider> down(0ms, extra);
    auto always = says("Hola.");
    always.faults.push_back(fault_of(testing::fault_kind::http_error, 0));
    down.fake.add_scenario(scenario_of("caido", {always}));
    trace::tracer tracer(tracing_on());
    recording_observer seen;
    auto opts = spanish();
    opts.telemetry = {&seen, &tracer, "cartera"};
    auto const out = down.run("caido", opts);
    BOOST_TEST((out.result.status == agent::outcome::failed));
    BOOST_TEST((retries == std::vector<std::string>{"caido 1 529", "caido 2 529"}));
    BOOST_TEST((seen.models == std::vector<std::string>{"anthropic caido http_status 0"}));
    BOOST_TEST((seen.runs == std::vector<std::string>{"tools failed 0"}));
    std::vector<trace::span_data> spans;
    tracer.take(spans, 100);
    auto const* chat = span_named(spans, "chat caido");
    auto const* run = span_named(spans, "invoke_agent cartera");
    BOOST_TEST_REQUIRE((chat && run));
    BOOST_TEST((chat->status == trace::status_code::error));
    BOOST_TEST(attribute_text(*chat, "error.type") == "http_status");
    BOOST_TEST((run->status == trace::status_code::error));
    BOOST_TEST(!run->status_message.empty());
}

BOOST_AUTO_TEST_SUITE_END()
