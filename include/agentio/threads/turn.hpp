//
// agentio/threads/turn.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// One conversation turn served within a request: find or create the thread
// (scoped by its owner), hold it so that a second message waits its turn,
// read its history, write the turn's messages, let it go. The store's own
// run row holds the thread, in this process or another sharing the store; a
// second message is refused (`errc::thread_busy`), waits in the thread's line
// for as long as its request lasts, or interrupts the turn in progress
// (`busy_policy`). A turn is never resumed by a run manager, and one whose
// process died frees the thread when its lease expires. `threads/run_manager.hpp` is the durable variant: runs that
// outlive their request, journaled and taken over.
//

#ifndef AGENTIO_THREADS_TURN_HPP
#define AGENTIO_THREADS_TURN_HPP

#include <agentio/config.hpp>
#include <agentio/llm/context.hpp>
#include <agentio/threads.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::threads {

/// What a turn is about: which thread, whose, and what to do when it does not exist.
struct turn_request
{
    /// The thread; empty: a new one, its id a random UUID.
    std::string thread_id = {};
    /// Who may see the thread: another owner's thread is not found.
    std::string owner = {};
    /// When `thread_id` names no thread: create it (true) or fail with `errc::not_found`.
    bool create = true;
    /// For a new thread: which agent talks in it (`thread_info::agent`).
    std::string agent = {};
    /// For a new thread: its title (see @ref make_title).
    std::string title = {};
    /// For a new thread: its metadata.
    json::object metadata = {};
    /** Messages written as the turn begins, in the same transaction (a
        question that must stay in the thread even if the turn fails). */
    std::vector<llm::message> messages = {};
    /** When the thread has a turn in progress: refuse (`errc::thread_busy`),
        wait in line (at most `turn_options::max_wait`, and while the request
        lasts: a cancelled wait leaves the line), or interrupt it and wait
        for it to stop. */
    busy_policy when_busy = busy_policy::reject;
    /** The caller's trace context (its server span's `traceparent`): the
        turn's reads and writes of the thread are spans under it when the
        store records spans (@ref thread_store::under). The lease renewals
        in the background are not. */
    std::string traceparent = {};
    /** The run's id: empty, a random UUID. A protocol whose client names its
        runs (AG-UI's `runId`) passes it so the run is found by that name; an
        id the store already holds fails the turn. */
    std::string run_id = {};
};

/// How a turn holds its thread.
struct turn_options
{
    /** How long the thread stays held after this process dies; the turn
        renews it every third of this while it runs. */
    std::chrono::milliseconds lease = std::chrono::seconds(30);
    /** How often the lease is renewed (at most every third of `lease`), which
        is also how soon a turn learns that a message in another process
        interrupts it. In this process it learns at once. */
    std::chrono::milliseconds check_every = std::chrono::seconds(1);
    /// How long a message waits in line before `errc::thread_busy`.
    std::chrono::milliseconds max_wait = std::chrono::minutes(5);
    /// How often a message in line looks whether its turn has come.
    std::chrono::milliseconds line_poll = std::chrono::milliseconds(100);
};

namespace detail {
struct turn_state;
} // namespace detail

class turn;

/** Begins a turn: finds the thread (or creates it), holds it, and reads it.

    @return the turn, or `errc::not_found` (no such thread of this owner,
    and `create` is false or the id is another owner's), `errc::thread_busy`
    (a turn or run is in progress on it), or the store's failure.
*/
AGENTIO_DECL asio::awaitable<result<turn>> begin_turn(thread_store& store, turn_request request,
    turn_options options = {});

/** A conversation turn in progress: the thread is held until `finish`.

    Made by @ref begin_turn. Use it from one coroutine at a time. A turn
    destroyed before `finish` ends as cancelled in the background (the
    store must outlive it); should that fail too, its lease expires and the
    thread is free again.
*/
class turn
{
public:
    turn(turn&&) noexcept = default;
    turn& operator=(turn&&) noexcept;
    AGENTIO_DECL ~turn();

    /// The thread (as found, or as created by this turn).
    thread_info const& thread() const noexcept { return thread_; }

    /// Whether this turn created the thread.
    bool created_thread() const noexcept { return created_; }

    /// The run that holds the thread (it tags the messages this turn writes).
    AGENTIO_DECL std::string const& run_id() const noexcept;

    /// The thread's messages as the turn began, `turn_request::messages` last.
    std::vector<item>& history() noexcept { return history_; }
    std::vector<item> const& history() const noexcept { return history_; }

    /** The summary that stands for the history's first messages (the
        thread's latest compaction), for the model to read in their place:
        give it to the run (`agent::run_options::summary`). */
    AGENTIO_DECL std::optional<llm::conversation_summary> summary() const;

    /** Keeps a summary the run wrote (`agent::compacted`,
        `run_result::summary`) that stands for the history's first
        `summary.covers` messages. Another process's summary standing for as
        much or more, written first, is kept instead; the messages stay. */
    AGENTIO_DECL asio::awaitable<result<void>> save_summary(llm::conversation_summary const& summary);

    /** Appends messages to the thread now, as part of this turn (fenced:
        `errc::lease_lost` if the thread is no longer held by it). */
    AGENTIO_DECL asio::awaitable<result<void>> append(std::span<llm::message const> messages);

    /** Appends events to the run's journal (ids continuing it exactly), so
        that readers elsewhere, or later, follow the turn as its client did
        (`thread_store::events_after`). Fenced: `errc::lease_lost` when the
        thread is no longer held by this turn. */
    AGENTIO_DECL asio::awaitable<result<void>> journal(std::span<event_record const> events);

    /** Ends the turn: `messages` join the thread, then the thread is free.
        @param status `completed`, `failed` or `cancelled`.
        @param last_events the journal's last events, written with the end.
        The thread is freed even when writing the messages fails (that
        error is returned). Finishing twice does nothing. */
    AGENTIO_DECL asio::awaitable<result<void>> finish(std::span<llm::message const> messages,
        run_status status = run_status::completed, std::span<event_record const> last_events = {});

    /// Whether `finish` was called.
    AGENTIO_DECL bool finished() const noexcept;

    /** A slot signalled (`cancellation_type::terminal`) when a message sent
        with `busy_policy::interrupt` asks this turn to stop: bind the
        agent's run to it, which then ends at its next safe point with what
        it had finished. The signal is emitted through `ex`, the executor
        the bound operation runs on. One operation at a time. */
    AGENTIO_DECL asio::cancellation_slot interruption_slot(asio::any_io_executor ex);

    /// Whether another message asked this turn to stop.
    AGENTIO_DECL bool interrupted() const noexcept;

    /// How many turns were ahead of this one when its message arrived (0: none; it started at once).
    std::size_t waited_behind() const noexcept { return waited_behind_; }

private:
    friend AGENTIO_DECL asio::awaitable<result<turn>> begin_turn(thread_store&, turn_request, turn_options);

    turn(std::shared_ptr<detail::turn_state> state, thread_info thread, bool created, std::vector<item> history,
        std::optional<thread_summary> summary);

    std::shared_ptr<detail::turn_state> state_;
    thread_info thread_;
    bool created_ = false;
    std::vector<item> history_;
    std::optional<thread_summary> summary_;
    std::size_t waited_behind_ = 0;
};

/** A thread's title from a text (its first question, typically): runs of
    whitespace made one space, at most `max_bytes` bytes, cut between UTF-8
    characters. */
AGENTIO_DECL std::string make_title(std::string_view text, std::size_t max_bytes = 80);

/** Turns of this process waiting in their thread's line now (`begin_turn`
    with `busy_policy::enqueue` or `interrupt` while another run holds the
    thread): the gauge `agentio_agent_runs_queued` of `app::telemetry`. */
AGENTIO_DECL std::size_t turns_waiting() noexcept;

} // namespace agentio::threads

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/threads/impl/turn.ipp>
#endif

#endif
