//
// agentio/threads/sqlite_store.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The embedded thread store: one SQLite file in WAL mode. Writes go through
// one worker thread (SQLite has one writer at a time anyway), reads through
// others, so a network thread never waits on the disk and readers never
// wait on the writer.
//

#ifndef AGENTIO_THREADS_SQLITE_STORE_HPP
#define AGENTIO_THREADS_SQLITE_STORE_HPP

#include <agentio/config.hpp>
#include <agentio/sqlite.hpp>
#include <agentio/threads.hpp>

#include <chrono>
#include <filesystem>
#include <memory>

namespace agentio::sqlite {

/// How @ref thread_store opens its file.
struct thread_store_options
{
    /// Worker threads (each with its connection) for reads.
    std::size_t readers = 2;
    /// How long a statement waits for a lock held by another process.
    std::chrono::milliseconds busy_timeout = std::chrono::seconds(5);
};

/** A @ref threads::thread_store in one SQLite file.

    For one process: leases are kept (so the same code runs on both
    backends) but several processes on one file would not see each other's
    events live. Use the PostgreSQL store for replicas.

    @code
    auto store = agentio::sqlite::thread_store::open("data/agent.db").value();
    co_await store->create_thread({.id = id, .agent = "portfolio", .title = "Hola"});
    @endcode
*/
class thread_store final : public threads::thread_store
{
public:
    /** Opens (creating it and its folder if needed) and migrates the file.

        Blocks while it opens: call it at start, before serving.
        @return the store, or why it cannot be used (the schema is newer
        than this program, the file is not a database, ...)
    */
    static threads::result<std::unique_ptr<thread_store>> open(std::filesystem::path const& path,
        thread_store_options const& options = {});

    /// The schema version this program writes.
    static constexpr int schema_version = 2;

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

private:
    thread_store(std::vector<connection> writer, std::vector<connection> readers);

    // Journals a run's last events and ends or suspends it, on the writer.
    threads::result<void> release(connection& c, std::string_view run_id, std::string_view holder,
        std::span<threads::event_record const> events, threads::run_status status, json::value const& state);

    query_pool writer_;
    query_pool readers_;
};

} // namespace agentio::sqlite

namespace agentio::threads {
/// The SQLite thread store, by the name it has beside the interface it implements.
using sqlite_store = sqlite::thread_store;
} // namespace agentio::threads

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/threads/impl/sqlite_store.ipp>
#endif

#endif
