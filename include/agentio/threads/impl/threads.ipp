//
// agentio/threads/impl/threads.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_THREADS_IMPL_THREADS_IPP
#define AGENTIO_THREADS_IMPL_THREADS_IPP

#include <agentio/config.hpp>

#include <boost/asio/this_coro.hpp>
#include <boost/system/system_error.hpp>
#include <boost/throw_exception.hpp>

#include <algorithm>

namespace agentio::threads {

namespace detail {

class threads_category final : public system::error_category
{
public:
    char const* name() const noexcept override { return "agentio.threads"; }

    std::string message(int ev) const override
    {
        switch(static_cast<errc>(ev))
        {
        case errc::lease_lost: return "the run's lease is held by another process";
        case errc::not_found: return "no such thread or run";
        case errc::corrupt_data: return "stored data is not what this library writes";
        case errc::schema_too_new: return "the database schema is newer than this program";
        case errc::thread_busy: return "the thread has a run in progress";
        case errc::not_supported: return "the store cannot do this";
        }
        return "unknown thread store error";
    }
};

// Readers of runs that nobody publishes to any more are forgotten beyond this.
inline constexpr std::size_t hub_entries_kept = 4096;

} // namespace detail

AGENTIO_DECL system::error_category const& error_category() noexcept
{
    static detail::threads_category const category;
    return category;
}

AGENTIO_DECL void throw_exception_from_error(error const& e, boost::source_location const& loc)
{
    boost::throw_exception(system::system_error(e.code, e.message), loc);
}

AGENTIO_DECL std::string_view to_string(run_status s) noexcept
{
    switch(s)
    {
    case run_status::running: return "running";
    case run_status::waiting: return "waiting";
    case run_status::completed: return "completed";
    case run_status::failed: return "failed";
    case run_status::cancelled: return "cancelled";
    case run_status::queued: return "queued";
    }
    return "unknown";
}

AGENTIO_DECL std::string_view to_string(busy_policy p) noexcept
{
    switch(p)
    {
    case busy_policy::reject: return "reject";
    case busy_policy::enqueue: return "enqueue";
    case busy_policy::interrupt: return "interrupt";
    }
    return "unknown";
}

AGENTIO_DECL std::optional<busy_policy> parse_busy_policy(std::string_view s) noexcept
{
    for(auto p : {busy_policy::reject, busy_policy::enqueue, busy_policy::interrupt})
        if(to_string(p) == s)
            return p;
    return std::nullopt;
}

AGENTIO_DECL std::string_view to_string(run_kind k) noexcept
{
    return k == run_kind::turn ? "turn" : "durable";
}

AGENTIO_DECL std::optional<run_status> parse_run_status(std::string_view s) noexcept
{
    for(auto st : {run_status::running, run_status::waiting, run_status::completed, run_status::failed,
            run_status::cancelled, run_status::queued})
        if(to_string(st) == s)
            return st;
    return std::nullopt;
}

AGENTIO_DECL void event_hub::publish(std::string_view run_id, std::int64_t last_id)
{
    std::lock_guard lock(mutex_);
    auto it = runs_.find(run_id);
    if(it == runs_.end())
    {
        if(runs_.size() >= detail::hub_entries_kept)
            std::erase_if(runs_, [](auto const& kv) { return kv.second.waiters.empty(); });
        it = runs_.emplace(std::string(run_id), run_entry{}).first;
    }
    auto& entry = it->second;
    entry.last_id = std::max(entry.last_id, last_id);
    for(auto const& w : entry.waiters)
        if(entry.last_id > w.after)
            w.wake->try_push('!');
}

// Unregisters a waiter before its queue dies, whatever ends the wait (a
// cancellation included). A named class: GCC refuses a local one in the frame
// of a compiled coroutine.
class event_hub::registration
{
public:
    registration(event_hub& hub, std::string const& run, agentio::async_queue<char>* queue) noexcept
        : hub_(hub)
        , run_(run)
        , queue_(queue)
    {
    }
    registration(registration const&) = delete;
    registration& operator=(registration const&) = delete;
    ~registration()
    {
        std::lock_guard lock(hub_.mutex_);
        auto it = hub_.runs_.find(run_);
        if(it == hub_.runs_.end())
            return;
        std::erase_if(it->second.waiters, [this](waiter const& w) { return w.wake == queue_; });
    }

private:
    event_hub& hub_;
    std::string const& run_;
    agentio::async_queue<char>* queue_;
};

AGENTIO_DECL asio::awaitable<void> event_hub::wait(std::string run_id, std::int64_t after,
    std::chrono::steady_clock::duration timeout)
{
    agentio::async_queue<char> wake(co_await asio::this_coro::executor, 1);
    {
        std::lock_guard lock(mutex_);
        auto& entry = runs_[run_id];
        if(entry.last_id > after)
            co_return;
        entry.waiters.push_back({after, &wake});
    }
    registration guard{*this, run_id, &wake};
    co_await wake.pop_for(timeout);
}

AGENTIO_DECL void event_hub::wake_all(std::string_view run_id)
{
    std::lock_guard lock(mutex_);
    auto it = runs_.find(run_id);
    if(it == runs_.end())
        return;
    for(auto const& w : it->second.waiters)
        w.wake->try_push('!');
    runs_.erase(it); // the waiters' registrations find it gone
}

AGENTIO_DECL std::size_t event_hub::waiting_runs() const
{
    std::lock_guard lock(mutex_);
    return static_cast<std::size_t>(std::count_if(runs_.begin(), runs_.end(),
        [](auto const& kv) { return !kv.second.waiters.empty(); }));
}

} // namespace agentio::threads

#endif
