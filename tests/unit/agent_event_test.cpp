// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include <agentio/agent/orchestrator.hpp>

#include <boost/test/unit_test.hpp>

#include <string>

namespace agent = agentio::agent;

BOOST_AUTO_TEST_SUITE(agent_event)

// The visit of a program that wants two kinds of event: it compiles whatever
// alternatives the variant has, and ignores the others.
BOOST_AUTO_TEST_CASE(visit_event_calls_the_handler_that_takes_the_alternative)
{
    std::string text, failure;
    auto show = [&](agent::event const& e) {
        agent::visit_event(
            e, [&](agent::text_delta const& d) { text += d.text; },
            [&](agent::error const& f) { failure = f.message; });
    };
    show(agent::text_delta{"Hola"});
    show(agent::thinking_delta{"(pensando)"});
    show(agent::done{});
    show(agent::text_delta{", mundo"});
    show(agent::error{"sin conexión"});
    BOOST_TEST(text == "Hola, mundo");
    BOOST_TEST(failure == "sin conexión");
}

BOOST_AUTO_TEST_CASE(a_generic_handler_is_the_fallback_of_the_specific_ones)
{
    int specific = 0, others = 0;
    for(agent::event const& e : {agent::event(agent::text_delta{}), agent::event(agent::done{}),
            agent::event(agent::round_end{}), agent::event(agent::text_delta{})})
        agent::visit_event(
            e, [&](agent::text_delta const&) { ++specific; }, [&](auto const&) { ++others; });
    BOOST_TEST(specific == 2);
    BOOST_TEST(others == 2);
}

BOOST_AUTO_TEST_SUITE_END()
