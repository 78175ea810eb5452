// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/async_queue.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
using namespace std::chrono_literals;
using agentio::async_queue;

namespace {

// Runs `body` to completion on a fresh io_context and returns its result.
template<class F>
auto run(F body)
{
    asio::io_context ioc;
    auto result = asio::co_spawn(ioc, body(ioc.get_executor()), asio::use_future);
    ioc.run();
    return result.get();
}

} // namespace

BOOST_AUTO_TEST_SUITE(async_queue_suite)

BOOST_AUTO_TEST_CASE(items_come_out_in_order)
{
    auto out = run([](asio::any_io_executor ex) -> asio::awaitable<std::vector<int>> {
        async_queue<int> q(ex);
        for(int i = 0; i < 5; ++i)
            BOOST_TEST(q.try_push(int(i)));
        q.close();
        std::vector<int> seen;
        while(auto v = co_await q.pop())
            seen.push_back(*v);
        co_return seen;
    });
    BOOST_TEST(out == (std::vector<int>{0, 1, 2, 3, 4}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_full_queue_refuses_try_push_and_keeps_the_item)
{
    asio::io_context ioc;
    async_queue<std::string> q(ioc.get_executor(), 2);
    BOOST_TEST(q.try_push(std::string("a")));
    BOOST_TEST(q.try_push(std::string("b")));
    std::string c = "c";
    BOOST_TEST(!q.try_push(std::move(c)));
    BOOST_TEST(c == "c"); // refused: not moved from
    BOOST_TEST(q.queued() == 2u);
    BOOST_TEST(*q.try_pop() == "a");
    BOOST_TEST(q.try_push(std::move(c)));
    BOOST_TEST(*q.try_pop() == "b");
    BOOST_TEST(*q.try_pop() == "c");
    BOOST_TEST(!q.try_pop());
    BOOST_TEST(q.queued() == 0u);
}

BOOST_AUTO_TEST_CASE(byte_capacity_counts_sizes_and_admits_one_oversized_item)
{
    asio::io_context ioc;
    async_queue<std::string, agentio::count_bytes> q(ioc.get_executor(), 10);
    BOOST_TEST(q.try_push(std::string(6, 'x')));
    BOOST_TEST(!q.try_push(std::string(5, 'y'))); // 11 > 10
    BOOST_TEST(q.try_push(std::string(4, 'z')));  // exactly 10
    BOOST_TEST(q.queued() == 10u);
    BOOST_TEST(!q.try_push(std::string())); // full: even an empty item waits its turn
    q.try_pop();
    q.try_pop();
    BOOST_TEST(q.try_push(std::string(50, 'w'))); // alone, larger than the capacity: admitted
    BOOST_TEST(!q.try_push(std::string(1, 'v')));
    BOOST_TEST(q.queued() == 50u);
}

BOOST_AUTO_TEST_CASE(push_waits_for_room_then_goes_on)
{
    auto order = run([](asio::any_io_executor ex) -> asio::awaitable<std::vector<std::string>> {
        async_queue<std::string> q(ex, 1);
        std::vector<std::string> events;
        BOOST_TEST(q.try_push(std::string("first")));
        // Two producers wait for room; each pop lets one of them in.
        for(auto name : {"second", "third"})
            asio::co_spawn(
                ex,
                [&q, &events, name]() -> asio::awaitable<void> {
                    auto ec = co_await q.push(name);
                    BOOST_TEST(!ec);
                    events.push_back(std::string("pushed ") + name);
                },
                asio::detached);
        asio::steady_timer t(ex, 20ms);
        co_await t.async_wait(asio::use_awaitable);
        BOOST_TEST(events.empty()); // both still wait
        for(int i = 0; i < 3; ++i)
        {
            auto v = co_await q.pop();
            events.push_back("popped " + *v);
        }
        co_return events;
    });
    BOOST_TEST_REQUIRE(order.size() == 5u);
    BOOST_TEST(order[0] == "popped first");
    BOOST_TEST(std::count(order.begin(), order.end(), "pushed second") == 1);
    BOOST_TEST(std::count(order.begin(), order.end(), "pushed third") == 1);
    BOOST_TEST(order[4] == "popped third");
}

BOOST_AUTO_TEST_CASE(close_keeps_what_is_queued_and_refuses_the_rest)
{
    run([](asio::any_io_executor ex) -> asio::awaitable<void> {
        async_queue<int> q(ex, 1);
        BOOST_TEST(q.try_push(1));
        // A producer waiting for room is told the queue closed.
        boost::system::error_code waiting_ec;
        bool waiting_done = false;
        asio::co_spawn(
            ex,
            [&]() -> asio::awaitable<void> {
                waiting_ec = co_await q.push(2);
                waiting_done = true;
            },
            asio::detached);
        asio::steady_timer t(ex, 10ms);
        co_await t.async_wait(asio::use_awaitable);
        q.close();
        BOOST_TEST(q.closed());
        BOOST_TEST(!q.try_push(3));
        BOOST_TEST(*co_await q.pop() == 1);
        BOOST_TEST(!co_await q.pop());
        BOOST_TEST(!co_await q.pop_for(1h)); // closed and drained: at once
        t.expires_after(10ms);
        co_await t.async_wait(asio::use_awaitable);
        BOOST_TEST(waiting_done);
        BOOST_TEST(waiting_ec == asio::experimental::error::channel_closed);
    });
}

BOOST_AUTO_TEST_CASE(a_waiting_consumer_wakes_on_close)
{
    run([](asio::any_io_executor ex) -> asio::awaitable<void> {
        async_queue<int> q(ex);
        asio::steady_timer t(ex, 10ms);
        t.async_wait([&](boost::system::error_code) { q.close(); });
        auto const start = std::chrono::steady_clock::now();
        BOOST_TEST(!co_await q.pop());
        BOOST_TEST((std::chrono::steady_clock::now() - start < 10s));
    });
}

BOOST_AUTO_TEST_CASE(pop_for_times_out_then_still_delivers)
{
    run([](asio::any_io_executor ex) -> asio::awaitable<void> {
        async_queue<int> q(ex);
        auto const start = std::chrono::steady_clock::now();
        BOOST_TEST(!co_await q.pop_for(20ms));
        BOOST_TEST((std::chrono::steady_clock::now() - start >= 20ms));
        BOOST_TEST(!q.closed());
        // The timer's wake-up may still arrive later: it must not be taken for an item.
        asio::steady_timer t(ex, 10ms);
        t.async_wait([&](boost::system::error_code) { q.try_push(7); });
        auto v = co_await q.pop_for(5s);
        BOOST_TEST_REQUIRE(v.has_value());
        BOOST_TEST(*v == 7);
        BOOST_TEST(q.queued() == 0u);
    });
}

BOOST_AUTO_TEST_CASE(many_timed_pops_lose_nothing)
{
    // Timers expiring as items arrive: every item comes out once, in order.
    run([](asio::any_io_executor ex) -> asio::awaitable<void> {
        async_queue<int> q(ex);
        constexpr int count = 2000;
        asio::co_spawn(
            ex,
            [&]() -> asio::awaitable<void> {
                asio::steady_timer t(ex);
                for(int i = 0; i < count; ++i)
                {
                    q.try_push(int(i));
                    if(i % 16 == 0)
                    {
                        t.expires_after(std::chrono::microseconds(50));
                        co_await t.async_wait(asio::use_awaitable);
                    }
                }
                q.close();
            },
            asio::detached);
        int expected = 0;
        for(;;)
        {
            auto v = co_await q.pop_for(std::chrono::microseconds(20));
            if(v)
                BOOST_TEST_REQUIRE(*v == expected++);
            else if(q.closed() && !q.queued())
                break;
        }
        BOOST_TEST(expected == count);
    });
}

BOOST_AUTO_TEST_CASE(producers_on_other_threads)
{
    // Four threads push through a small byte budget (so they wait for room);
    // the consumer sees each producer's items once and in its order.
    constexpr int producers = 4;
    constexpr int per_producer = 2000;
    asio::io_context ioc;
    asio::thread_pool pool(producers);
    async_queue<std::string, agentio::count_bytes> q(ioc.get_executor(), 64);
    // The consumer first: its wait keeps the io_context's work count above zero
    // (producers' waits complete there too, and a count back at zero stops it).
    std::vector<int> next(producers, 0);
    int total = 0;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            while(auto v = co_await q.pop())
            {
                auto const colon = v->find(':');
                int const p = std::stoi(v->substr(0, colon));
                int const i = std::stoi(v->substr(colon + 1));
                BOOST_TEST_REQUIRE(i == next[p]);
                ++next[p];
                ++total;
            }
        },
        asio::detached);
    std::atomic<int> finished{0};
    std::atomic<int> push_errors{0}; // Boost.Test's assertions are not for other threads
    for(int p = 0; p < producers; ++p)
        asio::co_spawn(
            pool,
            [&, p]() -> asio::awaitable<void> {
                for(int i = 0; i < per_producer; ++i)
                    if(co_await q.push(std::to_string(p) + ":" + std::to_string(i)))
                        ++push_errors;
                if(++finished == producers)
                    q.close();
            },
            asio::detached);
    ioc.run();
    pool.join();
    BOOST_TEST(push_errors == 0);
    BOOST_TEST(total == producers * per_producer);
    BOOST_TEST(q.queued() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
