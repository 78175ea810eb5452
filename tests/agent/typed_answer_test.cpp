// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Typed answers (orchestrator::run<T>, agent::async_ask<T>) through the real
// providers and HTTP client against the fake LLM on loopback: what each wire
// format sends for the schema (the fake refuses what the APIs refuse), the
// answer validated and converted, a wrong answer sent back with its errors,
// and the run's failure when no answer follows the schema.
#include <agentio/agent/ask.hpp>
#include <agentio/agent/orchestrator.hpp>

#include <agentio/llm/anthropic.hpp>
#include <agentio/llm/openai.hpp>
#include <agentio/testing/detail/fake_llm_request.hpp>
#include <agentio/testing/fake_llm.hpp>

#include "provider_bench.hpp"
#include "spanish_messages.hpp"
#include "test_tools.hpp"
#include <boost/describe.hpp>
#include <boost/json.hpp>
#include <boost/mp11/list.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <map>
#include <stdexcept>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;
namespace agent = agentio::agent;
namespace testing = agentio::testing;
using namespace std::chrono_literals;
using namespace agent_test;

namespace {

enum class estado_iniciativa
{
    planificada,
    en_ejecucion,
    finalizada
};
BOOST_DESCRIBE_ENUM(estado_iniciativa, planificada, en_ejecucion, finalizada)

// The answer of the tests: every member required, bounds the providers' subsets treat differently.
struct conteo
{
    int total = 0;
    estado_iniciativa estado_mayor = estado_iniciativa::planificada;
    std::vector<std::string> notas;
};
BOOST_DESCRIBE_STRUCT(conteo, (), (total, estado_mayor, notas))

// An answer with a map: outside Anthropic's structured-output subset, not strict for OpenAI.
struct por_estado
{
    std::map<std::string, int> cuentas;
    std::optional<std::string> comentario;
};
BOOST_DESCRIBE_STRUCT(por_estado, (), (cuentas, comentario))

struct suma_args
{
    double a = 0, b = 0;
    static constexpr agentio::field_info fields[] = {{.description = "Primer término"}, {.description = "Segundo"}};
};
BOOST_DESCRIBE_STRUCT(suma_args, (), (a, b))

asio::awaitable<agentio::tool_result> sumar(suma_args x, agentio::tool_context&)
{
    co_return agentio::tool_result::json({{"suma", x.a + x.b}});
}

using suma = agentio::function_tool<"sumar", "Suma dos números.", sumar>;

} // namespace

template<>
struct agentio::field_traits<conteo>
{
    static constexpr field_info fields[] = {
        {.name = "total", .description = "Iniciativas en total", .minimum = 0, .maximum = 1000},
        {.name = "estado_mayor", .description = "El estado con más iniciativas"},
        {.name = "notas", .description = "Observaciones breves", .max_items = 3},
    };
};

template<>
struct agentio::field_traits<por_estado>
{
    static constexpr field_info fields[] = {
        {.name = "cuentas", .description = "Iniciativas por estado"},
        {.name = "comentario", .description = "Un comentario, si hace falta"},
    };
};

namespace {

template<class Provider>
struct typed_bench : provider_bench<Provider>
{
    shared_counters counters;
    std::vector<agent::event> events;

    void script(std::string name, std::vector<std::vector<testing::scripted_response>> turns)
    {
        testing::scenario s;
        s.name = std::move(name);
        s.turns = std::move(turns);
        this->fake.add_scenario(std::move(s));
    }

    template<class T>
    agent::typed_result<T> run(std::string const& model, std::vector<llm::message>& conversation,
        agent::options opts = {})
    {
        opts.model = model;
        agent::orchestrator agent{*this->provider,
            test_tools{{}, contar_iniciativas{&counters, 0ms}, sumar_presupuesto{&counters}}, opts};
        agent::typed_result<T> out;
        auto sink = [this](agent::event const& e) { events.push_back(e); };
        auto work = [&]() -> asio::awaitable<void> { out = co_await agent.template run<T>(conversation, sink); };
        this->run_to_end(work);
        return out;
    }

    // The JSON bodies the provider sent, in order.
    std::vector<json::object> bodies() const
    {
        std::vector<json::object> out;
        for(auto const& r : this->fake.requests())
            if(r.body.is_object())
                out.push_back(r.body.get_object());
        return out;
    }

    std::size_t count(auto predicate) const
    {
        std::size_t n = 0;
        for(auto const& e : events)
            n += predicate(e) ? 1 : 0;
        return n;
    }
};

testing::scripted_response says(std::string text, std::string when_user_says = {})
{
    testing::scripted_response r;
    r.text = std::move(text);
    r.when_user_message_contains = std::move(when_user_says);
    return r;
}

testing::scripted_response calls_contar()
{
    testing::scripted_response r;
    r.tool_calls.push_back({"contar_iniciativas", json::object{{"campo_agrupacion", "estado"}}, {}, {}});
    return r;
}

json::value const& at(json::object const& o, std::initializer_list<std::string_view> path)
{
    json::value const* v = nullptr;
    json::object const* here = &o;
    for(auto key : path)
    {
        v = here->if_contains(key);
        BOOST_TEST_REQUIRE(v != nullptr, "no member " << key);
        here = v->if_object();
    }
    return *v;
}

bool is_done(agent::event const& e)
{
    return std::holds_alternative<agent::done>(e);
}
bool is_error(agent::event const& e)
{
    return std::holds_alternative<agent::error>(e);
}

constexpr char const* valid_answer = R"({"total": 47, "estado_mayor": "finalizada", "notas": ["21 finalizadas"]})";

} // namespace

BOOST_AUTO_TEST_SUITE(typed_answers)

BOOST_AUTO_TEST_CASE(openai_sends_the_schema_strict_and_the_answer_converts)
{
    typed_bench<llm::openai_provider> b;
    b.script("typed", {{says(valid_answer)}});
    std::vector<llm::message> conversation{llm::message::user("¿Cuántas iniciativas hay?")};
    auto const r = b.run<conteo>("typed", conversation);

    BOOST_TEST_REQUIRE((r.status == agent::outcome::completed), r.error_message);
    BOOST_TEST_REQUIRE(r.value.has_value());
    BOOST_TEST(r.value->total == 47);
    BOOST_TEST((r.value->estado_mayor == estado_iniciativa::finalizada));
    BOOST_TEST(r.value->notas == std::vector<std::string>{"21 finalizadas"}, boost::test_tools::per_element());
    BOOST_TEST(r.answer == valid_answer);
    BOOST_TEST(b.count(is_done) == 1u);

    auto const bodies = b.bodies();
    BOOST_TEST_REQUIRE(bodies.size() == 1u);
    BOOST_TEST(at(bodies[0], {"response_format", "type"}).as_string() == "json_schema");
    BOOST_TEST(at(bodies[0], {"response_format", "json_schema", "name"}).as_string() == "answer");
    // Every member required, every object closed: OpenAI takes it strict, bounds and all.
    BOOST_TEST(at(bodies[0], {"response_format", "json_schema", "strict"}).as_bool() == true);
    BOOST_TEST(at(bodies[0], {"response_format", "json_schema", "schema"}) == json::parse(agentio::schema_of<conteo>));
}

BOOST_AUTO_TEST_CASE(anthropic_sends_its_subset_with_the_bounds_in_words)
{
    typed_bench<llm::anthropic_provider> b;
    b.script("typed", {{says(valid_answer)}});
    std::vector<llm::message> conversation{llm::message::user("¿Cuántas iniciativas hay?")};
    auto const r = b.run<conteo>("typed", conversation);

    // The fake refuses what Anthropic's structured output refuses (bounds, open objects): the run got through.
    BOOST_TEST_REQUIRE((r.status == agent::outcome::completed), r.error_message);
    BOOST_TEST_REQUIRE(r.value.has_value());
    BOOST_TEST(r.value->total == 47);
    auto const raw = json::parse(agentio::schema_of<conteo>);
    BOOST_TEST(testing::detail::anthropic_schema_problem(raw).has_value()); // sent as it is, it would be refused

    auto const bodies = b.bodies();
    BOOST_TEST_REQUIRE(bodies.size() == 1u);
    auto const& schema = at(bodies[0], {"output_config", "format", "schema"}).as_object();
    BOOST_TEST(at(bodies[0], {"output_config", "format", "type"}).as_string() == "json_schema");
    BOOST_TEST(!testing::detail::anthropic_schema_problem(schema).has_value());
    auto const& total = at(schema, {"properties", "total"}).as_object();
    BOOST_TEST(!total.contains("minimum"));
    BOOST_TEST(total.at("description").as_string() == "Iniciativas en total (minimum: 0, maximum: 1000)");
    BOOST_TEST(at(schema, {"properties", "notas", "description"}).as_string() == "Observaciones breves (maxItems: 3)");
    BOOST_TEST(!bodies[0].contains("system")); // the schema travels in output_config, not in words
}

BOOST_AUTO_TEST_CASE(a_schema_outside_the_subsets_is_guided_and_still_enforced)
{
    // OpenAI: a map is not strict material, sent with strict false.
    {
        typed_bench<llm::openai_provider> b;
        b.script("typed", {{says(R"({"cuentas": {"Finalizada": 21, "Cancelada": 5}})")}});
        std::vector<llm::message> conversation{llm::message::user("¿Por estado?")};
        auto const r = b.run<por_estado>("typed", conversation);
        BOOST_TEST_REQUIRE((r.status == agent::outcome::completed), r.error_message);
        BOOST_TEST_REQUIRE(r.value.has_value());
        BOOST_TEST(r.value->cuentas.at("Finalizada") == 21);
        BOOST_TEST(!r.value->comentario.has_value());
        BOOST_TEST(at(b.bodies().at(0), {"response_format", "json_schema", "strict"}).as_bool() == false);
    }
    // Anthropic: the schema goes into the system prompt; the answer, in a fence, is still read and validated.
    {
        typed_bench<llm::anthropic_provider> b;
        b.script("typed",
            {{says("Aquí está:\n```json\n{\"cuentas\": {\"Finalizada\": 21}, \"comentario\": null}\n```")}});
        std::vector<llm::message> conversation{llm::message::user("¿Por estado?")};
        agent::options opts;
        opts.system = "Eres un agente de pruebas.";
        auto const r = b.run<por_estado>("typed", conversation, opts);
        BOOST_TEST_REQUIRE((r.status == agent::outcome::completed), r.error_message);
        BOOST_TEST_REQUIRE(r.value.has_value());
        BOOST_TEST(r.value->cuentas.at("Finalizada") == 21);
        auto const bodies = b.bodies();
        BOOST_TEST(!bodies.at(0).contains("output_config"));
        std::string const system(at(bodies.at(0), {"system"}).as_string());
        BOOST_TEST(system.starts_with("Eres un agente de pruebas.\n\nAnswer with one JSON value"));
        BOOST_TEST(system.find(R"("cuentas")") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(tools_run_before_the_typed_answer)
{
    typed_bench<llm::openai_provider> b;
    testing::scripted_response answer = says(valid_answer);
    b.script("typed", {{calls_contar()}, {answer}});
    std::vector<llm::message> conversation{llm::message::user("¿Cuántas iniciativas hay?")};
    auto const r = b.run<conteo>("typed", conversation);
    BOOST_TEST_REQUIRE((r.status == agent::outcome::completed), r.error_message);
    BOOST_TEST_REQUIRE(r.value.has_value());
    BOOST_TEST(b.counters.calls.load() == 1);
    BOOST_TEST(r.rounds == 2u);
    BOOST_TEST(r.tools.size() == 1u);
    // Both model calls carried the schema: the model may answer in any round.
    for(auto const& body : b.bodies())
        BOOST_TEST(body.contains("response_format"));
}

BOOST_AUTO_TEST_CASE(a_wrong_answer_goes_back_with_its_errors_and_the_corrected_one_stands)
{
    typed_bench<llm::anthropic_provider> b;
    // The first answer has the wrong type and an unknown estado; the one after the correction is right.
    b.script("typed",
        {{says(valid_answer, "no sigue el JSON Schema"),
            says(R"({"total": "muchas", "estado_mayor": "abierta", "notas": []})")}});
    std::vector<llm::message> conversation{llm::message::user("¿Cuántas iniciativas hay?")};
    agent::options opts;
    opts.texts = agentio_test::spanish_messages;
    auto const r = b.run<conteo>("typed", conversation, opts);

    BOOST_TEST_REQUIRE((r.status == agent::outcome::completed), r.error_message);
    BOOST_TEST_REQUIRE(r.value.has_value());
    BOOST_TEST(r.value->total == 47);
    BOOST_TEST(r.rounds == 2u);
    BOOST_TEST(b.count(is_done) == 1u); // one `done`, for the whole run
    BOOST_TEST(b.count(is_error) == 0u);
    // question, wrong answer, correction, answer: the model saw what it got wrong.
    BOOST_TEST_REQUIRE(conversation.size() == 4u);
    std::string const correction = conversation[2].text();
    BOOST_TEST(correction.starts_with("Tu respuesta no sigue el JSON Schema"));
    BOOST_TEST(correction.find("/total") != std::string::npos);
    BOOST_TEST(correction.find("/estado_mayor") != std::string::npos);
    BOOST_TEST(b.bodies().size() == 2u);
    // Rounds are numbered on across attempts, and the correction is announced with the round it answers, so a
    // checkpointing sink stores every message: answer (1), correction (1), answer (2).
    std::vector<unsigned> completed;
    for(auto const& e : b.events)
        if(auto const* c = std::get_if<agent::round_complete>(&e))
            completed.push_back(c->iteration);
    BOOST_TEST(completed == (std::vector<unsigned>{1, 1, 2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_attempts_share_the_runs_deadline)
{
    typed_bench<llm::openai_provider> b;
    testing::scenario s;
    s.name = "typed";
    s.token_interval = 60ms; // "No lo sé." in three pieces: about 180 ms an attempt
    s.turns = {{says("No lo sé.")}};
    b.fake.add_scenario(std::move(s));
    std::vector<llm::message> conversation{llm::message::user("¿Cuántas iniciativas hay?")};
    agent::options opts;
    opts.limits.run_deadline = 300ms; // three attempts would take 540 ms
    auto const r = b.run<conteo>("typed", conversation, opts);
    BOOST_TEST((r.status == agent::outcome::failed));
    BOOST_TEST(!r.value.has_value());
    BOOST_TEST_REQUIRE(b.count(is_error) == 1u);
    BOOST_TEST((std::get<agent::error>(b.events.back()).cause == agent::error_cause::deadline));
    BOOST_TEST(b.bodies().size() == 2u); // the deadline came during the second attempt
}

BOOST_AUTO_TEST_CASE(a_sink_that_stops_at_the_end_cancels_the_run_and_nothing_escapes)
{
    typed_bench<llm::openai_provider> b;
    b.script("typed", {{says(valid_answer)}});
    agent::orchestrator agent{*b.provider, agentio::dynamic_tools{}, agent::options{.model = "typed"}};
    std::vector<llm::message> conversation{llm::message::user("¿Cuántas iniciativas hay?")};
    std::optional<agent::typed_result<conteo>> r;
    auto const stop_at_done = [](agent::event const& e) -> asio::awaitable<bool> {
        co_return !std::holds_alternative<agent::done>(e); // the client left as the answer ended
    };
    auto work = [&]() -> asio::awaitable<void> { r = co_await agent.run<conteo>(conversation, stop_at_done); };
    b.run_to_end(work);
    BOOST_TEST_REQUIRE(r.has_value());
    BOOST_TEST((r->status == agent::outcome::cancelled));
    BOOST_TEST(!r->value.has_value());
}

BOOST_AUTO_TEST_CASE(no_valid_answer_fails_with_invalid_answer_after_the_retries)
{
    typed_bench<llm::openai_provider> b;
    b.script("typed", {{says("No lo sé.")}});
    std::vector<llm::message> conversation{llm::message::user("¿Cuántas iniciativas hay?")};
    agent::options opts;
    opts.limits.answer_retries = 1;
    auto const r = b.run<conteo>("typed", conversation, opts);

    BOOST_TEST((r.status == agent::outcome::failed));
    BOOST_TEST(!r.value.has_value());
    BOOST_TEST(r.error_message ==
        "The model did not give a valid answer in 2 attempts:\n(root): the answer has no "
        "JSON object");
    BOOST_TEST(b.bodies().size() == 2u);
    BOOST_TEST(b.count(is_done) == 0u);
    BOOST_TEST_REQUIRE(b.count(is_error) == 1u);
    BOOST_TEST((std::get<agent::error>(b.events.back()).cause == agent::error_cause::invalid_answer));
}

BOOST_AUTO_TEST_CASE(a_provider_failure_ends_the_typed_run_as_it_ends_any_run)
{
    typed_bench<llm::openai_provider> b;
    testing::scripted_response refused = says("{");
    refused.stop_reason = "refusal";
    b.script("typed", {{refused}});
    std::vector<llm::message> conversation{llm::message::user("¿Cuántas iniciativas hay?")};
    auto const r = b.run<conteo>("typed", conversation);
    BOOST_TEST((r.status == agent::outcome::failed));
    BOOST_TEST(!r.value.has_value());
    BOOST_TEST(b.bodies().size() == 1u); // a refusal is not re-asked
    BOOST_TEST_REQUIRE(b.count(is_error) == 1u);
    BOOST_TEST((std::get<agent::error>(b.events.back()).cause == agent::error_cause::refused));
}

BOOST_AUTO_TEST_CASE(the_orchestrator_asks_for_a_type_or_for_text)
{
    typed_bench<llm::openai_provider> b;
    b.script("typed", {{says(valid_answer)}});
    agent::orchestrator agent{*b.provider, agentio::dynamic_tools{}, agent::options{.model = "typed"}};
    std::optional<agent::typed_result<conteo>> typed;
    std::optional<agent::run_result> plain;
    auto work = [&]() -> asio::awaitable<void> {
        typed = co_await agent.ask<conteo>("¿Cuántas iniciativas hay?");
        plain = co_await agent.ask("¿Cuántas iniciativas hay?");
    };
    b.run_to_end(work);
    BOOST_TEST_REQUIRE(typed.has_value());
    BOOST_TEST_REQUIRE(typed->value.has_value());
    BOOST_TEST(typed->value->total == 47);
    BOOST_TEST_REQUIRE(plain.has_value());
    BOOST_TEST(plain->answer == valid_answer);
    auto const bodies = b.bodies();
    BOOST_TEST_REQUIRE(bodies.size() == 2u);
    BOOST_TEST(bodies[0].contains("response_format"));
    BOOST_TEST(!bodies[1].contains("response_format")); // the text question asks for no format
}

BOOST_AUTO_TEST_CASE(async_ask_of_a_type)
{
    typed_bench<llm::anthropic_provider> b;
    testing::scripted_response call;
    call.tool_calls.push_back({"sumar", json::object{{"a", 40}, {"b", 7}}, {}, {}});
    b.script("typed", {{call}, {says(valid_answer, "")}});
    std::optional<agent::typed_answer<conteo>> a;
    auto work = [&]() -> asio::awaitable<void> {
        agent::ask_options options;
        options.model = "typed";
        a = co_await agent::async_ask<conteo, suma>(*b.provider, "¿Cuántas?", options);
    };
    b.run_to_end(work);
    BOOST_TEST_REQUIRE(a.has_value());
    BOOST_TEST_REQUIRE(a->ok());
    BOOST_TEST_REQUIRE(a->value.has_value());
    BOOST_TEST(a->value->total == 47);
    BOOST_TEST(a->text == valid_answer);
    BOOST_TEST(a->result.tools.size() == 1u);
}

BOOST_AUTO_TEST_CASE(async_ask_after_a_retry_gives_the_accepted_answer_alone)
{
    typed_bench<llm::anthropic_provider> b;
    b.script("typed", {{says(valid_answer, "does not follow"), says(R"({"total": -1})")}});
    std::optional<agent::typed_answer<conteo>> a, without_options;
    auto work = [&]() -> asio::awaitable<void> {
        agent::ask_options options;
        options.model = "typed";
        a = co_await agent::async_ask<conteo>(*b.provider, "¿Cuántas?", options);
        // Without options the model is the provider's default, which this fake does not know: a failed answer.
        without_options = co_await agent::async_ask<conteo>(*b.provider, "¿Cuántas?");
    };
    b.run_to_end(work);
    BOOST_TEST_REQUIRE(a.has_value());
    BOOST_TEST_REQUIRE(a->ok());
    BOOST_TEST(a->text == valid_answer); // not the rejected answer before it
    BOOST_TEST(a->result.rounds == 2u);
    BOOST_TEST_REQUIRE(without_options.has_value());
    BOOST_TEST(!without_options->ok());
    BOOST_TEST(!without_options->result.error_message.empty());
}

BOOST_AUTO_TEST_CASE(ask_of_a_type_names_a_missing_key_before_anything_is_sent)
{
    ::unsetenv("ANTHROPIC_API_KEY");
    ::setenv("AGENT_PROVIDER", "anthropic", 1);
    BOOST_CHECK_EXCEPTION(agent::ask<conteo>("¿Cuántas?"), std::invalid_argument, [](std::invalid_argument const& e) {
        return std::string(e.what()).starts_with("ANTHROPIC_API_KEY is not set");
    });
    ::unsetenv("AGENT_PROVIDER");
}

BOOST_AUTO_TEST_SUITE_END()
