// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What the orchestrator adds to a model call, against a zero-delay fake LLM
// in the same process (plain chrono harness, median of 7 runs of 200 calls).
//
//   cmake --build --preset release --target agentio_agent_bench && ./build/release/bench/agentio_agent_bench
//
// - provider alone: open the stream, read it to the end, decode (one round);
// - orchestrator: the same answer through agent::orchestrator::run with a
//   sink that does nothing; the difference is the orchestrator's cost per round;
// - time to first text: from the call to the first text delta, both ways;
// - two rounds with a tool call in between, per run.
#include "bench_support.hpp"

#include <agentio/agent/orchestrator.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/testing/fake_llm.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace llm = agentio::llm;
namespace agent = agentio::agent;
using clock_type = std::chrono::steady_clock;
using us = std::chrono::duration<double, std::micro>;

using bench::median;

int main()
{
    // The fake on its own thread, as a real provider is another machine.
    asio::io_context fake_ioc;
    agentio::testing::fake_llm fake(fake_ioc.get_executor());
    fake.load_scenarios(AGENTIO_SCENARIOS);
    auto const fake_ep = fake.start().value();
    std::thread fake_thread([&] { fake_ioc.run(); });

    asio::io_context ioc;
    agentio::http::client client(ioc.get_executor());
    llm::provider_options po;
    po.api_key = "k";
    po.base_url = "http://127.0.0.1:" + std::to_string(fake_ep.port());
    llm::anthropic_provider provider(client, po);
    using tools_type = agentio::toolset<bench::contar_iniciativas>;
    agent::options ao;
    ao.model = "anthropic-text-only";
    agent::orchestrator one_round{provider, tools_type{}, ao};
    ao.model = "portfolio-two-rounds";
    agent::orchestrator two_rounds{provider, tools_type{}, ao};

    constexpr int calls = 200;
    std::vector<double> raw_call, raw_ttfc, orch_call, orch_ttfc, two_call;
    auto measure = [&]() -> asio::awaitable<void> {
        std::vector<llm::message> question{llm::message::user("¿Cuántas iniciativas hay en ejecución?")};
        llm::request const req{.model = "anthropic-text-only",
            .system = "",
            .messages = question,
            .tools = {},
            .choice = {},
            .max_tokens = 1024,
            .temperature = {},
            .thinking_budget = {}};
        auto sink = [](agent::event const&) -> asio::awaitable<void> { co_return; };
        for(int run = 0; run < 7 + 1; ++run) // the first run warms up
        {
            std::vector<double> a, b, c, d, e;
            for(int i = 0; i < calls; ++i)
            {
                auto const t0 = clock_type::now();
                std::optional<clock_type::time_point> first;
                auto opened = co_await provider.open(req);
                auto stream = std::move(*opened);
                std::vector<llm::stream_event> events;
                while(!stream.done())
                {
                    events.clear();
                    auto failure = co_await stream.read(events);
                    if(!first && !events.empty())
                        first = clock_type::now();
                    if(failure)
                        throw std::runtime_error(failure->message);
                }
                llm::error f;
                auto r = stream.finish(f);
                if(!r)
                    throw std::runtime_error(f.message);
                a.push_back(us(clock_type::now() - t0).count());
                b.push_back(us(*first - t0).count());

                auto conversation = question;
                auto const t1 = clock_type::now();
                auto result = co_await one_round.run(conversation, sink);
                c.push_back(us(clock_type::now() - t1).count());
                d.push_back(static_cast<double>(result.time_to_first_text->count()));

                auto conversation2 = question;
                auto const t2 = clock_type::now();
                auto result2 = co_await two_rounds.run(conversation2, sink);
                if(result2.rounds != 2)
                    throw std::runtime_error("expected two rounds");
                e.push_back(us(clock_type::now() - t2).count());
            }
            if(run == 0)
                continue;
            raw_call.push_back(median(a));
            raw_ttfc.push_back(median(b));
            orch_call.push_back(median(c));
            orch_ttfc.push_back(median(d));
            two_call.push_back(median(e));
        }
    };
    asio::co_spawn(ioc, measure(), [](std::exception_ptr e) {
        if(e)
            std::rethrow_exception(e);
    });
    ioc.run();
    fake_ioc.stop();
    fake_thread.join();

    std::printf("agentio orchestrator overhead against a zero-delay fake LLM (median of 7 x %d calls, µs)\n\n", calls);
    std::printf("one round, provider alone            %8.1f\n", median(raw_call));
    std::printf("one round, through the orchestrator  %8.1f   (+%.1f per round)\n", median(orch_call),
        median(orch_call) - median(raw_call));
    std::printf("time to first text, provider alone   %8.1f\n", median(raw_ttfc));
    std::printf("time to first text, orchestrator     %8.1f   (+%.1f)\n", median(orch_ttfc),
        median(orch_ttfc) - median(raw_ttfc));
    std::printf("two rounds with a tool call, per run %8.1f\n", median(two_call));
}
