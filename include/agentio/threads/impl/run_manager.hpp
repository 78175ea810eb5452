//
// agentio/threads/impl/run_manager.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The body of threads::run_manager: one shared core per manager, which runs
// the agent on a strand per run, journals its events (group-committed across
// runs by one loop), renews the leases of the runs it holds, takes over the
// runs of a process that died, and ends a run its clients left for longer
// than the detach grace.
//

#ifndef AGENTIO_THREADS_IMPL_RUN_MANAGER_HPP
#define AGENTIO_THREADS_IMPL_RUN_MANAGER_HPP

namespace agentio::threads {

namespace detail {

template<class Agent>
class run_manager_core : public std::enable_shared_from_this<run_manager_core<Agent>>
{
public:
    using mapping = std::function<std::optional<event_record>(run_event const&, run_context const&)>;
    /// Whether a record ends its run's stream.
    using final_test = std::function<bool(event_record const&)>;

    run_manager_core(asio::any_io_executor ex, thread_store& store, Agent const& agent, mapping map,
        final_test is_final, run_manager_options options)
        : ex_(std::move(ex))
        , store_(store)
        , agent_(agent)
        , map_(std::move(map))
        , is_final_(std::move(is_final))
        , options_(std::move(options))
        , journal_wake_(std::make_unique<async_queue<char>>(ex_, 1))
    {
        if(options_.holder.empty())
            options_.holder = boost::uuids::to_string(boost::uuids::random_generator()());
    }

    run_manager_core(run_manager_core const&) = delete;
    run_manager_core& operator=(run_manager_core const&) = delete;

    run_manager_options const& options() const noexcept { return options_; }
    thread_store& store() noexcept { return store_; }

    /// Starts the journal writer, the lease renewal and the takeover loops.
    void start()
    {
        spawn_loop(&run_manager_core::journal_loop);
        spawn_loop(&run_manager_core::renew_loop);
        if(options_.takeover_every.count() > 0)
            spawn_loop(&run_manager_core::takeover_loop);
    }

    /** Stops the loops and cancels the runs of this process. Their leases
        stay as they are: another process takes the runs over when they
        expire. Safe from any thread. */
    void stop()
    {
        if(stopped_.exchange(true))
            return;
        journal_wake_->close();
        std::lock_guard lock(mutex_);
        for(auto& [id, run] : runs_)
            cancel_local(run, "server stopping", false);
        for(auto& loop : loops_)
            asio::post(loop->strand, [loop] { loop->signal.emit(asio::cancellation_type::terminal); });
    }

    /// Runs of this process right now.
    std::size_t running() const
    {
        std::lock_guard lock(mutex_);
        return runs_.size();
    }

    struct started
    {
        std::string run_id = {};
    };

    /** Starts a run on a stored thread: `messages` (the user's turn) join the
        thread, and the agent runs on the whole thread in the background until
        it ends, whoever reads it. */
    asio::awaitable<result<started>> start_run(std::string thread_id, std::string owner,
        std::vector<llm::message> messages)
    {
        new_run nr{{}, std::move(thread_id), std::move(owner), options_.holder, options_.lease, std::move(messages)};
        return begin(std::move(nr));
    }

    /** Starts a run on a new thread, created with it in one write: `thread`
        names it (its id and owner); `messages` are its first turn. */
    asio::awaitable<result<started>> start_run(thread_info thread, std::vector<llm::message> messages)
    {
        new_run nr{{}, thread.id, thread.owner, options_.holder, options_.lease, std::move(messages)};
        nr.new_thread = std::move(thread);
        return begin(std::move(nr));
    }

    /** Sends a run's journal after event `after` to `send`, then its events
        as they are committed, until its final event.

        @param send called as `send(event_record const&)`, returns
        `asio::awaitable<bool>`: false when its client has gone.
        @param error set to the store's failure when the result is `store_failed`.
    */
    template<class Send>
    asio::awaitable<stream_end> stream(std::string run_id, std::string owner, std::int64_t after, Send send,
        error* failure = nullptr)
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
                    co_return stream_end::finished;
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

    /** Stops a run at once when this process runs it, else asks its holder
        to (it stops at its next lease renewal). A run waiting for decisions
        has no holder: it is ended here.
        @return false when the run is unknown, another owner's, or over. */
    asio::awaitable<result<bool>> cancel(std::string run_id, std::string owner, std::string reason = "cancelled")
    {
        {
            std::lock_guard lock(mutex_);
            if(auto it = runs_.find(run_id); it != runs_.end() && it->second->owner == owner)
            {
                cancel_local(it->second, std::move(reason), true);
                co_return true;
            }
        }
        auto requested = co_await store_.request_cancel(run_id, owner);
        if(!requested || !*requested)
            co_return requested;
        auto claimed = co_await store_.claim_waiting_run(run_id, owner, options_.holder, options_.lease);
        if(!claimed)
            co_return claimed.error();
        if(*claimed)
        {
            // Journal the end and close it, as the run itself would have.
            auto const& run = **claimed;
            std::vector<event_record> last;
            if(auto rec = map_(run_cancelled{reason}, run_context{run.id, run.thread_id}))
            {
                rec->id = run.last_event_id + 1;
                last.push_back(std::move(*rec));
            }
            auto finished = co_await store_.finish_run(run.id, options_.holder, last, run_status::cancelled, run.state);
            if(!finished)
                co_return finished.error();
        }
        co_return true;
    }

    /** Records a person's decision on a call the run waits for; the last
        decision resumes the run (in this process): approved calls run,
        rejected ones go back to the model as errors naming the reason. */
    asio::awaitable<result<decision_outcome>> decide(std::string run_id, std::string owner,
        agent::approval_decision decision)
    {
        for(int attempt = 0; attempt < 8; ++attempt)
        {
            auto found = co_await store_.find_run(run_id, owner);
            if(!found)
                co_return found.error();
            if(!*found)
                co_return decision_outcome::not_found;
            auto const& run = **found;
            if(run.status != run_status::waiting || !run.state.is_object())
                co_return decision_outcome::not_waiting;
            auto state = run.state.get_object();
            auto const* pending = state.if_contains("pending");
            if(!pending || !pending->is_array())
                co_return decision_outcome::not_waiting;
            json::object decisions;
            if(auto const* d = state.if_contains("decisions"); d && d->is_object())
                decisions = d->get_object();
            bool waits_for_it = false;
            for(auto const& p : pending->get_array())
                if(p.is_object() && p.get_object().if_contains("tool_call_id") &&
                    p.get_object().at("tool_call_id") == decision.tool_call_id.c_str())
                    waits_for_it = true;
            if(!waits_for_it || decisions.contains(decision.tool_call_id))
                co_return decision_outcome::unknown_call;
            json::object d;
            d["approved"] = decision.approved;
            d["reason"] = decision.reason;
            decisions[decision.tool_call_id] = std::move(d);
            bool const complete = decisions.size() >= pending->get_array().size();
            state["decisions"] = decisions;
            json::value const updated = state;
            auto stored = co_await store_.update_waiting_state(run_id, owner, run.state, updated);
            if(!stored)
                co_return stored.error();
            if(!*stored)
                continue; // another decision landed meanwhile: read again
            if(!complete)
                co_return decision_outcome::recorded;
            auto claimed = co_await store_.claim_waiting_run(run_id, owner, options_.holder, options_.lease);
            if(!claimed)
                co_return claimed.error();
            if(!*claimed)
                co_return decision_outcome::not_waiting; // resumed or cancelled by someone else
            co_await resume(std::move(**claimed), false);
            co_return decision_outcome::resumed;
        }
        co_return decision_outcome::not_waiting;
    }

private:
    struct run_slot
    {
        std::string id;
        std::string thread_id;
        std::string owner;
        asio::strand<asio::any_io_executor> strand;
        asio::cancellation_signal signal;
        // Journal state, under the manager's mutex.
        std::int64_t next_id = 1;   // of the next record, given when a batch is taken
        std::int64_t committed = 0; // the last id committed
        // Not yet handed to the writer: text deltas that follow each other are
        // merged here (nobody has seen them), so a slow store means fewer, larger
        // events rather than a backlog.
        std::vector<run_event> pending;
        // The last committed records, for readers in this process: they follow
        // the run from memory instead of querying the store for every event.
        std::deque<event_record> recent;
        std::size_t recent_bytes = 0;
        bool in_flight = false;
        std::optional<error> journal_failure;
        bool lease_lost = false;
        // Why it was cancelled; journaled as run_cancelled when `announce`.
        std::optional<std::string> cancel_reason;
        bool announce_cancel = true;
        // The run stopped for decisions: suspended rather than finished.
        bool suspending = false;
        json::object suspend_state;
        std::unique_ptr<async_queue<char>> committed_signal;
        std::size_t readers = 0;
        // Cancels the run when it has had no reader for the grace period; on the strand.
        asio::steady_timer grace;

        run_slot(std::string run, std::string thread, std::string who, asio::any_io_executor const& ex)
            : id(std::move(run))
            , thread_id(std::move(thread))
            , owner(std::move(who))
            , strand(asio::make_strand(ex))
            , committed_signal(std::make_unique<async_queue<char>>(ex, 1))
            , grace(strand)
        {
        }
    };

    struct loop_state
    {
        explicit loop_state(asio::any_io_executor const& ex) : strand(asio::make_strand(ex)) {}
        asio::strand<asio::any_io_executor> strand;
        asio::cancellation_signal signal;
    };

    template<class Member>
    void spawn_loop(Member member)
    {
        auto loop = std::make_shared<loop_state>(ex_);
        {
            std::lock_guard lock(mutex_);
            loops_.push_back(loop);
        }
        // The loop keeps the state alive: the manager may be destroyed first.
        asio::co_spawn(
            loop->strand, [self = this->shared_from_this(), member]() { return ((*self).*member)(); },
            asio::bind_cancellation_slot(loop->signal.slot(), [loop](std::exception_ptr) {}));
    }

    asio::awaitable<result<started>> begin(new_run nr)
    {
        started out{boost::uuids::to_string(boost::uuids::random_generator()())};
        nr.id = out.run_id;
        // The store hands the whole thread back: no second read.
        auto items = co_await store_.start_run(nr);
        if(!items)
            co_return items.error();
        std::vector<llm::message> conversation;
        conversation.reserve(items->size());
        for(auto& item : *items)
            conversation.push_back(std::move(item.message));
        launch(out.run_id, std::move(nr.thread_id), std::move(conversation), 0, 1, std::nullopt, std::move(nr.owner));
        co_return out;
    }

    // Under mutex_.
    void cancel_local(std::shared_ptr<run_slot> const& run, std::string reason, bool announce)
    {
        if(run->cancel_reason)
            return;
        run->cancel_reason = std::move(reason);
        run->announce_cancel = announce;
        asio::post(run->strand, [run] { run->signal.emit(asio::cancellation_type::terminal); });
    }

    // A run that could not start is ended, as far as the store lets us.
    asio::awaitable<void> abandon(std::string const& run_id, error const& why)
    {
        json::object state;
        state["error"] = why.message;
        std::span<event_record const> const none;
        co_await store_.finish_run(run_id, options_.holder, none, run_status::failed, state);
    }

    void launch(std::string run_id, std::string thread_id, std::vector<llm::message> conversation, unsigned rounds,
        std::int64_t next_id, std::optional<round_restart> restart, std::string owner = {},
        std::vector<agent::approval_decision> decisions = {})
    {
        auto run = std::make_shared<run_slot>(std::move(run_id), std::move(thread_id), std::move(owner), ex_);
        run->next_id = next_id;
        run->committed = next_id - 1;
        {
            std::lock_guard lock(mutex_);
            runs_[run->id] = run;
        }
        arm_detach_timer(run);
        asio::co_spawn(
            run->strand,
            [self = this->shared_from_this(), run, conversation = std::move(conversation), rounds, restart,
                decisions = std::move(decisions)]() mutable {
                return self->execute(run, std::move(conversation), rounds, restart, std::move(decisions));
            },
            asio::detached);
    }

    // Queues an event for the journal writer; false when the run must stop.
    bool record(run_slot& run, run_event const& e)
    {
        std::lock_guard lock(mutex_);
        if(run.lease_lost || run.journal_failure)
            return false;
        if(!run.pending.empty())
            if(auto const* delta = as_text_delta(e))
                if(auto* last = as_text_delta(run.pending.back()))
                {
                    last->text += delta->text;
                    return true;
                }
        run.pending.push_back(e);
        journal_wake_->try_push('!');
        return true;
    }

    template<class RunEvent>
    static auto as_text_delta(RunEvent& e) noexcept
    {
        auto* ev = std::get_if<agent::event>(&e);
        return ev ? std::get_if<agent::text_delta>(ev) : nullptr;
    }

    // Records committed for a run of this process after `after`, from memory;
    // nothing when the run is not here or memory does not reach back that far.
    std::optional<std::vector<event_record>> recent_after(std::string_view run_id, std::int64_t after) const
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

    static constexpr std::size_t recent_bytes_kept = 64 * 1024;

    // Under mutex_: the run's queued events as journal records, their ids
    // given now, in order (nobody sees a record before it is committed). The
    // run is in flight until `settle` says how the write that carries them
    // went: one write at a time per run keeps its ids in order.
    std::vector<event_record> take_pending(run_slot& run)
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

    // Under mutex_: the outcome of a write that carried the run's `records`.
    void settle(std::shared_ptr<run_slot> const& slot, std::vector<event_record>& records, bool lost,
        std::optional<error> failure)
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

    // Takes the run's queued events to commit them with a write of the run's
    // own (a checkpoint, its end) once the journal writer has none of them in
    // flight; nothing when the run cannot write any more.
    asio::awaitable<std::optional<std::vector<event_record>>> take_journal(run_slot& run)
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

    // Settles a run's own write (`ok`: the store's answer) that carried `records`.
    template<class Result>
    bool settle_write(std::shared_ptr<run_slot> const& run, std::vector<event_record>& records, Result const& ok)
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

    asio::awaitable<void> execute(std::shared_ptr<run_slot> run, std::vector<llm::message> conversation,
        unsigned rounds, std::optional<round_restart> restart, std::vector<agent::approval_decision> decisions)
    {
        auto const began = std::chrono::steady_clock::now();
        json::object state;
        std::int64_t checkpoint_event = run->committed;
        bool store_failed = false;
        if(restart)
        {
            record(*run, *restart);
        }
        // A round's last events, its messages and the run's state, in one write.
        auto save_checkpoint = [&](std::span<llm::message const> messages, unsigned rounds_done,
                                   json::object extra) -> asio::awaitable<bool> {
            auto events = co_await take_journal(*run);
            if(!events)
                co_return false;
            {
                std::lock_guard lock(mutex_);
                checkpoint_event = events->empty() ? run->committed : events->back().id;
            }
            state["event_id"] = checkpoint_event;
            for(auto& [key, value] : extra)
                state[key] = std::move(value);
            auto saved = co_await store_.checkpoint(run->id, options_.holder, *events, messages, rounds_done, state);
            co_return settle_write(run, *events, saved);
        };
        auto sink = [&](agent::event const& e) -> asio::awaitable<bool> {
            if(auto const* complete = std::get_if<agent::round_complete>(&e))
            {
                json::object usage;
                usage["input_tokens"] = complete->usage.input_tokens;
                usage["output_tokens"] = complete->usage.output_tokens;
                co_return co_await save_checkpoint(complete->messages, complete->iteration, std::move(usage));
            }
            if(auto const* wait = std::get_if<agent::approval_required>(&e))
            {
                // Journal one event per call, store the model's turn, then sleep.
                json::array pending;
                for(auto const& c : wait->calls)
                {
                    if(!record(*run, approval_pending{c.tool_call_id, c.tool, c.input}))
                        co_return false;
                    json::object p;
                    p["tool_call_id"] = c.tool_call_id;
                    p["tool"] = c.tool;
                    p["input"] = c.input;
                    pending.push_back(std::move(p));
                }
                json::object extra;
                extra["pending"] = std::move(pending);
                extra["decisions"] = json::object{};
                extra["input_tokens"] = wait->usage.input_tokens;
                extra["output_tokens"] = wait->usage.output_tokens;
                if(!co_await save_checkpoint(wait->messages, wait->iteration - 1, std::move(extra)))
                    co_return false;
                run->suspending = true;
                co_return true;
            }
            co_return record(*run, run_event{e});
        };
        auto result = co_await asio::co_spawn(run->strand, agent_.run(conversation, sink, rounds, decisions),
            asio::bind_cancellation_slot(run->signal.slot(), asio::use_awaitable));

        std::optional<std::string> cancel_reason;
        bool announce = true;
        bool lost = false;
        {
            std::lock_guard lock(mutex_);
            cancel_reason = run->cancel_reason;
            announce = run->announce_cancel;
            lost = run->lease_lost;
            store_failed = run->journal_failure.has_value();
        }
        // A run stopped with its process, lost to another process or to a
        // failed store is left as the store has it: another process (or this
        // one, restarted) takes it over when its lease expires.
        bool const abandoned = result.status == agent::run_result::outcome::cancelled && !announce;
        if(!lost && !store_failed && !abandoned)
        {
            run_status status = run_status::completed;
            if(result.status == agent::run_result::outcome::suspended && run->suspending)
                status = run_status::waiting;
            else if(result.status == agent::run_result::outcome::failed)
                status = run_status::failed;
            else if(result.status == agent::run_result::outcome::cancelled)
            {
                status = run_status::cancelled;
                if(announce)
                    record(*run, run_cancelled{cancel_reason.value_or("cancelled")});
            }
            // The last events and the run's end, in one write.
            if(auto events = co_await take_journal(*run))
            {
                if(status == run_status::waiting)
                {
                    auto ended = co_await store_.suspend_run(run->id, options_.holder, *events, state);
                    settle_write(run, *events, ended);
                }
                else
                {
                    state["status_reason"] = result.error_message;
                    auto ended = co_await store_.finish_run(run->id, options_.holder, *events, status, state);
                    settle_write(run, *events, ended);
                }
            }
        }
        run->grace.cancel();
        if(options_.on_end)
            options_.on_end(run_context{run->id, run->thread_id}, result, cancel_reason.value_or(""),
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began));
        {
            std::lock_guard lock(mutex_);
            runs_.erase(run->id);
        }
        // Readers following it from memory look at the store now (it may be
        // waiting for a decision, or another process may run it).
        local_hub_.wake_all(run->id);
    }

    // One writer commits every run's pending events together: the number of
    // transactions follows the store's speed, not the number of events.
    asio::awaitable<void> journal_loop()
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
                bool const lost = refused &&
                    std::find(refused->begin(), refused->end(), slots[i]->id) != refused->end();
                settle(slots[i], batch[i].events, lost, refused ? std::nullopt : std::optional<error>(refused.error()));
            }
        }
    }

    asio::awaitable<void> sleep(std::chrono::milliseconds d)
    {
        asio::steady_timer t(co_await asio::this_coro::executor, d);
        co_await t.async_wait(asio::use_awaitable);
    }

    // Renews this process's leases, passes on cancel requests and readers
    // that follow a run from another process, and tells the holders of the
    // runs this process's clients follow that someone reads them here.
    asio::awaitable<void> renew_loop()
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
                else if(it->second->readers == 0 && h->remote_reader_age &&
                    *h->remote_reader_age <= remote_reader_window)
                    arm_detach_timer(it->second); // read elsewhere: the grace starts again
            }
        }
    }

    asio::awaitable<void> takeover_loop()
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
        }
    }

    // Continues a run from its last checkpoint: one whose process died
    // (`restarted`: its interrupted round is retracted), or one whose calls
    // were all decided.
    asio::awaitable<void> resume(run_info run, bool restarted)
    {
        auto items = co_await store_.load_items(run.thread_id);
        if(!items)
            co_return; // the lease expires again; someone retries
        std::vector<llm::message> conversation;
        for(auto& item : *items)
            conversation.push_back(std::move(item.message));
        std::int64_t discard_after = 0;
        std::vector<agent::approval_decision> decisions;
        if(auto const* o = run.state.if_object())
        {
            if(auto const* e = o->if_contains("event_id"); e && e->is_int64())
                discard_after = e->get_int64();
            if(auto const* d = o->if_contains("decisions"); d && d->is_object())
                for(auto const& [id, v] : d->get_object())
                    if(auto const* dv = v.if_object())
                    {
                        auto const* approved = dv->if_contains("approved");
                        auto const* reason = dv->if_contains("reason");
                        decisions.push_back({std::string(id), approved && approved->is_bool() && approved->get_bool(),
                            reason && reason->is_string() ? std::string(reason->get_string()) : std::string()});
                    }
        }
        std::optional<round_restart> retract;
        if(restarted)
            retract = round_restart{run.rounds + 1, discard_after};
        launch(run.id, run.thread_id, std::move(conversation), run.rounds, run.last_event_id + 1, retract, run.owner,
            std::move(decisions));
    }

    void attach(std::string const& run_id)
    {
        std::lock_guard lock(mutex_);
        ++followed_[run_id];
        if(auto it = runs_.find(run_id); it != runs_.end() && it->second->readers++ == 0)
        {
            auto run = it->second;
            asio::post(run->strand, [run] { run->grace.cancel(); });
        }
    }

    void detach(std::string const& run_id)
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

    // Cancels the run when nobody reads it for the grace period. A reader
    // attaching meanwhile cancels the wait (`attach`).
    void arm_detach_timer(std::shared_ptr<run_slot> const& run)
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

    asio::any_io_executor ex_;
    thread_store& store_;
    Agent const& agent_;
    mapping map_;
    final_test is_final_;
    run_manager_options options_;
    std::unique_ptr<async_queue<char>> journal_wake_;
    event_hub local_hub_; // what the writer has committed and kept in memory
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<run_slot>, std::less<>> runs_;
    // Runs this process's clients follow, wherever they run: readers of each.
    std::map<std::string, std::size_t, std::less<>> followed_;
    std::vector<std::shared_ptr<loop_state>> loops_;
    std::atomic<bool> stopped_{false};
};

} // namespace detail

} // namespace agentio::threads

#endif
