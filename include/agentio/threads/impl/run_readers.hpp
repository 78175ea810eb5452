//
// agentio/threads/impl/run_readers.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The readers of run_manager's core: a stream that follows a run from memory
// when this process runs it and from the store otherwise, the count of
// readers per run, and the detach grace that cancels a run nobody reads.
// Apart because readers come and go on their clients' coroutines, not on the
// run's: they only read the journal and count themselves (per run here, and
// per followed run for the lease renewal to report).
// Included by impl/run_manager.hpp.
//

#ifndef AGENTIO_THREADS_IMPL_RUN_READERS_HPP
#define AGENTIO_THREADS_IMPL_RUN_READERS_HPP

namespace agentio::threads {

namespace detail {

template<class Agent>
template<class Send>
asio::awaitable<stream_end> run_manager_core<Agent>::stream(std::string run_id, std::string owner, std::int64_t after,
    Send send, error* failure)
{
    attach(run_id);
    struct detach_guard
    {
        run_manager_core& self;
        std::string const& id;
        ~detach_guard() { self.detach(id); }
    } guard{*this, run_id};

    std::int64_t last = after;
    for(;;)
    {
        // A run of this process is followed from memory; others (and a
        // reader far behind) from the store.
        auto batch = recent_after(run_id, last);
        bool const local = batch.has_value();
        if(!local)
        {
            auto stored = co_await store_.events_after(run_id, last, 256);
            if(!stored)
            {
                if(failure)
                    *failure = stored.error();
                co_return stream_end::store_failed;
            }
            batch = std::move(*stored);
        }
        for(auto const& e : *batch)
        {
            bool const sent = co_await send(e);
            if(!sent)
                co_return stream_end::reader_gone;
            last = e.id;
            if(is_final_(e))
                co_return stream_end::finished;
        }
        if(!batch->empty())
            continue;
        if(!local)
        {
            // Nothing new: a run that is over has nothing more to send (it
            // may have ended without a final event, when its store failed).
            auto run = co_await store_.find_run(run_id, owner);
            if(run && *run && is_final((*run)->status) && (*run)->last_event_id <= last)
            {
                // Cancelled before it journaled anything (a queued run, which
                // never started; every other end is journaled): its reader
                // gets the end a cancelled run sends, as event 1, once.
                if((*run)->status == run_status::cancelled && (*run)->last_event_id == 0 && last == 0)
                    if(auto end = map_(run_cancelled{"cancelled"}, run_context{run_id, (*run)->thread_id}))
                    {
                        end->id = last + 1;
                        bool const sent = co_await send(*end);
                        if(!sent)
                            co_return stream_end::reader_gone;
                    }
                co_return stream_end::finished;
            }
            if(run && *run && (*run)->status == run_status::waiting && (*run)->last_event_id <= last)
                co_return stream_end::waiting;
        }
        // A local reader waits for this process's writer to have updated
        // what it reads from memory, not merely for the commit.
        if(local)
            co_await local_hub_.wait(run_id, last, options_.reader_poll);
        else
            co_await store_.hub().wait(run_id, last, options_.reader_poll);
    }
}

template<class Agent>
void run_manager_core<Agent>::attach(std::string const& run_id)
{
    std::lock_guard lock(mutex_);
    ++followed_[run_id];
    if(auto it = runs_.find(run_id); it != runs_.end() && it->second->readers++ == 0)
    {
        auto run = it->second;
        asio::post(run->strand, [run] { run->grace.cancel(); });
    }
}

template<class Agent>
void run_manager_core<Agent>::detach(std::string const& run_id)
{
    std::shared_ptr<run_slot> run;
    {
        std::lock_guard lock(mutex_);
        if(auto f = followed_.find(run_id); f != followed_.end() && --f->second == 0)
            followed_.erase(f);
        auto it = runs_.find(run_id);
        if(it == runs_.end())
            return;
        run = it->second;
        if(run->readers > 0 && --run->readers > 0)
            return;
    }
    arm_detach_timer(run);
}

template<class Agent>
void run_manager_core<Agent>::arm_detach_timer(std::shared_ptr<run_slot> const& run)
{
    asio::post(run->strand, [self = this->shared_from_this(), run] {
        run->grace.expires_after(self->options_.detach_grace);
        run->grace.async_wait([self, run](boost::system::error_code ec) {
            if(ec)
                return;
            std::lock_guard lock(self->mutex_);
            if(run->readers == 0 && self->runs_.count(run->id))
                self->cancel_local(run, "detached", true);
        });
    });
}

} // namespace detail

} // namespace agentio::threads

#endif
