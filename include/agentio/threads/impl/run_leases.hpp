//
// agentio/threads/impl/run_leases.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The leases of run_manager's core: the loop that renews this process's
// leases in one statement (and hears through it of cancel requests and of
// readers in other processes), and the loop that claims the runs whose
// holder stopped renewing. Apart because they are the protocol between the
// processes sharing a store; the runs themselves never wait on them.
// Included by impl/run_manager.hpp.
//

#ifndef AGENTIO_THREADS_IMPL_RUN_LEASES_HPP
#define AGENTIO_THREADS_IMPL_RUN_LEASES_HPP

namespace agentio::threads {

namespace detail {

template<class Agent>
asio::awaitable<void> run_manager_core<Agent>::renew_loop()
{
    // A note every renewal: three missed mean the remote reader is gone.
    auto const remote_reader_window = 3 * options_.renew_every;
    for(;;)
    {
        co_await sleep(options_.renew_every);
        std::vector<std::string> ids, read_elsewhere;
        {
            std::lock_guard lock(mutex_);
            for(auto const& [id, run] : runs_)
                if(!run->lease_lost)
                    ids.push_back(id);
            for(auto const& [id, readers] : followed_)
                if(!runs_.count(id))
                    read_elsewhere.push_back(id);
        }
        if(!read_elsewhere.empty())
            (void)co_await store_.note_readers(read_elsewhere); // at worst, the holder's grace runs out
        if(ids.empty())
            continue;
        auto held = co_await store_.renew_leases(options_.holder, ids, options_.lease);
        if(!held)
            continue; // the store is down: the journal writer fails the runs that need it
        std::lock_guard lock(mutex_);
        for(auto const& id : ids)
        {
            auto it = runs_.find(id);
            if(it == runs_.end())
                continue;
            auto h = std::find_if(held->begin(), held->end(), [&](held_lease const& l) { return l.run_id == id; });
            if(h == held->end())
            {
                it->second->lease_lost = true;
                cancel_local(it->second, "lease lost", false);
            }
            else if(h->cancel_requested)
                cancel_local(it->second, "cancelled", true);
            else if(it->second->readers == 0 && h->remote_reader_age && *h->remote_reader_age <= remote_reader_window)
                arm_detach_timer(it->second); // read elsewhere: the grace starts again
        }
    }
}

template<class Agent>
asio::awaitable<void> run_manager_core<Agent>::takeover_loop()
{
    for(;;)
    {
        co_await sleep(options_.takeover_every);
        for(;;)
        {
            auto claimed = co_await store_.claim_expired_run(options_.holder, options_.lease);
            if(!claimed || !*claimed)
                break;
            co_await resume(std::move(**claimed), true);
        }
        co_await start_queued(); // a queued run whose thread freed in a process that died, or stopped
    }
}

} // namespace detail

} // namespace agentio::threads

#endif
