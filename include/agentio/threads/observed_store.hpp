//
// agentio/threads/observed_store.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A thread store that times and counts every call of another, for
// Prometheus: which operations of the store are slow or failing, whatever
// the backend. It sits between the application and the store it opened, so
// neither the backends nor the code above them (turns, the run manager,
// the sessions of chat_completions) knows about metrics.
//
//   auto store = (co_await threads::open_store(where)).value();
//   auto observed = std::make_unique<threads::observed_store>(std::move(store), registry);
//   threads::run_manager<Agent> runs(ex, *observed, agent, options);
//

#ifndef AGENTIO_THREADS_OBSERVED_STORE_HPP
#define AGENTIO_THREADS_OBSERVED_STORE_HPP

#include <agentio/metrics.hpp>
#include <agentio/threads.hpp>
#include <agentio/trace/observed_calls.hpp>

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentio::threads {

/** A @ref thread_store that forwards every call to an inner store and
    records it in a metrics registry:

    - `agentio_store_operation_duration_seconds{store, operation}`, a
      histogram over `metrics::storage_latency_buckets()`;
    - `agentio_store_operations_total{store, operation, outcome}`, where
      `outcome` is `ok`, or `error` for a result holding an error (or a
      call that threw).

    `operation` is the method's name (`append_messages`, `load_items`, …),
    so the series are bounded by the interface, never by ids; `store` is
    the name given at construction. Results, errors and exceptions pass
    through unchanged, and `hub()` is the inner store's.

    Only the interface is reachable through it: a backend's own methods
    (`postgres::thread_store::close`, say) are called on `inner()`, and a
    caller that needs the concrete type keeps it beside the wrapper.

    Given a tracer, the store that `under(traceparent)` returns also makes
    each operation a client span, `{operation} {store}` with
    `db.operation.name`, the child of that context: what a request or a run
    did to its thread appears in its trace. Calls made on the wrapper
    itself, with no context, are not traced.

    Thread-safe as the inner store is; recording takes no lock once an
    operation's series exist.
*/
class observed_store final : public thread_store
{
public:
    /** Owns `inner` and records into `registry`, which must outlive it.
        @param store The value of the `store` label ("threads" unless an
            application has several stores to tell apart).
        @throws std::invalid_argument when `inner` is null, or the metrics
            are registered already with other help or labels. */
    observed_store(std::unique_ptr<thread_store> inner, metrics::registry& registry, std::string store = "threads",
        trace::tracer* tracer = nullptr)
        : observed_store(checked(inner.get()), registry, std::move(store), tracer)
    {
        owned_ = std::move(inner);
    }

    /** Records the calls of `inner`, which it does not own: `inner` must
        outlive it. The rest as the owning constructor. */
    observed_store(thread_store& inner, metrics::registry& registry, std::string store = "threads",
        trace::tracer* tracer = nullptr)
        : inner_(inner)
        , ops_(registry.histogram("agentio_store_operation_duration_seconds",
                   "Time a thread store operation took, by store and operation.", {"store", "operation"},
                   metrics::storage_latency_buckets()),
              registry.counter("agentio_store_operations_total",
                  "Thread store operations ended, by store, operation and outcome (ok, error).",
                  {"store", "operation", "outcome"}),
              std::move(store))
    {
        ops_.trace_into(tracer);
    }

    /// The store it forwards to, for what only the backend offers.
    thread_store& inner() noexcept { return inner_; }

    /// The inner store's hub: the one its commits wake.
    event_hub& hub() noexcept override { return inner_.hub(); }

    /// This wrapper's calls as spans under `traceparent`, when it has a tracer that records and the context is valid.
    std::shared_ptr<thread_store> under(std::string_view traceparent) override
    {
        auto const parent = trace::parse_traceparent(traceparent);
        if(!ops_.traces(parent))
            return thread_store::under(traceparent);
        return std::shared_ptr<thread_store>(new observed_store(inner_, ops_.under(*parent)));
    }

    asio::awaitable<result<void>> create_thread(thread_info const& thread) override
    {
        return ops_.timed("create_thread", inner_.create_thread(thread));
    }
    asio::awaitable<result<std::optional<thread_info>>> find_thread(std::string_view id,
        std::string_view owner) override
    {
        return ops_.timed("find_thread", inner_.find_thread(id, owner));
    }
    asio::awaitable<result<std::vector<thread_info>>> list_threads(std::string_view owner, std::size_t limit) override
    {
        return ops_.timed("list_threads", inner_.list_threads(owner, limit));
    }
    asio::awaitable<result<std::vector<thread_info>>> list_threads(std::string_view owner,
        thread_listing const& which) override
    {
        return ops_.timed("list_threads", inner_.list_threads(owner, which));
    }
    asio::awaitable<result<bool>> delete_thread(std::string_view id, std::string_view owner) override
    {
        return ops_.timed("delete_thread", inner_.delete_thread(id, owner));
    }
    asio::awaitable<result<std::int64_t>> append_messages(std::string_view thread_id,
        std::span<llm::message const> messages) override
    {
        return ops_.timed("append_messages", inner_.append_messages(thread_id, messages));
    }
    asio::awaitable<result<std::vector<item>>> load_items(std::string_view thread_id) override
    {
        return ops_.timed("load_items", inner_.load_items(thread_id));
    }
    asio::awaitable<result<std::size_t>> apply_retention(retention const& policy) override
    {
        return ops_.timed("apply_retention", inner_.apply_retention(policy));
    }

    asio::awaitable<result<std::optional<thread_summary>>> latest_summary(std::string_view thread_id) override
    {
        return ops_.timed("latest_summary", inner_.latest_summary(thread_id));
    }
    asio::awaitable<result<thread_summary>> save_summary(std::string_view thread_id, std::int64_t through_seq,
        std::string_view text) override
    {
        return ops_.timed("save_summary", inner_.save_summary(thread_id, through_seq, text));
    }

    asio::awaitable<result<void>> save_file(file_record const& file) override
    {
        return ops_.timed("save_file", inner_.save_file(file));
    }
    asio::awaitable<result<std::optional<file_record>>> find_file(std::string_view id, std::string_view owner) override
    {
        return ops_.timed("find_file", inner_.find_file(id, owner));
    }
    asio::awaitable<result<std::vector<file_record>>> list_files(std::string_view owner,
        file_listing const& which) override
    {
        return ops_.timed("list_files", inner_.list_files(owner, which));
    }
    asio::awaitable<result<bool>> update_file_metadata(std::string_view id, std::string_view owner,
        json::object const& metadata) override
    {
        return ops_.timed("update_file_metadata", inner_.update_file_metadata(id, owner, metadata));
    }
    asio::awaitable<result<bool>> delete_file(std::string_view id, std::string_view owner) override
    {
        return ops_.timed("delete_file", inner_.delete_file(id, owner));
    }

    asio::awaitable<result<std::vector<item>>> start_run(new_run const& run) override
    {
        return ops_.timed("start_run", inner_.start_run(run));
    }
    asio::awaitable<result<admission>> admit_run(new_run const& run) override
    {
        return ops_.timed("admit_run", inner_.admit_run(run));
    }
    asio::awaitable<result<std::optional<claimed_run>>> claim_queued_run(std::string_view run_id,
        std::string_view holder, std::chrono::milliseconds lease) override
    {
        return ops_.timed("claim_queued_run", inner_.claim_queued_run(run_id, holder, lease));
    }
    asio::awaitable<result<std::optional<run_info>>> find_run(std::string_view id, std::string_view owner) override
    {
        return ops_.timed("find_run", inner_.find_run(id, owner));
    }
    asio::awaitable<result<std::optional<run_info>>> latest_run(std::string_view thread_id,
        std::string_view owner) override
    {
        return ops_.timed("latest_run", inner_.latest_run(thread_id, owner));
    }
    asio::awaitable<result<std::vector<run_info>>> list_runs(std::string_view owner, run_listing const& which) override
    {
        return ops_.timed("list_runs", inner_.list_runs(owner, which));
    }
    asio::awaitable<result<void>> checkpoint(std::string_view run_id, std::string_view holder,
        std::span<event_record const> events, std::span<llm::message const> messages, unsigned rounds,
        json::value const& state) override
    {
        return ops_.timed("checkpoint", inner_.checkpoint(run_id, holder, events, messages, rounds, state));
    }
    asio::awaitable<result<std::vector<std::string>>> append_events(std::string_view holder,
        std::span<run_events const> batch) override
    {
        return ops_.timed("append_events", inner_.append_events(holder, batch));
    }
    asio::awaitable<result<std::vector<event_record>>> events_after(std::string_view run_id, std::int64_t after,
        std::size_t limit) override
    {
        return ops_.timed("events_after", inner_.events_after(run_id, after, limit));
    }
    asio::awaitable<result<void>> finish_run(std::string_view run_id, std::string_view holder,
        std::span<event_record const> events, run_status status, json::value const& state) override
    {
        return ops_.timed("finish_run", inner_.finish_run(run_id, holder, events, status, state));
    }
    asio::awaitable<result<void>> suspend_run(std::string_view run_id, std::string_view holder,
        std::span<event_record const> events, json::value const& state) override
    {
        return ops_.timed("suspend_run", inner_.suspend_run(run_id, holder, events, state));
    }
    asio::awaitable<result<bool>> update_waiting_state(std::string_view run_id, std::string_view owner,
        json::value const& expected, json::value const& state) override
    {
        return ops_.timed("update_waiting_state", inner_.update_waiting_state(run_id, owner, expected, state));
    }
    asio::awaitable<result<std::optional<run_info>>> claim_waiting_run(std::string_view run_id, std::string_view owner,
        std::string_view holder, std::chrono::milliseconds lease) override
    {
        return ops_.timed("claim_waiting_run", inner_.claim_waiting_run(run_id, owner, holder, lease));
    }
    asio::awaitable<result<std::vector<held_lease>>> renew_leases(std::string_view holder,
        std::span<std::string const> run_ids, std::chrono::milliseconds lease) override
    {
        return ops_.timed("renew_leases", inner_.renew_leases(holder, run_ids, lease));
    }
    asio::awaitable<result<void>> note_readers(std::span<std::string const> run_ids) override
    {
        return ops_.timed("note_readers", inner_.note_readers(run_ids));
    }
    asio::awaitable<result<bool>> request_cancel(std::string_view run_id, std::string_view owner) override
    {
        return ops_.timed("request_cancel", inner_.request_cancel(run_id, owner));
    }
    asio::awaitable<result<std::optional<run_info>>> claim_expired_run(std::string_view holder,
        std::chrono::milliseconds lease) override
    {
        return ops_.timed("claim_expired_run", inner_.claim_expired_run(holder, lease));
    }

    asio::awaitable<result<void>> call_started(std::string_view run_id, std::string_view holder,
        call_record const& call) override
    {
        return ops_.timed("call_started", inner_.call_started(run_id, holder, call));
    }
    asio::awaitable<result<void>> call_finished(std::string_view run_id, std::string_view holder,
        std::string_view call_id, json::value const& result) override
    {
        return ops_.timed("call_finished", inner_.call_finished(run_id, holder, call_id, result));
    }
    asio::awaitable<result<std::vector<call_record>>> run_calls(std::string_view run_id) override
    {
        return ops_.timed("run_calls", inner_.run_calls(run_id));
    }

private:
    // A view: the same inner store and series, its calls spans under one parent.
    observed_store(thread_store& inner, trace::observed_calls ops) : inner_(inner), ops_(std::move(ops)) {}

    static thread_store& checked(thread_store* inner)
    {
        if(!inner)
            throw std::invalid_argument("agentio::threads::observed_store: no inner store");
        return *inner;
    }

    std::unique_ptr<thread_store> owned_; // null when the caller owns the inner store
    thread_store& inner_;
    trace::observed_calls ops_;
};

} // namespace agentio::threads

#endif
