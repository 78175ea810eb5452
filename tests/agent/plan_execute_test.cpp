// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Plan and execute: the plan's and the verdict's parsers, and runs with the
// real OpenAI-compatible provider and HTTP client against the fake LLM on
// loopback.
//
// Every call of the strategy is a new conversation, so the fake answers each
// role from a scenario of its own (the strategy names a model per role), and
// a scenario's alternatives are chosen by the words of the prompt: the step
// a run is asked to do, the results a verifier reads.
#include <agentio/agent/plan_execute.hpp>

#include <agentio/llm/openai.hpp>
#include <agentio/testing/fake_llm.hpp>

#include "provider_bench.hpp"
#include "run_on.hpp"
#include "spanish_messages.hpp"
#include "test_tools.hpp"
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;
namespace pe = agentio::agent::plan_execute;
namespace testing = agentio::testing;
using namespace std::chrono_literals;

namespace plan_execute_test {

using namespace agent_test;

// A fake LLM, a client and an OpenAI provider on one io_context.
struct bench : provider_bench<llm::openai_provider>
{
    shared_counters counters;
    std::chrono::milliseconds tool_delay{0};

    explicit bench(std::chrono::milliseconds delay = 0ms) : tool_delay(delay) {}

    test_tools tools() { return test_tools{contar_iniciativas{&counters, tool_delay}, sumar_presupuesto{&counters}}; }

    struct outcome : event_log<pe::event>
    {
        pe::run_result result;

        // One letter an event: P plan, X plan rejected, S step started, t a
        // step's tool call (its other events are left out), F step finished,
        // A answer (one for a run of deltas), V verification, R replan, D done,
        // E error.
        std::string kinds() const
        {
            std::string out;
            for(auto const& e : events)
            {
                if(auto const* s = std::get_if<pe::events::step_event>(&e))
                {
                    if(std::holds_alternative<agentio::agent::tool_call>(s->event))
                        out += 't';
                    continue;
                }
                char const k = "PXS?FAVRDE"[e.index()];
                if(k == 'A' && !out.empty() && out.back() == 'A')
                    continue;
                out += k;
            }
            return out;
        }

        std::string answer(unsigned revision) const
        {
            std::string out;
            for(auto const& d : all<pe::events::answer_delta>())
                if(d.revision == revision)
                    out += d.text;
            return out;
        }
    };

    // Runs the strategy; without `model`, with a model per role: pe-planner,
    // pe-executor, pe-answer, pe-verifier (unless `opts` names one).
    outcome run(pe::options opts, std::string request = "¿Cuántas iniciativas hay en ejecución?",
        asio::cancellation_slot slot = {})
    {
        if(opts.model.empty())
        {
            if(opts.planner_model.empty())
                opts.planner_model = "pe-planner";
            if(opts.executor_model.empty())
                opts.executor_model = "pe-executor";
            if(opts.answer_model.empty())
                opts.answer_model = "pe-answer";
            if(opts.verifier_model.empty())
                opts.verifier_model = "pe-verifier";
        }
        pe::agent agent{*provider, tools(), opts};
        outcome out;
        auto sink = out.recorder();
        auto work = [&]() -> asio::awaitable<void> { out.result = co_await agent.run(request, sink); };
        run_to_end(work, slot);
        return out;
    }

    // The requests made to one model, in order.
    std::vector<json::object> requests_to(std::string_view model) const
    {
        std::vector<json::object> out;
        for(auto const& r : fake.requests())
            if(auto const* m = r.body.is_object() ? r.body.as_object().if_contains("model") : nullptr;
                m && m->is_string() && m->as_string() == model)
                out.push_back(r.body.as_object());
        return out;
    }
};

// The text of the `i`th message of a Chat Completions request (from the end when negative).
std::string message_text(json::object const& request, int i)
{
    auto const& messages = request.at("messages").as_array();
    auto const& m = messages.at(i < 0 ? messages.size() + i : static_cast<std::size_t>(i)).as_object();
    auto const& content = m.at("content");
    if(auto const* s = content.if_string())
        return std::string(*s);
    std::string out;
    for(auto const& part : content.as_array())
        if(auto const* t = part.as_object().if_contains("text"))
            out += t->as_string();
    return out;
}

testing::scripted_response says(std::string text, std::string when = {})
{
    testing::scripted_response r;
    r.text = std::move(text);
    r.when_user_message_contains = std::move(when);
    return r;
}

testing::scripted_response calls(std::string tool, json::value input, std::string when = {})
{
    testing::scripted_response r;
    r.tool_calls.push_back({std::move(tool), std::move(input), {}, {}});
    r.when_user_message_contains = std::move(when);
    return r;
}

testing::scenario scenario_of(std::string name, std::vector<std::vector<testing::scripted_response>> turns)
{
    testing::scenario s;
    s.name = std::move(name);
    s.turns = std::move(turns);
    return s;
}

constexpr char const* plan_a = "Este es el plan:\n```json\n"
                               R"({"steps": ["Cuenta las iniciativas por estado", "Resume el recuento"]})"
                               "\n```";
constexpr char const* plan_b = R"({"steps": ["Cuenta las iniciativas por estado", "Suma el presupuesto por estado"]})";

// The steps' model: a step that counts calls contar_iniciativas, one that
// adds calls sumar_presupuesto, others answer at once; after a tool, the
// answer quotes its result.
testing::scenario executor()
{
    return scenario_of("pe-executor",
        {{calls("contar_iniciativas", {{"campo_agrupacion", "estado_de_la_iniciativa"}}, "Your step: Cuenta"),
             calls("sumar_presupuesto",
                 {{"campo_agrupacion", "estado_de_la_iniciativa"}, {"campo_importe", "presupuesto_aprobado"}},
                 "Your step: Suma"),
             says("Hay 12 iniciativas en ejecución.")},
            {says("Resultado: {{last_tool_result}}")}});
}

} // namespace plan_execute_test

using namespace plan_execute_test;

BOOST_AUTO_TEST_SUITE(plan_execute_parsing)

BOOST_AUTO_TEST_CASE(a_plan_in_a_fence)
{
    auto const p = pe::parse_plan("Aquí está el plan:\n```json\n{\"steps\": [\"Busca\", \"Resume\"]}\n```\nSuerte.");
    BOOST_TEST_REQUIRE(p.ok());
    BOOST_TEST((p.steps == std::vector<std::string>{"Busca", "Resume"}));
}

BOOST_AUTO_TEST_CASE(a_plan_with_prose_and_braces_around)
{
    // A brace of the prose is not the plan; steps are trimmed; other members are allowed.
    auto const p = pe::parse_plan(
        "Usaré {las herramientas}. Plan: {\"title\": \"x\", \"steps\": [\" Busca \", \"Compara\", \"Resume\"]} listo.");
    BOOST_TEST_REQUIRE(p.ok());
    BOOST_TEST((p.steps == std::vector<std::string>{"Busca", "Compara", "Resume"}));
}

BOOST_AUTO_TEST_CASE(one_step_is_too_few_and_five_too_many)
{
    auto const one = pe::parse_plan(R"({"steps": ["Todo"]})");
    BOOST_TEST(!one.ok());
    BOOST_TEST(one.steps.empty());
    BOOST_TEST_REQUIRE(one.problems.errors.size() == 1u);
    BOOST_TEST(one.problems.errors[0].pointer == "/steps");
    BOOST_TEST(one.problems.errors[0].message == "must have at least 2 items");

    auto const five = pe::parse_plan(R"({"steps": ["a", "b", "c", "d", "e"]})");
    BOOST_TEST_REQUIRE(five.problems.errors.size() == 1u);
    BOOST_TEST(five.problems.errors[0].pointer == "/steps");
    BOOST_TEST(five.problems.errors[0].message == "must have at most 4 items");

    // The bounds are the caller's.
    BOOST_TEST(pe::parse_plan(R"({"steps": ["a", "b", "c", "d", "e"]})", 2, 5).ok());
}

BOOST_AUTO_TEST_CASE(a_step_that_is_not_a_string_or_is_blank)
{
    auto const number = pe::parse_plan(R"({"steps": ["Busca", 2]})");
    BOOST_TEST_REQUIRE(number.problems.errors.size() == 1u);
    BOOST_TEST(number.problems.errors[0].pointer == "/steps/1");
    BOOST_TEST(number.problems.errors[0].message == "expected string, got integer");

    auto const blank = pe::parse_plan(R"({"steps": ["Busca", "  ", ""]})");
    BOOST_TEST(blank.steps.empty());
    BOOST_TEST_REQUIRE(blank.problems.errors.size() == 1u); // the schema stops the empty one
    BOOST_TEST(blank.problems.errors[0].pointer == "/steps/2");
    auto const spaces = pe::parse_plan(R"({"steps": ["Busca", "  "]})");
    BOOST_TEST_REQUIRE(spaces.problems.errors.size() == 1u);
    BOOST_TEST(spaces.problems.errors[0].pointer == "/steps/1");
    BOOST_TEST(spaces.problems.errors[0].message == "must have at least 1 characters");

    auto const missing = pe::parse_plan(R"({"plan": ["a", "b"]})");
    BOOST_TEST_REQUIRE(missing.problems.errors.size() == 1u);
    BOOST_TEST(missing.problems.errors[0].pointer == "/steps");
}

BOOST_AUTO_TEST_CASE(a_reply_that_is_not_json)
{
    auto const p = pe::parse_plan("Primero contaré las iniciativas y después las resumiré.");
    BOOST_TEST(!p.ok());
    BOOST_TEST_REQUIRE(p.problems.errors.size() == 1u);
    BOOST_TEST(p.problems.errors[0].pointer.empty());
    BOOST_TEST(p.problems.errors[0].message == "the reply has no JSON object");
    BOOST_TEST(!pe::parse_plan(R"({"steps": ["a", "b")").ok()); // cut short
    BOOST_TEST(!pe::parse_plan(R"(["a", "b"])").ok());          // an array is not the object

    // The problems speak the caller's language, the schema validator's too.
    auto const es = pe::parse_plan("nada", 2, 4, agentio_test::spanish_messages);
    BOOST_TEST(es.problems.errors.at(0).message == "la respuesta no tiene ningún objeto JSON");
    auto const es_one = pe::parse_plan(R"({"steps": ["a"]})", 2, 4, agentio_test::spanish_messages);
    BOOST_TEST(es_one.problems.errors.at(0).message == "debe tener al menos 2 elementos");
}

BOOST_AUTO_TEST_CASE(the_schema)
{
    auto const s = pe::plan_schema(2, 4);
    BOOST_TEST(s.at("required") == json::parse(R"(["steps"])"));
    BOOST_TEST(s.at("properties").at("steps").at("minItems") == 2);
    BOOST_TEST(s.at("properties").at("steps").at("maxItems") == 4);
    BOOST_TEST(s.at("properties").at("steps").at("items").at("type") == "string");
    BOOST_TEST(agentio::schema_validator::compile(s).has_value());
}

BOOST_AUTO_TEST_CASE(verdicts_are_parsed_exactly)
{
    BOOST_TEST((pe::parse_verdict("SI") == pe::verdict::yes));
    BOOST_TEST((pe::parse_verdict(" NO.\n") == pe::verdict::no));
    BOOST_TEST((pe::parse_verdict("si") == pe::verdict::yes)); // case does not matter by default
    BOOST_TEST((pe::parse_verdict("No .") == pe::verdict::no));
    // Anything else is not a yes, and not a no either.
    BOOST_TEST((pe::parse_verdict("SI, pero falta el presupuesto.") == pe::verdict::unparseable));
    BOOST_TEST((pe::parse_verdict("SI, aunque") == pe::verdict::unparseable));
    BOOST_TEST((pe::parse_verdict("SI.\nAunque...") == pe::verdict::unparseable));
    BOOST_TEST((pe::parse_verdict("**SI**") == pe::verdict::unparseable));
    BOOST_TEST((pe::parse_verdict("NO..") == pe::verdict::unparseable));
    BOOST_TEST((pe::parse_verdict("") == pe::verdict::unparseable));
    BOOST_TEST((pe::parse_verdict(" . ") == pe::verdict::unparseable));
    BOOST_TEST((pe::parse_verdict("yes") == pe::verdict::unparseable)); // not one of the tokens SI / NO
}

BOOST_AUTO_TEST_CASE(an_accent_is_a_letter_of_its_own)
{
    // "Sí" is not "SI": the model was asked for the token as written.
    BOOST_TEST((pe::parse_verdict("Sí") == pe::verdict::unparseable));
    // An application that wants the accent says so; case still does not matter.
    pe::verdict_tokens const accented{.yes = "SÍ", .no = "NO", .case_sensitive = false};
    BOOST_TEST((pe::parse_verdict("Sí", accented) == pe::verdict::yes));
    BOOST_TEST((pe::parse_verdict("sí.", accented) == pe::verdict::yes));
    BOOST_TEST((pe::parse_verdict("SI", accented) == pe::verdict::unparseable));
}

BOOST_AUTO_TEST_CASE(english_and_case_sensitive_tokens)
{
    pe::verdict_tokens const english{.yes = "YES", .no = "NO", .case_sensitive = false};
    BOOST_TEST((pe::parse_verdict("Yes.", english) == pe::verdict::yes));
    BOOST_TEST((pe::parse_verdict("no", english) == pe::verdict::no));
    BOOST_TEST((pe::parse_verdict("Yes, but the budget is missing.", english) == pe::verdict::unparseable));
    BOOST_TEST((pe::parse_verdict("Yesterday", english) == pe::verdict::unparseable)); // never "starts with yes"
    pe::verdict_tokens const exact{.yes = "YES", .no = "NO", .case_sensitive = true};
    BOOST_TEST((pe::parse_verdict("YES", exact) == pe::verdict::yes));
    BOOST_TEST((pe::parse_verdict("Yes", exact) == pe::verdict::unparseable));

    std::ostringstream os;
    os << pe::verdict::unparseable << ' ' << pe::run_result::outcome::completed;
    BOOST_TEST(os.str() == "unparseable completed");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(plan_execute_run)

BOOST_AUTO_TEST_CASE(two_steps_a_tool_and_a_verified_answer)
{
    bench b;
    b.fake.add_scenario(scenario_of("pe-planner", {{says(plan_a)}}));
    b.fake.add_scenario(executor());
    b.fake.add_scenario(scenario_of("pe-answer", {{says("Hay 12 iniciativas en ejecución de 47.")}}));
    b.fake.add_scenario(scenario_of("pe-verifier", {{says("SI")}}));
    auto const out = b.run({});

    BOOST_TEST(out.kinds() == "PStFSFAVD");
    BOOST_TEST((out.result.status == pe::run_result::outcome::completed));
    BOOST_TEST(out.result.verified);
    BOOST_TEST(out.result.answer == "Hay 12 iniciativas en ejecución de 47.");
    BOOST_TEST(out.answer(1) == out.result.answer);
    BOOST_TEST(b.counters.calls == 1);
    BOOST_TEST(out.result.usage.input_tokens > 0u);

    auto const plans = out.all<pe::events::plan>();
    BOOST_TEST_REQUIRE(plans.size() == 1u);
    BOOST_TEST(plans[0].revision == 1u);
    BOOST_TEST((plans[0].steps == std::vector<std::string>{"Cuenta las iniciativas por estado", "Resume el recuento"}));
    auto const finished = out.all<pe::events::step_finished>();
    BOOST_TEST_REQUIRE(finished.size() == 2u);
    BOOST_TEST(finished[0].result == std::string("Resultado: ") + recuento);
    BOOST_TEST(finished[1].index == 1u);
    BOOST_TEST(finished[1].result == "Hay 12 iniciativas en ejecución.");
    auto const tool_events = out.all<pe::events::step_event>();
    auto const call = std::find_if(tool_events.begin(), tool_events.end(),
        [](pe::events::step_event const& e) { return std::holds_alternative<agentio::agent::tool_call>(e.event); });
    BOOST_TEST_REQUIRE((call != tool_events.end()));
    BOOST_TEST(call->index == 0u);
    BOOST_TEST(std::get<agentio::agent::tool_call>(call->event).tool == "contar_iniciativas");
    auto const verdicts = out.all<pe::events::verification>();
    BOOST_TEST_REQUIRE(verdicts.size() == 1u);
    BOOST_TEST((verdicts[0].verdict == pe::verdict::yes));
    BOOST_TEST(verdicts[0].raw == "SI");
    auto const done = out.all<pe::events::done>();
    BOOST_TEST_REQUIRE(done.size() == 1u);
    BOOST_TEST(done[0].verified);
    BOOST_TEST(done[0].revisions == 1u);

    // The trace.
    BOOST_TEST_REQUIRE(out.result.trace.size() == 1u);
    BOOST_TEST(out.result.trace[0].results.size() == 2u);
    BOOST_TEST(out.result.trace[0].answer == out.result.answer);
    BOOST_TEST((out.result.trace[0].verdict == pe::verdict::yes));

    // What each role read: the planner the tools, the second step the first
    // one's result, the answer and the verifier all results.
    auto const planner = b.requests_to("pe-planner");
    BOOST_TEST_REQUIRE(planner.size() == 1u);
    auto const plan_prompt = message_text(planner[0], -1);
    BOOST_TEST(plan_prompt.find("- contar_iniciativas: Cuenta iniciativas agrupadas por un campo") !=
        std::string::npos);
    BOOST_TEST(plan_prompt.find("Request: ¿Cuántas iniciativas hay en ejecución?") != std::string::npos);
    BOOST_TEST(plan_prompt.find("2 to 4 steps") != std::string::npos);
    BOOST_TEST(!planner[0].contains("tools")); // the planner gets no tools
    // The plan is asked for as structured output, closed, and strict: every plan it allows passes the plan's schema.
    auto const& format = planner[0].at("response_format").as_object().at("json_schema").as_object();
    BOOST_TEST(format.at("name").as_string() == "plan");
    BOOST_TEST(format.at("strict").as_bool());
    auto closed = pe::plan_schema(2, 4).as_object();
    closed["additionalProperties"] = false;
    closed["properties"].as_object()["steps"].as_object()["items"] = {{"type", "string"},
        {"description", "(minLength: 1)"}};
    BOOST_TEST(format.at("schema") == json::value(closed)); // what strict mode lacks, in words
    auto const steps = b.requests_to("pe-executor");
    BOOST_TEST_REQUIRE(steps.size() == 3u); // the first step's two rounds, the second's one
    BOOST_TEST(steps[0].contains("tools"));
    auto const second = message_text(steps[2], 0);
    BOOST_TEST(second.find("step 2 of 2") != std::string::npos);
    BOOST_TEST(second.find("Your step: Resume el recuento") != std::string::npos);
    BOOST_TEST(second.find(std::string("1. Cuenta las iniciativas por estado\nResultado: ") + recuento) !=
        std::string::npos);
    auto const answer = b.requests_to("pe-answer");
    BOOST_TEST_REQUIRE(answer.size() == 1u);
    BOOST_TEST(!answer[0].contains("response_format")); // the answer is prose
    BOOST_TEST(message_text(answer[0], -1).find(recuento) != std::string::npos);
    BOOST_TEST(answer[0].at("stream") == true);
    auto const verifier = b.requests_to("pe-verifier");
    BOOST_TEST_REQUIRE(verifier.size() == 1u);
    auto const verify_prompt = message_text(verifier[0], -1);
    BOOST_TEST(verify_prompt.find("Hay 12 iniciativas en ejecución de 47.") != std::string::npos);
    BOOST_TEST(verify_prompt.find("Reply SI or NO.") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(one_model_for_every_role)
{
    // Without models per role, every call goes to `model`.
    bench b;
    b.fake.add_scenario(scenario_of("pe-all",
        {{says(plan_b, "Make a plan"), says("SI", "Does the answer"), says("Respuesta final.", "Write the answer"),
            says("Hecho.")}}));
    pe::options o;
    o.model = "pe-all";
    o.structured_plan = false; // a model without structured output: the plan is asked for in words only
    auto const out = b.run(o);
    BOOST_TEST(out.kinds() == "PSFSFAVD");
    BOOST_TEST(out.result.answer == "Respuesta final.");
    auto const requests = b.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 5u);
    for(auto const& r : requests)
        BOOST_TEST(!r.body.as_object().contains("response_format"));
}

BOOST_AUTO_TEST_CASE(an_invalid_plan_goes_back_with_its_errors)
{
    bench b;
    // In Spanish: the prompts and the errors come from the caller's texts.
    b.fake.add_scenario(scenario_of("pe-planner",
        {{says(plan_a, "no es un plan válido"), says(R"(Plan: {"steps": ["Cuenta las iniciativas", )")}}));
    b.fake.add_scenario(scenario_of("pe-executor", {{says("Hecho.")}}));
    b.fake.add_scenario(scenario_of("pe-answer", {{says("Respuesta.")}}));
    b.fake.add_scenario(scenario_of("pe-verifier", {{says("SI")}}));
    pe::options o;
    o.texts = agentio_test::spanish_messages;
    auto const out = b.run(o);

    BOOST_TEST(out.kinds() == "XPSFSFAVD");
    BOOST_TEST(out.result.verified);
    auto const rejected = out.all<pe::events::plan_rejected>();
    BOOST_TEST_REQUIRE(rejected.size() == 1u);
    BOOST_TEST(rejected[0].attempt == 1u);
    BOOST_TEST(rejected[0].errors == "(raíz): la respuesta no tiene ningún objeto JSON");

    auto const planner = b.requests_to("pe-planner");
    BOOST_TEST_REQUIRE(planner.size() == 2u);
    BOOST_TEST(message_text(planner[0], 0).find("Haz un plan") != std::string::npos);
    auto const& retry = planner[1].at("messages").as_array();
    BOOST_TEST_REQUIRE(retry.size() == 3u); // the request, the bad reply, its errors
    BOOST_TEST(retry[1].at("role") == "assistant");
    BOOST_TEST(message_text(planner[1], 1) == R"(Plan: {"steps": ["Cuenta las iniciativas", )");
    BOOST_TEST(message_text(planner[1], 2) ==
        "Tu respuesta no es un plan válido:\n(raíz): la respuesta no tiene ningún objeto JSON\nResponde solo "
        "con un objeto JSON {\"steps\": [...]} cuyos pasos sean de 2 a 4 textos no vacíos.");
    BOOST_TEST(message_text(b.requests_to("pe-executor").at(0), 0).find("Tu paso: Cuenta") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_plan_that_never_comes)
{
    bench b;
    b.fake.add_scenario(scenario_of("pe-planner", {{says(R"({"steps": ["Todo a la vez"]})")}}));
    auto const out = b.run({});
    BOOST_TEST(out.kinds() == "XXXE");
    BOOST_TEST((out.result.status == pe::run_result::outcome::failed));
    BOOST_TEST(out.result.error_message ==
        "The model did not write a valid plan in 3 attempts:\n/steps: must have at least 2 items");
    BOOST_TEST(out.all<pe::events::error>().at(0).message == out.result.error_message);
    auto const planner = b.requests_to("pe-planner");
    BOOST_TEST_REQUIRE(planner.size() == 3u);
    BOOST_TEST(planner[2].at("messages").as_array().size() == 5u);
    BOOST_TEST(message_text(planner[2], -1).find("/steps: must have at least 2 items") != std::string::npos);
    BOOST_TEST(out.result.trace.empty());
}

BOOST_AUTO_TEST_CASE(a_no_then_a_replan_and_a_yes)
{
    bench b;
    b.fake.add_scenario(scenario_of("pe-planner", {{says(plan_b, "was not judged"), says(plan_a)}}));
    b.fake.add_scenario(executor());
    b.fake.add_scenario(scenario_of("pe-answer", {{says("Hay 12 en ejecución.")}}));
    // Yes once the results include the budget.
    b.fake.add_scenario(scenario_of("pe-verifier", {{says("SI", "suma_de"), says("NO")}}));
    auto const out = b.run({});

    BOOST_TEST(out.kinds() == "PStFSFAVRPStFStFAVD");
    BOOST_TEST((out.result.status == pe::run_result::outcome::completed));
    BOOST_TEST(out.result.verified);
    BOOST_TEST_REQUIRE(out.result.trace.size() == 2u);
    BOOST_TEST((out.result.trace[0].verdict == pe::verdict::no));
    BOOST_TEST((out.result.trace[1].verdict == pe::verdict::yes));
    BOOST_TEST(out.result.trace[1].steps.at(1) == "Suma el presupuesto por estado");
    BOOST_TEST(out.all<pe::events::replan>().at(0).revision == 2u);
    auto const plans = out.all<pe::events::plan>();
    BOOST_TEST_REQUIRE(plans.size() == 2u);
    BOOST_TEST(plans[1].revision == 2u);
    BOOST_TEST(out.answer(1) == "Hay 12 en ejecución.");
    BOOST_TEST(out.answer(2) == "Hay 12 en ejecución.");
    BOOST_TEST(out.all<pe::events::done>().at(0).revisions == 2u);
    BOOST_TEST(b.counters.calls == 3); // counted twice, added once

    // The replanner read the first plan, its results, its answer and the verdict.
    auto const planner = b.requests_to("pe-planner");
    BOOST_TEST_REQUIRE(planner.size() == 2u);
    auto const replan = message_text(planner[1], 0);
    BOOST_TEST(replan.find("The plan:\n1. Cuenta las iniciativas por estado\n2. Resume el recuento") !=
        std::string::npos);
    BOOST_TEST(replan.find(recuento) != std::string::npos);
    BOOST_TEST(replan.find("The answer:\nHay 12 en ejecución.") != std::string::npos);
    BOOST_TEST(replan.find("The reviewer's verdict: NO") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(replans_run_out_and_the_last_answer_stands)
{
    bench b;
    b.fake.add_scenario(scenario_of("pe-planner", {{says(plan_b, "was not judged"), says(plan_a)}}));
    b.fake.add_scenario(executor());
    b.fake.add_scenario(scenario_of("pe-answer",
        {{says("Respuesta con presupuesto.", "suma_de"), says("Respuesta sin presupuesto.")}}));
    // A qualified yes is not a yes.
    b.fake.add_scenario(scenario_of("pe-verifier", {{says("SI, aunque falta el desglose.")}}));
    pe::options o;
    o.max_replans = 1;
    auto const out = b.run(o);

    BOOST_TEST(out.kinds() == "PStFSFAVRPStFStFAVD");
    BOOST_TEST((out.result.status == pe::run_result::outcome::completed));
    BOOST_TEST(!out.result.verified);
    BOOST_TEST(out.result.answer == "Respuesta con presupuesto.");
    auto const verdicts = out.all<pe::events::verification>();
    BOOST_TEST_REQUIRE(verdicts.size() == 2u);
    BOOST_TEST((verdicts[1].verdict == pe::verdict::unparseable));
    BOOST_TEST(verdicts[1].raw == "SI, aunque falta el desglose.");
    auto const done = out.all<pe::events::done>();
    BOOST_TEST_REQUIRE(done.size() == 1u);
    BOOST_TEST(!done[0].verified);
    BOOST_TEST(done[0].revisions == 2u);

    // No replans at all: one revision, not verified.
    bench c;
    c.fake.add_scenario(scenario_of("pe-planner", {{says(plan_a)}}));
    c.fake.add_scenario(executor());
    c.fake.add_scenario(scenario_of("pe-answer", {{says("Respuesta.")}}));
    c.fake.add_scenario(scenario_of("pe-verifier", {{says("NO")}}));
    o.max_replans = 0;
    auto const once = c.run(o);
    BOOST_TEST(once.kinds() == "PStFSFAVD");
    BOOST_TEST(!once.result.verified);
}

BOOST_AUTO_TEST_CASE(a_provider_error_ends_the_run)
{
    bench b;
    pe::options o;
    o.planner_model = "no-existe";
    auto const out = b.run(o);
    BOOST_TEST(out.kinds() == "E");
    BOOST_TEST((out.result.status == pe::run_result::outcome::failed));
    BOOST_TEST(out.result.error_message.find("404") != std::string::npos);

    // In a step: the step's run reports it, then the strategy ends with it.
    b.fake.add_scenario(scenario_of("pe-planner", {{says(plan_a)}}));
    o.planner_model = "pe-planner";
    o.executor_model = "tampoco-existe";
    o.describe_error = [](llm::error const& e) { return "el proveedor dijo " + std::to_string(e.status); };
    auto const step = b.run(o);
    BOOST_TEST(step.kinds() == "PSE");
    BOOST_TEST(step.result.error_message == "el proveedor dijo 404");
    auto const inner = step.all<pe::events::step_event>();
    BOOST_TEST_REQUIRE(inner.size() == 1u);
    BOOST_TEST(std::get<agentio::agent::error>(inner[0].event).message == "el proveedor dijo 404");
    BOOST_TEST_REQUIRE(step.result.trace.size() == 1u);
    BOOST_TEST(step.result.trace[0].results.empty());

    // A mid-stream failure of the answer after text reached the client is not retried.
    testing::scripted_response broken = says("Una respuesta que se corta a la mitad.");
    testing::fault f;
    f.kind = testing::fault_kind::midstream_error;
    f.after_events = 4;
    broken.faults.push_back(f);
    b.fake.add_scenario(executor());
    b.fake.add_scenario(scenario_of("pe-answer", {{broken}}));
    o.executor_model = "pe-executor";
    auto const cut = b.run(o);
    BOOST_TEST(cut.kinds() == "PStFSFAE");
    BOOST_TEST(b.requests_to("pe-answer").size() == 1u);
}

BOOST_AUTO_TEST_CASE(cancellation_stops_the_step_and_its_tools)
{
    bench b(10s);
    b.fake.add_scenario(scenario_of("pe-planner", {{says(plan_a)}}));
    b.fake.add_scenario(executor());
    asio::cancellation_signal signal;
    asio::steady_timer later(b.ioc, 200ms);
    later.async_wait([&](boost::system::error_code) { signal.emit(asio::cancellation_type::terminal); });
    auto const out = b.run({}, "¿Cuántas iniciativas hay?", signal.slot());
    BOOST_TEST((out.result.status == pe::run_result::outcome::cancelled));
    BOOST_TEST(out.kinds() == "PS"); // nothing after the cancellation
    BOOST_TEST(b.counters.cancelled.load());
    BOOST_TEST(b.requests_to("pe-executor").size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_sink_that_returns_false_stops_the_run)
{
    bench b;
    b.fake.add_scenario(scenario_of("pe-planner", {{says(plan_a)}}));
    b.fake.add_scenario(executor());
    pe::options o;
    o.planner_model = "pe-planner";
    o.executor_model = "pe-executor";
    pe::agent agent{*b.provider, b.tools(), o};
    std::vector<pe::event> events;
    // Stops at the first tool call of a step: the sub-run stops, then the strategy.
    auto sink = [&](pe::event const& e) -> asio::awaitable<bool> {
        events.push_back(e);
        auto const* s = std::get_if<pe::events::step_event>(&e);
        co_return !(s && std::holds_alternative<agentio::agent::tool_call>(s->event));
    };
    auto const result = agentio_test::run_on(b.ioc, agent.run("¿Cuántas?", sink), 10s);
    BOOST_TEST((result.status == pe::run_result::outcome::cancelled));
    BOOST_TEST(std::holds_alternative<pe::events::step_event>(events.back()));
    BOOST_TEST(b.requests_to("pe-executor").size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_failure_names_its_cause)
{
    // The shared agent::error: the plan's own failures, and a step's failure with the step's cause.
    bench b;
    b.fake.add_scenario(scenario_of("pe-planner", {{says(R"({"steps": ["Todo a la vez"]})")}}));
    auto const no_plan = b.run({});
    BOOST_TEST((no_plan.all<pe::events::error>().at(0).cause == agentio::agent::error_cause::invalid_plan));

    bench c;
    c.fake.add_scenario(scenario_of("pe-planner", {{says(plan_a)}}));
    pe::options o;
    o.executor_model = "tampoco-existe";
    auto const step = c.run(o);
    BOOST_TEST((step.result.status == agentio::agent::outcome::failed));
    BOOST_TEST((step.all<pe::events::error>().at(0).cause == agentio::agent::error_cause::provider));
}

BOOST_AUTO_TEST_SUITE_END()
