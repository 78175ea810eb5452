//
// agentio/threads.hpp
// ~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Conversations that outlive a request and a process: threads and their
// messages in order, runs with their event journal, checkpoints after each
// completed round, and leases saying which process runs a run. One
// interface, `thread_store`, with two backends: SQLite, embedded
// (<agentio/threads/sqlite_store.hpp>), and PostgreSQL, shared by replicas
// (<agentio/threads/postgres_store.hpp>).
//
// Ordering is by sequence, never by clock: a thread's items by `seq`, a
// run's events by `id`, both increasing without gaps. Event ids are given by
// the process holding the run's lease and written only while it still holds
// it, so a run taken over by another process continues the same sequence.
//

#ifndef AGENTIO_THREADS_HPP
#define AGENTIO_THREADS_HPP

#include <agentio/async_queue.hpp>
#include <agentio/config.hpp>
#include <agentio/environment.hpp>
#include <agentio/llm/conversation.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/system/error_code.hpp>
#include <boost/system/result.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::threads {

namespace asio = boost::asio;
namespace json = boost::json;
namespace system = boost::system;

/// Wall-clock time as stored: milliseconds since the Unix epoch.
using timestamp = std::chrono::sys_time<std::chrono::milliseconds>;

/// The current time, as stored.
inline timestamp now() noexcept
{
    return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
}

/// Failures of a store beyond its database's own.
enum class errc
{
    /// The run's lease is held by another process (or the run is no longer
    /// running): this process must stop running it.
    lease_lost = 1,
    /// The thread or run does not exist (or belongs to another owner).
    not_found,
    /// The data stored is not what this library writes.
    corrupt_data,
    /// The schema is newer than this program knows.
    schema_too_new,
    /// The thread has a run that is not over: one run at a time per thread.
    thread_busy,
    /// The store cannot do what was asked (a store of another library without @ref thread_store::list_runs).
    not_supported
};

/// The error category of @ref errc.
AGENTIO_DECL system::error_category const& error_category() noexcept;

inline system::error_code make_error_code(errc e) noexcept
{
    return {static_cast<int>(e), error_category()};
}

/// What went wrong in a store, with the database's words.
struct error
{
    system::error_code code = {};
    std::string message = {};
};

/// A store operation's outcome.
template<class T>
using result = system::result<T, error>;

/// Throws a `system_error` carrying the message (what `result::value()` does on error).
[[noreturn]] AGENTIO_DECL void throw_exception_from_error(error const& e, boost::source_location const& loc);

/// A conversation.
struct thread_info
{
    /// Chosen by the caller (a UUID, typically).
    std::string id = {};
    /// Who may see it; empty for a single-user application.
    std::string owner = {};
    /// Which agent it talks to.
    std::string agent = {};
    std::string title = {};
    timestamp created_at = {};
    timestamp updated_at = {};
    json::object metadata = {};
};

/// A message of a thread.
struct item
{
    /// Its place in the thread: 1, 2, ... without gaps.
    std::int64_t seq = 0;
    llm::message message = {};
    /// The run that wrote it; empty for messages written outside a run.
    std::string run_id = {};
    timestamp created_at = {};
};

/** A summary that stands for a thread's first messages (a compaction
    marker): the model reads it in their place, while the messages stay in
    the thread for people and the API to read. */
struct thread_summary
{
    /// It stands for the messages with `seq` up to this one.
    std::int64_t through_seq = 0;
    std::string text = {};
    timestamp created_at = {};
};

/** An uploaded file's record, as its owner's API lists it. Its bytes are
    kept by whoever stored them (a folder, say); the store keeps who owns it
    and what it is. */
struct file_record
{
    /// Chosen by the caller ("file-" and a random part, typically).
    std::string id = {};
    /// Who may see it; empty for a single-user application.
    std::string owner = {};
    std::string filename = {};
    /// Why it was uploaded (OpenAI's `purpose`: "assistants", "user_data", …).
    std::string purpose = {};
    /// What its content is (sniffed from the bytes, not taken from the name).
    std::string media_type = {};
    std::uint64_t bytes = 0;
    timestamp created_at = {};
    /// What later steps say of it (an ingest's status, its pages).
    json::object metadata = {};
};

/// Which page of an owner's threads to list: most recently updated first.
struct thread_listing
{
    /// At most this many (the store returns one more when more follow).
    std::size_t limit = 100;
    /// The threads after this one in that order (a page's last id); empty: from the first.
    std::string after = {};
};

/// Which page of an owner's runs to list: the most recently changed first (then by id).
struct run_listing
{
    /// Only the runs of this thread; empty: of every thread.
    std::string thread_id = {};
    /// Only turns (@ref run_kind::turn: a request's runs, as AG-UI's and A2A's are), not a run manager's.
    bool turns_only = false;
    /// At most this many (the store returns one more when more follow).
    std::size_t limit = 100;
    /// The runs after this one in that order (a page's last id); empty: from the first.
    std::string after = {};
};

/// Which of an owner's files to list, in which order.
struct file_listing
{
    /// Only files uploaded for this purpose; empty: every purpose.
    std::string purpose = {};
    std::size_t limit = 10000;
    /// Newest first (OpenAI's default order), or oldest first.
    bool newest_first = true;
    /// The files after this one in that order (a page's last id); empty: from the first.
    std::string after = {};
};

/// Where a run is.
enum class run_status
{
    running,
    /// Suspended until a person decides (an approval): no process holds it.
    waiting,
    completed,
    failed,
    cancelled,
    /** In its thread's line, behind the run in progress (@ref
        busy_policy::enqueue): its messages join the thread when it starts. */
    queued
};

/// The status's name, as stored: "running", "waiting", ...
AGENTIO_DECL std::string_view to_string(run_status s) noexcept;

/// The status of a stored name.
AGENTIO_DECL std::optional<run_status> parse_run_status(std::string_view s) noexcept;

/** What a message does when its thread has a run in progress (running, or
    waiting for a decision) or runs waiting in line. */
enum class busy_policy
{
    /// Refused: `errc::thread_busy` (an HTTP 409 for the client).
    reject,
    /** Waits in the thread's line and runs after the runs ahead of it, in
        the order they arrived. A durable run's place survives restarts; a
        turn's lasts as long as its request. */
    enqueue,
    /** The run in progress is asked to stop at its next safe point (what it
        had finished stays in the thread), and this one runs next. */
    interrupt
};

/// The policy's name: "reject", "enqueue" or "interrupt".
AGENTIO_DECL std::string_view to_string(busy_policy p) noexcept;

/// The policy of a name (`AGENT_BUSY_POLICY`'s values), or nothing.
AGENTIO_DECL std::optional<busy_policy> parse_busy_policy(std::string_view s) noexcept;

/** AGENT_BUSY_POLICY: `reject` (the default), `enqueue` or `interrupt`, the
    same variable in every application; a request may name its own. */
inline system::result<busy_policy, invalid_variable>
busy_policy_from_environment(environment_lookup const& lookup = process_environment)
{
    auto const value = lookup("AGENT_BUSY_POLICY");
    if(!value)
        return busy_policy::reject;
    if(auto p = parse_busy_policy(*value))
        return *p;
    return invalid_variable{"AGENT_BUSY_POLICY", *value, {"reject", "enqueue", "interrupt"}};
}

/// Writes the status's name.
inline std::ostream& operator<<(std::ostream& os, run_status s)
{
    return os << to_string(s);
}

/// Whether a run in this status is over (nothing more will be written).
constexpr bool is_final(run_status s) noexcept
{
    return s == run_status::completed || s == run_status::failed || s == run_status::cancelled;
}

/// What a run is for, which decides what happens when its process dies.
enum class run_kind
{
    /** Run by a run manager (`threads/run_manager.hpp`): checkpointed and
        journaled, and taken over by another process once its lease expires. */
    durable,
    /** One request's turn (`threads/turn.hpp`): it holds the thread while the
        request runs, and nothing resumes it. Once its lease expires (its
        process died) it counts as failed: the thread is free again and no
        run manager claims it. */
    turn
};

/// The kind's name, as stored: "durable" or "turn".
AGENTIO_DECL std::string_view to_string(run_kind k) noexcept;

/// One run of an agent on a thread.
struct run_info
{
    std::string id = {};
    std::string thread_id = {};
    std::string owner = {};
    run_status status = run_status::running;
    /// Model rounds completed and checkpointed.
    unsigned rounds = 0;
    /// The id of the run's last journaled event (0: none yet).
    std::int64_t last_event_id = 0;
    /// The process running it; empty when none does.
    std::string lease_holder = {};
    timestamp lease_expires_at = {};
    /// What the runner keeps across checkpoints (pending approvals, usage, ...).
    json::value state = {};
    timestamp created_at = {};
    timestamp updated_at = {};
};

/// One event of a run's journal, as it was sent to the client.
struct event_record
{
    /// Increasing from 1 within the run; the SSE `id:` line.
    std::int64_t id = 0;
    /// The SSE event name.
    std::string type = {};
    /// The SSE data (JSON text, typically).
    std::string data = {};
};

/// Events of one run to append to its journal.
struct run_events
{
    std::string run_id = {};
    std::vector<event_record> events = {};
};

/// A run to start: the run row, its lease, and the thread's new messages
/// (the user's turn), all written together.
struct new_run
{
    std::string id = {};
    std::string thread_id = {};
    std::string owner = {};
    /// The process that will run it.
    std::string holder = {};
    std::chrono::milliseconds lease = std::chrono::seconds(10);
    std::vector<llm::message> messages = {};
    /** The thread to create with the run (its id is `thread_id`, its owner
        `owner`), in the same transaction; empty: the thread exists. */
    std::optional<thread_info> new_thread = {};
    /// Durable (a run manager's) or a request's turn.
    run_kind kind = run_kind::durable;
    /** For `thread_store::admit_run`: what to do when the thread is busy.
        A queued turn's lease (`holder`, `lease`) keeps its place while its
        request waits; a queued durable run's needs none. */
    busy_policy when_busy = busy_policy::reject;
};

/// What `thread_store::admit_run` did with a run.
struct admission
{
    /// `running`: started now; `queued`: in the thread's line.
    run_status status = run_status::running;
    /// For a started run: the whole thread, its new messages last.
    std::vector<item> items = {};
    /// For a queued run: how many runs are ahead of it, the one in progress included.
    std::size_t ahead = 0;
    /// With `busy_policy::interrupt`: the run asked to stop, if one was running.
    std::string interrupted_run = {};
};

/** A tool call of a durable run, journaled around it: started before it
    runs, finished with its result. A call started and not finished when its
    process died is *in doubt*: it may or may not have acted. */
struct call_record
{
    std::string call_id = {};
    std::string tool = {};
    json::value input = {};
    /// The model round it belongs to.
    unsigned round = 0;
    /// How many times it was started (more than once: run again after a crash).
    unsigned attempts = 0;
    /// Whether its result was recorded.
    bool finished = false;
    /// Its result as recorded (the tool's, as JSON), once finished.
    json::value result = {};
};

/// A queued run that has just started (`thread_store::claim_queued_run`).
struct claimed_run
{
    run_info run = {};
    /// The whole thread, the run's messages (written now) last.
    std::vector<item> items = {};
};

/// A lease still held, as `renew_leases` finds it.
struct held_lease
{
    std::string run_id = {};
    /// Someone asked to stop the run (possibly through another process).
    bool cancel_requested = false;
    /** How long ago a reader in another process last followed the run
        (`thread_store::note_readers`); nothing when none ever did. */
    std::optional<std::chrono::milliseconds> remote_reader_age = {};
};

/// What `apply_retention` removes.
struct retention
{
    /// Threads not updated for longer than this.
    std::optional<std::chrono::milliseconds> max_age = {};
    /// Beyond this many threads of an owner, the least recently updated.
    std::optional<std::size_t> max_threads_per_owner = {};
};

/** Wakes the readers of a run's journal when events are committed.

    A store publishes after each commit of events, and a store shared by
    several processes also publishes what the others commit (PostgreSQL's
    LISTEN/NOTIFY). Readers re-read the journal when woken; the wake-up
    carries no data, so a missed one costs at most the reader's timeout.
    Safe to use from any thread.
*/
class event_hub
{
public:
    /// Events up to `last_id` of the run are committed.
    AGENTIO_DECL void publish(std::string_view run_id, std::int64_t last_id);

    /** Waits until events after `after` are committed for the run, or
        `timeout` passes. Returns at once when they already were (as far as
        this hub knows).
    */
    AGENTIO_DECL asio::awaitable<void> wait(std::string run_id, std::int64_t after,
        std::chrono::steady_clock::duration timeout);

    /** Wakes every reader of the run and forgets it: its next readers start
        afresh (a run that left this process, to sleep or to another). */
    AGENTIO_DECL void wake_all(std::string_view run_id);

    /// Runs with readers waiting right now (for tests and metrics).
    AGENTIO_DECL std::size_t waiting_runs() const;

private:
    class registration;
    struct waiter
    {
        std::int64_t after = 0;
        agentio::async_queue<char>* wake = nullptr;
    };
    struct run_entry
    {
        std::int64_t last_id = 0;
        std::vector<waiter> waiters = {};
    };
    mutable std::mutex mutex_;
    std::map<std::string, run_entry, std::less<>> runs_;
};

/** Persistent threads, run journals, checkpoints and leases.

    Every operation is a coroutine that never blocks its thread; the
    backends run the database work elsewhere (SQLite's worker threads) or
    asynchronously (libpq's non-blocking mode). An `owner` argument scopes
    a lookup: a thread or run of another owner is not found.

    Writes made on behalf of a run name the `holder` of its lease and
    change nothing when another process holds it (`errc::lease_lost`): a
    process that lost its lease cannot overwrite the one that took over.
*/
class thread_store
{
public:
    virtual ~thread_store() = default;

    /// @name Threads
    /// @{
    /// Creates a thread (its id chosen by the caller).
    virtual asio::awaitable<result<void>> create_thread(thread_info const& thread) = 0;
    /// The thread, or nothing when unknown or another owner's.
    virtual asio::awaitable<result<std::optional<thread_info>>> find_thread(std::string_view id,
        std::string_view owner) = 0;
    /// The owner's threads, most recently updated first.
    virtual asio::awaitable<result<std::vector<thread_info>>> list_threads(std::string_view owner,
        std::size_t limit) = 0;
    /** A page of the owner's threads, most recently updated first (then by
        id), as `which` says: one more than `which.limit` tells a caller that
        more follow; an `after` that names none of the owner's threads gives
        nothing. The stores of this library page in their database; this
        default pages the whole list in memory. */
    virtual asio::awaitable<result<std::vector<thread_info>>> list_threads(std::string_view owner,
        thread_listing const& which)
    {
        auto all = co_await list_threads(owner, std::numeric_limits<std::size_t>::max());
        if(!all)
            co_return all.error();
        std::size_t first = 0;
        if(!which.after.empty())
        {
            while(first < all->size() && (*all)[first].id != which.after)
                ++first;
            if(first == all->size())
                co_return std::vector<thread_info>{};
            ++first;
        }
        std::vector<thread_info> page;
        for(std::size_t i = first; i < all->size() && page.size() <= which.limit; ++i)
            page.push_back(std::move((*all)[i]));
        co_return page;
    }
    /// Deletes a thread with its messages, runs and journals; false when not found.
    virtual asio::awaitable<result<bool>> delete_thread(std::string_view id, std::string_view owner) = 0;
    /// Appends messages written outside a run; returns the last `seq`.
    virtual asio::awaitable<result<std::int64_t>> append_messages(std::string_view thread_id,
        std::span<llm::message const> messages) = 0;
    /// The thread's messages in order.
    virtual asio::awaitable<result<std::vector<item>>> load_items(std::string_view thread_id) = 0;
    /// Removes old threads; returns how many.
    virtual asio::awaitable<result<std::size_t>> apply_retention(retention const& policy) = 0;
    /// @}

    /// @name Summaries (compaction)
    /// @{
    /// The summary that stands for most of the thread's first messages, or nothing.
    virtual asio::awaitable<result<std::optional<thread_summary>>> latest_summary(std::string_view thread_id) = 0;
    /** Keeps a summary of the thread's messages up to `through_seq`, unless
        one standing for as many or more is there already (another process
        compacted the thread first, and its summary is kept).
        @return the thread's latest summary from now on: this one or that
        one. `errc::not_found` when the thread has no message `through_seq`. */
    virtual asio::awaitable<result<thread_summary>> save_summary(std::string_view thread_id, std::int64_t through_seq,
        std::string_view text) = 0;
    /// @}

    /// @name Files (the records of uploads)
    /// @{
    /// Keeps a new file's record; a duplicate id is refused.
    virtual asio::awaitable<result<void>> save_file(file_record const& file) = 0;
    /// The owner's file `id`, or nothing (another owner's is nothing too).
    virtual asio::awaitable<result<std::optional<file_record>>> find_file(std::string_view id,
        std::string_view owner) = 0;
    /// The owner's files, as `which` says; one more than `which.limit` tells a caller that more follow.
    virtual asio::awaitable<result<std::vector<file_record>>> list_files(std::string_view owner,
        file_listing const& which) = 0;
    /// Replaces the metadata of the owner's file `id`; false when there is no such file.
    virtual asio::awaitable<result<bool>> update_file_metadata(std::string_view id, std::string_view owner,
        json::object const& metadata) = 0;
    /// Removes the owner's file record `id`; false when there was none.
    virtual asio::awaitable<result<bool>> delete_file(std::string_view id, std::string_view owner) = 0;
    /// @}

    /// @name Runs
    /// @{
    /** Starts a run: the run, its lease and the thread's new messages (and
        the thread itself, when new) in one transaction.
        @return the whole thread as the run begins, the new messages last,
        so the runner needs no second read.
        `errc::thread_busy` when the thread has a run running or waiting
        (a turn whose lease expired no longer counts: it is marked failed);
        `errc::not_found` when it does not exist. */
    virtual asio::awaitable<result<std::vector<item>>> start_run(new_run const& run) = 0;
    /** Starts a run as `start_run` does when its thread is free and nobody
        waits in its line; otherwise follows `run.when_busy`: `reject`
        (`errc::thread_busy`), `enqueue` (the run joins the line as
        `run_status::queued`, its messages kept aside until it starts) or
        `interrupt` (as `enqueue`, and the running run is asked to stop, as
        `request_cancel` does). A queued turn whose lease expires leaves the
        line (as failed); a queued durable run stays until it starts or is
        cancelled. */
    virtual asio::awaitable<result<admission>> admit_run(new_run const& run) = 0;
    /** Starts a queued run whose turn has come: its thread has no run
        running or waiting, and no live run queued before it. Its messages
        join the thread and it becomes running under `holder`.
        @param run_id that run (a turn waiting for its place, typically);
        empty: the longest-waiting durable run whose turn has come, on any
        thread (a run manager's loop).
        @return nothing when its turn has not come yet (or no run's has);
        `errc::not_found` when `run_id` is no longer queued (cancelled, or
        a turn whose lease expired). */
    virtual asio::awaitable<result<std::optional<claimed_run>>> claim_queued_run(std::string_view run_id,
        std::string_view holder, std::chrono::milliseconds lease) = 0;
    /// The run, or nothing when unknown or another owner's.
    virtual asio::awaitable<result<std::optional<run_info>>> find_run(std::string_view id, std::string_view owner) = 0;
    /// The thread's most recent run, or nothing (none yet, or another owner's thread).
    virtual asio::awaitable<result<std::optional<run_info>>> latest_run(std::string_view thread_id,
        std::string_view owner) = 0;
    /** A page of the owner's runs, the most recently changed first (then by
        id), as `which` says: one more than `which.limit` tells a caller that
        more follow; an `after` that names none of the owner's runs gives
        nothing. What lists a user's work across processes and restarts (A2A's
        `ListTasks`). The stores of this library answer it from an index on
        the owner; this default answers @ref errc::not_supported. */
    virtual asio::awaitable<result<std::vector<run_info>>> list_runs(std::string_view owner, run_listing const& which)
    {
        (void)owner;
        (void)which;
        co_return error{make_error_code(errc::not_supported), "this store cannot list runs"};
    }
    /** Records a completed round: the run's last events join its journal,
        the round's messages join the thread, and the run's round count and
        state move forward, together. Fenced by the lease; `events` must
        continue the journal exactly (`errc::lease_lost` otherwise), and are
        published to the hub once committed. */
    virtual asio::awaitable<result<void>> checkpoint(std::string_view run_id, std::string_view holder,
        std::span<event_record const> events, std::span<llm::message const> messages, unsigned rounds,
        json::value const& state) = 0;
    /** Appends events to the journals of runs this process holds, in one
        transaction, and publishes them to the hub.
        @return the runs whose events were refused: their lease is lost. */
    virtual asio::awaitable<result<std::vector<std::string>>> append_events(std::string_view holder,
        std::span<run_events const> batch) = 0;
    /// The run's events after `after`, in order, at most `limit`.
    virtual asio::awaitable<result<std::vector<event_record>>> events_after(std::string_view run_id, std::int64_t after,
        std::size_t limit) = 0;
    /** Ends a run (completed, failed, cancelled) with its last events, and
        releases its lease. Fenced, as `checkpoint`. */
    virtual asio::awaitable<result<void>> finish_run(std::string_view run_id, std::string_view holder,
        std::span<event_record const> events, run_status status, json::value const& state) = 0;
    /** Suspends a run until a decision (`run_status::waiting`) with its last
        events, releasing its lease. Fenced, as `checkpoint`. */
    virtual asio::awaitable<result<void>> suspend_run(std::string_view run_id, std::string_view holder,
        std::span<event_record const> events, json::value const& state) = 0;
    /** Replaces the state of a waiting run (a decision recorded while others
        are pending) if it is still `expected`: false when the run is not
        waiting or its state changed meanwhile (read it again and retry). */
    virtual asio::awaitable<result<bool>> update_waiting_state(std::string_view run_id, std::string_view owner,
        json::value const& expected, json::value const& state) = 0;
    /** Takes a waiting run to resume it: it becomes running under `holder`.
        Nothing when it is not waiting (another decision took it first). */
    virtual asio::awaitable<result<std::optional<run_info>>> claim_waiting_run(std::string_view run_id,
        std::string_view owner, std::string_view holder, std::chrono::milliseconds lease) = 0;
    /// Extends the leases `holder` still has among `run_ids` (running, or turns queued); returns those.
    virtual asio::awaitable<result<std::vector<held_lease>>> renew_leases(std::string_view holder,
        std::span<std::string const> run_ids, std::chrono::milliseconds lease) = 0;
    /** Notes that clients of this process follow these runs, which other
        processes run: their holders see it in `held_lease::remote_reader_age`
        (a run is not abandoned while someone reads it elsewhere). */
    virtual asio::awaitable<result<void>> note_readers(std::span<std::string const> run_ids) = 0;
    /** Asks the process running a run to stop it (it learns at its next
        lease renewal); a queued run is cancelled at once. False when the
        run is unknown, another owner's, or over. */
    virtual asio::awaitable<result<bool>> request_cancel(std::string_view run_id, std::string_view owner) = 0;
    /** Takes over one running durable run whose lease has expired (its
        process died); nothing when there is none. Two processes never get
        the same; turns (`run_kind::turn`) are never taken. */
    virtual asio::awaitable<result<std::optional<run_info>>> claim_expired_run(std::string_view holder,
        std::chrono::milliseconds lease) = 0;
    /// @}

    /// @name The calls journal (tool effects exactly once, or a person decides)
    /// @{
    /** Records that a call of the run is about to run (its `attempts` grow
        by one when it was started before). Fenced by the lease, as
        `checkpoint`; committed before it returns, so a call is never run
        unrecorded. */
    virtual asio::awaitable<result<void>> call_started(std::string_view run_id, std::string_view holder,
        call_record const& call) = 0;
    /// Records a started call's result. Fenced by the lease.
    virtual asio::awaitable<result<void>> call_finished(std::string_view run_id, std::string_view holder,
        std::string_view call_id, json::value const& result) = 0;
    /// The run's calls as journaled, in the order they were first started.
    virtual asio::awaitable<result<std::vector<call_record>>> run_calls(std::string_view run_id) = 0;
    /// @}

    /** Wakes readers when events are committed (here or, for a shared store,
        elsewhere). Virtual so that a store wrapping another (`observed_store`)
        gives the inner one's, which is the hub its commits publish to. */
    virtual event_hub& hub() noexcept { return hub_; }

    /** This store as one traced piece of work (a request, a run) uses it:
        when the store records spans (an `observed_store` given a tracer),
        each operation through the store returned is a span, the child of
        `traceparent`. Otherwise, or when `traceparent` is not a valid one,
        it is this store itself. The result refers to this store, which must
        outlive it. */
    virtual std::shared_ptr<thread_store> under(std::string_view traceparent)
    {
        (void)traceparent;
        return std::shared_ptr<thread_store>(std::shared_ptr<thread_store>(), this); // not owned
    }

protected:
    event_hub hub_;
};

} // namespace agentio::threads

namespace boost::system {
template<>
struct is_error_code_enum<agentio::threads::errc> : std::true_type
{
};
} // namespace boost::system

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/threads/impl/threads.ipp>
#endif

#endif
