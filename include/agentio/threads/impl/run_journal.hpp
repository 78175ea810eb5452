//
// agentio/threads/impl/run_journal.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The journal of run_manager's core: a run's events queued (text deltas
// merged), given their ids when the one writer takes them, committed for all
// runs together, and the last of them kept in memory for this process's
// readers. Apart because it is the manager's hot path, with its own rules:
// one write in flight per run, ids given in order, a failed or lost write
// cancelling the run. Included by impl/run_manager.hpp.
//

#ifndef AGENTIO_THREADS_IMPL_RUN_JOURNAL_HPP
#define AGENTIO_THREADS_IMPL_RUN_JOURNAL_HPP

namespace agentio::threads {

namespace detail {

template<class Agent>
template<class RunEvent>
auto run_manager_core<Agent>::as_text_delta(RunEvent& e) noexcept
{
    auto* ev = std::get_if<agent::event>(&e);
    return ev ? std::get_if<agent::text_delta>(ev) : nullptr;
}

template<class Agent>
template<class RunEvent>
auto run_manager_core<Agent>::as_input_delta(RunEvent& e) noexcept
{
    auto* ev = std::get_if<agent::event>(&e);
    return ev ? std::get_if<agent::tool_input_delta>(ev) : nullptr;
}

template<class Agent>
bool run_manager_core<Agent>::record(run_slot& run, run_event const& e)
{
    std::lock_guard lock(mutex_);
    if(run.lease_lost || run.journal_failure)
        return false;
    if(!run.pending.empty())
    {
        if(auto const* delta = as_text_delta(e))
            if(auto* last = as_text_delta(run.pending.back()))
            {
                last->text += delta->text;
                return true;
            }
        // A call's argument fragments merge the same way: fewer, larger events when the store is slow.
        if(auto const* part = as_input_delta(e))
            if(auto* last = as_input_delta(run.pending.back()); last && last->tool_call_id == part->tool_call_id)
            {
                last->partial_json += part->partial_json;
                return true;
            }
    }
    run.pending.push_back(e);
    journal_wake_->try_push('!');
    return true;
}

template<class Agent>
std::optional<std::vector<event_record>> run_manager_core<Agent>::recent_after(std::string_view run_id,
    std::int64_t after) const
{
    std::lock_guard lock(mutex_);
    auto it = runs_.find(run_id);
    if(it == runs_.end())
        return std::nullopt;
    auto const& run = *it->second;
    if(after >= run.committed)
        return std::vector<event_record>{};
    if(run.recent.empty() || run.recent.front().id > after + 1)
        return std::nullopt;
    std::vector<event_record> out;
    for(auto const& r : run.recent)
        if(r.id > after)
            out.push_back(r);
    return out;
}

template<class Agent>
std::vector<event_record> run_manager_core<Agent>::take_pending(run_slot& run)
{
    std::vector<event_record> out;
    out.reserve(run.pending.size());
    for(auto const& e : run.pending)
        if(auto rec = map_(e, run_context{run.id, run.thread_id}))
        {
            rec->id = run.next_id++;
            out.push_back(std::move(*rec));
        }
    run.pending.clear();
    run.in_flight = !out.empty();
    return out;
}

template<class Agent>
void run_manager_core<Agent>::settle(std::shared_ptr<run_slot> const& slot, std::vector<event_record>& records,
    bool lost, std::optional<error> failure)
{
    auto& run = *slot;
    run.in_flight = false;
    if(failure)
        run.journal_failure = std::move(failure);
    else if(lost)
        run.lease_lost = true;
    else if(!records.empty())
    {
        run.committed = records.back().id;
        for(auto& r : records)
        {
            run.recent_bytes += r.data.size() + r.type.size();
            run.recent.push_back(std::move(r));
        }
        while(run.recent.size() > 1 && run.recent_bytes > recent_bytes_kept)
        {
            run.recent_bytes -= run.recent.front().data.size() + run.recent.front().type.size();
            run.recent.pop_front();
        }
        local_hub_.publish(run.id, run.committed);
    }
    if(run.lease_lost || run.journal_failure)
        cancel_local(slot, run.lease_lost ? "lease lost" : "store failed", false);
    else if(!run.pending.empty())
        journal_wake_->try_push('!');
    run.committed_signal->try_push('!');
}

template<class Agent>
asio::awaitable<std::optional<std::vector<event_record>>> run_manager_core<Agent>::take_journal(run_slot& run)
{
    for(;;)
    {
        {
            std::lock_guard lock(mutex_);
            if(run.lease_lost || run.journal_failure || stopped_)
                co_return std::nullopt;
            if(!run.in_flight)
                co_return take_pending(run);
        }
        co_await run.committed_signal->pop_for(std::chrono::seconds(1));
    }
}

template<class Agent>
template<class Result>
bool run_manager_core<Agent>::settle_write(std::shared_ptr<run_slot> const& run, std::vector<event_record>& records,
    Result const& ok)
{
    std::lock_guard lock(mutex_);
    if(ok)
        settle(run, records, false, std::nullopt);
    else if(ok.error().code == errc::lease_lost)
        settle(run, records, true, std::nullopt);
    else
        settle(run, records, false, ok.error());
    return static_cast<bool>(ok);
}

template<class Agent>
asio::awaitable<void> run_manager_core<Agent>::journal_loop()
{
    std::vector<run_events> batch;
    std::vector<std::shared_ptr<run_slot>> slots;
    for(;;)
    {
        auto woke = co_await journal_wake_->pop();
        if(!woke)
            break;
        if(options_.journal_delay.count() > 0)
            co_await sleep(options_.journal_delay);
        batch.clear();
        slots.clear();
        {
            std::lock_guard lock(mutex_);
            for(auto& [id, run] : runs_)
                if(!run->pending.empty() && !run->in_flight && !run->lease_lost && !run->journal_failure)
                {
                    run_events taken{run->id, take_pending(*run)};
                    if(taken.events.empty())
                        continue;
                    batch.push_back(std::move(taken));
                    slots.push_back(run);
                }
        }
        if(batch.empty())
            continue;
        auto refused = co_await store_.append_events(options_.holder, batch);
        std::lock_guard lock(mutex_);
        for(std::size_t i = 0; i < slots.size(); ++i)
        {
            bool const lost = refused && std::find(refused->begin(), refused->end(), slots[i]->id) != refused->end();
            settle(slots[i], batch[i].events, lost, refused ? std::nullopt : std::optional<error>(refused.error()));
        }
    }
}

} // namespace detail

} // namespace agentio::threads

#endif
