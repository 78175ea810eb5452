//
// agentio/async_queue.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A bounded FIFO between producers on any thread and one consumer coroutine,
// over Asio's concurrent channel: what an event stream, a transport's outgoing
// lines or a request waiting for its one answer all need.
//

#ifndef AGENTIO_ASYNC_QUEUE_HPP
#define AGENTIO_ASYNC_QUEUE_HPP

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/experimental/channel_error.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/error_code.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

namespace agentio {

/// Cost of an item for `async_queue`: each item counts one, so the capacity is a number of items.
struct count_items
{
    template<class T>
    constexpr std::size_t operator()(T const&) const noexcept
    {
        return 1;
    }
};

/// Cost of an item for `async_queue`: its `size()`, so the capacity of a queue of strings is in bytes.
struct count_bytes
{
    template<class T>
    std::size_t operator()(T const& item) const noexcept
    {
        return item.size();
    }
};

/** A bounded asynchronous FIFO: any number of producers, one consumer.

    Producers call `try_push` (never waits: refused when full or closed) or
    `co_await push` (waits for room: backpressure) from any thread. One
    coroutine at a time consumes with `pop`, `pop_for` or `try_pop`.
    `close()` refuses further items; the consumer still gets those queued,
    then an empty optional.

    The capacity is a total cost, by default a number of items; with
    `count_bytes` it is bytes. An item costlier than the whole capacity is
    accepted when the queue is empty, so it cannot block forever.

    It is Asio's `experimental::concurrent_channel` with three additions:
    the bound is a cost rather than a count, `close()` keeps what is queued
    (a closed channel drops its buffer), and `pop_for` times out without
    racing the timer against the receive (with `||` an item delivered as the
    timer fires would be lost): the timer wakes the receive instead.

    @code
    agentio::async_queue<std::string, agentio::count_bytes> lines(ex, 64 * 1024);
    lines.try_push(std::move(line));                    // from any thread
    while(auto line = co_await lines.pop())             // the consumer
        co_await write(*line);
    @endcode

    @note A push racing with `close()` may be accepted and never popped:
    close when the producers are done, or when nobody will read any more.
    Destroy the queue only when no coroutine waits on it.
*/
template<class T, class Cost = count_items>
class async_queue
{
public:
    using executor_type = boost::asio::any_io_executor;

    /// A capacity that never refuses an item.
    static constexpr std::size_t unbounded = std::numeric_limits<std::size_t>::max();

    /// @param ex Where the timers of `pop_for` run.
    /// @param capacity The total cost of the items the queue holds at most.
    explicit async_queue(executor_type ex, std::size_t capacity = unbounded, Cost cost = {})
        : state_(std::make_shared<state>(std::move(ex), capacity, std::move(cost)))
    {
    }

    async_queue(async_queue const&) = delete;
    async_queue& operator=(async_queue const&) = delete;

    executor_type get_executor() const noexcept { return state_->executor; }

    /** Queues `item` if it fits and the queue is open; never waits. Thread-safe.

        @return Whether it was queued; when not, `item` is left as it was.
    */
    bool try_push(T&& item) { return state_->try_push(item); }

    /// Queues a copy of `item`; see the other overload.
    bool try_push(T const& item)
    {
        T copy(item);
        return state_->try_push(copy);
    }

    /** Queues `item`, waiting while the queue is full. Thread-safe.

        @return No error once queued; `experimental::error::channel_closed`
        if the queue is (or gets) closed first; `operation_aborted` if the
        wait was cancelled.
    */
    boost::asio::awaitable<boost::system::error_code> push(T item)
    {
        auto const s = state_;
        for(;;)
        {
            if(s->closed.load(std::memory_order_acquire))
            {
                s->wake_pusher(); // pass the news on to the next waiting producer
                co_return boost::asio::experimental::error::channel_closed;
            }
            if(s->try_push(item))
            {
                if(s->queued.load(std::memory_order_relaxed) < s->capacity)
                    s->wake_pusher(); // room is left: another waiting producer may go on
                co_return boost::system::error_code{};
            }
            auto [ec] = co_await s->room.async_receive(boost::asio::as_tuple(boost::asio::use_awaitable));
            if(ec)
                co_return ec;
        }
    }

    /// Takes the oldest item, if one is queued; never waits. The consumer's.
    std::optional<T> try_pop() { return state_->try_pop(); }

    /** Takes the oldest item, waiting for one. The consumer's.

        @return The item; empty once the queue is closed and drained, or when
        the wait is cancelled.
    */
    boost::asio::awaitable<std::optional<T>> pop() { return wait_pop(std::chrono::steady_clock::time_point::max()); }

    /** Takes the oldest item, waiting at most `timeout`. The consumer's.

        @return The item; empty on timeout, once the queue is closed and
        drained, or when the wait is cancelled (`closed()` tells which).
    */
    boost::asio::awaitable<std::optional<T>> pop_for(std::chrono::steady_clock::duration timeout)
    {
        return wait_pop(std::chrono::steady_clock::now() + timeout);
    }

    /// Refuses further items and wakes the consumer and waiting producers. Thread-safe, idempotent.
    void close() noexcept
    {
        state_->closed.store(true, std::memory_order_release);
        state_->wake_consumer();
        state_->wake_pusher();
    }

    /// Whether `close()` was called.
    bool closed() const noexcept { return state_->closed.load(std::memory_order_acquire); }

    /// The total cost of the items queued (items, or bytes with `count_bytes`).
    std::size_t queued() const noexcept { return state_->queued.load(std::memory_order_acquire); }

    /// The capacity given at construction.
    std::size_t capacity() const noexcept { return state_->capacity; }

private:
    // Shared with the timers of pop_for, whose expiry may be delivered after the queue is gone.
    struct state
    {
        // An empty optional is a wake-up (close, or a pop_for's deadline), not an item.
        using item_channel =
            boost::asio::experimental::concurrent_channel<void(boost::system::error_code, std::optional<T>)>;
        // A token each time room is made; one buffered token is enough, as waiters re-check.
        using room_channel = boost::asio::experimental::concurrent_channel<void(boost::system::error_code)>;

        executor_type executor;
        std::size_t capacity;
        Cost cost;
        item_channel items;
        room_channel room;
        std::atomic<std::size_t> queued{0};
        std::atomic<bool> closed{false};

        state(executor_type ex, std::size_t cap, Cost c)
            : executor(std::move(ex))
            , capacity(cap)
            , cost(std::move(c))
            , items(executor, std::numeric_limits<std::size_t>::max()) // the bound is ours, in cost
            , room(executor, 1)
        {
        }

        bool try_push(T& item)
        {
            if(closed.load(std::memory_order_acquire))
                return false;
            std::size_t const c = cost(item);
            std::size_t now = queued.load(std::memory_order_relaxed);
            do
            {
                if(now != 0 && (now >= capacity || c > capacity - now))
                    return false;
            } while(!queued.compare_exchange_weak(now, now + c, std::memory_order_acq_rel));
            items.try_send(boost::system::error_code{}, std::optional<T>(std::move(item)));
            return true;
        }

        std::optional<T> try_pop()
        {
            std::optional<T> out;
            bool received = true;
            while(!out && received) // skip wake-ups
                received = items.try_receive([&](boost::system::error_code, std::optional<T> v) {
                    out = std::move(v);
                });
            if(out)
                taken(*out);
            return out;
        }

        void taken(T const& item)
        {
            queued.fetch_sub(cost(item), std::memory_order_acq_rel);
            wake_pusher();
        }

        void wake_consumer() { items.try_send(boost::system::error_code{}, std::optional<T>()); }
        void wake_pusher() { room.try_send(boost::system::error_code{}); }
    };

    boost::asio::awaitable<std::optional<T>> wait_pop(std::chrono::steady_clock::time_point deadline)
    {
        namespace asio = boost::asio;
        auto const s = state_;
        std::optional<asio::steady_timer> timer;
        for(;;)
        {
            // A wake-up taken here was sent after the deadline or the close, so the checks below see them.
            if(auto item = s->try_pop())
                co_return item;
            if(s->closed.load(std::memory_order_acquire) || std::chrono::steady_clock::now() >= deadline)
                co_return std::nullopt;
            if(deadline != std::chrono::steady_clock::time_point::max() && !timer)
            {
                timer.emplace(co_await asio::this_coro::executor, deadline);
                timer->async_wait([weak = std::weak_ptr<state>(s)](boost::system::error_code ec) {
                    if(auto const alive = weak.lock(); alive && !ec)
                        alive->wake_consumer();
                });
            }
            auto [ec, item] = co_await s->items.async_receive(asio::as_tuple(asio::use_awaitable));
            if(ec)
                co_return std::nullopt;
            if(item)
            {
                s->taken(*item);
                co_return item;
            }
        }
    }

    std::shared_ptr<state> state_;
};

} // namespace agentio

#endif
