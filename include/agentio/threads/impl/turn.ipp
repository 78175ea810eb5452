//
// agentio/threads/impl/turn.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_THREADS_IMPL_TURN_IPP
#define AGENTIO_THREADS_IMPL_TURN_IPP

#include <agentio/text.hpp>
#include <agentio/threads/turn.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/execution/context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/query.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <utility>

namespace agentio::threads {

namespace detail {

// The lease holder of every turn of this process. A turn's run is never taken over, so a holder shared by the
// process fences each turn's writes as one of its own would (they name their run), and lets one store call renew
// the leases of all of them (lease_batch).
inline std::string const& process_turn_holder()
{
    static std::string const holder = "turns:" + boost::uuids::to_string(boost::uuids::random_generator()());
    return holder;
}

struct lease_batch;

// What a turn shares with the keeper of its lease: the keeper outlives a moved-from
// or destroyed turn until it sees `over`.
struct turn_state
{
    turn_state(asio::any_io_executor ex, thread_store& s, std::string run, turn_options const& o)
        : store(&s)
        , run_id(std::move(run))
        , holder(process_turn_holder())
        , lease(o.lease)
        , check_every(std::min(o.check_every, o.lease / 3))
        , strand(asio::make_strand(ex))
    {
    }

    thread_store* store; // the lease keeper's and the background ending's: never traced
    // The turn's own reads and writes: `store` under the caller's trace (thread_store::under).
    std::shared_ptr<thread_store> traced;
    std::string run_id;
    std::string holder;
    std::chrono::milliseconds lease;
    std::chrono::milliseconds check_every;
    unsigned rounds = 0;
    bool finished = false;
    asio::strand<asio::any_io_executor> strand; // the turn's background store calls
    std::atomic<bool> over{false};
    std::shared_ptr<lease_batch> batch; // whose keeper renews this turn's lease

    // Interruption: the signal is emitted on `interrupt_ex` only.
    std::atomic<bool> interrupted{false};
    std::mutex interrupt_mutex;
    std::optional<asio::any_io_executor> interrupt_ex; // guarded by interrupt_mutex
    asio::cancellation_signal interrupt_signal;
};

// The turns of this process by run id, so that a message interrupting one
// reaches it at once rather than at its next lease renewal.
struct local_turns
{
    std::mutex mutex;
    std::map<std::string, std::weak_ptr<turn_state>, std::less<>> by_run;
    std::atomic<std::size_t> waiting{0}; // places in line held now

    static local_turns& instance()
    {
        static local_turns all;
        return all;
    }
    void add(std::shared_ptr<turn_state> const& s)
    {
        std::lock_guard lock(mutex);
        by_run[s->run_id] = s;
    }
    void remove(std::string_view run_id)
    {
        std::lock_guard lock(mutex);
        if(auto it = by_run.find(run_id); it != by_run.end())
            by_run.erase(it);
    }
    std::shared_ptr<turn_state> find(std::string_view run_id)
    {
        std::lock_guard lock(mutex);
        auto it = by_run.find(run_id);
        return it == by_run.end() ? nullptr : it->second.lock();
    }
};

// Asks the turn's run to stop (once), through the executor its run was bound on.
inline void interrupt_turn(std::shared_ptr<turn_state> const& s)
{
    if(s->interrupted.exchange(true))
        return;
    std::lock_guard lock(s->interrupt_mutex);
    if(s->interrupt_ex)
        asio::post(*s->interrupt_ex, [s] { s->interrupt_signal.emit(asio::cancellation_type::terminal); });
}

// The turns of this process whose leases one keeper renews in one store call every `check_every`: those on one
// store, with one lease and period, on one execution context (the keeper runs there, and ends with it). A turn
// learns at each renewal whether another message asked it to stop; a turn whose lease is gone is renewed no more
// (its next write says so).
struct lease_batch : std::enable_shared_from_this<lease_batch>
{
    struct key
    {
        thread_store* store;
        std::int64_t lease_ms;
        std::int64_t check_ms;
        auto operator<=>(key const&) const = default;
    };

    lease_batch(key k, asio::any_io_executor ex) : id(k), strand(asio::make_strand(ex)), timer(strand) {}

    key const id;
    asio::strand<asio::any_io_executor> strand;
    asio::steady_timer timer; // the keeper's, on `strand`

    std::mutex mutex;
    std::map<std::string, std::weak_ptr<turn_state>, std::less<>> turns; // guarded by mutex
    bool keeping = false;                                                // a keeper runs; guarded by mutex
    bool dead = false; // its keeper was destroyed with its context: a new batch takes the key; guarded by mutex

    void join(std::shared_ptr<turn_state> const& s);
    void leave(std::string_view run_id)
    {
        std::lock_guard lock(mutex);
        if(auto it = turns.find(run_id); it != turns.end())
            turns.erase(it);
    }
};

// An execution context's lease batches, by key: a service, so that they end with their context (a context made
// later at the same address starts with none).
class lease_batches final : public asio::execution_context::service
{
public:
    using key_type = lease_batches;
    static inline asio::execution_context::id id;

    explicit lease_batches(asio::execution_context& context) : asio::execution_context::service(context) {}

    std::shared_ptr<lease_batch> of(lease_batch::key k, asio::any_io_executor const& ex)
    {
        std::lock_guard lock(mutex_);
        std::erase_if(batches_, [](auto const& entry) { return entry.second.expired(); });
        auto& slot = batches_[k];
        auto batch = slot.lock();
        if(batch)
        {
            std::lock_guard dead_lock(batch->mutex);
            if(batch->dead)
                batch.reset();
        }
        if(!batch)
        {
            batch = std::make_shared<lease_batch>(k, ex);
            slot = batch;
        }
        return batch;
    }

private:
    void shutdown() override
    {
        std::lock_guard lock(mutex_);
        for(auto& [k, weak] : batches_)
            if(auto batch = weak.lock())
            {
                std::lock_guard dead_lock(batch->mutex);
                batch->dead = true;
            }
        batches_.clear();
    }

    std::mutex mutex_;
    std::map<lease_batch::key, std::weak_ptr<lease_batch>> batches_;
};

inline asio::awaitable<void> keep_leases(std::shared_ptr<lease_batch> b)
{
    // Ends with the keeper, however it ends (its context destroyed too): a turn that joins later starts another.
    struct keeping_flag
    {
        lease_batch& batch;
        bool cleared = false;
        ~keeping_flag()
        {
            if(cleared)
                return;
            // Destroyed unfinished: its context is going away, and this batch's strand with it.
            std::lock_guard lock(batch.mutex);
            batch.keeping = false;
            batch.dead = true;
        }
    } flag{*b};
    std::vector<std::string> ids;
    std::vector<std::shared_ptr<turn_state>> live;
    for(;;)
    {
        b->timer.expires_after(std::chrono::milliseconds(b->id.check_ms));
        system::error_code ec;
        co_await b->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        ids.clear();
        live.clear();
        {
            std::lock_guard lock(b->mutex);
            for(auto it = b->turns.begin(); it != b->turns.end();)
            {
                auto s = it->second.lock();
                if(!s || s->over)
                {
                    it = b->turns.erase(it);
                    continue;
                }
                ids.push_back(it->first);
                live.push_back(std::move(s));
                ++it;
            }
            if(live.empty())
            {
                b->keeping = false; // under the lock a joining turn reads: it starts the next keeper
                flag.cleared = true;
                co_return;
            }
        }
        std::chrono::milliseconds const lease(b->id.lease_ms);
        auto held = co_await b->id.store->renew_leases(process_turn_holder(), ids, lease);
        if(!held)
            continue; // the store failed: again at the next tick, before any lease runs out
        std::map<std::string_view, bool> cancel_asked; // of the leases still held
        for(auto const& h : *held)
            cancel_asked.emplace(h.run_id, h.cancel_requested);
        for(auto const& s : live)
        {
            auto const h = cancel_asked.find(s->run_id);
            if(h == cancel_asked.end())
                b->leave(s->run_id); // lost: its next write says so
            else if(h->second)
                interrupt_turn(s);
        }
    }
}

inline void lease_batch::join(std::shared_ptr<turn_state> const& s)
{
    std::lock_guard lock(mutex);
    turns[s->run_id] = s;
    if(keeping || dead)
        return;
    keeping = true;
    asio::co_spawn(strand, keep_leases(shared_from_this()), asio::detached);
}

inline void stop_keeping_lease(std::shared_ptr<turn_state> const& s)
{
    if(s->over.exchange(true))
        return;
    local_turns::instance().remove(s->run_id);
    if(s->batch)
        s->batch->leave(s->run_id);
}

// A place in a thread's line, left (cancelled in the store, in the
// background) unless the turn it waits for begins.
struct place_in_line
{
    std::shared_ptr<turn_state> state;
    std::string owner;
    bool kept = false;

    place_in_line(std::shared_ptr<turn_state> s, std::string who) : state(std::move(s)), owner(std::move(who))
    {
        local_turns::instance().waiting.fetch_add(1, std::memory_order_relaxed);
    }
    place_in_line(place_in_line const&) = delete;
    place_in_line& operator=(place_in_line const&) = delete;

    ~place_in_line()
    {
        local_turns::instance().waiting.fetch_sub(1, std::memory_order_relaxed);
        if(kept || !state)
            return;
        stop_keeping_lease(state);
        auto s = state;
        asio::co_spawn(
            s->strand,
            [s, who = owner]() -> asio::awaitable<void> { (void)co_await s->store->request_cancel(s->run_id, who); },
            asio::detached);
    }
};

inline error turn_error(errc e, std::string message)
{
    return {make_error_code(e), std::move(message)};
}

} // namespace detail

inline turn::turn(std::shared_ptr<detail::turn_state> state, thread_info thread, bool created,
    std::vector<item> history, std::optional<thread_summary> summary)
    : state_(std::move(state))
    , thread_(std::move(thread))
    , created_(created)
    , history_(std::move(history))
    , summary_(std::move(summary))
{
}

inline turn& turn::operator=(turn&& other) noexcept
{
    if(this != &other)
    {
        turn gone(std::move(*this)); // ends the turn this one held
        state_ = std::move(other.state_);
        thread_ = std::move(other.thread_);
        created_ = other.created_;
        history_ = std::move(other.history_);
        summary_ = std::move(other.summary_);
    }
    return *this;
}

AGENTIO_DECL turn::~turn()
{
    if(!state_ || state_->finished)
        return;
    detail::stop_keeping_lease(state_);
    // Nobody awaits this: the store's release is best effort, the lease the backstop.
    auto s = state_;
    asio::co_spawn(
        s->strand,
        [s]() -> asio::awaitable<void> {
            (void)co_await s->store->finish_run(s->run_id, s->holder, {}, run_status::cancelled, nullptr);
        },
        asio::detached);
}

AGENTIO_DECL std::string const& turn::run_id() const noexcept
{
    return state_->run_id;
}

AGENTIO_DECL bool turn::finished() const noexcept
{
    return !state_ || state_->finished;
}

AGENTIO_DECL asio::cancellation_slot turn::interruption_slot(asio::any_io_executor ex)
{
    {
        std::lock_guard lock(state_->interrupt_mutex);
        state_->interrupt_ex = std::move(ex);
    }
    if(state_->interrupted) // asked before the run was bound
        asio::post(*state_->interrupt_ex,
            [s = state_] { s->interrupt_signal.emit(asio::cancellation_type::terminal); });
    return state_->interrupt_signal.slot();
}

AGENTIO_DECL bool turn::interrupted() const noexcept
{
    return state_ && state_->interrupted;
}

AGENTIO_DECL std::optional<llm::conversation_summary> turn::summary() const
{
    if(!summary_)
        return std::nullopt;
    auto const through = summary_->through_seq;
    auto const covered = std::find_if(history_.begin(), history_.end(),
        [through](item const& i) { return i.seq > through; });
    return llm::conversation_summary{summary_->text, static_cast<std::size_t>(covered - history_.begin())};
}

AGENTIO_DECL asio::awaitable<result<void>> turn::save_summary(llm::conversation_summary const& summary)
{
    if(finished())
        co_return detail::turn_error(errc::lease_lost, "the turn is over");
    if(summary.covers == 0 || summary.covers > history_.size())
        co_return detail::turn_error(errc::not_found, "the summary stands for messages the history does not have");
    auto kept = co_await state_->traced->save_summary(thread_.id, history_[summary.covers - 1].seq, summary.text);
    if(!kept)
        co_return kept.error();
    summary_ = std::move(*kept);
    co_return result<void>{};
}

AGENTIO_DECL asio::awaitable<result<void>> turn::append(std::span<llm::message const> messages)
{
    if(finished())
        co_return detail::turn_error(errc::lease_lost, "the turn is over");
    if(messages.empty())
        co_return result<void>{};
    co_return co_await state_->traced->checkpoint(state_->run_id, state_->holder, {}, messages, ++state_->rounds,
        nullptr);
}

AGENTIO_DECL asio::awaitable<result<void>> turn::journal(std::span<event_record const> events)
{
    if(finished())
        co_return detail::turn_error(errc::lease_lost, "the turn is over");
    if(events.empty())
        co_return result<void>{};
    run_events const batch{state_->run_id, {events.begin(), events.end()}};
    auto refused = co_await state_->traced->append_events(state_->holder, std::span<run_events const>(&batch, 1));
    if(!refused)
        co_return refused.error();
    if(!refused->empty())
        co_return detail::turn_error(errc::lease_lost, "the run's lease was lost");
    co_return result<void>{};
}

AGENTIO_DECL asio::awaitable<result<void>> turn::finish(std::span<llm::message const> messages, run_status status,
    std::span<event_record const> last_events)
{
    if(finished())
        co_return result<void>{};
    auto written = co_await append(messages);
    state_->finished = true;
    detail::stop_keeping_lease(state_);
    // A renewal in flight may still name the run: it extends only a running or queued run's lease.
    auto ended = co_await state_->traced->finish_run(state_->run_id, state_->holder, last_events,
        written ? status : run_status::failed, nullptr);
    if(!written)
        co_return written;
    co_return ended;
}

AGENTIO_DECL asio::awaitable<result<turn>> begin_turn(thread_store& untraced, turn_request request,
    turn_options options)
{
    std::shared_ptr<thread_store> const scoped = untraced.under(request.traceparent);
    thread_store& store = *scoped;
    thread_info thread;
    bool create = false;
    if(request.thread_id.empty())
    {
        if(!request.create)
            co_return detail::turn_error(errc::not_found, "no thread named");
        request.thread_id = boost::uuids::to_string(boost::uuids::random_generator()());
        create = true;
    }
    else
    {
        auto found = co_await store.find_thread(request.thread_id, request.owner);
        if(!found)
            co_return found.error();
        if(*found)
            thread = std::move(**found);
        else if(!request.create)
            co_return detail::turn_error(errc::not_found, "thread " + request.thread_id);
        else
            create = true;
    }
    if(create)
    {
        thread.id = request.thread_id;
        thread.owner = request.owner;
        thread.agent = std::move(request.agent);
        thread.title = std::move(request.title);
        thread.metadata = std::move(request.metadata);
        thread.created_at = thread.updated_at = now();
    }

    new_run run;
    run.id = request.run_id.empty() ? boost::uuids::to_string(boost::uuids::random_generator()())
                                    : std::move(request.run_id);
    run.thread_id = request.thread_id;
    run.owner = request.owner;
    run.lease = options.lease;
    run.kind = run_kind::turn;
    run.messages = std::move(request.messages);
    run.when_busy = request.when_busy;
    if(create)
        run.new_thread = thread;
    auto const ex = co_await asio::this_coro::executor;
    auto state = std::make_shared<detail::turn_state>(ex, untraced, run.id, options);
    state->traced = scoped;
    run.holder = state->holder;

    // Read before the thread is held: only a run holding it writes a summary.
    std::optional<thread_summary> summary;
    if(!create)
    {
        auto latest = co_await store.latest_summary(request.thread_id);
        if(!latest)
            co_return latest.error();
        summary = std::move(*latest);
    }
    auto admitted = co_await store.admit_run(run);
    if(!admitted && create)
    {
        // Made meanwhile: by this owner (a concurrent first message: go on in
        // it, one at a time) or by another (not found, as if it did not exist).
        auto found = co_await store.find_thread(request.thread_id, request.owner);
        if(!found)
            co_return found.error();
        if(!*found)
            co_return detail::turn_error(errc::not_found, "thread " + request.thread_id);
        thread = std::move(**found);
        create = false;
        run.new_thread.reset();
        admitted = co_await store.admit_run(run);
    }
    if(!admitted)
        co_return admitted.error();
    std::vector<item> items = std::move(admitted->items);
    std::size_t const ahead = admitted->status == run_status::queued ? admitted->ahead : 0;
    if(!admitted->interrupted_run.empty())
        if(auto running_here = detail::local_turns::instance().find(admitted->interrupted_run))
            detail::interrupt_turn(running_here);
    detail::local_turns::instance().add(state);
    state->batch = asio::use_service<detail::lease_batches>(asio::query(ex, asio::execution::context))
                       .of({&untraced, state->lease.count(), state->check_every.count()}, ex);
    state->batch->join(state);
    if(admitted->status == run_status::queued)
    {
        // In line: the keeper renews the place; it is left if this wait ends
        // any other way than with the turn begun (timeout, or the request's
        // cancellation unwinding this coroutine).
        detail::place_in_line place{state, request.owner};
        auto const until = std::chrono::steady_clock::now() + options.max_wait;
        asio::steady_timer pause(ex);
        for(;;)
        {
            auto claimed = co_await store.claim_queued_run(run.id, state->holder, options.lease);
            if(!claimed)
            {
                if(claimed.error().code == errc::not_found) // cancelled meanwhile, or the store lost our lease
                    co_return detail::turn_error(errc::thread_busy,
                        "thread " + request.thread_id + ": the message left the line");
                co_return claimed.error();
            }
            if(*claimed)
            {
                items = std::move((*claimed)->items);
                break;
            }
            if(std::chrono::steady_clock::now() >= until)
                co_return detail::turn_error(errc::thread_busy,
                    "thread " + request.thread_id + ": still busy after waiting in line");
            pause.expires_after(options.line_poll);
            co_await pause.async_wait(asio::use_awaitable);
        }
        place.kept = true;
        // The summary may have moved on while this turn waited.
        auto latest = co_await store.latest_summary(request.thread_id);
        if(!latest)
        {
            turn abandoned(state, thread, create, {}, std::nullopt); // ends the run it began
            co_return latest.error();
        }
        summary = std::move(*latest);
    }
    turn begun(std::move(state), std::move(thread), create, std::move(items), std::move(summary));
    begun.waited_behind_ = ahead;
    co_return std::move(begun);
}

AGENTIO_DECL std::size_t turns_waiting() noexcept
{
    return detail::local_turns::instance().waiting.load(std::memory_order_relaxed);
}

AGENTIO_DECL std::string make_title(std::string_view text, std::size_t max_bytes)
{
    std::string title;
    bool space = false;
    for(char c : text)
    {
        if(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
        {
            space = !title.empty();
            continue;
        }
        if(space)
            title.push_back(' ');
        space = false;
        title.push_back(c);
    }
    if(title.size() > max_bytes)
    {
        title.resize(agentio::utf8_byte_prefix(title, max_bytes));
        while(!title.empty() && title.back() == ' ')
            title.pop_back();
    }
    return title;
}

} // namespace agentio::threads

#endif
