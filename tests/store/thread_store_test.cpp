// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// One suite of checks, run on each backend of agentio::threads::thread_store:
// SQLite in a temporary file, PostgreSQL in the temporary cluster that
// scripts/postgres.sh starts (a real server, never a stand-in).

#include <agentio/llm/message_json.hpp>
#include <agentio/metrics.hpp>
#include <agentio/threads/observed_store.hpp>
#include <agentio/threads/postgres_store.hpp>
#include <agentio/threads/sqlite_store.hpp>
#include <agentio/threads/turn.hpp>
#include <agentio/threads.hpp>
#include <agentio/trace.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include "postgres_fixture.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;
namespace threads = agentio::threads;
using namespace std::literals;

namespace {

using check = asio::awaitable<void> (*)(threads::thread_store&);

// A SQLite store in a fresh temporary file.
struct sqlite_backend
{
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
        ("agentio_store_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));

    static int& counter()
    {
        static int n = 0;
        return n;
    }

    std::unique_ptr<threads::thread_store> open()
    {
        std::filesystem::remove_all(dir);
        return agentio::sqlite::thread_store::open(dir / "data" / "agent.db").value();
    }
    ~sqlite_backend() { std::filesystem::remove_all(dir); }
};

// Runs `task` on `ctx` until it finishes (a PostgreSQL store's listener keeps
// the context busy for good, so running it dry would never return).
void run_until_done(asio::io_context& ctx, asio::awaitable<void> task)
{
    std::exception_ptr failure;
    bool done = false;
    if(ctx.stopped())
        ctx.restart(); // it ran out of work at the end of the previous task
    asio::co_spawn(ctx, std::move(task), [&](std::exception_ptr e) {
        failure = e;
        done = true;
    });
    auto const until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while(!done && std::chrono::steady_clock::now() < until)
        ctx.run_one_for(std::chrono::milliseconds(100));
    BOOST_REQUIRE_MESSAGE(done, "the check did not finish within 60 s");
    if(failure)
        std::rethrow_exception(failure);
}

// A PostgreSQL store on the test cluster, its schema dropped first so each
// check starts from nothing (and the migration runs every time).
struct postgres_backend
{
    asio::io_context ctx;
    std::unique_ptr<threads::thread_store> store;

    static asio::awaitable<void> drop_schema()
    {
        agentio::postgres::connection c(co_await asio::this_coro::executor);
        (co_await c.connect(agentio_test::postgres_uri())).value();
        (co_await c.execute(
             "DROP TABLE IF EXISTS agentio_files, agentio_run_calls, agentio_thread_summaries, agentio_run_events, "
             "agentio_runs, agentio_thread_items, "
             "agentio_threads, agentio_schema_version CASCADE; "
             "DROP FUNCTION IF EXISTS agentio_now_ms()"))
            .value();
    }

    std::unique_ptr<threads::thread_store> open()
    {
        std::unique_ptr<threads::thread_store> out;
        run_until_done(ctx, [&]() -> asio::awaitable<void> {
            auto s = co_await agentio::postgres::thread_store::open(ctx.get_executor(), agentio_test::postgres_uri());
            out = std::move(s.value());
        }());
        return out;
    }

    postgres_backend()
    {
        run_until_done(ctx, drop_schema());
        store = open();
    }
};

void run_check(threads::thread_store& store, check c)
{
    asio::io_context ctx;
    std::exception_ptr failure;
    asio::co_spawn(ctx, c(store), [&](std::exception_ptr e) { failure = e; });
    ctx.run();
    if(failure)
        std::rethrow_exception(failure);
}

llm::message tool_round()
{
    llm::message m{llm::role::assistant, {}};
    m.content.emplace_back(llm::thinking_block{"pienso", "firma=="});
    m.content.emplace_back(llm::text_block{"Voy a consultar."});
    m.content.emplace_back(llm::tool_use_block{"toolu_1", "buscar", json::parse(R"({"q":"ñandú","n":3})"),
        R"({"q":"ñandú","n":3})"});
    m.content.emplace_back(llm::opaque_block{json::object{{"type", "redacted_thinking"}, {"data", "x"}}});
    return m;
}

llm::message tool_results()
{
    llm::message m{llm::role::user, {}};
    m.content.emplace_back(llm::tool_result_block{"toolu_1",
        {llm::text_block{"3 filas"}, llm::image_block{"image/png", "iVBOR"}}, true});
    return m;
}

threads::thread_info thread(std::string id, std::string owner = "")
{
    return {.id = std::move(id),
        .owner = std::move(owner),
        .agent = "portfolio",
        .title = "Hola",
        .created_at = {},
        .updated_at = {},
        .metadata = {{"lang", "es"}}};
}

threads::new_run run_of(std::string id, std::string thread_id, std::string holder,
    std::chrono::milliseconds lease = std::chrono::seconds(30))
{
    return {.id = std::move(id),
        .thread_id = std::move(thread_id),
        .owner = "",
        .holder = std::move(holder),
        .lease = lease,
        .messages = {llm::message::user("¿Cuántos proyectos hay?")}};
}

threads::run_events events(std::string run, std::int64_t first, std::int64_t last)
{
    threads::run_events out{std::move(run), {}};
    for(auto id = first; id <= last; ++id)
        out.events.push_back({id, "chunk", R"({"content": ")" + std::to_string(id) + "\"}"});
    return out;
}

bool same(llm::message const& a, llm::message const& b)
{
    return llm::to_json(a) == llm::to_json(b);
}

// --- the checks ---------------------------------------------------------------

// Pages of an owner's threads follow the whole list's order (most recently
// updated first, then id, ties included) without a gap or a repeat; the
// interface's default (paging in memory) gives the same pages.
asio::awaitable<std::vector<threads::thread_info>> page_of(threads::thread_store& s, bool in_memory,
    threads::thread_listing const& which)
{
    threads::result<std::vector<threads::thread_info>> page;
    if(in_memory)
        page = co_await s.threads::thread_store::list_threads("pia", which);
    else
        page = co_await s.list_threads("pia", which);
    co_return page.value();
}

asio::awaitable<void> threads_are_paged(threads::thread_store& s)
{
    for(auto id : {"p-c", "p-a", "p-e", "p-b", "p-d"})
        (co_await s.create_thread(thread(id, "pia"))).value();
    (co_await s.create_thread(thread("p-z", "otro"))).value();
    asio::steady_timer pause(co_await asio::this_coro::executor, std::chrono::milliseconds(5));
    co_await pause.async_wait(asio::use_awaitable);
    std::vector<llm::message> hello{llm::message::user("hola")};
    (co_await s.append_messages("p-b", hello)).value(); // p-b the latest
    std::size_t const everything = 100;
    auto const all = (co_await s.list_threads("pia", everything)).value();
    BOOST_REQUIRE(all.size() == 5u);
    BOOST_TEST(all[0].id == "p-b"sv);
    for(bool in_memory : {false, true})
    {
        std::vector<std::string> seen;
        threads::thread_listing which{.limit = 2, .after = {}};
        for(int pages = 0; pages < 5; ++pages)
        {
            auto page = co_await page_of(s, in_memory, which);
            bool const more = page.size() > which.limit;
            BOOST_TEST(page.size() <= which.limit + 1);
            if(more)
                page.resize(which.limit);
            for(auto const& t : page)
                seen.push_back(t.id);
            if(!more)
                break;
            which.after = page.back().id;
        }
        BOOST_REQUIRE(seen.size() == all.size());
        for(std::size_t i = 0; i < all.size(); ++i)
            BOOST_TEST(seen[i] == all[i].id);
        threads::thread_listing const unknown{.limit = 10, .after = "p-nope"};
        threads::thread_listing const others{.limit = 10, .after = "p-z"};
        auto const after_unknown = co_await page_of(s, in_memory, unknown);
        BOOST_TEST(after_unknown.empty());
        auto const after_others = co_await page_of(s, in_memory, others);
        BOOST_TEST(after_others.empty()); // another owner's thread is no place in this list
    }
}

asio::awaitable<void> threads_are_scoped_by_owner(threads::thread_store& s)
{
    (co_await s.create_thread(thread("t1", "ana"))).value();
    (co_await s.create_thread(thread("t2", "ana"))).value();
    (co_await s.create_thread(thread("t3", "luis"))).value();
    auto found = (co_await s.find_thread("t1", "ana")).value();
    BOOST_REQUIRE(found);
    BOOST_TEST(found->agent == "portfolio"sv);
    BOOST_TEST(found->title == "Hola"sv);
    BOOST_TEST(found->metadata.at("lang").as_string() == "es"sv);
    BOOST_TEST(found->created_at.time_since_epoch().count() > 0);
    BOOST_TEST(!(co_await s.find_thread("t1", "luis")).value()); // another owner's: not found
    BOOST_TEST(!(co_await s.find_thread("nope", "ana")).value());

    // A duplicate id is refused, not overwritten.
    BOOST_TEST(!(co_await s.create_thread(thread("t1", "luis"))));

    // Most recently updated first: a message makes t1 the latest.
    std::vector<llm::message> hello{llm::message::user("hola")};
    asio::steady_timer pause(co_await asio::this_coro::executor, std::chrono::milliseconds(5));
    co_await pause.async_wait(asio::use_awaitable);
    (co_await s.append_messages("t1", hello)).value();
    auto listed = (co_await s.list_threads("ana", 10)).value();
    BOOST_REQUIRE(listed.size() == 2u);
    BOOST_TEST(listed[0].id == "t1"sv);
    BOOST_TEST(listed[1].id == "t2"sv);
    BOOST_TEST((co_await s.list_threads("ana", 1)).value().size() == 1u);
    BOOST_TEST((co_await s.list_threads("", 10)).value().empty());

    BOOST_TEST(!(co_await s.delete_thread("t1", "luis")).value());
    BOOST_TEST((co_await s.delete_thread("t1", "ana")).value());
    BOOST_TEST(!(co_await s.find_thread("t1", "ana")).value());
    BOOST_TEST((co_await s.load_items("t1")).value().empty());
}

asio::awaitable<void> items_keep_every_block_in_order(threads::thread_store& s)
{
    (co_await s.create_thread(thread("t"))).value();
    std::vector<llm::message> const conversation{llm::message::user("uno"), tool_round(), tool_results(),
        llm::message::assistant("dos")};
    BOOST_TEST((co_await s.append_messages("t", std::span(conversation).first(1))).value() == 1);
    BOOST_TEST((co_await s.append_messages("t", std::span(conversation).subspan(1))).value() == 4);
    auto items = (co_await s.load_items("t")).value();
    BOOST_REQUIRE(items.size() == conversation.size());
    for(std::size_t i = 0; i < items.size(); ++i)
    {
        BOOST_TEST(items[i].seq == static_cast<std::int64_t>(i + 1));
        BOOST_TEST(same(items[i].message, conversation[i]));
        BOOST_TEST(items[i].run_id.empty());
    }
    auto const& call = std::get<llm::tool_use_block>(items[1].message.content[2]);
    BOOST_TEST(call.input.at("q").as_string() == "ñandú"sv);
    BOOST_TEST(call.raw_input == R"({"q":"ñandú","n":3})"sv);
    BOOST_TEST(std::get<llm::tool_result_block>(items[2].message.content[0]).is_error);

    auto missing = co_await s.append_messages("nope", conversation);
    BOOST_REQUIRE(!missing);
    BOOST_TEST(missing.error().code == make_error_code(threads::errc::not_found));
}

asio::awaitable<void> a_run_checkpoints_its_rounds(threads::thread_store& s)
{
    (co_await s.create_thread(thread("t"))).value();
    auto started = (co_await s.start_run(run_of("r", "t", "replica-a"))).value();
    BOOST_REQUIRE(started.size() == 1u); // the thread as the run sees it
    BOOST_TEST(started[0].message.text() == "¿Cuántos proyectos hay?"sv);
    BOOST_TEST(started[0].run_id == "r"sv);
    auto run = (co_await s.find_run("r", "")).value();
    BOOST_REQUIRE(run);
    BOOST_TEST(run->status == threads::run_status::running);
    BOOST_TEST(run->thread_id == "t"sv);
    BOOST_TEST(run->lease_holder == "replica-a"sv);
    BOOST_TEST(run->rounds == 0u);
    BOOST_TEST(!(co_await s.find_run("r", "ana")).value());

    auto latest = (co_await s.latest_run("t", "")).value();
    BOOST_REQUIRE(latest);
    BOOST_TEST(latest->id == "r"sv);
    BOOST_TEST(!(co_await s.latest_run("t", "ana")).value());
    std::vector<llm::message> const round{tool_round(), tool_results()};
    json::object tokens;
    tokens["tokens"] = 12;
    // The round's last events, its messages and the state: one write.
    auto const first_events = events("r", 1, 2);
    (co_await s.checkpoint("r", "replica-a", first_events.events, round, 1, tokens)).value();
    run = (co_await s.find_run("r", "")).value();
    BOOST_TEST(run->rounds == 1u);
    BOOST_TEST(run->last_event_id == 2);
    BOOST_TEST(run->state.at("tokens").as_int64() == 12);
    BOOST_TEST((co_await s.events_after("r", 0, 10)).value().size() == 2u);
    auto items = (co_await s.load_items("t")).value();
    BOOST_REQUIRE(items.size() == 3u);
    BOOST_TEST(items[0].message.text() == "¿Cuántos proyectos hay?"sv);
    BOOST_TEST(items[0].run_id == "r"sv);
    BOOST_TEST(same(items[2].message, tool_results()));

    // Events that do not continue the journal refuse the whole checkpoint.
    auto const gap = events("r", 4, 4);
    auto refused = co_await s.checkpoint("r", "replica-a", gap.events, round, 2, nullptr);
    BOOST_REQUIRE(!refused);
    BOOST_TEST(refused.error().code == make_error_code(threads::errc::lease_lost));
    BOOST_TEST((co_await s.find_run("r", "")).value()->rounds == 1u);
    BOOST_TEST((co_await s.load_items("t")).value().size() == 3u);

    // Another process cannot write for the run.
    std::span<threads::event_record const> const none;
    auto fenced = co_await s.checkpoint("r", "replica-b", none, round, 2, nullptr);
    BOOST_REQUIRE(!fenced);
    BOOST_TEST(fenced.error().code == make_error_code(threads::errc::lease_lost));
    BOOST_TEST((co_await s.load_items("t")).value().size() == 3u);
    auto const stale = events("r", 3, 3);
    auto foreign_end = co_await s.finish_run("r", "replica-b", stale.events, threads::run_status::failed, nullptr);
    BOOST_TEST(!foreign_end);
    BOOST_TEST((co_await s.events_after("r", 0, 10)).value().size() == 2u);

    // The last events and the end together.
    (co_await s.finish_run("r", "replica-a", stale.events, threads::run_status::completed, nullptr)).value();
    run = (co_await s.find_run("r", "")).value();
    BOOST_TEST(run->status == threads::run_status::completed);
    BOOST_TEST(run->lease_holder.empty());
    BOOST_TEST(run->last_event_id == 3);
    BOOST_TEST((co_await s.events_after("r", 2, 10)).value().at(0).data == R"({"content": "3"})"sv);
    auto twice = co_await s.finish_run("r", "replica-a", none, threads::run_status::failed, nullptr);
    BOOST_TEST(!twice);
    // The thread is free again, and the next run sees all of it.
    auto next = (co_await s.start_run(run_of("r-next", "t", "replica-a"))).value();
    BOOST_REQUIRE(next.size() == 4u);
    for(std::size_t i = 0; i < next.size(); ++i)
        BOOST_TEST(next[i].seq == static_cast<std::int64_t>(i + 1));
    BOOST_TEST(same(next[2].message, tool_results()));
    BOOST_TEST(next[3].run_id == "r-next"sv);
    BOOST_TEST((co_await s.latest_run("t", "")).value()->id == "r-next"sv);

    // Deleting the thread takes its runs and journals.
    BOOST_TEST((co_await s.delete_thread("t", "")).value());
    BOOST_TEST(!(co_await s.find_run("r", "")).value());
}

asio::awaitable<void> a_run_can_start_its_thread(threads::thread_store& s)
{
    auto r = run_of("r", "t", "a");
    r.owner = "ana";
    r.new_thread = thread("ignored", "ignored too"); // the run names the thread
    r.new_thread->title = "Proyectos";
    auto items = (co_await s.start_run(r)).value();
    BOOST_REQUIRE(items.size() == 1u);
    BOOST_TEST(items[0].seq == 1);
    BOOST_TEST(items[0].message.text() == "¿Cuántos proyectos hay?"sv);
    auto found = (co_await s.find_thread("t", "ana")).value();
    BOOST_REQUIRE(found);
    BOOST_TEST(found->title == "Proyectos"sv);
    BOOST_TEST(found->metadata.at("lang").as_string() == "es"sv);
    BOOST_TEST((co_await s.find_run("r", "ana")).value()->status == threads::run_status::running);
    BOOST_TEST((co_await s.load_items("t")).value().size() == 1u);

    // A thread that exists already is not created twice: nothing is written.
    auto again = run_of("r2", "t", "a");
    again.new_thread = thread("t");
    BOOST_TEST(!(co_await s.start_run(again)));
    BOOST_TEST(!(co_await s.find_run("r2", "")).value());
    BOOST_TEST((co_await s.load_items("t")).value().size() == 1u);

    // A run on a thread that does not exist.
    auto orphan = co_await s.start_run(run_of("r3", "nope", "a"));
    BOOST_REQUIRE(!orphan);
    BOOST_TEST(orphan.error().code == make_error_code(threads::errc::not_found));
    BOOST_TEST(!(co_await s.find_run("r3", "")).value());
}

asio::awaitable<void> the_journal_has_no_gap_and_no_repeat(threads::thread_store& s)
{
    (co_await s.create_thread(thread("t"))).value();
    (co_await s.create_thread(thread("t2"))).value();
    (co_await s.start_run(run_of("r1", "t", "a"))).value();
    // One run at a time on a thread.
    auto busy = co_await s.start_run(run_of("r2", "t", "a"));
    BOOST_REQUIRE(!busy);
    BOOST_TEST(busy.error().code == make_error_code(threads::errc::thread_busy));
    BOOST_TEST(!(co_await s.find_run("r2", "")).value());
    BOOST_TEST((co_await s.load_items("t")).value().size() == 1u); // its message was not added
    (co_await s.start_run(run_of("r2", "t2", "a"))).value();

    std::vector<threads::run_events> batch{events("r1", 1, 3), events("r2", 1, 1)};
    BOOST_TEST((co_await s.append_events("a", batch)).value().empty());
    std::vector<threads::run_events> more{events("r1", 4, 5)};
    BOOST_TEST((co_await s.append_events("a", more)).value().empty());

    // A repeat, a gap, and another holder are each refused, and change nothing.
    using attempt = std::pair<std::string, threads::run_events>;
    for(auto const& bad :
        {attempt{"a", events("r1", 5, 6)}, attempt{"a", events("r1", 7, 7)}, attempt{"b", events("r1", 6, 6)}})
    {
        auto const& holder = bad.first;
        std::vector<threads::run_events> one{bad.second};
        auto refused = (co_await s.append_events(holder, one)).value();
        BOOST_REQUIRE(refused.size() == 1u);
        BOOST_TEST(refused[0] == "r1"sv);
    }
    auto all = (co_await s.events_after("r1", 0, 100)).value();
    BOOST_REQUIRE(all.size() == 5u);
    for(std::size_t i = 0; i < all.size(); ++i)
        BOOST_TEST(all[i].id == static_cast<std::int64_t>(i + 1));
    BOOST_TEST(all[2].data == R"({"content": "3"})"sv);
    BOOST_TEST(all[2].type == "chunk"sv);
    auto page = (co_await s.events_after("r1", 2, 2)).value();
    BOOST_REQUIRE(page.size() == 2u);
    BOOST_TEST(page[0].id == 3);
    BOOST_TEST(page[1].id == 4);
    BOOST_TEST((co_await s.events_after("r1", 5, 10)).value().empty());
    BOOST_TEST((co_await s.find_run("r1", "")).value()->last_event_id == 5);
    BOOST_TEST((co_await s.events_after("r2", 0, 10)).value().size() == 1u);
}

asio::awaitable<void> readers_wake_when_events_commit(threads::thread_store& s)
{
    using namespace asio::experimental::awaitable_operators;
    (co_await s.create_thread(thread("t"))).value();
    (co_await s.start_run(run_of("r", "t", "a"))).value();
    auto const ex = co_await asio::this_coro::executor;
    auto const started = std::chrono::steady_clock::now();
    auto writer = [&]() -> asio::awaitable<void> {
        asio::steady_timer t(ex, std::chrono::milliseconds(50));
        co_await t.async_wait(asio::use_awaitable);
        std::vector<threads::run_events> b{events("r", 1, 1)};
        (co_await s.append_events("a", b)).value();
    };
    co_await (s.hub().wait("r", 0, std::chrono::seconds(10)) && writer());
    BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(5)));
    BOOST_TEST((co_await s.events_after("r", 0, 10)).value().size() == 1u);
    // Already past: returns at once.
    co_await s.hub().wait("r", 0, std::chrono::seconds(10));
    BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(5)));
    BOOST_TEST(s.hub().waiting_runs() == 0u);
}

asio::awaitable<void> an_expired_lease_is_taken_over_once(threads::thread_store& s)
{
    (co_await s.create_thread(thread("t"))).value();
    (co_await s.create_thread(thread("t2"))).value();
    (co_await s.start_run(run_of("dies", "t", "a", std::chrono::milliseconds(200)))).value();
    (co_await s.start_run(run_of("lives", "t2", "a", std::chrono::milliseconds(200)))).value();
    BOOST_TEST(!(co_await s.claim_expired_run("b", std::chrono::seconds(30))).value());

    // "a" keeps one of its runs alive; the other expires.
    asio::steady_timer t(co_await asio::this_coro::executor, std::chrono::milliseconds(100));
    co_await t.async_wait(asio::use_awaitable);
    std::vector<std::string> const mine{"lives", "unknown"};
    auto held = (co_await s.renew_leases("a", mine, std::chrono::seconds(30))).value();
    BOOST_REQUIRE(held.size() == 1u);
    BOOST_TEST(held[0].run_id == "lives"sv);
    BOOST_TEST(!held[0].cancel_requested);
    t.expires_after(std::chrono::milliseconds(200));
    co_await t.async_wait(asio::use_awaitable);

    auto taken = (co_await s.claim_expired_run("b", std::chrono::seconds(30))).value();
    BOOST_REQUIRE(taken);
    BOOST_TEST(taken->id == "dies"sv);
    BOOST_TEST(taken->lease_holder == "b"sv);
    BOOST_TEST(!(co_await s.claim_expired_run("c", std::chrono::seconds(30))).value());

    // The old holder is fenced off; the new one continues the journal.
    std::vector<threads::run_events> stale{events("dies", 1, 1)};
    BOOST_TEST((co_await s.append_events("a", stale)).value().size() == 1u);
    BOOST_TEST((co_await s.append_events("b", stale)).value().empty());
    std::vector<std::string> const dead{"dies"};
    auto renewed = (co_await s.renew_leases("a", dead, std::chrono::seconds(30))).value();
    BOOST_TEST(renewed.empty());
}

asio::awaitable<void> a_waiting_run_is_resumed_once(threads::thread_store& s)
{
    (co_await s.create_thread(thread("t", "ana"))).value();
    auto r = run_of("r", "t", "a");
    r.owner = "ana";
    (co_await s.start_run(r)).value();
    json::object pending;
    pending["pending"] = "toolu_1";
    std::span<threads::event_record const> const none;
    (co_await s.suspend_run("r", "a", none, pending)).value();
    auto run = (co_await s.find_run("r", "ana")).value();
    BOOST_TEST(run->status == threads::run_status::waiting);
    BOOST_TEST(run->lease_holder.empty());
    // A waiting run has no lease to expire.
    BOOST_TEST(!(co_await s.claim_expired_run("b", std::chrono::seconds(1))).value());
    // A decision recorded while the run waits: compare-and-set on the state.
    json::object decided = pending;
    json::object decisions;
    decisions["toolu_1"] = true;
    decided["decisions"] = decisions;
    BOOST_TEST(!(co_await s.update_waiting_state("r", "ana", decided, decided)).value()); // not the current state
    BOOST_TEST(!(co_await s.update_waiting_state("r", "luis", pending, decided)).value());
    BOOST_TEST((co_await s.update_waiting_state("r", "ana", pending, decided)).value());
    BOOST_TEST((co_await s.find_run("r", "ana")).value()->state.at("decisions").at("toolu_1").as_bool());
    BOOST_TEST(!(co_await s.claim_waiting_run("r", "luis", "b", std::chrono::seconds(30))).value());
    auto claimed = (co_await s.claim_waiting_run("r", "ana", "b", std::chrono::seconds(30))).value();
    BOOST_REQUIRE(claimed);
    BOOST_TEST(claimed->state.at("pending").as_string() == "toolu_1"sv);
    BOOST_TEST(claimed->state.as_object().contains("decisions"));
    BOOST_TEST(claimed->status == threads::run_status::running);
    BOOST_TEST(!(co_await s.claim_waiting_run("r", "ana", "c", std::chrono::seconds(30))).value());
    BOOST_TEST(!(co_await s.update_waiting_state("r", "ana", decided, pending)).value()); // running now
}

asio::awaitable<void> a_cancel_request_reaches_the_holder(threads::thread_store& s)
{
    (co_await s.create_thread(thread("t", "ana"))).value();
    auto r = run_of("r", "t", "a");
    r.owner = "ana";
    (co_await s.start_run(r)).value();
    std::vector<std::string> const mine{"r"};
    auto held = (co_await s.renew_leases("a", mine, std::chrono::seconds(30))).value();
    BOOST_REQUIRE(held.size() == 1u);
    BOOST_TEST(!held[0].cancel_requested);
    BOOST_TEST(!(co_await s.request_cancel("r", "luis")).value()); // another owner's: not found
    BOOST_TEST(!(co_await s.request_cancel("nope", "ana")).value());
    BOOST_TEST((co_await s.request_cancel("r", "ana")).value());
    held = (co_await s.renew_leases("a", mine, std::chrono::seconds(30))).value();
    BOOST_REQUIRE(held.size() == 1u);
    BOOST_TEST(held[0].cancel_requested);
    std::span<threads::event_record const> const none;
    (co_await s.finish_run("r", "a", none, threads::run_status::cancelled, nullptr)).value();
    BOOST_TEST(!(co_await s.request_cancel("r", "ana")).value()); // over
}

asio::awaitable<void> retention_removes_old_threads(threads::thread_store& s)
{
    auto old = thread("old", "ana");
    old.created_at = old.updated_at = threads::now() - std::chrono::hours(24 * 40);
    (co_await s.create_thread(old)).value();
    for(auto id : {"a1", "a2", "a3"})
        (co_await s.create_thread(thread(id, "ana"))).value();
    (co_await s.create_thread(thread("l1", "luis"))).value();
    threads::retention by_age{.max_age = std::chrono::hours(24 * 30), .max_threads_per_owner = {}};
    BOOST_TEST((co_await s.apply_retention(by_age)).value() == 1u);
    BOOST_TEST(!(co_await s.find_thread("old", "ana")).value());
    threads::retention by_count{.max_age = {}, .max_threads_per_owner = 2};
    BOOST_TEST((co_await s.apply_retention(by_count)).value() == 1u);
    BOOST_TEST((co_await s.list_threads("ana", 10)).value().size() == 2u);
    BOOST_TEST((co_await s.list_threads("luis", 10)).value().size() == 1u);
}

// Many runs journaling at once from concurrent coroutines: every id lands once.
asio::awaitable<void> concurrent_runs_journal_exactly(threads::thread_store& s)
{
    using namespace asio::experimental::awaitable_operators;
    constexpr int runs = 8;
    constexpr int per_run = 40;
    for(int r = 0; r < runs; ++r)
    {
        (co_await s.create_thread(thread("t" + std::to_string(r)))).value();
        (co_await s.start_run(run_of("r" + std::to_string(r), "t" + std::to_string(r), "a"))).value();
    }
    auto writer = [&](int r) -> asio::awaitable<void> {
        for(int id = 1; id <= per_run; ++id)
        {
            std::vector<threads::run_events> one{events("r" + std::to_string(r), id, id)};
            BOOST_TEST((co_await s.append_events("a", one)).value().empty());
        }
    };
    co_await (writer(0) && writer(1) && writer(2) && writer(3) && writer(4) && writer(5) && writer(6) && writer(7));
    for(int r = 0; r < runs; ++r)
    {
        auto all = (co_await s.events_after("r" + std::to_string(r), 0, 1000)).value();
        BOOST_TEST(all.size() == static_cast<std::size_t>(per_run));
        BOOST_TEST(all.back().id == per_run);
    }
}

// --- conversation turns (threads/turn.hpp) -------------------------------------

asio::awaitable<void> sleep_for(std::chrono::milliseconds d)
{
    asio::steady_timer t(co_await asio::this_coro::executor, d);
    co_await t.async_wait(asio::use_awaitable);
}

threads::turn_request turn_on(std::string thread_id, std::string owner, std::string question)
{
    return {.thread_id = std::move(thread_id),
        .owner = std::move(owner),
        .create = true,
        .agent = "facturas",
        .title = threads::make_title(question),
        .metadata = {},
        .messages = {llm::message::user(std::move(question))}};
}

// An owner's runs, the most recently changed first, by thread, turns only, and paged: what lists a user's tasks
// across processes.
asio::awaitable<void> runs_are_listed_by_owner_latest_first(threads::thread_store& s)
{
    struct turn_of
    {
        char const* run;
        char const* thread;
        char const* owner;
    };
    // (Pushed one by one: GCC 12 cannot keep an initializer list's array in a coroutine.)
    std::vector<turn_of> asked;
    asked.push_back({"lr-1", "l1", "ana"});
    asked.push_back({"lr-2", "l2", "ana"});
    asked.push_back({"lr-3", "l1", "ana"});
    asked.push_back({"lr-4", "l3", "bea"});
    for(auto const& t : asked)
    {
        auto request = turn_on(t.thread, t.owner, "Hola");
        request.run_id = t.run;
        auto turn = co_await threads::begin_turn(s, request);
        BOOST_REQUIRE(turn);
        std::vector<llm::message> const answer{llm::message::assistant("Hola.")};
        (co_await turn->finish(answer)).value();
        co_await sleep_for(std::chrono::milliseconds(5)); // each changed at its own millisecond
    }
    // A run manager's run of ana's, on her thread l2: a run, but not a turn.
    auto durable = run_of("lr-durable", "l2", "replica");
    durable.owner = "ana";
    (co_await s.start_run(durable)).value();

    // The ids in order, one string (GCC 12 cannot keep an initializer list's array in a coroutine).
    auto const ids = [](std::vector<threads::run_info> const& runs) {
        std::string out;
        for(auto const& r : runs)
            out.append(out.empty() ? "" : " ").append(r.id);
        return out;
    };
    // Each listing named: the store reads it while the call is awaited.
    threads::run_listing const everything;
    auto const all = (co_await s.list_runs("ana", everything)).value();
    BOOST_TEST((ids(all) == "lr-durable lr-3 lr-2 lr-1"));
    BOOST_TEST(all[1].thread_id == "l1"sv);
    BOOST_TEST(all[1].owner == "ana"sv);
    BOOST_TEST(all[1].status == threads::run_status::completed);
    threads::run_listing const turns_only{.thread_id = {}, .turns_only = true, .limit = 100, .after = {}};
    auto const turns = (co_await s.list_runs("ana", turns_only)).value();
    BOOST_TEST((ids(turns) == "lr-3 lr-2 lr-1"));
    threads::run_listing const of_l1{.thread_id = "l1", .turns_only = false, .limit = 100, .after = {}};
    auto const on_l1 = (co_await s.list_runs("ana", of_l1)).value();
    BOOST_TEST((ids(on_l1) == "lr-3 lr-1"));
    // Pages: one more than the limit says that more follow; the next page starts after the last id.
    threads::run_listing const page_one{.thread_id = {}, .turns_only = true, .limit = 2, .after = {}};
    auto const first = (co_await s.list_runs("ana", page_one)).value();
    BOOST_TEST((ids(first) == "lr-3 lr-2 lr-1"));
    threads::run_listing const page_two{.thread_id = {}, .turns_only = true, .limit = 2, .after = "lr-2"};
    auto const second = (co_await s.list_runs("ana", page_two)).value();
    BOOST_TEST((ids(second) == "lr-1"));
    // Another owner's run is no place in the list, and its runs are not listed.
    threads::run_listing const after_theirs{.thread_id = {}, .turns_only = false, .limit = 10, .after = "lr-4"};
    BOOST_TEST((co_await s.list_runs("ana", after_theirs)).value().empty());
    BOOST_TEST((ids((co_await s.list_runs("bea", everything)).value()) == "lr-4"));
    BOOST_TEST((co_await s.list_runs("nadie", everything)).value().empty());
}

asio::awaitable<void> a_turn_holds_its_thread_until_it_finishes(threads::thread_store& s)
{
    auto first = co_await threads::begin_turn(s, turn_on("c1", "ana", "¿Cuántas facturas hay?"));
    BOOST_REQUIRE(first);
    BOOST_TEST(first->created_thread());
    BOOST_TEST(first->thread().title == "¿Cuántas facturas hay?"sv);
    BOOST_REQUIRE(first->history().size() == 1u);
    BOOST_TEST(first->history()[0].message.text() == "¿Cuántas facturas hay?"sv);
    BOOST_TEST(first->history()[0].run_id == first->run_id());

    // A second message waits its turn; another owner does not see the thread at all.
    auto second = co_await threads::begin_turn(s, turn_on("c1", "ana", "¿Y en 2010?"));
    BOOST_REQUIRE(!second);
    BOOST_TEST(second.error().code == make_error_code(threads::errc::thread_busy));
    auto other = co_await threads::begin_turn(s, turn_on("c1", "bea", "¿Es mío?"));
    BOOST_REQUIRE(!other);
    BOOST_TEST(other.error().code == make_error_code(threads::errc::not_found));
    // Nor does a run manager: a turn is never taken over.
    BOOST_TEST(!(co_await s.claim_expired_run("b", std::chrono::seconds(30))).value());

    std::vector<llm::message> const answer{llm::message::assistant("412 facturas.")};
    (co_await first->finish(answer)).value();
    BOOST_TEST(first->finished());
    (co_await first->finish(answer)).value(); // twice: nothing more
    auto done = (co_await s.find_run(first->run_id(), "ana")).value();
    BOOST_REQUIRE(done);
    BOOST_TEST(done->status == threads::run_status::completed);

    auto third = co_await threads::begin_turn(s, turn_on("c1", "ana", "¿Y en 2010?"));
    BOOST_REQUIRE(third);
    BOOST_TEST(!third->created_thread());
    BOOST_TEST(third->thread().title == "¿Cuántas facturas hay?"sv);
    BOOST_REQUIRE(third->history().size() == 3u);
    BOOST_TEST(third->history()[1].message.text() == "412 facturas."sv);
    BOOST_TEST(third->history()[2].message.text() == "¿Y en 2010?"sv);
    std::vector<llm::message> const more{llm::message::assistant("Dos.")};
    (co_await third->append(more)).value();
    (co_await third->finish({}, threads::run_status::failed)).value();
    BOOST_TEST((co_await third->append(more)).error().code == make_error_code(threads::errc::lease_lost));
    BOOST_TEST((co_await s.load_items("c1")).value().size() == 4u);
    BOOST_TEST((co_await s.find_run(third->run_id(), "ana")).value()->status == threads::run_status::failed);

    // Without `create`, a missing thread is not found; without an id, a new one is made.
    auto request = turn_on("missing", "ana", "Hola");
    request.create = false;
    auto missing = co_await threads::begin_turn(s, request);
    BOOST_REQUIRE(!missing);
    BOOST_TEST(missing.error().code == make_error_code(threads::errc::not_found));
    BOOST_TEST(!(co_await s.find_thread("missing", "ana")).value());
    auto fresh = co_await threads::begin_turn(s, turn_on("", "ana", "Hola"));
    BOOST_REQUIRE(fresh);
    BOOST_TEST(fresh->thread().id.size() == 36u);
    BOOST_TEST((co_await s.find_thread(fresh->thread().id, "ana")).value().has_value());
    (co_await fresh->finish({})).value();
}

asio::awaitable<void> a_turn_whose_process_died_frees_its_thread(threads::thread_store& s)
{
    // A turn's run, left behind by a process that died: nothing renews its lease.
    (co_await s.create_thread(thread("t"))).value();
    auto dead = run_of("dead", "t", "turn:dead", std::chrono::milliseconds(150));
    dead.kind = threads::run_kind::turn;
    (co_await s.start_run(dead)).value();
    // A durable run in the same state is another matter: it is taken over.
    (co_await s.create_thread(thread("d"))).value();
    (co_await s.start_run(run_of("durable", "d", "a", std::chrono::milliseconds(150)))).value();

    auto early = co_await threads::begin_turn(s, turn_on("t", "", "¿Sigues?"));
    BOOST_REQUIRE(!early);
    BOOST_TEST(early.error().code == make_error_code(threads::errc::thread_busy));
    co_await sleep_for(std::chrono::milliseconds(300));

    auto taken = (co_await s.claim_expired_run("b", std::chrono::seconds(30))).value();
    BOOST_REQUIRE(taken);
    BOOST_TEST(taken->id == "durable"sv);
    BOOST_TEST(!(co_await s.claim_expired_run("b", std::chrono::seconds(30))).value());
    auto on_durable = co_await threads::begin_turn(s, turn_on("d", "", "¿Sigues?"));
    BOOST_REQUIRE(!on_durable);
    BOOST_TEST(on_durable.error().code == make_error_code(threads::errc::thread_busy));

    auto next = co_await threads::begin_turn(s, turn_on("t", "", "¿Sigues?"));
    BOOST_REQUIRE(next);
    BOOST_TEST((co_await s.find_run("dead", "")).value()->status == threads::run_status::failed);
    // The dead turn's holder is fenced off.
    std::vector<llm::message> const late{llm::message::assistant("tarde")};
    BOOST_TEST((co_await s.finish_run("dead", "turn:dead", {}, threads::run_status::completed, nullptr)).error().code ==
        make_error_code(threads::errc::lease_lost));
    (co_await next->finish(late)).value();
}

asio::awaitable<void> a_turn_keeps_its_thread_while_it_runs(threads::thread_store& s)
{
    auto t = co_await threads::begin_turn(s, turn_on("long", "", "Una pregunta larga"), {.lease = 300ms});
    BOOST_REQUIRE(t);
    co_await sleep_for(800ms); // past two leases: renewed meanwhile
    auto second = co_await threads::begin_turn(s, turn_on("long", "", "¿Ya?"));
    BOOST_REQUIRE(!second);
    BOOST_TEST(second.error().code == make_error_code(threads::errc::thread_busy));
    (co_await t->finish({})).value();
}

asio::awaitable<void> a_turn_dropped_unfinished_ends_cancelled(threads::thread_store& s)
{
    std::string run_id;
    {
        auto t = co_await threads::begin_turn(s, turn_on("dropped", "", "Hola"));
        BOOST_REQUIRE(t);
        run_id = t->run_id();
        auto moved = std::move(*t); // the moved-from turn owns nothing
    }
    for(int i = 0; i < 50; ++i)
    {
        auto run = (co_await s.find_run(run_id, "")).value();
        if(run && run->status != threads::run_status::running)
            break;
        co_await sleep_for(20ms);
    }
    BOOST_TEST((co_await s.find_run(run_id, "")).value()->status == threads::run_status::cancelled);
    auto next = co_await threads::begin_turn(s, turn_on("dropped", "", "Otra vez"));
    BOOST_REQUIRE(next);
    BOOST_TEST(next->history().size() == 2u); // the first question stayed
    (co_await next->finish({})).value();
}

asio::awaitable<void> a_summary_stands_for_the_first_messages(threads::thread_store& s)
{
    (co_await s.create_thread(thread("c"))).value();
    std::vector<llm::message> six;
    for(int i = 0; i < 3; ++i)
    {
        six.push_back(llm::message::user("Pregunta " + std::to_string(i)));
        six.push_back(llm::message::assistant("Respuesta " + std::to_string(i)));
    }
    (co_await s.append_messages("c", six)).value();
    BOOST_TEST(!(co_await s.latest_summary("c")).value());

    auto const first = (co_await s.save_summary("c", 4, "resumen hasta 4")).value();
    BOOST_TEST(first.through_seq == 4);
    BOOST_TEST(first.text == "resumen hasta 4"sv);
    BOOST_TEST(first.created_at.time_since_epoch().count() > 0);
    // One standing for less, or for as much, changes nothing: the kept one comes back.
    auto const older = (co_await s.save_summary("c", 2, "otro")).value();
    BOOST_TEST(older.text == "resumen hasta 4"sv);
    auto const again = (co_await s.save_summary("c", 4, "repetido")).value();
    BOOST_TEST(again.text == "resumen hasta 4"sv);
    auto const further = (co_await s.save_summary("c", 6, "resumen hasta 6")).value();
    BOOST_TEST(further.through_seq == 6);
    auto const latest = (co_await s.latest_summary("c")).value();
    BOOST_TEST(latest->text == "resumen hasta 6"sv);
    // The messages stay as they were.
    auto const items = (co_await s.load_items("c")).value();
    BOOST_REQUIRE(items.size() == 6u);
    for(std::size_t i = 0; i < items.size(); ++i)
        BOOST_TEST(same(items[i].message, six[i]));
    // Beyond the thread, or no thread: not found.
    auto const beyond = co_await s.save_summary("c", 9, "x");
    BOOST_REQUIRE(!beyond);
    BOOST_TEST(beyond.error().code == make_error_code(threads::errc::not_found));
    auto const nowhere = co_await s.save_summary("nope", 1, "x");
    BOOST_REQUIRE(!nowhere);
    BOOST_TEST(nowhere.error().code == make_error_code(threads::errc::not_found));

    // Two writers of the same compaction at once: one summary, the same for both.
    (co_await s.create_thread(thread("d"))).value();
    (co_await s.append_messages("d", six)).value();
    using namespace asio::experimental::awaitable_operators;
    auto const both = co_await (s.save_summary("d", 4, "de A") && s.save_summary("d", 4, "de B"));
    auto const from_a = std::get<0>(both).value();
    auto const from_b = std::get<1>(both).value();
    BOOST_TEST(from_a.text == from_b.text);
    auto const kept = (co_await s.latest_summary("d")).value();
    BOOST_TEST(kept->text == from_a.text);

    // A turn gives it to its run, as standing for its history's first messages, and keeps the next one.
    auto t = co_await threads::begin_turn(s, turn_on("c", "", "¿Y ahora?"));
    BOOST_REQUIRE(t);
    BOOST_REQUIRE(t->history().size() == 7u);
    auto const given = t->summary();
    BOOST_REQUIRE(given.has_value());
    BOOST_TEST(given->covers == 6u);
    BOOST_TEST(given->text == "resumen hasta 6"sv);
    // Named, not braced in the co_await: GCC 12 destroys such a temporary twice.
    llm::conversation_summary const seventh{"resumen hasta 7", 7};
    (co_await t->save_summary(seventh)).value();
    BOOST_TEST(t->summary()->covers == 7u);
    llm::conversation_summary const beyond_history{"más allá", 8};
    auto const too_far = co_await t->save_summary(beyond_history);
    BOOST_TEST(!too_far);
    (co_await t->finish({})).value();
    auto const after_turn = (co_await s.latest_summary("c")).value();
    BOOST_TEST(after_turn->through_seq == 7);

    // Deleting the thread deletes its summaries.
    BOOST_TEST((co_await s.delete_thread("c", "")).value());
    auto const gone = (co_await s.latest_summary("c")).value();
    BOOST_TEST(!gone);
}

// A run admitted with a question of its own, and a policy for a busy thread.
threads::new_run queued_run(std::string id, std::string thread_id, std::string question, threads::busy_policy policy,
    threads::run_kind kind = threads::run_kind::durable, std::string holder = {},
    std::chrono::milliseconds lease = std::chrono::seconds(30))
{
    auto r = run_of(std::move(id), std::move(thread_id), std::move(holder), lease);
    r.messages = {llm::message::user(std::move(question))};
    r.when_busy = policy;
    r.kind = kind;
    return r;
}

asio::awaitable<void> a_busy_thread_keeps_its_line_in_order(threads::thread_store& s)
{
    using threads::busy_policy;
    (co_await s.create_thread(thread("q"))).value();
    std::span<threads::event_record const> const none;
    auto const first = (co_await s.admit_run(queued_run("a", "q", "primera", busy_policy::enqueue, {}, "p1"))).value();
    BOOST_TEST(first.status == threads::run_status::running); // a free thread: it starts at once
    BOOST_REQUIRE(first.items.size() == 1u);
    auto const b = (co_await s.admit_run(queued_run("b", "q", "segunda", busy_policy::enqueue))).value();
    BOOST_TEST(b.status == threads::run_status::queued);
    BOOST_TEST(b.ahead == 1u);
    BOOST_TEST(b.items.empty());
    auto const c = (co_await s.admit_run(queued_run("c", "q", "tercera", busy_policy::enqueue))).value();
    BOOST_TEST(c.ahead == 2u);
    // Refused while anyone is in line, even by the plain start.
    auto const refused = co_await s.admit_run(queued_run("x", "q", "no", busy_policy::reject));
    BOOST_REQUIRE(!refused);
    BOOST_TEST(refused.error().code == make_error_code(threads::errc::thread_busy));
    BOOST_TEST((co_await s.find_run("b", "")).value()->status == threads::run_status::queued);
    BOOST_TEST((co_await s.load_items("q")).value().size() == 1u); // queued messages wait aside

    // Nobody's turn while the first runs.
    BOOST_TEST(!(co_await s.claim_queued_run("b", "p2", 30s)).value());
    BOOST_TEST(!(co_await s.claim_queued_run("", "p2", 30s)).value());
    (co_await s.finish_run("a", "p1", none, threads::run_status::completed, nullptr)).value();
    // The thread is free, and the line keeps its order: c waits behind b.
    BOOST_TEST(!(co_await s.claim_queued_run("c", "p2", 30s)).value());
    BOOST_TEST(!(co_await s.admit_run(queued_run("y", "q", "no", busy_policy::reject))));
    auto const started = (co_await s.claim_queued_run("", "p2", 30s)).value();
    BOOST_REQUIRE(started);
    BOOST_TEST(started->run.id == "b"sv);
    BOOST_TEST(started->run.status == threads::run_status::running);
    BOOST_TEST(started->run.lease_holder == "p2"sv);
    BOOST_REQUIRE(started->items.size() == 2u);
    BOOST_TEST(started->items.back().run_id == "b"sv);
    BOOST_TEST(same(started->items.back().message, llm::message::user("segunda")));
    BOOST_TEST(!(co_await s.claim_queued_run("", "p3", 30s)).value()); // b holds it now

    // A queued run cancelled leaves the line at once.
    BOOST_TEST((co_await s.request_cancel("c", "")).value());
    BOOST_TEST((co_await s.find_run("c", "")).value()->status == threads::run_status::cancelled);
    auto const gone = co_await s.claim_queued_run("c", "p2", 30s);
    BOOST_REQUIRE(!gone);
    BOOST_TEST(gone.error().code == make_error_code(threads::errc::not_found));

    // Interrupting: b is asked to stop, and e is next.
    auto const e = (co_await s.admit_run(queued_run("e", "q", "para", busy_policy::interrupt))).value();
    BOOST_TEST(e.status == threads::run_status::queued);
    BOOST_TEST(e.interrupted_run == "b"sv);
    std::vector<std::string> const b_only{"b"};
    auto held = (co_await s.renew_leases("p2", b_only, 30s)).value();
    BOOST_REQUIRE(held.size() == 1u);
    BOOST_TEST(held[0].cancel_requested);
    (co_await s.finish_run("b", "p2", none, threads::run_status::cancelled, nullptr)).value();
    auto const next = (co_await s.claim_queued_run("e", "p1", 30s)).value();
    BOOST_REQUIRE(next);
    BOOST_TEST(next->items.size() == 3u); // what b was asked stayed, e's question follows

    // A turn in line keeps its place while its lease is renewed; one whose
    // process died leaves the line, and the one behind it goes first.
    auto const t1 = (co_await s.admit_run(queued_run("t1", "q", "turno 1", busy_policy::enqueue,
                         threads::run_kind::turn, "w1", 200ms)))
                        .value();
    BOOST_TEST(t1.status == threads::run_status::queued);
    auto const t2 = (co_await s.admit_run(queued_run("t2", "q", "turno 2", busy_policy::enqueue,
                         threads::run_kind::turn, "w2", 200ms)))
                        .value();
    BOOST_TEST(t2.ahead == 2u);
    std::vector<std::string> const t2_only{"t2"};
    for(int i = 0; i < 4; ++i)
    {
        co_await sleep_for(100ms);
        BOOST_TEST((co_await s.renew_leases("w2", t2_only, 200ms)).value().size() == 1u);
    }
    (co_await s.finish_run("e", "p1", none, threads::run_status::completed, nullptr)).value();
    auto const dead = co_await s.claim_queued_run("t1", "w1", 200ms);
    BOOST_REQUIRE(!dead);
    BOOST_TEST(dead.error().code == make_error_code(threads::errc::not_found));
    BOOST_TEST((co_await s.find_run("t1", "")).value()->status == threads::run_status::failed);
    auto const turn = (co_await s.claim_queued_run("t2", "w2", 30s)).value();
    BOOST_REQUIRE(turn);
    BOOST_TEST(turn->items.back().run_id == "t2"sv);
    // A run manager's loop does not start turns: they start themselves.
    BOOST_TEST(!(co_await s.claim_queued_run("", "p1", 30s)).value());
    (co_await s.finish_run("t2", "w2", none, threads::run_status::completed, nullptr)).value();
    auto const items = (co_await s.load_items("q")).value();
    std::vector<std::string> order;
    for(auto const& i : items)
        order.push_back(i.run_id);
    std::vector<std::string> const expected{"a", "b", "e", "t2"};
    BOOST_TEST(order == expected, boost::test_tools::per_element());

    // A new thread is never busy; a missing one is not found, whatever the policy.
    auto const missing = co_await s.admit_run(queued_run("m", "nope", "hola", busy_policy::enqueue));
    BOOST_REQUIRE(!missing);
    BOOST_TEST(missing.error().code == make_error_code(threads::errc::not_found));
}

asio::awaitable<void> turns_wait_in_line_or_interrupt(threads::thread_store& s)
{
    using namespace asio::experimental::awaitable_operators;
    auto const ex = co_await asio::this_coro::executor;
    threads::turn_options const quick{.lease = 3s, .check_every = 50ms, .max_wait = 5s, .line_poll = 10ms};
    auto first = co_await threads::begin_turn(s, turn_on("w", "ana", "uno"), quick);
    BOOST_REQUIRE(first);
    BOOST_TEST(first->waited_behind() == 0u);

    // A second message waits in line until the first turn ends, then reads it.
    auto second_request = turn_on("w", "ana", "dos");
    second_request.when_busy = threads::busy_policy::enqueue;
    std::optional<threads::turn> second;
    bool second_began = false;
    auto waiting = asio::co_spawn(
        ex,
        [&]() -> asio::awaitable<void> {
            auto t = co_await threads::begin_turn(s, second_request, quick);
            BOOST_REQUIRE(t);
            second.emplace(std::move(*t));
            second_began = true;
        },
        asio::use_awaitable);
    auto watching = asio::co_spawn(
        ex,
        [&]() -> asio::awaitable<void> {
            co_await sleep_for(300ms);
            BOOST_TEST(!second_began);                  // still in line
            BOOST_TEST(threads::turns_waiting() == 1u); // the gauge agentio_agent_runs_queued
            // A refusing message is refused while someone waits, even one from another owner's view.
            auto refused = co_await threads::begin_turn(s, turn_on("w", "ana", "no"), quick);
            BOOST_REQUIRE(!refused);
            BOOST_TEST(refused.error().code == make_error_code(threads::errc::thread_busy));
            std::vector<llm::message> const answer{llm::message::assistant("r1")};
            (co_await first->finish(answer)).value();
        },
        asio::use_awaitable);
    co_await (std::move(waiting) && std::move(watching));
    BOOST_REQUIRE(second_began);
    BOOST_TEST(threads::turns_waiting() == 0u);
    BOOST_TEST(second->waited_behind() == 1u);
    BOOST_REQUIRE(second->history().size() == 3u);
    BOOST_TEST(same(second->history()[1].message, llm::message::assistant("r1")));
    BOOST_TEST(same(second->history()[2].message, llm::message::user("dos")));

    // A third interrupts it: the run bound to the turn's slot is cancelled
    // (here a long wait standing for the agent), what it had said stays, and
    // the third continues after it.
    asio::steady_timer agent_work(ex, 60s);
    auto agent_run = asio::co_spawn(
        ex,
        [&]() -> asio::awaitable<void> {
            auto [ec] = co_await agent_work.async_wait(asio::bind_cancellation_slot(second->interruption_slot(ex),
                asio::as_tuple(asio::use_awaitable)));
            BOOST_TEST(ec == asio::error::operation_aborted);
            BOOST_TEST(second->interrupted());
            std::vector<llm::message> const partial{llm::message::assistant("parcial")};
            (co_await second->finish(partial, threads::run_status::cancelled)).value();
        },
        asio::use_awaitable);
    auto third_request = turn_on("w", "ana", "tres");
    third_request.when_busy = threads::busy_policy::interrupt;
    auto const started_at = std::chrono::steady_clock::now();
    std::optional<threads::turn> third;
    auto third_begun = asio::co_spawn(
        ex,
        [&]() -> asio::awaitable<void> {
            auto t = co_await threads::begin_turn(s, third_request, quick);
            BOOST_REQUIRE(t);
            third.emplace(std::move(*t));
        },
        asio::use_awaitable);
    co_await (std::move(agent_run) && std::move(third_begun));
    BOOST_REQUIRE(third);
    BOOST_TEST((std::chrono::steady_clock::now() - started_at < 2s));
    BOOST_REQUIRE(third->history().size() == 5u);
    BOOST_TEST(same(third->history()[3].message, llm::message::assistant("parcial")));
    BOOST_TEST(same(third->history()[4].message, llm::message::user("tres")));

    // A message whose request gives up leaves the line; one that waits too long is refused.
    auto impatient_request = turn_on("w", "ana", "me voy");
    impatient_request.when_busy = threads::busy_policy::enqueue;
    std::string left_run;
    asio::steady_timer patience(ex, 200ms);
    bool impatient_began = false;
    auto impatient = [&]() -> asio::awaitable<void> {
        auto t = co_await threads::begin_turn(s, impatient_request, quick);
        impatient_began = t.has_value();
    };
    auto raced = co_await (asio::co_spawn(ex, impatient(), asio::use_awaitable) ||
        patience.async_wait(asio::use_awaitable));
    BOOST_TEST(raced.index() == 1u);
    BOOST_TEST(!impatient_began);
    auto late_request = turn_on("w", "ana", "tarde");
    late_request.when_busy = threads::busy_policy::enqueue;
    threads::turn_options short_wait = quick;
    short_wait.max_wait = 300ms;
    auto late = co_await threads::begin_turn(s, late_request, short_wait);
    BOOST_REQUIRE(!late);
    BOOST_TEST(late.error().code == make_error_code(threads::errc::thread_busy));
    (co_await third->finish({})).value();
    // Neither left anything in the thread, nor anyone in line.
    auto after = co_await threads::begin_turn(s, turn_on("w", "ana", "fin"), quick);
    BOOST_REQUIRE(after);
    BOOST_TEST(after->history().size() == 6u);
    (co_await after->finish({})).value();
}

asio::awaitable<void> tool_calls_are_journaled_around_their_run(threads::thread_store& s)
{
    (co_await s.create_thread(thread("calls"))).value();
    (co_await s.start_run(run_of("r", "calls", "p1"))).value();
    threads::call_record const pay{"call_1", "pagar", json::parse(R"({"importe":12.5})"), 1, 0, false, nullptr};
    threads::call_record const ask{"call_2", "consultar", json::parse(R"({"q":"ñ"})"), 1, 0, false, nullptr};
    (co_await s.call_started("r", "p1", pay)).value();
    (co_await s.call_started("r", "p1", ask)).value();
    json::value const receipt = json::parse(R"({"content":[{"type":"text","text":"pagado"}],"is_error":false})");
    (co_await s.call_finished("r", "p1", "call_2", receipt)).value();
    auto calls = (co_await s.run_calls("r")).value();
    BOOST_REQUIRE(calls.size() == 2u);
    BOOST_TEST(calls[0].call_id == "call_1"sv);
    BOOST_TEST(calls[0].tool == "pagar"sv);
    BOOST_TEST(calls[0].input == pay.input);
    BOOST_TEST(calls[0].round == 1u);
    BOOST_TEST(calls[0].attempts == 1u);
    BOOST_TEST(!calls[0].finished); // in doubt, should the process die now
    BOOST_TEST(calls[0].result.is_null());
    BOOST_TEST(calls[1].finished);
    BOOST_TEST(calls[1].result == receipt);

    // Another process takes the run over: the old holder is fenced off, the
    // new one starts the call in doubt again (a second attempt, its place kept).
    auto const none = std::chrono::milliseconds(1);
    std::vector<std::string> const r_only{"r"};
    (co_await s.renew_leases("p1", r_only, none)).value();
    co_await sleep_for(20ms);
    auto taken = (co_await s.claim_expired_run("p2", 30s)).value();
    BOOST_REQUIRE(taken);
    auto const fenced = co_await s.call_started("r", "p1", pay);
    BOOST_REQUIRE(!fenced);
    BOOST_TEST(fenced.error().code == make_error_code(threads::errc::lease_lost));
    auto const late = co_await s.call_finished("r", "p1", "call_1", receipt);
    BOOST_REQUIRE(!late);
    BOOST_TEST(late.error().code == make_error_code(threads::errc::lease_lost));
    (co_await s.call_started("r", "p2", pay)).value();
    (co_await s.call_finished("r", "p2", "call_1", receipt)).value();
    calls = (co_await s.run_calls("r")).value();
    BOOST_REQUIRE(calls.size() == 2u);
    BOOST_TEST(calls[0].call_id == "call_1"sv);
    BOOST_TEST(calls[0].attempts == 2u);
    BOOST_TEST(calls[0].finished);
    // Over, the run journals nothing more; its calls stay readable.
    std::span<threads::event_record const> const no_events;
    (co_await s.finish_run("r", "p2", no_events, threads::run_status::completed, nullptr)).value();
    BOOST_TEST(!(co_await s.call_started("r", "p2", ask)));
    BOOST_TEST((co_await s.run_calls("r")).value().size() == 2u);
    BOOST_TEST((co_await s.run_calls("nope")).value().empty());
    // Deleting the thread deletes them.
    BOOST_TEST((co_await s.delete_thread("calls", "")).value());
    BOOST_TEST((co_await s.run_calls("r")).value().empty());
}

} // namespace

// Each check on a fresh store of each backend.
threads::file_record file(std::string id, std::string owner, std::string purpose = "user_data")
{
    return {.id = std::move(id),
        .owner = std::move(owner),
        .filename = "ventas.csv",
        .purpose = std::move(purpose),
        .media_type = "text/csv",
        .bytes = 1234,
        .created_at = {},
        .metadata = {{"rows", 10}}};
}

asio::awaitable<void> file_records_are_scoped_by_owner_and_paged(threads::thread_store& s)
{
    asio::steady_timer pause(co_await asio::this_coro::executor);
    for(auto const* id : {"file-1", "file-2", "file-3"})
    {
        auto const record = file(id, "ana");
        (co_await s.save_file(record)).value();
        pause.expires_after(std::chrono::milliseconds(3)); // distinct creation times
        co_await pause.async_wait(asio::use_awaitable);
    }
    auto const other_purpose = file("file-4", "ana", "assistants");
    auto const luis = file("file-5", "luis");
    auto const duplicate = file("file-1", "luis");
    (co_await s.save_file(other_purpose)).value();
    (co_await s.save_file(luis)).value();
    // A duplicate id is refused, not overwritten.
    BOOST_TEST(!(co_await s.save_file(duplicate)));

    auto found = (co_await s.find_file("file-2", "ana")).value();
    BOOST_REQUIRE(found);
    BOOST_TEST(found->filename == "ventas.csv"sv);
    BOOST_TEST(found->media_type == "text/csv"sv);
    BOOST_TEST(found->bytes == 1234u);
    BOOST_TEST(found->metadata.at("rows").as_int64() == 10);
    BOOST_TEST(found->created_at.time_since_epoch().count() > 0);
    BOOST_TEST(!(co_await s.find_file("file-2", "luis")).value()); // another owner's: not found

    auto ids = [](std::vector<threads::file_record> const& files) {
        std::string out;
        for(auto const& f : files)
            out += f.id + " ";
        return out;
    };
    // Named, not braced in the co_await: GCC 12 destroys such temporaries twice.
    threads::file_listing const every{};
    threads::file_listing const data{.purpose = "user_data"};
    threads::file_listing const first_page{.purpose = "user_data", .limit = 1};
    threads::file_listing const second_page{.purpose = "user_data", .limit = 1, .after = "file-3"};
    threads::file_listing const oldest_after{.purpose = "", .limit = 10, .newest_first = false, .after = "file-2"};
    threads::file_listing const after_anothers{.after = "file-5"};
    BOOST_TEST(ids((co_await s.list_files("ana", every)).value()) == "file-4 file-3 file-2 file-1 ");
    BOOST_TEST(ids((co_await s.list_files("ana", data)).value()) == "file-3 file-2 file-1 ");
    // A page: one more than asked tells that more follow.
    BOOST_TEST(ids((co_await s.list_files("ana", first_page)).value()) == "file-3 file-2 ");
    BOOST_TEST(ids((co_await s.list_files("ana", second_page)).value()) == "file-2 file-1 ");
    BOOST_TEST(ids((co_await s.list_files("ana", oldest_after)).value()) == "file-3 file-4 ");
    BOOST_TEST(ids((co_await s.list_files("ana", after_anothers)).value()).empty()); // luis's: no place in ana's

    json::object const processed{{"status", "processed"}}, stolen{{"status", "stolen"}};
    BOOST_TEST((co_await s.update_file_metadata("file-1", "ana", processed)).value());
    BOOST_TEST(!(co_await s.update_file_metadata("file-1", "luis", stolen)).value());
    BOOST_TEST((co_await s.find_file("file-1", "ana")).value()->metadata.at("status").as_string() == "processed"sv);

    BOOST_TEST(!(co_await s.delete_file("file-1", "luis")).value());
    BOOST_TEST((co_await s.delete_file("file-1", "ana")).value());
    BOOST_TEST(!(co_await s.find_file("file-1", "ana")).value());
    BOOST_TEST(!(co_await s.delete_file("file-1", "ana")).value());
}

#define AGENTIO_STORE_CHECKS(X)                                                                                        \
    X(threads_are_scoped_by_owner)                                                                                     \
    X(threads_are_paged)                                                                                               \
    X(file_records_are_scoped_by_owner_and_paged)                                                                      \
    X(items_keep_every_block_in_order)                                                                                 \
    X(a_run_checkpoints_its_rounds)                                                                                    \
    X(a_run_can_start_its_thread)                                                                                      \
    X(the_journal_has_no_gap_and_no_repeat)                                                                            \
    X(readers_wake_when_events_commit)                                                                                 \
    X(an_expired_lease_is_taken_over_once)                                                                             \
    X(a_waiting_run_is_resumed_once)                                                                                   \
    X(a_cancel_request_reaches_the_holder)                                                                             \
    X(retention_removes_old_threads)                                                                                   \
    X(concurrent_runs_journal_exactly)                                                                                 \
    X(a_turn_holds_its_thread_until_it_finishes)                                                                       \
    X(a_turn_whose_process_died_frees_its_thread)                                                                      \
    X(a_turn_keeps_its_thread_while_it_runs)                                                                           \
    X(a_turn_dropped_unfinished_ends_cancelled)                                                                        \
    X(a_summary_stands_for_the_first_messages)                                                                         \
    X(a_busy_thread_keeps_its_line_in_order)                                                                           \
    X(turns_wait_in_line_or_interrupt)                                                                                 \
    X(tool_calls_are_journaled_around_their_run)                                                                       \
    X(runs_are_listed_by_owner_latest_first)

BOOST_AUTO_TEST_SUITE(thread_store_sqlite)

#define AGENTIO_SQLITE_CASE(name)                                                                                      \
    BOOST_AUTO_TEST_CASE(name)                                                                                         \
    {                                                                                                                  \
        sqlite_backend backend;                                                                                        \
        auto store = backend.open();                                                                                   \
        run_check(*store, &::name);                                                                                    \
    }
AGENTIO_STORE_CHECKS(AGENTIO_SQLITE_CASE)

BOOST_AUTO_TEST_CASE(titles_are_one_line_cut_between_characters)
{
    BOOST_TEST(threads::make_title("  ¿Cuántas\n\tfacturas   hay?  ") == "¿Cuántas facturas hay?");
    BOOST_TEST(threads::make_title("año", 2) == "a"); // "ñ" is two bytes: not cut in half
    BOOST_TEST(threads::make_title("uno dos", 4) == "uno");
    BOOST_TEST(threads::make_title("", 10).empty());
}

BOOST_AUTO_TEST_CASE(reopens_and_refuses_a_newer_schema)
{
    sqlite_backend backend;
    {
        auto store = backend.open();
        run_check(*store, [](threads::thread_store& s) -> asio::awaitable<void> {
            (co_await s.create_thread(thread("kept"))).value();
        });
    }
    auto const file = backend.dir / "data" / "agent.db";
    {
        auto store = agentio::sqlite::thread_store::open(file).value();
        run_check(*store, [](threads::thread_store& s) -> asio::awaitable<void> {
            BOOST_TEST((co_await s.find_thread("kept", "")).value().has_value());
        });
    }
    {
        auto db = agentio::sqlite::connection::open(file, agentio::sqlite::open_mode::read_write_create).value();
        db.execute("UPDATE agentio_schema_version SET version = 99").value();
    }
    auto refused = agentio::sqlite::thread_store::open(file);
    BOOST_REQUIRE(!refused);
    BOOST_TEST(refused.error().code == make_error_code(threads::errc::schema_too_new));
    BOOST_TEST(refused.error().message.find("99") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(thread_store_postgres)

#define AGENTIO_POSTGRES_CASE(name)                                                                                    \
    BOOST_AUTO_TEST_CASE(name)                                                                                         \
    {                                                                                                                  \
        postgres_backend backend;                                                                                      \
        run_until_done(backend.ctx, ::name(*backend.store));                                                           \
    }
AGENTIO_STORE_CHECKS(AGENTIO_POSTGRES_CASE)

// A second process's store (its own pool and listening connection) is woken
// by the first one's commits through NOTIFY, not by anything in memory.
BOOST_AUTO_TEST_CASE(another_replica_is_woken_through_notify)
{
    postgres_backend backend;
    auto other = backend.open();
    run_until_done(backend.ctx, [&]() -> asio::awaitable<void> {
        using namespace asio::experimental::awaitable_operators;
        auto& a = *backend.store;
        auto& b = *other;
        (co_await a.create_thread(thread("t"))).value();
        (co_await a.start_run(run_of("r", "t", "a"))).value();
        auto const ex = co_await asio::this_coro::executor;
        auto writer = [&]() -> asio::awaitable<void> {
            asio::steady_timer t(ex, std::chrono::milliseconds(200)); // b is listening by then
            co_await t.async_wait(asio::use_awaitable);
            std::vector<threads::run_events> batch{events("r", 1, 2)};
            (co_await a.append_events("a", batch)).value();
        };
        auto const started = std::chrono::steady_clock::now();
        co_await (b.hub().wait("r", 0, std::chrono::seconds(10)) && writer());
        BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(3)));
        BOOST_TEST((co_await b.events_after("r", 0, 10)).value().size() == 2u);
    }());
}

// Two stores claiming the same expired run: one gets it (SKIP LOCKED), and
// the store's clock is the database's.
BOOST_AUTO_TEST_CASE(replicas_never_claim_the_same_run)
{
    postgres_backend backend;
    auto other = backend.open();
    run_until_done(backend.ctx, [&]() -> asio::awaitable<void> {
        using namespace asio::experimental::awaitable_operators;
        auto& a = *backend.store;
        auto& b = *other;
        for(int i = 0; i < 6; ++i)
        {
            (co_await a.create_thread(thread("t" + std::to_string(i)))).value();
            (co_await a.start_run(run_of("r" + std::to_string(i), "t" + std::to_string(i), "dead",
                 std::chrono::milliseconds(1))))
                .value();
        }
        asio::steady_timer t(co_await asio::this_coro::executor, std::chrono::milliseconds(50));
        co_await t.async_wait(asio::use_awaitable);
        std::vector<std::string> got_a, got_b;
        auto claimer = [&](threads::thread_store& s, std::string holder,
                           std::vector<std::string>& got) -> asio::awaitable<void> {
            for(;;)
            {
                auto r = (co_await s.claim_expired_run(holder, std::chrono::seconds(30))).value();
                if(!r)
                    co_return;
                got.push_back(r->id);
            }
        };
        co_await (claimer(a, "a", got_a) && claimer(b, "b", got_b));
        std::set<std::string> all(got_a.begin(), got_a.end());
        all.insert(got_b.begin(), got_b.end());
        BOOST_TEST(got_a.size() + got_b.size() == 6u);
        BOOST_TEST(all.size() == 6u);
    }());
}

// Two replicas compacting one thread at once: one summary is written, and
// both go on with it.
BOOST_AUTO_TEST_CASE(replicas_keep_one_line_per_thread)
{
    // Two replicas admit messages to one busy thread at once, then both start
    // whatever's turn has come as fast as they can: every run starts once,
    // one at a time, in the order the line took them, its messages together.
    postgres_backend backend;
    auto other = backend.open();
    run_until_done(backend.ctx, [&]() -> asio::awaitable<void> {
        using namespace asio::experimental::awaitable_operators;
        auto& a = *backend.store;
        auto& b = *other;
        (co_await a.create_thread(thread("line"))).value();
        (co_await a.start_run(run_of("first", "line", "a"))).value();
        auto admit = [&](threads::thread_store& s, std::string prefix) -> asio::awaitable<void> {
            for(int i = 0; i < 10; ++i)
            {
                auto r = queued_run(prefix + std::to_string(i), "line", prefix + std::to_string(i),
                    threads::busy_policy::enqueue);
                auto const admitted = (co_await s.admit_run(r)).value();
                BOOST_TEST(admitted.status == threads::run_status::queued);
            }
        };
        co_await (admit(a, "a") && admit(b, "b"));
        std::span<threads::event_record const> const none;
        (co_await a.finish_run("first", "a", none, threads::run_status::completed, nullptr)).value();
        std::vector<std::string> started;
        auto runner = [&](threads::thread_store& s, std::string holder) -> asio::awaitable<void> {
            auto const until = std::chrono::steady_clock::now() + 20s;
            while(started.size() < 20u && std::chrono::steady_clock::now() < until)
            {
                auto r = (co_await s.claim_queued_run("", holder, 30s)).value();
                if(!r)
                {
                    co_await sleep_for(2ms);
                    continue;
                }
                started.push_back(r->run.id);
                BOOST_TEST(r->items.back().run_id == r->run.id);
                (co_await s.finish_run(r->run.id, holder, none, threads::run_status::completed, nullptr)).value();
            }
        };
        co_await (runner(a, "a") && runner(b, "b"));
        BOOST_TEST(started.size() == 20u);
        BOOST_TEST(std::set<std::string>(started.begin(), started.end()).size() == 20u);
        // Each replica's own messages in the order it sent them.
        for(char const* prefix : {"a", "b"})
        {
            int expected = 0;
            for(auto const& id : started)
                if(id.starts_with(prefix))
                    BOOST_TEST(id == prefix + std::to_string(expected++));
        }
        auto const items = (co_await a.load_items("line")).value();
        BOOST_REQUIRE(items.size() == 21u);
        for(std::size_t i = 1; i < items.size(); ++i)
            BOOST_TEST(items[i].run_id == started[i - 1]);
    }());
}

BOOST_AUTO_TEST_CASE(replicas_write_one_summary)
{
    postgres_backend backend;
    auto other = backend.open();
    run_until_done(backend.ctx, [&]() -> asio::awaitable<void> {
        auto& a = *backend.store;
        auto& b = *other;
        using namespace asio::experimental::awaitable_operators;
        for(int i = 0; i < 20; ++i)
        {
            auto const id = "t" + std::to_string(i);
            (co_await a.create_thread(thread(id))).value();
            std::vector<llm::message> four{llm::message::user("a"), llm::message::assistant("b"),
                llm::message::user("c"), llm::message::assistant("d")};
            (co_await a.append_messages(id, four)).value();
            auto const both = co_await (a.save_summary(id, 2, "de A") && b.save_summary(id, 2, "de B"));
            auto const x = std::get<0>(both).value();
            auto const y = std::get<1>(both).value();
            BOOST_TEST(x.text == y.text);
            auto const latest = (co_await b.latest_summary(id)).value();
            BOOST_TEST(latest->text == x.text);
        }
    }());
}

// The database restarts under the store: what fails says so, and the store
// recovers by itself (the pool reconnects, the listener too).
BOOST_AUTO_TEST_CASE(recovers_when_the_database_comes_back)
{
    postgres_backend backend;
    run_until_done(backend.ctx,
        [&]() -> asio::awaitable<void> { (co_await backend.store->create_thread(thread("before"))).value(); }());
    agentio_test::postgres_restart();
    run_until_done(backend.ctx, [&]() -> asio::awaitable<void> {
        auto& s = *backend.store;
        // The first call may meet a connection the restart closed; the next ones work.
        (void)co_await s.find_thread("before", "");
        auto found = (co_await s.find_thread("before", "")).value();
        BOOST_TEST(found.has_value());
        (co_await s.create_thread(thread("after"))).value();
        (co_await s.start_run(run_of("r", "after", "a"))).value();
        auto const ex = co_await asio::this_coro::executor;
        // The listener reconnects too: a commit wakes the hub through NOTIFY again.
        asio::steady_timer t(ex, std::chrono::milliseconds(1500));
        co_await t.async_wait(asio::use_awaitable);
        std::vector<threads::run_events> batch{events("r", 1, 1)};
        (co_await s.append_events("a", batch)).value();
        BOOST_TEST((co_await s.events_after("r", 0, 10)).value().size() == 1u);
    }());
}

BOOST_AUTO_TEST_SUITE_END()

// The same checks through an observed_store over SQLite: every call reaches
// the inner store and its results come back unchanged, and the hub is the
// inner store's (readers_wake_when_events_commit waits on it).
BOOST_AUTO_TEST_SUITE(thread_store_observed)

#define AGENTIO_OBSERVED_CASE(name)                                                                                    \
    BOOST_AUTO_TEST_CASE(name)                                                                                         \
    {                                                                                                                  \
        sqlite_backend backend;                                                                                        \
        agentio::metrics::registry registry({.process_metrics = false});                                               \
        threads::observed_store store(backend.open(), registry);                                                       \
        run_check(store, &::name);                                                                                     \
    }
AGENTIO_STORE_CHECKS(AGENTIO_OBSERVED_CASE)

// Each call is one observation and one count under its method's name; a
// result holding an error counts as `error` and comes back as the inner
// store gives it.
BOOST_AUTO_TEST_CASE(calls_are_timed_and_counted_by_operation)
{
    sqlite_backend backend;
    agentio::metrics::registry registry({.process_metrics = false});
    threads::observed_store store(backend.open(), registry, "sessions");
    BOOST_TEST(&store.hub() == &store.inner().hub());
    run_check(store, [](threads::thread_store& s) -> asio::awaitable<void> {
        auto& inner = static_cast<threads::observed_store&>(s).inner();
        (co_await s.create_thread(thread("t"))).value();
        std::vector<llm::message> const said{llm::message::user("hola"), llm::message::user("adiós")};
        BOOST_TEST((co_await s.append_messages("t", said)).value() == 2);
        auto const items = (co_await s.load_items("t")).value();
        auto const direct = (co_await inner.load_items("t")).value();
        BOOST_REQUIRE(items.size() == 2u);
        BOOST_REQUIRE(direct.size() == 2u);
        BOOST_TEST(items[1].seq == direct[1].seq);
        BOOST_TEST(same(items[1].message, direct[1].message));
        (co_await s.load_items("t")).value(); // two through the wrapper; the inner store's own read is not seen
        // No message 9: the inner store's not_found, with its words, counted as an error.
        auto const refused = co_await s.save_summary("t", 9, "x");
        auto const refused_inner = co_await inner.save_summary("t", 9, "x");
        BOOST_REQUIRE(refused.has_error());
        BOOST_REQUIRE(refused_inner.has_error());
        BOOST_TEST((refused.error().code == threads::errc::not_found));
        BOOST_TEST(refused.error().message == refused_inner.error().message);
    });

    auto const text = registry.expose();
    auto const has = [&](std::string const& line) { return text.find(line + "\n") != std::string::npos; };
    BOOST_TEST(has(R"(agentio_store_operations_total{store="sessions",operation="create_thread",outcome="ok"} 1)"));
    BOOST_TEST(has(R"(agentio_store_operations_total{store="sessions",operation="append_messages",outcome="ok"} 1)"));
    BOOST_TEST(has(R"(agentio_store_operations_total{store="sessions",operation="load_items",outcome="ok"} 2)"));
    BOOST_TEST(has(R"(agentio_store_operations_total{store="sessions",operation="save_summary",outcome="error"} 1)"));
    BOOST_TEST(text.find(R"(operation="save_summary",outcome="ok")") == std::string::npos);
    BOOST_TEST(text.find(R"(operation="load_items",outcome="error")") == std::string::npos);
    BOOST_TEST(has(R"(agentio_store_operation_duration_seconds_count{store="sessions",operation="load_items"} 2)"));
    BOOST_TEST(has(R"(agentio_store_operation_duration_seconds_count{store="sessions",operation="save_summary"} 1)"));
    BOOST_TEST(has("agentio_store_operation_duration_seconds_bucket"
                   R"({store="sessions",operation="create_thread",le="+Inf"} 1)"));
}

// A process's turns are renewed together: one store call a period for all of them, whatever their number, and each
// keeps its thread past several leases.
BOOST_AUTO_TEST_CASE(the_turns_of_a_process_renew_their_leases_in_one_call)
{
    sqlite_backend backend;
    agentio::metrics::registry registry({.process_metrics = false});
    threads::observed_store store(backend.open(), registry, "turns");
    run_check(store, [](threads::thread_store& s) -> asio::awaitable<void> {
        threads::turn_options const options{.lease = 300ms, .check_every = 100ms};
        std::vector<threads::turn> turns;
        for(int i = 0; i < 20; ++i)
        {
            auto request = turn_on("lote-" + std::to_string(i), "", "¿Sigues?");
            auto t = co_await threads::begin_turn(s, std::move(request), options);
            BOOST_REQUIRE(t);
            turns.push_back(std::move(*t));
        }
        co_await sleep_for(750ms); // past two leases: renewed meanwhile, together
        for(int i = 0; i < 20; ++i)
        {
            auto request = turn_on("lote-" + std::to_string(i), "", "¿Ya?");
            auto again = co_await threads::begin_turn(s, std::move(request));
            BOOST_REQUIRE(!again);
            BOOST_TEST(again.error().code == make_error_code(threads::errc::thread_busy));
        }
        for(auto& t : turns)
            (co_await t.finish({})).value();
    });
    auto const text = registry.expose();
    auto const at =
        text.find(R"(agentio_store_operations_total{store="turns",operation="renew_leases",outcome="ok"} )");
    BOOST_REQUIRE(at != std::string::npos);
    auto const calls = std::stoi(text.substr(at + text.substr(at).find("} ") + 2));
    // 750 ms at one call per 100 ms: about 7 (a call per turn would be 20 times as many).
    BOOST_TEST(calls >= 4);
    BOOST_TEST(calls <= 10);
}

// Given a tracer, the store a request or a run uses (`under` its context)
// makes each operation a span of it; without a context, or without a
// tracer that records, `under` is the store itself.
BOOST_AUTO_TEST_CASE(operations_under_a_context_are_its_spans)
{
    sqlite_backend backend;
    agentio::metrics::registry registry({.process_metrics = false});
    agentio::trace::settings on;
    on.enabled = true;
    agentio::trace::tracer tracer(on);
    threads::observed_store store(backend.open(), registry, "sessions", &tracer);
    static std::string const request = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    BOOST_TEST(store.under("").get() == &store);
    BOOST_TEST(store.under("00-zz").get() == &store);
    agentio::trace::tracer off;
    threads::observed_store untraced(store.inner(), registry, "sessions", &off);
    BOOST_TEST(untraced.under(request).get() == &untraced);
    BOOST_TEST(backend.open()->under(request) != nullptr); // a plain store: itself

    run_check(store, [](threads::thread_store& s) -> asio::awaitable<void> {
        (co_await s.create_thread(thread("t"))).value(); // no context: no span
        auto const traced = s.under(request);
        BOOST_TEST(traced.get() != &s);
        BOOST_TEST(&traced->hub() == &s.hub());
        std::vector<llm::message> const said{llm::message::user("hola")};
        (void)(co_await traced->append_messages("t", said)).value();
        auto const refused = co_await traced->save_summary("t", 9, "x"); // no message 9
        BOOST_TEST(refused.has_error());
        // A turn under the request: its reads and writes are spans of it.
        threads::turn_request wanted;
        wanted.thread_id = "t";
        wanted.traceparent = request;
        auto begun = co_await threads::begin_turn(s, std::move(wanted));
        BOOST_TEST_REQUIRE(begun.has_value());
        (void)(co_await begun->finish({}, threads::run_status::completed)).value();
    });

    std::vector<agentio::trace::span_data> spans;
    tracer.take(spans, 100);
    auto const parent = agentio::trace::parse_traceparent(request).value();
    std::set<std::string> names;
    for(auto const& span : spans)
    {
        names.insert(span.name);
        BOOST_TEST((span.context.trace_id == parent.trace_id), span.name);
        BOOST_TEST((span.parent_span_id == parent.span_id), span.name);
        BOOST_TEST(static_cast<int>(span.kind) == static_cast<int>(agentio::trace::span_kind::client));
    }
    BOOST_TEST(!names.contains("create_thread sessions"));
    BOOST_TEST(names.contains("append_messages sessions"));
    BOOST_TEST(names.contains("find_thread sessions"));
    BOOST_TEST(names.contains("admit_run sessions"));
    BOOST_TEST(names.contains("finish_run sessions"));
    BOOST_TEST(!names.contains("renew_leases sessions")); // the lease keeper is never traced
    auto const failed = std::find_if(spans.begin(), spans.end(),
        [](agentio::trace::span_data const& d) { return d.name == "save_summary sessions"; });
    BOOST_TEST_REQUIRE((failed != spans.end()));
    BOOST_TEST(static_cast<int>(failed->status) == static_cast<int>(agentio::trace::status_code::error));
    BOOST_TEST(!failed->status_message.empty());
    // The view's calls are counted as the wrapper's.
    auto const text = registry.expose();
    BOOST_TEST(
        text.find(R"(agentio_store_operations_total{store="sessions",operation="append_messages",outcome="ok"} 1)") !=
        std::string::npos);
}

// A store the caller owns can be observed too; two observed stores share the families.
BOOST_AUTO_TEST_CASE(a_store_not_owned_and_a_second_store)
{
    sqlite_backend first, second;
    auto owned_elsewhere = first.open();
    agentio::metrics::registry registry({.process_metrics = false});
    threads::observed_store a(*owned_elsewhere, registry);
    threads::observed_store b(second.open(), registry, "archive");
    BOOST_TEST(&a.inner() == owned_elsewhere.get());
    run_check(a, [](threads::thread_store& s) -> asio::awaitable<void> {
        BOOST_TEST(!(co_await s.find_thread("none", "")).value().has_value());
    });
    run_check(b, [](threads::thread_store& s) -> asio::awaitable<void> {
        BOOST_TEST(!(co_await s.find_thread("none", "")).value().has_value());
    });
    auto const text = registry.expose();
    BOOST_TEST(text.find(R"(agentio_store_operations_total{store="threads",operation="find_thread",outcome="ok"} 1)") !=
        std::string::npos);
    BOOST_TEST(text.find(R"(agentio_store_operations_total{store="archive",operation="find_thread",outcome="ok"} 1)") !=
        std::string::npos);
    BOOST_CHECK_THROW((void)threads::observed_store(std::unique_ptr<threads::thread_store>(), registry),
        std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
