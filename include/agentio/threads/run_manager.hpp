//
// agentio/threads/run_manager.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Durable runs: an agent's run on a stored thread, detached from the client
// that started it. Every event the run emits is journaled (committed in
// batches across runs, then published), clients read the journal from any
// point and follow it live, each completed round is checkpointed, and the
// process holding a run renews its lease; when a process dies, another takes
// its runs over and resumes each from its last checkpoint.
//

#ifndef AGENTIO_THREADS_RUN_MANAGER_HPP
#define AGENTIO_THREADS_RUN_MANAGER_HPP

#include <agentio/agent/orchestrator.hpp>
#include <agentio/async_queue.hpp>
#include <agentio/llm/message_json.hpp>
#include <agentio/threads.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>

namespace agentio::threads {

/** The interrupted round of a run taken over from a process that died is
    asked again: what the journal holds after `discard_after` belongs to it
    and must not be shown (clients drop it; the round's new events follow). */
struct round_restart
{
    unsigned iteration = 0;
    std::int64_t discard_after = 0;
};

/// The run was stopped (cancelled, or abandoned by its clients).
struct run_cancelled
{
    std::string reason = {};
};

/// A call waits for a person's decision; one event per call (the run then
/// sleeps: `run_status::waiting`, until `run_manager::decide`).
struct approval_pending
{
    std::string tool_call_id = {};
    std::string tool = {};
    json::value input = {};
    /// The call was cut by a crash and may or may not have acted (see agent::approval_request::in_doubt).
    bool in_doubt = false;
};

/// What a durable run journals: the agent's events and the run's own.
using run_event = std::variant<agent::event, round_restart, run_cancelled, approval_pending>;

/// What became of a decision on a call (`run_manager::decide`).
enum class decision_outcome
{
    /// Recorded; other calls of the run still wait for theirs.
    recorded,
    /// The last decision: the run goes on.
    resumed,
    /// No such run (or another owner's).
    not_found,
    /// The run is not waiting for decisions (over, running, resumed by another).
    not_waiting,
    /// The run does not wait for a decision on this call (unknown, or decided).
    unknown_call
};

/// Names a run's events are journaled under, for the mapping function.
struct run_context
{
    std::string_view run_id = {};
    std::string_view thread_id = {};
};

/// How a run manager behaves.
struct run_manager_options
{
    /// This process, as lease holder; unique among the processes sharing a
    /// store. Empty: host-independent random id.
    std::string holder = {};
    /// A run whose holder stops renewing is taken over this long after the
    /// last renewal. With the defaults a dead process's runs move within
    /// about 2.7 s; a live one would have to miss three renewals in a row to
    /// lose one (and then it is fenced off, never duplicated).
    std::chrono::milliseconds lease = std::chrono::milliseconds(2500);
    /// How often leases are renewed (and cancel requests noticed): one
    /// statement for all the runs of the process.
    std::chrono::milliseconds renew_every = std::chrono::milliseconds(800);
    /// How often this process looks for runs to take over (one indexed
    /// query); zero: never. A process alone on its store takes over the runs
    /// its previous life left when it restarts.
    std::chrono::milliseconds takeover_every = std::chrono::milliseconds(250);
    /// A run with no reader for this long is cancelled. Readers in other
    /// processes sharing the store count: they say so at each renewal.
    std::chrono::milliseconds detach_grace = std::chrono::seconds(30);
    /** How long the journal writer lets events gather after the first
        before it commits them: fewer, larger transactions, and events that
        a round's checkpoint or the run's end takes meanwhile need none of
        their own. Readers see an event at most this much later. */
    std::chrono::milliseconds journal_delay = std::chrono::milliseconds(5);
    /// How long a reader waits for a wake-up before looking at the journal
    /// anyway (a wake-up lost with a connection costs at most this).
    std::chrono::milliseconds reader_poll = std::chrono::seconds(2);
    /** Called when a run of this process ends (for a log line): what the
        agent did, why it was cancelled if it was ("cancelled", "detached",
        "lease lost", "store failed", "server stopping"), and how long this
        process ran it. */
    std::function<void(run_context const&, agent::run_result const&, std::string_view cancel_reason,
        std::chrono::milliseconds elapsed)>
        on_end = {};
};

/// How a reader's stream ended.
enum class stream_end
{
    /// The run's final event was sent.
    finished,
    /// The reader's `send` returned false (its client left).
    reader_gone,
    /// The run sleeps until decisions on its calls (its approval events were sent).
    waiting,
    /// The store failed; `error` says how.
    store_failed
};

namespace detail {
template<class Agent>
class run_manager_core; // impl/run_manager.hpp, and its parts beside it: execution, journal, readers, leases, approvals
} // namespace detail

/** Durable runs of one agent on a @ref thread_store.

    @tparam Agent an `agent::orchestrator<...>`

    @code
    threads::run_manager runs(ex, store, agent, to_sse, {.holder = "replica-1"});
    runs.start();
    auto run = co_await runs.start_run(thread_id, owner, {llm::message::user("Hola")});
    co_await runs.stream(run->run_id, 0, [&](threads::event_record const& e) -> asio::awaitable<bool> {
        co_return !co_await writer.send(e.type, e.data, std::to_string(e.id));
    });
    @endcode

    The mapping function turns each @ref run_event into the record journaled
    (the SSE event name and data, typically), or nothing to journal none.
    Thread-safe; the runs run on strands of the executor.
*/
template<class Agent>
class run_manager
{
    using core_type = detail::run_manager_core<Agent>;

public:
    /// Turns a run's event into the record journaled, or nothing.
    using mapping = typename core_type::mapping;
    /// Whether a record ends its run's stream.
    using final_test = typename core_type::final_test;
    using started = typename core_type::started;

    /** @param ex where the runs and the manager's loops run (on strands)
        @param store where threads, runs and journals are kept; outlives the runs
        @param agent the orchestrator; outlives the runs
    */
    run_manager(asio::any_io_executor ex, thread_store& store, Agent const& agent, mapping map, final_test is_final,
        run_manager_options options = {})
        : core_(std::make_shared<core_type>(std::move(ex), store, agent, std::move(map), std::move(is_final),
              std::move(options)))
    {
    }

    run_manager(run_manager const&) = delete;
    run_manager& operator=(run_manager const&) = delete;

    /// Stops the loops and the runs (@ref stop); what is still unwinding keeps
    /// the manager's state alive, not the manager.
    ~run_manager() { core_->stop(); }

    run_manager_options const& options() const noexcept { return core_->options(); }
    thread_store& store() noexcept { return core_->store(); }

    /// Starts the journal writer, the lease renewal and the takeover loops.
    void start() { core_->start(); }

    /** Stops the loops and cancels the runs of this process. Their leases
        stay as they are: another process takes the runs over when they
        expire. Safe from any thread. */
    void stop() { core_->stop(); }

    /// Runs of this process right now.
    std::size_t running() const { return core_->running(); }

    /** Starts a run on a stored thread: `messages` (the user's turn) join the
        thread, and the agent runs on the whole thread in the background until
        it ends, whoever reads it.

        While another run is in progress on the thread, `when_busy` decides:
        `reject` (`errc::thread_busy`), `enqueue` (the run waits in the
        thread's line, `started::status` is `queued`; it starts after the
        runs ahead of it end, in whichever process sharing the store looks
        first, even one started after this one died), or `interrupt` (as
        `enqueue`, and the run in progress is stopped at its next safe point,
        keeping the rounds it finished; one waiting for decisions is ended).
        A queued run's stream waits for its first event.

        `traceparent`, the request's (its server span's), makes the run's
        `invoke_agent` span its child, and the start's and the run's writes
        spans of it when the store records them (@ref thread_store::under).
        A queued run, or one taken over, starts a trace of its own. */
    asio::awaitable<result<started>> start_run(std::string thread_id, std::string owner,
        std::vector<llm::message> messages, busy_policy when_busy = busy_policy::reject, std::string traceparent = {})
    {
        return core_->start_run(std::move(thread_id), std::move(owner), std::move(messages), when_busy,
            std::move(traceparent));
    }

    /** Starts a run on a new thread, created with the run in one write:
        `thread` names it (its id, owner, title, ...); `messages` are its
        first turn; `traceparent` as above. */
    asio::awaitable<result<started>> start_run(thread_info thread, std::vector<llm::message> messages,
        std::string traceparent = {})
    {
        return core_->start_run(std::move(thread), std::move(messages), std::move(traceparent));
    }

    /** Sends a run's journal after event `after` to `send`, then its events
        as they are committed, until its final event (or until it sleeps
        waiting for decisions).

        @param send called as `send(event_record const&)`, returns
        `asio::awaitable<bool>`: false when its client has gone.
        @param failure set to the store's failure when the result is `store_failed`.
    */
    template<class Send>
    asio::awaitable<stream_end> stream(std::string run_id, std::string owner, std::int64_t after, Send send,
        error* failure = nullptr)
    {
        return core_->stream(std::move(run_id), std::move(owner), after, std::move(send), failure);
    }

    /** Stops a run at once when this process runs it, else asks its holder
        to (it stops at its next lease renewal); a run waiting for decisions
        is ended here. False when the run is unknown, another owner's, or over. */
    asio::awaitable<result<bool>> cancel(std::string run_id, std::string owner, std::string reason = "cancelled")
    {
        return core_->cancel(std::move(run_id), std::move(owner), std::move(reason));
    }

    /** Records a person's decision on a call the run waits for; the last
        decision resumes the run in this process. */
    asio::awaitable<result<decision_outcome>> decide(std::string run_id, std::string owner,
        agent::approval_decision decision)
    {
        return core_->decide(std::move(run_id), std::move(owner), std::move(decision));
    }

private:
    std::shared_ptr<core_type> core_;
};

} // namespace agentio::threads

#include <agentio/threads/impl/run_manager.hpp>

#endif
