//
// agentio/threads/postgres_store.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The thread store several processes share: PostgreSQL through the
// non-blocking pool. Each write is one statement (a transaction of its own),
// leases and timestamps use the database's clock (replicas' clocks may
// disagree), the database itself enforces one running run per thread, and
// committed events are announced with NOTIFY so that readers attached to any
// replica wake up at once.
//

#ifndef AGENTIO_THREADS_POSTGRES_STORE_HPP
#define AGENTIO_THREADS_POSTGRES_STORE_HPP

#include <agentio/config.hpp>
#include <agentio/postgres.hpp>
#include <agentio/threads.hpp>

#include <boost/asio/cancellation_signal.hpp>

#include <memory>
#include <mutex>

namespace agentio::postgres {

/// How @ref thread_store uses its database.
struct thread_store_options
{
    /// The connection pool (the listening connection is one more).
    pool_options pool = {};
    /** The connections of lease renewals and takeovers, apart: however many
        writes wait for `pool`, a live process renews its leases in time. */
    pool_options lease_pool = {.max_connections = 1};
    /// How long the listening connection waits before reconnecting after losing the server.
    std::chrono::milliseconds reconnect_delay = std::chrono::seconds(1);
};

/** A @ref threads::thread_store in PostgreSQL, for replicas sharing one database.

    @code
    auto store = (co_await agentio::postgres::thread_store::open(ex, "postgresql://app@db/agents")).value();
    @endcode
*/
class thread_store final : public threads::thread_store
{
public:
    /** Connects, migrates the schema (under an advisory lock: replicas may
        start together) and starts listening for other processes' events.

        @return the store, or why the database cannot be used (unreachable,
        a schema newer than this program, ...)
    */
    static asio::awaitable<threads::result<std::unique_ptr<thread_store>>> open(asio::any_io_executor ex,
        std::string conninfo, thread_store_options options = {});

    /// The schema version this program writes.
    static constexpr int schema_version = 2;

    /// Stops listening; the pool's connections close as they come back.
    ~thread_store() override;

    asio::awaitable<threads::result<void>> create_thread(threads::thread_info const& thread) override;
    asio::awaitable<threads::result<std::optional<threads::thread_info>>> find_thread(std::string_view id,
        std::string_view owner) override;
    asio::awaitable<threads::result<std::vector<threads::thread_info>>> list_threads(std::string_view owner,
        std::size_t limit) override;
    asio::awaitable<threads::result<std::vector<threads::thread_info>>> list_threads(std::string_view owner,
        threads::thread_listing const& which) override;
    asio::awaitable<threads::result<bool>> delete_thread(std::string_view id, std::string_view owner) override;
    asio::awaitable<threads::result<void>> save_file(threads::file_record const& file) override;
    asio::awaitable<threads::result<std::optional<threads::file_record>>> find_file(std::string_view id,
        std::string_view owner) override;
    asio::awaitable<threads::result<std::vector<threads::file_record>>> list_files(std::string_view owner,
        threads::file_listing const& which) override;
    asio::awaitable<threads::result<bool>> update_file_metadata(std::string_view id, std::string_view owner,
        boost::json::object const& metadata) override;
    asio::awaitable<threads::result<bool>> delete_file(std::string_view id, std::string_view owner) override;
    asio::awaitable<threads::result<std::int64_t>> append_messages(std::string_view thread_id,
        std::span<llm::message const> messages) override;
    asio::awaitable<threads::result<std::vector<threads::item>>> load_items(std::string_view thread_id) override;
    asio::awaitable<threads::result<std::size_t>> apply_retention(threads::retention const& policy) override;
    asio::awaitable<threads::result<std::optional<threads::thread_summary>>>
    latest_summary(std::string_view thread_id) override;
    asio::awaitable<threads::result<threads::thread_summary>> save_summary(std::string_view thread_id,
        std::int64_t through_seq, std::string_view text) override;

    asio::awaitable<threads::result<std::vector<threads::item>>> start_run(threads::new_run const& run) override;
    asio::awaitable<threads::result<threads::admission>> admit_run(threads::new_run const& run) override;
    asio::awaitable<threads::result<std::optional<threads::claimed_run>>> claim_queued_run(std::string_view run_id,
        std::string_view holder, std::chrono::milliseconds lease) override;
    asio::awaitable<threads::result<std::optional<threads::run_info>>> find_run(std::string_view id,
        std::string_view owner) override;
    asio::awaitable<threads::result<std::optional<threads::run_info>>> latest_run(std::string_view thread_id,
        std::string_view owner) override;
    asio::awaitable<threads::result<std::vector<threads::run_info>>> list_runs(std::string_view owner,
        threads::run_listing const& which) override;
    asio::awaitable<threads::result<void>> checkpoint(std::string_view run_id, std::string_view holder,
        std::span<threads::event_record const> events, std::span<llm::message const> messages, unsigned rounds,
        json::value const& state) override;
    asio::awaitable<threads::result<std::vector<std::string>>> append_events(std::string_view holder,
        std::span<threads::run_events const> batch) override;
    asio::awaitable<threads::result<std::vector<threads::event_record>>> events_after(std::string_view run_id,
        std::int64_t after, std::size_t limit) override;
    asio::awaitable<threads::result<void>> finish_run(std::string_view run_id, std::string_view holder,
        std::span<threads::event_record const> events, threads::run_status status, json::value const& state) override;
    asio::awaitable<threads::result<void>> suspend_run(std::string_view run_id, std::string_view holder,
        std::span<threads::event_record const> events, json::value const& state) override;
    asio::awaitable<threads::result<bool>> update_waiting_state(std::string_view run_id, std::string_view owner,
        json::value const& expected, json::value const& state) override;
    asio::awaitable<threads::result<std::optional<threads::run_info>>> claim_waiting_run(std::string_view run_id,
        std::string_view owner, std::string_view holder, std::chrono::milliseconds lease) override;
    asio::awaitable<threads::result<std::vector<threads::held_lease>>> renew_leases(std::string_view holder,
        std::span<std::string const> run_ids, std::chrono::milliseconds lease) override;
    asio::awaitable<threads::result<void>> note_readers(std::span<std::string const> run_ids) override;
    asio::awaitable<threads::result<bool>> request_cancel(std::string_view run_id, std::string_view owner) override;
    asio::awaitable<threads::result<std::optional<threads::run_info>>> claim_expired_run(std::string_view holder,
        std::chrono::milliseconds lease) override;
    asio::awaitable<threads::result<void>> call_started(std::string_view run_id, std::string_view holder,
        threads::call_record const& call) override;
    asio::awaitable<threads::result<void>> call_finished(std::string_view run_id, std::string_view holder,
        std::string_view call_id, json::value const& result) override;
    asio::awaitable<threads::result<std::vector<threads::call_record>>> run_calls(std::string_view run_id) override;

    /// The pool, for what this class does not cover.
    postgres::pool& pool() noexcept { return pool_; }

private:
    // What the listening coroutine shares with the store: it may outlive it.
    struct listener_state
    {
        std::mutex mutex;
        threads::event_hub* hub = nullptr; // null once the store is gone
        asio::cancellation_signal stop;
    };

    thread_store(asio::any_io_executor ex, std::string conninfo, thread_store_options const& options);

    static asio::awaitable<void> listen(asio::any_io_executor ex, std::string conninfo,
        std::shared_ptr<listener_state> state, std::chrono::milliseconds reconnect_delay);

    asio::awaitable<threads::result<std::optional<threads::run_info>>> one_run(std::string_view sql,
        std::span<param const> params);

    postgres::pool pool_;
    postgres::pool lease_pool_;
    asio::any_io_executor listen_executor_;
    std::shared_ptr<listener_state> listener_;
};

} // namespace agentio::postgres

namespace agentio::threads {
/// The PostgreSQL thread store, by the name it has beside the interface it implements.
using postgres_store = postgres::thread_store;
} // namespace agentio::threads

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/threads/impl/postgres_store.ipp>
#endif

#endif
