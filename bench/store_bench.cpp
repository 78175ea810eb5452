// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The thread stores, side by side: SQLite (a temporary file) and PostgreSQL
// (the URI given; bench/store_bench.sh starts a throwaway cluster).
//
//   agentio_store_bench [POSTGRES_URI]
//
// 1. Store latency: append one round (a checkpoint: the model's tool call and
//    its results join the thread) and load a 50-message thread; median and
//    p99 of 500 operations each.
// 2. Chat cost of the store: C concurrent chats of two rounds against the
//    zero-delay fake LLM (in process, its own thread), run directly through
//    the orchestrator ("off") and as durable runs through run_manager, read
//    back by a reader ("on"): chats per second and p99 of a chat's time.
#include "bench_support.hpp"

#include <agentio/agent/orchestrator.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/threads/postgres_store.hpp>
#include <agentio/threads/sqlite_store.hpp>
#include <agentio/testing/fake_llm.hpp>
#include <agentio/threads/run_manager.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

namespace asio = boost::asio;
namespace llm = agentio::llm;
namespace agent = agentio::agent;
namespace threads = agentio::threads;
namespace json = boost::json;
using clock_type = std::chrono::steady_clock;
using us = std::chrono::duration<double, std::micro>;

namespace {

using tools_type = agentio::toolset<bench::contar_iniciativas>;
using agent_type = agent::orchestrator<llm::anthropic_provider, tools_type>;

std::string new_id()
{
    return boost::uuids::to_string(boost::uuids::random_generator()());
}

// A new thread of the benchmark, with a fresh id.
threads::thread_info new_thread()
{
    return {.id = new_id(),
        .owner = "",
        .agent = "bench",
        .title = "t",
        .created_at = {},
        .updated_at = {},
        .metadata = {}};
}

// A round as the orchestrator checkpoints it: a tool call, then its result.
std::vector<llm::message> a_round()
{
    llm::message call{llm::role::assistant, {}};
    call.content.emplace_back(llm::text_block{"Voy a contar las iniciativas de la cartera agrupadas por estado."});
    call.content.emplace_back(llm::tool_use_block{"toolu_01", "contar_iniciativas",
        json::parse(R"({"campo_agrupacion":"estado_de_la_iniciativa"})"),
        R"({"campo_agrupacion":"estado_de_la_iniciativa"})"});
    llm::message result{llm::role::user, {}};
    result.content.emplace_back(llm::tool_result_block{"toolu_01",
        {llm::text_block{R"({"En ejecución": 12, "Planificada": 9, "Finalizada": 21, "Cancelada": 5})"}}, false});
    return {call, result};
}

asio::awaitable<void> store_latency(threads::thread_store& store, char const* name)
{
    constexpr int n = 500;
    // A 50-message thread to load.
    threads::thread_info const info = new_thread();
    std::string const& loaded = info.id;
    (co_await store.create_thread(info)).value();
    std::vector<llm::message> fifty;
    for(int i = 0; i < 25; ++i)
    {
        fifty.push_back(llm::message::user("¿Cuántas iniciativas hay en ejecución en la cartera " + std::to_string(i) +
            "?"));
        fifty.push_back(llm::message::assistant(std::string(400, 'x')));
    }
    (co_await store.append_messages(loaded, fifty)).value();

    // A running run to checkpoint rounds into.
    threads::thread_info const info2 = new_thread();
    std::string const& thread = info2.id;
    std::string const run = new_id();
    (co_await store.create_thread(info2)).value();
    threads::new_run const nr{.id = run,
        .thread_id = thread,
        .owner = "",
        .holder = "bench",
        .lease = std::chrono::minutes(10),
        .messages = {llm::message::user("hola")}};
    (co_await store.start_run(nr)).value();
    auto const round = a_round();
    json::value const state = json::object{{"event_id", 10}};
    // A round's last events, journaled with its checkpoint.
    std::vector<threads::event_record> journal;

    std::vector<double> append, load;
    for(int i = 0; i < n; ++i)
    {
        auto const t0 = clock_type::now();
        journal.clear();
        for(std::int64_t e = 0; e < 3; ++e)
            journal.push_back({3 * i + e + 1, "chunk", R"({"content": "Hay 12 iniciativas en ejecución."})"});
        (co_await store.checkpoint(run, "bench", journal, round, static_cast<unsigned>(i + 1), state)).value();
        append.push_back(us(clock_type::now() - t0).count());
        auto const t1 = clock_type::now();
        auto items = (co_await store.load_items(loaded)).value();
        load.push_back(us(clock_type::now() - t1).count());
        if(items.size() != 50)
            throw std::runtime_error("expected 50 messages");
    }
    auto const a = bench::percentiles_of(append), l = bench::percentiles_of(load);
    std::printf("%-11s append one round %8.0f µs median %8.0f µs p99 | load 50 messages %8.0f µs median %8.0f µs p99\n",
        name, a.median, a.p99, l.median, l.p99);
}

struct chat_figures
{
    double per_second = 0;
    bench::percentiles latency;
};

// C chats at a time, `total` in all; each chat is timed from its start to its last event.
template<class Chat>
asio::awaitable<chat_figures> load(int concurrency, int total, Chat chat)
{
    using namespace asio::experimental::awaitable_operators;
    std::vector<double> times;
    int started = 0;
    auto worker = [&]() -> asio::awaitable<void> {
        while(started < total)
        {
            ++started;
            auto const t0 = clock_type::now();
            co_await chat();
            times.push_back(us(clock_type::now() - t0).count());
        }
    };
    auto const ex = co_await asio::this_coro::executor;
    auto const t0 = clock_type::now();
    std::vector<decltype(asio::co_spawn(ex, worker(), asio::deferred))> ops;
    for(int i = 0; i < concurrency; ++i)
        ops.push_back(asio::co_spawn(ex, worker(), asio::deferred));
    co_await asio::experimental::make_parallel_group(std::move(ops))
        .async_wait(asio::experimental::wait_for_all(), asio::use_awaitable);
    double const seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
    co_return chat_figures{total / seconds, bench::percentiles_of(times)};
}

std::optional<threads::event_record> to_record(threads::run_event const& e, threads::run_context const&)
{
    if(auto const* ev = std::get_if<agent::event>(&e))
    {
        if(auto const* t = std::get_if<agent::text_delta>(ev))
            return threads::event_record{0, "chunk", R"({"content": ")" + t->text + "\"}"};
        if(std::holds_alternative<agent::round_complete>(*ev))
            return std::nullopt;
        if(std::holds_alternative<agent::done>(*ev))
            return threads::event_record{0, "done", "{}"};
        if(std::holds_alternative<agent::error>(*ev))
            return threads::event_record{0, "error", "{}"};
        return threads::event_record{0, "step", "{}"};
    }
    return threads::event_record{0, "done", "{}"};
}

bool is_final(threads::event_record const& e)
{
    return e.type == "done" || e.type == "error";
}

asio::awaitable<void> chat_cost(agent_type const& ag, threads::thread_store* sqlite_store,
    threads::thread_store* pg_store, int concurrency, int total)
{
    auto const ex = co_await asio::this_coro::executor;
    auto direct = [&]() -> asio::awaitable<void> {
        std::vector<llm::message> conversation{llm::message::user("¿Cuántas iniciativas hay en ejecución?")};
        auto sink = [](agent::event const&) {};
        auto r = co_await ag.run(conversation, sink);
        if(r.status != agent::run_result::outcome::completed)
            throw std::runtime_error("a chat failed: " + r.error_message);
    };
    auto off = co_await load(concurrency, total, direct);
    std::printf("%4d at a time, store off (orchestrator only) %8.0f chats/s   p99 %8.0f µs\n", concurrency,
        off.per_second, off.latency.p99);
    for(auto [store, name] : {std::pair{sqlite_store, "SQLite"}, std::pair{pg_store, "PostgreSQL"}})
    {
        if(!store)
            continue;
        threads::run_manager<agent_type> runs(ex, *store, ag, &to_record, &is_final);
        runs.start();
        auto durable = [&]() -> asio::awaitable<void> {
            threads::thread_info const info = new_thread();
            std::vector<llm::message> question{llm::message::user("¿Cuántas iniciativas hay en ejecución?")};
            auto started = (co_await runs.start_run(info, question)).value();
            auto end = co_await runs.stream(started.run_id, "", 0,
                [](threads::event_record const&) -> asio::awaitable<bool> { co_return true; });
            if(end != threads::stream_end::finished)
                throw std::runtime_error("a durable chat did not finish");
        };
        auto on = co_await load(concurrency, total, durable);
        std::printf(
            "%4d at a time, store on (%-10s)           %8.0f chats/s   p99 %8.0f µs   (%+.0f %% time per chat)\n",
            concurrency, name, on.per_second, on.latency.p99, 100.0 * (off.per_second / on.per_second - 1));
        runs.stop();
    }
}

} // namespace

int main(int argc, char** argv)
{
    std::string const pg_uri = argc > 1 ? argv[1] : "";
    auto const dir = std::filesystem::temp_directory_path() / ("agentio_store_bench_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);

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
    agent::options ao;
    ao.model = "portfolio-two-rounds";
    agent_type const ag{provider, tools_type{}, ao};

    auto sqlite_store = agentio::sqlite::thread_store::open(dir / "agent.db").value();
    std::unique_ptr<threads::thread_store> pg_store;
    bool finished = false;
    auto main_task = [&]() -> asio::awaitable<void> {
        if(!pg_uri.empty())
            pg_store = (co_await agentio::postgres::thread_store::open(ioc.get_executor(), pg_uri)).value();
        std::printf("Store latency (500 operations each)\n");
        co_await store_latency(*sqlite_store, "SQLite");
        if(pg_store)
            co_await store_latency(*pg_store, "PostgreSQL");
        std::printf("\nTwo-round chats against the zero-delay fake LLM (2000 chats per line)\n");
        for(int c : {1, 32})
            co_await chat_cost(ag, sqlite_store.get(), pg_store.get(), c, 2000);
        finished = true;
    };
    asio::co_spawn(ioc, main_task(), [](std::exception_ptr e) {
        if(e)
            std::rethrow_exception(e);
    });
    while(!finished && ioc.run_one() != 0)
        ;
    pg_store.reset();
    sqlite_store.reset();
    fake_ioc.stop();
    fake_thread.join();
    std::filesystem::remove_all(dir);
}
