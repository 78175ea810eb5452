// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// A thread far longer than the model's window, against the fake LLM enforcing
// one as the API does (its own 400 beyond it), side by side in one run:
//
// - without a window (the conversation sent whole, as before issue 31): how
//   many turns are answered before the first refusal, and how many after;
// - with `agent::options::context`, under each policy (trim: the oldest turns
//   left out; compact: summarized by the model, the summary carried from turn
//   to turn as a thread keeps it): every turn answered, the largest request
//   against the window, the refusals (the estimate learning), the summaries
//   and their model calls per 100 turns, and what the fitting costs per
//   request (the estimate and the choice of turns).
//
//   cmake --build --preset release --target agentio_context_bench && ./build/release/bench/agentio_context_bench [TURNS]
#include <agentio/agent/orchestrator.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/testing/fake_llm.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

#include <algorithm>
#include <optional>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace llm = agentio::llm;
namespace agent = agentio::agent;
using clock_type = std::chrono::steady_clock;

namespace {

constexpr std::uint64_t window = 200000;
constexpr unsigned max_tokens = 4096;

struct outcome
{
    int answered = 0;
    int failed = 0;
    int first_failure = -1; // the turn, 1-based
};

} // namespace

int main(int argc, char** argv)
{
    int const turns = argc > 1 ? std::atoi(argv[1]) : 2000;
    asio::io_context fake_ioc;
    agentio::testing::fake_llm_options fo;
    fo.max_recorded_requests = 4; // counted and forgotten after each turn
    agentio::testing::fake_llm fake(fake_ioc.get_executor(), fo);
    std::size_t calls = 0;
    auto count_calls = [&] {
        calls += fake.requests().size();
        fake.reset();
    };
    agentio::testing::scripted_response answer;
    answer.text = "Según los datos, " + std::string(1800, 'r') + "."; // about 2 000 characters a turn
    agentio::testing::scenario sc;
    sc.name = "ventana";
    sc.context_window = window;
    agentio::testing::scripted_response summary; // what the model writes when asked to summarize
    summary.when_user_message_contains = "<conversation>";
    summary.text = "Resumen: " + std::string(1500, 's') + ".";
    sc.turns.push_back({summary, answer});
    fake.add_scenario(sc);
    auto const ep = fake.start().value();
    std::thread fake_thread([&] { fake_ioc.run(); });

    asio::io_context ioc;
    agentio::http::client client(ioc.get_executor());
    llm::provider_options po;
    po.api_key = "k";
    po.base_url = "http://127.0.0.1:" + std::to_string(ep.port());
    po.retry.max_retries = 0;
    llm::anthropic_provider provider(client, po);

    // Before issue 31: the whole conversation in every request.
    auto run_whole = [&] {
        outcome out;
        std::vector<llm::message> conversation;
        for(int t = 1; t <= turns; ++t)
        {
            conversation.push_back(llm::message::user("Pregunta " + std::to_string(t) + ": " + std::string(1800, 'p')));
            llm::request r;
            r.model = "ventana";
            r.messages = conversation;
            r.max_tokens = max_tokens;
            auto f = asio::co_spawn(ioc, llm::complete(provider, r), asio::use_future);
            ioc.restart();
            ioc.run();
            auto const answered = f.get();
            count_calls();
            if(answered)
            {
                ++out.answered;
                conversation.push_back(answered->assistant);
                continue;
            }
            ++out.failed;
            if(out.first_failure < 0)
                out.first_failure = t;
            conversation.push_back(llm::message::assistant("(sin respuesta)")); // the thread goes on
        }
        return out;
    };

    // With the context window: the orchestrator fits each request.
    std::uint64_t largest = 0; // input tokens of the largest request answered (the fake's count: body bytes / 4)
    std::size_t compactions = 0, summary_calls = 0;
    auto run_managed = [&](agent::options o) {
        outcome out;
        largest = 0;
        compactions = summary_calls = 0;
        agent::orchestrator a{provider, agentio::dynamic_tools{}, o};
        std::vector<llm::message> conversation;
        std::optional<llm::conversation_summary> kept; // as a thread keeps it between turns
        auto on_event = [&](agent::event const& e) {
            if(auto const* c = std::get_if<agent::compacted>(&e))
            {
                ++compactions;
                summary_calls += c->calls;
            }
        };
        for(int t = 1; t <= turns; ++t)
        {
            conversation.push_back(llm::message::user("Pregunta " + std::to_string(t) + ": " + std::string(1800, 'p')));
            auto r = asio::co_spawn(ioc, a.run(conversation, on_event, agent::run_options{.summary = kept}),
                asio::use_future);
            ioc.restart();
            ioc.run();
            auto const result = r.get();
            count_calls();
            if(result.summary)
                kept = result.summary;
            // The answering call's input (a summary's calls are smaller: each fits the window too).
            if(!result.summary) // a run that summarized counts its summary calls' input too
                largest = std::max(largest, result.usage.input_tokens);
            if(result.status == agent::outcome::completed)
                ++out.answered;
            else
            {
                ++out.failed;
                if(out.first_failure < 0)
                    out.first_failure = t;
                conversation.push_back(llm::message::assistant("(sin respuesta)"));
            }
        }
        return out;
    };

    auto const t0 = clock_type::now();
    auto const before = run_whole();
    auto const t1 = clock_type::now();
    auto const requests_plain = calls;
    calls = 0;

    agent::options managed;
    managed.model = "ventana";
    managed.max_tokens = max_tokens;
    managed.context = {.window = window,
        .policy = llm::context_policy::trim,
        .estimator = std::make_shared<llm::token_estimator>()};
    auto const managed_out = run_managed(managed);
    auto const t2 = clock_type::now();
    std::size_t const requests_managed = calls;
    auto const largest_trimmed = largest;
    calls = 0;

    agent::options compacting = managed;
    compacting.context = {.window = window,
        .policy = llm::context_policy::compact,
        .estimator = std::make_shared<llm::token_estimator>()};
    auto const compact_out = run_managed(compacting);
    auto const t3 = clock_type::now();
    std::size_t const requests_compact = calls;

    // What fitting costs: the estimate of a request and the choice of turns, on the longest conversation.
    std::vector<llm::message> longest;
    for(int t = 0; t < turns; ++t)
    {
        longest.push_back(llm::message::user(std::string(1800, 'p')));
        longest.push_back(llm::message::assistant(std::string(1800, 'r')));
    }
    llm::token_estimator e;
    constexpr int repeats = 2000;
    std::size_t sink = 0;
    auto const f0 = clock_type::now();
    for(int i = 0; i < repeats; ++i)
        sink += llm::first_message_that_fits(longest, window - max_tokens, e).value_or(0);
    auto const f1 = clock_type::now();
    auto const fit_us = std::chrono::duration<double, std::micro>(f1 - f0).count() / repeats;

    auto const seconds = [](auto d) { return std::chrono::duration<double>(d).count(); };
    std::printf("thread of %d turns, about 2 000 characters each way, window %llu tokens, max_tokens %u\n", turns,
        static_cast<unsigned long long>(window), max_tokens);
    std::printf("whole thread sent:   %d answered, %d failed (the first at turn %d), %zu requests, %.1f s\n",
        before.answered, before.failed, before.first_failure, requests_plain, seconds(t1 - t0));
    std::printf("policy trim:         %d answered, %d failed, %zu requests (%zu refusals), %.1f s\n",
        managed_out.answered, managed_out.failed, requests_managed,
        requests_managed - static_cast<std::size_t>(managed_out.answered), seconds(t2 - t1));
    std::printf("  largest request answered: %llu tokens (window less max_tokens: %llu)\n",
        static_cast<unsigned long long>(largest_trimmed), static_cast<unsigned long long>(window - max_tokens));
    std::printf("policy compact:      %d answered, %d failed, %zu requests (%zu summary calls, %zu refusals), %.1f s\n",
        compact_out.answered, compact_out.failed, requests_compact, summary_calls,
        requests_compact - summary_calls - static_cast<std::size_t>(compact_out.answered), seconds(t3 - t2));
    std::printf("  %zu summaries, %.2f per 100 turns, %.2f summary calls per 100 turns\n", compactions,
        100.0 * static_cast<double>(compactions) / turns, 100.0 * static_cast<double>(summary_calls) / turns);
    std::printf("  largest request answered: %llu tokens (summaries included in the run's usage)\n",
        static_cast<unsigned long long>(largest));
    std::printf("fitting a %zu-message conversation: %.1f us per request (%zu)\n", longest.size(), fit_us, sink % 2);
    fake.stop();
    fake_thread.join();
    return managed_out.failed == 0 && compact_out.failed == 0 ? 0 : 1;
}
