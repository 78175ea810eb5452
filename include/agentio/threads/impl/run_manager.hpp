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
// This file holds the core's definition (its state, and each part's members
// declared under the file that defines them) and its life: construction and
// the loops' start and stop. The parts share one mutex and one map of runs,
// so they stay members of one class; their bodies are apart, in the way of
// Beast's websocket::stream:
//
//   run_execution.hpp  a run's life: start, resume, the agent's run, its end, cancel
//   run_journal.hpp    the journal: queued events, the group-committing writer, memory
//   run_readers.hpp    readers: streams, and the detach grace of a run nobody reads
//   run_leases.hpp     leases: renewal (and what it carries), takeover of expired runs
//   run_approvals.hpp  decisions on the calls a waiting run asks about
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
        final_test is_final, run_manager_options options);

    run_manager_core(run_manager_core const&) = delete;
    run_manager_core& operator=(run_manager_core const&) = delete;

    run_manager_options const& options() const noexcept { return options_; }
    thread_store& store() noexcept { return store_; }

    /// Starts the journal writer, the lease renewal and the takeover loops.
    void start();

    /** Stops the loops and cancels the runs of this process. Their leases
        stay as they are: another process takes the runs over when they
        expire. Safe from any thread. */
    void stop();

    /// Runs of this process right now.
    std::size_t running() const
    {
        std::lock_guard lock(mutex_);
        return runs_.size();
    }

    struct started
    {
        std::string run_id = {};
        /// `running`, or `queued`: in the thread's line (`busy_policy::enqueue`, `interrupt`).
        run_status status = run_status::running;
        /// For a queued run: how many runs are ahead of it, the one in progress included.
        std::size_t ahead = 0;
    };

    // run_execution.hpp

    /** Starts a run on a stored thread: `messages` (the user's turn) join the
        thread, and the agent runs on the whole thread in the background until
        it ends, whoever reads it. */
    asio::awaitable<result<started>> start_run(std::string thread_id, std::string owner,
        std::vector<llm::message> messages, busy_policy when_busy = busy_policy::reject, std::string traceparent = {});

    /** Starts a run on a new thread, created with it in one write: `thread`
        names it (its id and owner); `messages` are its first turn. */
    asio::awaitable<result<started>> start_run(thread_info thread, std::vector<llm::message> messages,
        std::string traceparent = {});

    /** Stops a run at once when this process runs it, else asks its holder
        to (it stops at its next lease renewal). A run waiting for decisions
        has no holder: it is ended here.
        @return false when the run is unknown, another owner's, or over. */
    asio::awaitable<result<bool>> cancel(std::string run_id, std::string owner, std::string reason = "cancelled");

    // run_readers.hpp

    /** Sends a run's journal after event `after` to `send`, then its events
        as they are committed, until its final event.

        @param send called as `send(event_record const&)`, returns
        `asio::awaitable<bool>`: false when its client has gone.
        @param error set to the store's failure when the result is `store_failed`.
    */
    template<class Send>
    asio::awaitable<stream_end> stream(std::string run_id, std::string owner, std::int64_t after, Send send,
        error* failure = nullptr);

    // run_approvals.hpp

    /** Records a person's decision on a call the run waits for; the last
        decision resumes the run (in this process): approved calls run,
        rejected ones go back to the model as errors naming the reason. */
    asio::awaitable<result<decision_outcome>> decide(std::string run_id, std::string owner,
        agent::approval_decision decision);

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
        // The request's trace, when it started here: the parent of the run's
        // spans, and of its writes (the store `under` it); else the store itself.
        std::string traceparent;
        std::shared_ptr<thread_store> traced;

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
    void spawn_loop(Member member);

    asio::awaitable<void> sleep(std::chrono::milliseconds d);

    // run_execution.hpp

    asio::awaitable<result<started>> begin(new_run nr, std::string traceparent);

    // Under mutex_.
    void cancel_local(std::shared_ptr<run_slot> const& run, std::string reason, bool announce);

    // A run that could not start is ended, as far as the store lets us.
    asio::awaitable<void> abandon(std::string const& run_id, error const& why);

    void launch(std::string run_id, std::string thread_id, std::vector<llm::message> conversation, unsigned rounds,
        std::int64_t next_id, std::optional<round_restart> restart, std::string owner = {},
        std::vector<agent::approval_decision> decisions = {}, std::optional<thread_summary> summary = {},
        std::vector<agent::earlier_call> earlier = {}, std::string traceparent = {});

    asio::awaitable<void> execute(std::shared_ptr<run_slot> run, std::vector<llm::message> conversation,
        unsigned rounds, std::optional<round_restart> restart, std::vector<agent::approval_decision> decisions,
        std::optional<thread_summary> summary, std::vector<agent::earlier_call> earlier);

    // Continues a run from its last checkpoint: one whose process died
    // (`restarted`: its interrupted round is retracted), or one whose calls
    // were all decided.
    asio::awaitable<void> resume(run_info run, bool restarted);

    // run_journal.hpp

    // Queues an event for the journal writer; false when the run must stop.
    bool record(run_slot& run, run_event const& e);

    template<class RunEvent>
    static auto as_text_delta(RunEvent& e) noexcept;

    template<class RunEvent>
    static auto as_input_delta(RunEvent& e) noexcept;

    // Records committed for a run of this process after `after`, from memory;
    // nothing when the run is not here or memory does not reach back that far.
    std::optional<std::vector<event_record>> recent_after(std::string_view run_id, std::int64_t after) const;

    static constexpr std::size_t recent_bytes_kept = 64 * 1024;

    // Under mutex_: the run's queued events as journal records, their ids
    // given now, in order (nobody sees a record before it is committed). The
    // run is in flight until `settle` says how the write that carries them
    // went: one write at a time per run keeps its ids in order.
    std::vector<event_record> take_pending(run_slot& run);

    // Under mutex_: the outcome of a write that carried the run's `records`.
    void settle(std::shared_ptr<run_slot> const& slot, std::vector<event_record>& records, bool lost,
        std::optional<error> failure);

    // Takes the run's queued events to commit them with a write of the run's
    // own (a checkpoint, its end) once the journal writer has none of them in
    // flight; nothing when the run cannot write any more.
    asio::awaitable<std::optional<std::vector<event_record>>> take_journal(run_slot& run);

    // Settles a run's own write (`ok`: the store's answer) that carried `records`.
    template<class Result>
    bool settle_write(std::shared_ptr<run_slot> const& run, std::vector<event_record>& records, Result const& ok);

    // One writer commits every run's pending events together: the number of
    // transactions follows the store's speed, not the number of events.
    asio::awaitable<void> journal_loop();

    // run_leases.hpp

    // Renews this process's leases, passes on cancel requests and readers
    // that follow a run from another process, and tells the holders of the
    // runs this process's clients follow that someone reads them here.
    asio::awaitable<void> renew_loop();

    asio::awaitable<void> takeover_loop();

    // Starts, in this process, the queued runs whose turn has come (on any
    // thread): after a run of this process ends, and at each takeover look.
    asio::awaitable<void> start_queued();

    // run_readers.hpp

    void attach(std::string const& run_id);

    void detach(std::string const& run_id);

    // Cancels the run when nobody reads it for the grace period. A reader
    // attaching meanwhile cancels the wait (`attach`).
    void arm_detach_timer(std::shared_ptr<run_slot> const& run);

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

template<class Agent>
run_manager_core<Agent>::run_manager_core(asio::any_io_executor ex, thread_store& store, Agent const& agent,
    mapping map, final_test is_final, run_manager_options options)
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

template<class Agent>
void run_manager_core<Agent>::start()
{
    spawn_loop(&run_manager_core::journal_loop);
    spawn_loop(&run_manager_core::renew_loop);
    if(options_.takeover_every.count() > 0)
        spawn_loop(&run_manager_core::takeover_loop);
}

template<class Agent>
void run_manager_core<Agent>::stop()
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

template<class Agent>
template<class Member>
void run_manager_core<Agent>::spawn_loop(Member member)
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

template<class Agent>
asio::awaitable<void> run_manager_core<Agent>::sleep(std::chrono::milliseconds d)
{
    asio::steady_timer t(co_await asio::this_coro::executor, d);
    co_await t.async_wait(asio::use_awaitable);
}

} // namespace detail

} // namespace agentio::threads

#include <agentio/threads/impl/run_approvals.hpp>
#include <agentio/threads/impl/run_execution.hpp>
#include <agentio/threads/impl/run_journal.hpp>
#include <agentio/threads/impl/run_leases.hpp>
#include <agentio/threads/impl/run_readers.hpp>

#endif
