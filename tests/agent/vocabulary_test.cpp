// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The words the three strategies share (agent/vocabulary.hpp): one outcome,
// one result part, the events every strategy sends, and the handlers a
// program writes once for all three. The strategies' runs against the fake
// LLM check the same from the other side (their suites).
#include <agentio/agent/vocabulary.hpp>

#include <agentio/agent/orchestrator.hpp>
#include <agentio/agent/plan_execute.hpp>
#include <agentio/agent/react.hpp>

#include <boost/test/unit_test.hpp>

#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace agent = agentio::agent;
namespace llm = agentio::llm;
namespace react = agentio::agent::react;
namespace pe = agentio::agent::plan_execute;

namespace vocabulary_test {

// One outcome: each run_result's nested name is it, and each result is a run_summary.
static_assert(std::is_same_v<agent::run_result::outcome, agent::outcome>);
static_assert(std::is_same_v<react::run_result::outcome, agent::outcome>);
static_assert(std::is_same_v<pe::run_result::outcome, agent::outcome>);
static_assert(std::is_base_of_v<agent::run_summary, agent::run_result>);
static_assert(std::is_base_of_v<agent::run_summary, react::run_result>);
static_assert(std::is_base_of_v<agent::run_summary, pe::run_result>);

// The shared events: the same type where a strategy adds nothing, a base where it does.
static_assert(std::is_same_v<react::events::answer_delta, agent::text_delta>);
static_assert(std::is_base_of_v<agent::text_delta, pe::events::answer_delta>);
static_assert(std::is_same_v<react::events::error, agent::error>);
static_assert(std::is_same_v<pe::events::error, agent::error>);
static_assert(std::is_base_of_v<agent::finished, agent::done>);
static_assert(std::is_base_of_v<agent::finished, react::events::done>);
static_assert(std::is_base_of_v<agent::finished, pe::events::done>);

// What a program writes once: the result of any strategy...
std::string report(agent::run_summary const& r)
{
    std::ostringstream os;
    os << r.status << ' ' << r.usage.output_tokens << ' ';
    switch(r.status)
    {
    case agent::outcome::completed: os << r.answer; break;
    case agent::outcome::failed: os << r.error_message; break;
    case agent::outcome::cancelled:
    case agent::outcome::suspended: break;
    }
    return os.str();
}

// ...and the shared part of any strategy's events; a generic handler gets the shared type.
struct transcript
{
    std::string text, failure;
    unsigned output_tokens = 0;
    std::vector<std::string> shared_types;

    template<class Event>
    void operator()(Event const& e)
    {
        agent::visit_shared(
            e, [&](agent::text_delta const& d) { text += d.text; },
            [&](agent::finished const& f) { output_tokens += f.usage.output_tokens; },
            [&](agent::error const& f) { failure = f.message; });
        agent::visit_shared(e, [&](auto const& part) {
            using part_type = std::remove_cvref_t<decltype(part)>;
            shared_types.push_back(std::is_same_v<part_type, agent::text_delta> ? "text"
                    : std::is_same_v<part_type, agent::finished>                ? "finished"
                    : std::is_same_v<part_type, agent::error>                   ? "error"
                                                                                : "other");
        });
    }
};

llm::usage tokens(unsigned output)
{
    llm::usage u;
    u.output_tokens = output;
    return u;
}

} // namespace vocabulary_test

using namespace vocabulary_test;

BOOST_AUTO_TEST_SUITE(strategy_vocabulary)

BOOST_AUTO_TEST_CASE(an_outcome_has_one_name_in_every_strategy)
{
    BOOST_TEST(agent::to_string(agent::outcome::completed) == "completed");
    BOOST_TEST(agent::to_string(agent::outcome::failed) == "failed");
    BOOST_TEST(agent::to_string(agent::outcome::cancelled) == "cancelled");
    BOOST_TEST(agent::to_string(agent::outcome::suspended) == "suspended");
    std::ostringstream os;
    os << react::run_result::outcome::cancelled << ' ' << pe::run_result::outcome::failed << ' '
       << agent::run_result::outcome::suspended;
    BOOST_TEST(os.str() == "cancelled failed suspended");
    // The strategies' own spellings, as before the outcome was shared.
    BOOST_TEST(react::to_string(react::run_result::outcome::completed) == "completed");
    BOOST_TEST(pe::to_string(pe::run_result::outcome::cancelled) == "cancelled");
    BOOST_TEST(pe::to_string(pe::verdict::yes) == "yes");
}

BOOST_AUTO_TEST_CASE(one_function_reads_the_result_of_any_strategy)
{
    agent::run_result tools;
    tools.answer = "Hay 3.";
    tools.usage = tokens(7);
    tools.rounds = 2;
    react::run_result steps;
    steps.status = react::run_result::outcome::failed;
    steps.error_message = "Reached the iteration limit";
    steps.iterations = 6;
    pe::run_result plan;
    plan.status = agent::outcome::cancelled;
    plan.answer = "not shown";
    BOOST_TEST(report(tools) == "completed 7 Hay 3.");
    BOOST_TEST(report(steps) == "failed 0 Reached the iteration limit");
    BOOST_TEST(report(plan) == "cancelled 0 ");
}

BOOST_AUTO_TEST_CASE(one_handler_serves_the_shared_events_of_every_strategy)
{
    transcript all;
    // The orchestrator: its thinking and tool rounds are its own.
    for(agent::event const& e :
        {agent::event(agent::thinking_delta{"(pensando)"}), agent::event(agent::text_delta{"Hay "}),
            agent::event(agent::round_end{}), agent::event(agent::done{{tokens(5)}, 2})})
        all(e);
    // ReAct: thoughts and actions are its own.
    for(react::event const& e : {react::event(react::events::thought{1, "pienso"}),
            react::event(react::events::answer_delta{"3 "}), react::event(react::events::done{{tokens(11)}, 2})})
        all(e);
    // Plan-and-execute: the plan and the steps' events are its own, the answer's revision too.
    for(pe::event const& e : {pe::event(pe::events::plan{1, {"a", "b"}}),
            pe::event(pe::events::step_event{1, 0, agent::text_delta{"not the answer"}}),
            pe::event(pe::events::answer_delta{{"iniciativas"}, 1}),
            pe::event(pe::events::error{"sin conexión", agent::error_cause::provider})})
        all(e);
    BOOST_TEST(all.text == "Hay 3 iniciativas");
    BOOST_TEST(all.output_tokens == 16u);
    BOOST_TEST(all.failure == "sin conexión");
    BOOST_TEST(all.shared_types == (std::vector<std::string>{"text", "finished", "text", "finished", "text", "error"}),
        boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(visit_event_takes_every_strategys_event)
{
    unsigned thoughts = 0, revisions = 0, others = 0;
    for(react::event const& e : {react::event(react::events::thought{1, "x"}), react::event(react::events::done{})})
        agent::visit_event(
            e, [&](react::events::thought const&) { ++thoughts; }, [&](auto const&) { ++others; });
    pe::event const done = pe::events::done{{tokens(1)}, true, 2};
    agent::visit_event(done, [&](pe::events::done const& d) { revisions = d.revisions; });
    BOOST_TEST(thoughts == 1u);
    BOOST_TEST(others == 1u);
    BOOST_TEST(revisions == 2u);
}

BOOST_AUTO_TEST_CASE(events_are_built_as_before)
{
    // Positional initialization of the strategies' ends keeps its meaning.
    agent::done const tools{tokens(3), 2};
    react::events::done const steps{tokens(4), 5};
    pe::events::done const plan{tokens(6), true, 2};
    BOOST_TEST(tools.usage.output_tokens == 3u);
    BOOST_TEST(tools.rounds == 2u);
    BOOST_TEST(steps.usage.output_tokens == 4u);
    BOOST_TEST(steps.iterations == 5u);
    BOOST_TEST(plan.usage.output_tokens == 6u);
    BOOST_TEST(plan.verified);
    BOOST_TEST(plan.revisions == 2u);
    react::events::error const failure{"sin conexión"};
    BOOST_TEST((failure.cause == agent::error_cause::provider));
    react::events::answer_delta const delta{"Hola"};
    BOOST_TEST(delta.text == "Hola");
}

BOOST_AUTO_TEST_SUITE_END()
