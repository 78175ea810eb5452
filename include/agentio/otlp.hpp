//
// agentio/otlp.hpp
// ~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A tracer's spans sent to an OpenTelemetry collector as OTLP over HTTP with
// the JSON encoding, in batches, as the SDKs' batch span processor does:
// every `schedule_delay`, or as soon as a batch is full. A collector that is
// down, slow or failing costs the application nothing but the spans: the
// tracer's queue is bounded, an export is bounded by `export_timeout`, and
// a failed batch is dropped and counted, never retried into a growing backlog.
//
//   trace::tracer tracer(settings);
//   trace::otlp_exporter exporter(ioc.get_executor(), tracer);
//   exporter.start();
//   ...
//   co_await exporter.shutdown(); // the spans still queued are sent
//

#ifndef AGENTIO_OTLP_HPP
#define AGENTIO_OTLP_HPP

#include <agentio/http/client.hpp>
#include <agentio/trace.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

namespace agentio::trace {

namespace asio = boost::asio;
namespace beast = boost::beast;

/// What an exporter sent and lost.
struct export_stats
{
    /// Spans the collector accepted (a 2xx answer).
    std::uint64_t exported = 0;
    /// Spans of batches that failed (no connection, a timeout, a non-2xx answer).
    std::uint64_t failed = 0;
    /// Export requests made.
    std::uint64_t requests = 0;
};

/** Sends a @ref tracer's finished spans as OTLP/JSON to its settings'
    endpoint. Runs on a strand of the executor given; the tracer outlives it.
    A tracer that is off makes it do nothing. */
class otlp_exporter
{
public:
    otlp_exporter(asio::any_io_executor ex, tracer& source, http::client_options options = {})
        : state_(std::make_shared<shared>(asio::make_strand(ex)))
        , source_(source)
        , client_(state_->strand, std::move(options))
    {
    }

    otlp_exporter(otlp_exporter const&) = delete;
    otlp_exporter& operator=(otlp_exporter const&) = delete;

    /// Starts the export loop (once; nothing when the tracer is off).
    void start()
    {
        if(!source_.enabled() || started_)
            return;
        started_ = true;
        // The tracer may wake the loop from any thread: through the strand, while the state lives.
        std::weak_ptr<shared> weak = state_;
        source_.on_batch_ready([weak] {
            if(auto alive = weak.lock())
                asio::post(alive->strand, [alive] { alive->timer.cancel(); });
        });
        asio::co_spawn(state_->strand, loop(), asio::detached);
    }

    /** Stops the loop after sending what is queued (each export still
        bounded by the timeout). */
    asio::awaitable<void> shutdown()
    {
        if(!started_)
            co_return;
        co_await asio::post(state_->strand, asio::use_awaitable);
        stopping_ = true;
        state_->timer.cancel();
        asio::steady_timer poll(state_->strand);
        auto const give_up = std::chrono::steady_clock::now() + 2 * source_.config().export_timeout;
        while(!state_->done && std::chrono::steady_clock::now() < give_up)
        {
            poll.expires_after(std::chrono::milliseconds(5));
            co_await poll.async_wait(asio::as_tuple(asio::use_awaitable));
        }
    }

    /// What it sent and lost so far.
    export_stats stats() const noexcept
    {
        return {exported_.load(std::memory_order_relaxed), failed_.load(std::memory_order_relaxed),
            requests_.load(std::memory_order_relaxed)};
    }

    ~otlp_exporter() { source_.on_batch_ready({}); }

private:
    // What the tracer's wake-up may reach after the exporter is gone.
    struct shared
    {
        explicit shared(asio::strand<asio::any_io_executor> s) : strand(s), timer(strand) {}
        asio::strand<asio::any_io_executor> strand;
        asio::steady_timer timer;
        bool done = false;
    };

    asio::awaitable<void> loop()
    {
        while(!stopping_)
        {
            state_->timer.expires_after(source_.config().schedule_delay);
            co_await state_->timer.async_wait(asio::as_tuple(asio::use_awaitable));
            co_await export_queued();
        }
        co_await export_queued();
        state_->done = true;
    }

    // Sends what is queued, a batch at a time.
    asio::awaitable<void> export_queued()
    {
        auto const& config = source_.config();
        std::vector<span_data> batch;
        while(source_.take(batch, config.max_export_batch_size) > 0)
        {
            http::client_request req;
            req.method = beast::http::verb::post;
            req.url = config.endpoint;
            req.headers.set(beast::http::field::content_type, "application/json");
            for(auto const& [name, value] : config.headers)
                req.headers.set(name, value);
            req.body = to_otlp_json(config, batch);
            req.total_timeout = config.export_timeout;
            requests_.fetch_add(1, std::memory_order_relaxed);
            auto [err, res] = co_await client_.async_request(std::move(req), asio::use_awaitable);
            if(!err && res.ok())
                exported_.fetch_add(batch.size(), std::memory_order_relaxed);
            else
                failed_.fetch_add(batch.size(), std::memory_order_relaxed);
            batch.clear();
        }
    }

    std::shared_ptr<shared> state_;
    tracer& source_;
    http::client client_;
    bool started_ = false;
    bool stopping_ = false;
    std::atomic<std::uint64_t> exported_{0};
    std::atomic<std::uint64_t> failed_{0};
    std::atomic<std::uint64_t> requests_{0};
};

} // namespace agentio::trace

#endif
