// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/postgres.hpp>

#include "postgres_fixture.hpp"

#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/system_error.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <string>

namespace asio = boost::asio;
namespace pg = agentio::postgres;
using namespace asio::experimental::awaitable_operators;
using agentio_test::postgres_uri;
using agentio_test::run;
using std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

asio::awaitable<void> sleep_for(steady_clock::duration d)
{
    asio::steady_timer timer(co_await asio::this_coro::executor, d);
    co_await timer.async_wait(asio::use_awaitable);
}

// A connection to the test database, or the test fails.
asio::awaitable<void> connect(pg::connection& conn)
{
    auto uri = postgres_uri(); // not a temporary of the co_await expression (GCC 12)
    auto r = co_await conn.connect(uri);
    BOOST_REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
}

// The first value of a statement's only row.
asio::awaitable<std::string> scalar(pg::connection& conn, std::string_view sql)
{
    auto r = co_await conn.query(sql);
    BOOST_REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
    BOOST_REQUIRE_EQUAL(r->size(), 1u);
    co_return std::string(r->text(0, 0));
}

} // namespace

BOOST_AUTO_TEST_SUITE(postgres)

BOOST_AUTO_TEST_CASE(connects_and_queries)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        pg::connection conn(ctx.get_executor());
        BOOST_CHECK(!conn.is_open());
        co_await connect(conn);
        BOOST_CHECK(conn.is_open());
        BOOST_CHECK(conn.native_handle() != nullptr);
        auto r = co_await conn.query("SELECT 1 AS one, 'two' AS two");
        BOOST_REQUIRE(r);
        BOOST_CHECK(r->size() == 1u);
        BOOST_CHECK(r->columns() == 2);
        BOOST_CHECK(r->column_name(1) == "two");
        BOOST_CHECK(r->int64(0, 0) == 1);
        BOOST_CHECK(r->text(0, 1) == "two");
        BOOST_CHECK_THROW(r->int64(0, 1), boost::system::system_error);
        conn.close();
        BOOST_CHECK(!conn.is_open());
        auto closed = co_await conn.query("SELECT 1");
        BOOST_CHECK(closed.error().code == pg::errc::connection_lost);
    }());
}

BOOST_AUTO_TEST_CASE(a_refused_connection_says_why)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        pg::connection conn(ctx.get_executor());
        auto r = co_await conn.connect("postgresql://postgres@127.0.0.1:1/agentio_test");
        BOOST_REQUIRE(!r);
        BOOST_CHECK(r.error().code == pg::errc::connection_failed);
        BOOST_CHECK(r.error().sqlstate.empty());
        BOOST_TEST_MESSAGE("refused: " << r.error().message);
        BOOST_CHECK(r.error().message.find("refused") != std::string::npos);
        BOOST_CHECK(r.error().message.back() != '\n');
        BOOST_CHECK(!conn.is_open());

        auto bad = co_await conn.connect("postgresql://[not a uri");
        BOOST_REQUIRE(!bad);
        BOOST_CHECK(bad.error().code == pg::errc::connection_failed);
        BOOST_CHECK(!bad.error().message.empty());

        auto missing_uri = postgres_uri() + "_missing";
        auto no_db = co_await conn.connect(missing_uri);
        BOOST_REQUIRE(!no_db);
        BOOST_CHECK(no_db.error().code == pg::errc::connection_failed);
        BOOST_CHECK(no_db.error().message.find("does not exist") != std::string::npos);

        // value() throws a system_error that carries the message.
        BOOST_CHECK_EXCEPTION(r.value(), boost::system::system_error, [](boost::system::system_error const& e) {
            return std::string(e.what()).find("refused") != std::string::npos &&
                e.code() == pg::errc::connection_failed;
        });
    }());
}

BOOST_AUTO_TEST_CASE(a_host_name_is_resolved_without_blocking)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        // The server listens on 127.0.0.1 only: when localhost is ::1 first,
        // libpq must still be given the next address.
        auto uri = postgres_uri();
        auto at = uri.find("127.0.0.1");
        BOOST_REQUIRE(at != std::string::npos);
        uri.replace(at, 9, "localhost");
        pg::connection conn(ctx.get_executor());
        auto r = co_await conn.connect(uri, 5s);
        BOOST_REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
        auto one = co_await scalar(conn, "SELECT 1");
        BOOST_CHECK(one == "1");

        std::string keywords = "host=localhost port=" +
            uri.substr(uri.rfind(':') + 1, uri.rfind('/') - uri.rfind(':') - 1) + " user=postgres dbname=agentio_test";
        auto kv = co_await conn.connect(keywords);
        BOOST_REQUIRE_MESSAGE(kv, (kv ? "" : kv.error().message));

        auto unknown = co_await conn.connect("postgresql://postgres@no-such-host.invalid/agentio_test", 3s);
        BOOST_REQUIRE(!unknown);
        BOOST_TEST_MESSAGE("unknown host: " << unknown.error().message);
        BOOST_CHECK(unknown.error().code == pg::errc::connection_failed || unknown.error().code == pg::errc::timeout);
    }());
}

BOOST_AUTO_TEST_CASE(parameters_of_every_kind_round_trip)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        pg::connection conn(ctx.get_executor());
        co_await connect(conn);
        std::string owned = "línea1\nlínea2 'quoted' \"double\" \\ back";
        std::optional<std::string> none;
        std::optional<std::int64_t> some = 7;
        std::size_t big = 18'000'000'000'000'000'000u;
        auto r = co_await conn.query("SELECT $1::text, $2::text, $3::text, $4, $5, $6, $7, $8::text, $9, "
                                     "$10::int8, $11, $12, $13::numeric, $14, $15",
            pg::params(std::string_view("view"), "literal", owned, std::numeric_limits<std::int64_t>::min(), 42, 0.1,
                true, nullptr, false, none, some, -2.5e-300, big, std::nan(""), -HUGE_VAL));
        BOOST_REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
        BOOST_CHECK(r->text(0, 0) == "view");
        BOOST_CHECK(r->text(0, 1) == "literal");
        BOOST_CHECK(r->text(0, 2) == owned);
        BOOST_CHECK(r->int64(0, 3) == std::numeric_limits<std::int64_t>::min());
        BOOST_CHECK(r->int64(0, 4) == 42);
        BOOST_CHECK(r->text(0, 5) == "0.1");
        BOOST_CHECK(r->boolean(0, 6));
        BOOST_CHECK(r->is_null(0, 7));
        BOOST_CHECK(r->text(0, 7) == "");
        BOOST_CHECK(!r->boolean(0, 8));
        BOOST_CHECK(!r->is_null(0, 8));
        BOOST_CHECK(r->is_null(0, 9));
        BOOST_CHECK(r->int64(0, 10) == 7);
        BOOST_CHECK(r->text(0, 11) == "-2.5e-300");
        BOOST_CHECK(r->text(0, 12) == "18000000000000000000");
        BOOST_CHECK(r->text(0, 13) == "NaN");
        BOOST_CHECK(r->text(0, 14) == "-Infinity");

        // Typed numbers work where the server could not infer a type.
        auto added = co_await conn.query("SELECT $1 + $2", pg::params(40, 2));
        BOOST_REQUIRE(added);
        BOOST_CHECK(added->int64(0, 0) == 42);

        // The parameters of a span.
        std::vector<pg::param> params{"a", 1};
        auto spanned = co_await conn.query("SELECT $1::text || $2::text", params);
        BOOST_REQUIRE(spanned);
        BOOST_CHECK(spanned->text(0, 0) == "a1");
    }());
}

BOOST_AUTO_TEST_CASE(a_braced_list_of_parameters_is_copied)
{
    asio::io_context ctx;
    pg::connection conn(ctx.get_executor());
    pg::pool pool(ctx.get_executor(), postgres_uri());
    run(ctx, connect(conn));
    // Outside a coroutine (GCC 12 cannot compile the braced list inside one),
    // and started after the full-expression that made it.
    auto direct = conn.query("SELECT $1::int8 + $2", {40, 2});
    auto pooled = pool.query("SELECT $1::text || $2", {"a", "b"});
    std::optional<pg::result<pg::rows>> got_direct;
    std::optional<pg::result<pg::rows>> got_pooled;
    asio::co_spawn(ctx, std::move(direct),
        [&](std::exception_ptr, pg::result<pg::rows> r) { got_direct.emplace(std::move(r)); });
    asio::co_spawn(ctx, std::move(pooled),
        [&](std::exception_ptr, pg::result<pg::rows> r) { got_pooled.emplace(std::move(r)); });
    ctx.run();
    BOOST_REQUIRE(got_direct && *got_direct);
    BOOST_TEST((*got_direct)->int64(0, 0) == 42);
    BOOST_REQUIRE(got_pooled && *got_pooled);
    BOOST_TEST((*got_pooled)->text(0, 0) == "ab");
}

BOOST_AUTO_TEST_CASE(a_syntax_error_leaves_the_connection_usable)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        pg::connection conn(ctx.get_executor());
        co_await connect(conn);
        auto r = co_await conn.query("SELEC 1");
        BOOST_REQUIRE(!r);
        BOOST_CHECK(r.error().code == pg::errc::query_failed);
        BOOST_CHECK(r.error().sqlstate == "42601");
        BOOST_CHECK(r.error().message.find("syntax error") != std::string::npos);
        BOOST_CHECK(conn.is_open());
        auto s1 = co_await scalar(conn, "SELECT 2");
        BOOST_CHECK(s1 == "2");

        auto missing = co_await conn.query("SELECT * FROM no_such_table");
        BOOST_CHECK(missing.error().sqlstate == "42P01");
        auto division = co_await conn.query("SELECT 1 / $1", pg::params(0));
        BOOST_CHECK(division.error().sqlstate == "22012");
        auto s2 = co_await scalar(conn, "SELECT 3");
        BOOST_CHECK(s2 == "3");
    }());
}

BOOST_AUTO_TEST_CASE(a_unique_violation_has_its_sqlstate)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        pg::connection conn(ctx.get_executor());
        co_await connect(conn);
        auto created = co_await conn.execute("CREATE TEMP TABLE u(id int PRIMARY KEY, name text)");
        BOOST_REQUIRE(created);
        auto first = co_await conn.query("INSERT INTO u VALUES ($1, $2)", pg::params(1, "one"));
        BOOST_REQUIRE(first);
        BOOST_CHECK(first->affected() == 1u);
        BOOST_CHECK(first->size() == 0u);
        auto again = co_await conn.query("INSERT INTO u VALUES ($1, $2)", pg::params(1, "uno"));
        BOOST_REQUIRE(!again);
        BOOST_CHECK(again.error().code == pg::errc::query_failed);
        BOOST_CHECK(again.error().sqlstate == "23505");
        BOOST_CHECK(again.error().message.find("duplicate key") != std::string::npos);
        auto updated = co_await conn.query("UPDATE u SET name = 'x' WHERE id >= $1", pg::params(0));
        BOOST_REQUIRE(updated);
        BOOST_CHECK(updated->affected() == 1u);
    }());
}

BOOST_AUTO_TEST_CASE(execute_runs_several_statements)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        pg::connection conn(ctx.get_executor());
        co_await connect(conn);
        auto r = co_await conn.execute("CREATE TEMP TABLE m(a int); INSERT INTO m VALUES (1); "
                                       "INSERT INTO m VALUES (2); SELECT * FROM m; INSERT INTO m VALUES (3)");
        BOOST_REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
        auto s3 = co_await scalar(conn, "SELECT sum(a) FROM m");
        BOOST_CHECK(s3 == "6");

        // The server stops at the first error, which is the one returned.
        auto failed = co_await conn.execute("INSERT INTO m VALUES (4); SELECT 1/0; INSERT INTO m VALUES (5)");
        BOOST_REQUIRE(!failed);
        BOOST_CHECK(failed.error().sqlstate == "22012");
        auto s4 = co_await scalar(conn, "SELECT count(*) FROM m");
        BOOST_CHECK(s4 == "3"); // one implicit transaction
        auto empty = co_await conn.execute("");
        BOOST_CHECK(!!empty);
    }());
}

BOOST_AUTO_TEST_CASE(a_lease_holds_a_transaction)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        pg::pool pool(ctx.get_executor(), postgres_uri(), {.max_connections = 2});
        BOOST_CHECK(pool.conninfo() == postgres_uri());
        auto created = co_await pool.execute("DROP TABLE IF EXISTS tx; CREATE TABLE tx(a int)");
        BOOST_REQUIRE_MESSAGE(created, (created ? "" : created.error().message));
        {
            auto lease = co_await pool.acquire();
            BOOST_REQUIRE(lease);
            pg::connection& conn = **lease;
            auto ok1 = co_await conn.execute("BEGIN");
            BOOST_REQUIRE(ok1);
            auto inserted = co_await conn.query("INSERT INTO tx VALUES ($1), ($2)", pg::params(1, 2));
            BOOST_CHECK(inserted->affected() == 2u);
            auto s5 = co_await scalar(conn, "SELECT count(*) FROM tx");
            BOOST_CHECK(s5 == "2");
            auto elsewhere = co_await pool.query("SELECT count(*) FROM tx"); // another connection
            BOOST_CHECK(elsewhere->text(0, 0) == "0");
            auto ok2 = co_await (*lease)->execute("ROLLBACK");
            BOOST_REQUIRE(ok2);
        }
        auto after = co_await pool.query("SELECT count(*) FROM tx");
        BOOST_CHECK(after->text(0, 0) == "0");

        // A lease returned inside a transaction is closed, which rolls it back.
        int pid = 0;
        {
            auto lease = co_await pool.acquire();
            BOOST_REQUIRE(lease);
            auto backend = co_await scalar(**lease, "SELECT pg_backend_pid()");
            pid = std::stoi(backend);
            auto ok3 = co_await (*lease)->execute("BEGIN; INSERT INTO tx VALUES (9)");
            BOOST_REQUIRE(ok3);
        }
        for(int i = 0; i < 4; ++i)
        {
            auto lease = co_await pool.acquire();
            BOOST_REQUIRE(lease);
            auto backend = co_await scalar(**lease, "SELECT pg_backend_pid()");
            BOOST_CHECK(std::stoi(backend) != pid);
            auto s6 = co_await scalar(**lease, "SELECT count(*) FROM tx");
            BOOST_CHECK(s6 == "0");
        }
        co_await pool.execute("DROP TABLE tx");
    }());
}

BOOST_AUTO_TEST_CASE(notifications_arrive_including_during_a_query)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        pg::connection listener(ctx.get_executor());
        pg::connection sender(ctx.get_executor());
        co_await connect(listener);
        co_await connect(sender);
        auto sender_backend = co_await scalar(sender, "SELECT pg_backend_pid()");
        int sender_pid = std::stoi(sender_backend);
        auto ok4 = co_await listener.execute("LISTEN agentio_channel");
        BOOST_REQUIRE(ok4);

        // Waiting on the socket.
        auto notify_later = [&]() -> asio::awaitable<void> {
            co_await sleep_for(50ms);
            auto r = co_await sender.query("SELECT pg_notify('agentio_channel', $1)", pg::params("first"));
            BOOST_REQUIRE(r);
        };
        auto received = co_await (listener.receive_notification() && notify_later());
        BOOST_REQUIRE_MESSAGE(received, (received ? "" : received.error().message));
        BOOST_CHECK(received->channel == "agentio_channel");
        BOOST_CHECK(received->payload == "first");
        BOOST_CHECK(received->backend_pid == sender_pid);

        // Sent while the listener runs a statement: read with its result, kept.
        auto notify_soon = [&]() -> asio::awaitable<void> {
            co_await sleep_for(100ms);
            auto ok5 = co_await sender.execute("NOTIFY agentio_channel, 'second'; NOTIFY agentio_channel, 'third'");
            BOOST_REQUIRE(ok5);
        };
        auto slept = co_await (listener.query("SELECT pg_sleep(0.4)") && notify_soon());
        BOOST_REQUIRE(slept);
        BOOST_REQUIRE(co_await listener.query("SELECT 1")); // and another statement after it
        asio::steady_timer timer(ctx.get_executor(), 2s);
        auto second = co_await (listener.receive_notification() || timer.async_wait(asio::use_awaitable));
        BOOST_REQUIRE(second.index() == 0);
        BOOST_CHECK(std::get<0>(second)->payload == "second");
        auto third = co_await listener.receive_notification();
        BOOST_CHECK(third->payload == "third");

        // Waiting is cancellable, and the connection stays usable.
        auto start = steady_clock::now();
        timer.expires_after(100ms);
        auto none = co_await (listener.receive_notification() || timer.async_wait(asio::use_awaitable));
        BOOST_CHECK(none.index() == 1u);
        BOOST_CHECK(steady_clock::now() - start < 1s);
        BOOST_CHECK(listener.is_open());
        auto ok6 = co_await sender.execute("NOTIFY agentio_channel, 'fourth'");
        BOOST_REQUIRE(ok6);
        auto fourth = co_await listener.receive_notification();
        BOOST_CHECK(fourth->payload == "fourth");
    }());
}

BOOST_AUTO_TEST_CASE(the_pool_shares_few_connections_among_many_coroutines)
{
    asio::io_context ctx(2);
    constexpr int count = 200;
    std::atomic<int> correct{0};
    std::atomic<int> finished{0};
    std::mutex mutex;
    std::set<std::string> backends;
    std::vector<std::string> errors;
    pg::pool pool(ctx.get_executor(), postgres_uri(), {.max_connections = 4});
    auto one = [&](int i) -> asio::awaitable<void> {
        auto r = co_await pool.query("SELECT $1::int8 * 2, pg_backend_pid(), pg_sleep(0.001)", pg::params(i));
        std::lock_guard lock(mutex);
        if(!r)
            errors.push_back(r.error().message);
        else
        {
            if(r->int64(0, 0) == 2 * i)
                ++correct;
            backends.emplace(r->text(0, 1));
        }
        ++finished;
    };
    run(
        ctx,
        [&]() -> asio::awaitable<void> {
            auto ex = co_await asio::this_coro::executor;
            for(int i = 0; i < count; ++i)
                asio::co_spawn(ex, one(i), asio::detached);
            co_return;
        }(),
        2);
    BOOST_CHECK(finished == count);
    BOOST_CHECK(correct == count);
    BOOST_CHECK_MESSAGE(errors.empty(), (errors.empty() ? "" : errors.front()));
    BOOST_CHECK(backends.size() <= 4u);
    BOOST_CHECK(backends.size() >= 1u);
}

BOOST_AUTO_TEST_CASE(waiting_for_a_connection_times_out)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        pg::pool pool(ctx.get_executor(), postgres_uri(), {.max_connections = 1, .acquire_timeout = 200ms});
        auto ok7 = co_await pool.check();
        BOOST_REQUIRE(ok7);
        {
            auto held = co_await pool.acquire();
            BOOST_REQUIRE(held);
            auto start = steady_clock::now();
            auto r = co_await pool.query("SELECT 1");
            auto waited = steady_clock::now() - start;
            BOOST_REQUIRE(!r);
            BOOST_CHECK(r.error().code == pg::errc::timeout);
            BOOST_CHECK(waited >= 150ms);
            BOOST_CHECK(waited < 2s);
        }
        // A waiter gets the connection as soon as it is returned.
        auto first_lease = co_await pool.acquire();
        std::optional<pg::result<pg::pool::lease>> held(std::move(first_lease));
        auto release_soon = [&]() -> asio::awaitable<void> {
            co_await sleep_for(50ms);
            held.reset();
        };
        auto both = co_await (pool.query("SELECT 5") && release_soon());
        BOOST_REQUIRE(both);
        BOOST_CHECK(both->int64(0, 0) == 5);

        pool.close();
        auto closed = co_await pool.query("SELECT 1");
        BOOST_CHECK(closed.error().code == pg::errc::pool_closed);
    }());
}

BOOST_AUTO_TEST_CASE(an_unreachable_database_fails_the_check)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        pg::pool pool(ctx.get_executor(), "postgresql://postgres@127.0.0.1:1/agentio_test");
        auto r = co_await pool.check();
        BOOST_REQUIRE(!r);
        BOOST_CHECK(r.error().code == pg::errc::connection_failed);
        // The failed connection gave its slot back.
        pg::pool one(ctx.get_executor(), "postgresql://postgres@127.0.0.1:1/agentio_test",
            {.max_connections = 1, .acquire_timeout = 100ms});
        for(int i = 0; i < 3; ++i)
        {
            auto again = co_await one.check();
            BOOST_CHECK(again.error().code == pg::errc::connection_failed);
        }
    }());
}

BOOST_AUTO_TEST_CASE(a_cancelled_query_ends_promptly)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        pg::connection conn(ctx.get_executor());
        co_await connect(conn);
        asio::steady_timer timer(ctx.get_executor(), 200ms);
        auto start = steady_clock::now();
        auto r = co_await (conn.query("SELECT pg_sleep(5)") || timer.async_wait(asio::use_awaitable));
        BOOST_CHECK(r.index() == 1u);
        BOOST_CHECK(steady_clock::now() - start < 1s);
        BOOST_CHECK(!conn.is_open()); // libpq cannot abandon the statement
        co_await connect(conn);
        auto s7 = co_await scalar(conn, "SELECT 1");
        BOOST_CHECK(s7 == "1");

        // Through the pool: the connection is dropped, the next query gets another.
        pg::pool pool(ctx.get_executor(), postgres_uri(), {.max_connections = 1});
        timer.expires_after(200ms);
        start = steady_clock::now();
        auto p = co_await (pool.query("SELECT pg_sleep(5)") || timer.async_wait(asio::use_awaitable));
        BOOST_CHECK(p.index() == 1u);
        BOOST_CHECK(steady_clock::now() - start < 1s);
        auto next = co_await pool.query("SELECT 7");
        BOOST_REQUIRE_MESSAGE(next, (next ? "" : next.error().message));
        BOOST_CHECK(next->int64(0, 0) == 7);
    }());
}

// Last: the server restarts under the connections.
BOOST_AUTO_TEST_CASE(the_pool_reconnects_after_a_server_restart)
{
    asio::io_context ctx;
    run(ctx, [&]() -> asio::awaitable<void> {
        pg::pool pool(ctx.get_executor(), postgres_uri(), {.max_connections = 2});
        pg::connection conn(ctx.get_executor());
        co_await connect(conn);
        auto before = co_await pool.query("SELECT 1");
        BOOST_REQUIRE(before);

        agentio_test::postgres_restart();

        // The plain connection learns it is gone.
        auto lost = co_await conn.query("SELECT 1");
        BOOST_REQUIRE(!lost);
        BOOST_CHECK(lost.error().code == pg::errc::connection_lost);
        BOOST_TEST_MESSAGE("lost: " << lost.error().message);
        BOOST_CHECK(!conn.is_open());

        // The pool either notices before using its idle connection, or fails
        // this one query; never again after.
        auto first = co_await pool.query("SELECT 2");
        if(!first)
            BOOST_CHECK(first.error().code == pg::errc::connection_lost);
        else
            BOOST_CHECK(first->int64(0, 0) == 2);
        auto second = co_await pool.query("SELECT 3");
        BOOST_REQUIRE_MESSAGE(second, (second ? "" : second.error().message));
        BOOST_CHECK(second->int64(0, 0) == 3);
    }());
}

BOOST_AUTO_TEST_SUITE_END()
