//
// agentio/trace/observed_calls.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What the observing wrappers (threads::observed_store,
// retrieval::observed_index) share: each awaited call of the wrapped
// component timed into a histogram {component, operation} and counted by
// outcome {component, operation, outcome}; and, once given a tracer and a
// parent (`under`), each call a client span `{operation} {component}`.
//

#ifndef AGENTIO_TRACE_OBSERVED_CALLS_HPP
#define AGENTIO_TRACE_OBSERVED_CALLS_HPP

#include <agentio/metrics.hpp>
#include <agentio/trace.hpp>

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace agentio::trace {

/** What a wrapper of a component records of each awaited call: its latency
    and outcome as metrics, and, in a copy made `under` a parent, a client
    span. Copyable; the families and the tracer outlive every copy. */
class observed_calls
{
public:
    /// `component` is the first label's value of both families (the store's or the index's name).
    observed_calls(metrics::histogram_family& duration, metrics::counter_family& outcomes, std::string component)
        : duration_(duration)
        , outcomes_(outcomes)
        , component_(std::move(component))
    {
    }

    std::string const& component() const noexcept { return component_; }

    /// Spans go to `tracer` (null: none), for the copies `under` makes.
    void trace_into(trace::tracer* tracer) noexcept { tracer_ = tracer; }

    /// Whether `under(parent)` would record spans.
    bool traces(std::optional<trace::span_context> const& parent) const noexcept
    {
        return tracer_ != nullptr && tracer_->enabled() && parent && parent->valid();
    }

    /// A copy whose calls are also spans, children of `parent` (see `traces`).
    observed_calls under(trace::span_context parent) const
    {
        observed_calls copy(*this);
        copy.parent_ = parent;
        return copy;
    }

    /** `call` awaited, timed and counted: "error" when its result holds one
        or it throws (a cancellation or a bug, passed on). `call` is made
        before this runs but starts only when awaited here (asio's awaitables
        are lazy), so the clock covers the operation alone. `operation` is a literal. */
    template<class Result>
    boost::asio::awaitable<Result> timed(std::string_view operation, boost::asio::awaitable<Result> call)
    {
        trace::span span;
        if(parent_)
            span = start_span(operation);
        auto const started = std::chrono::steady_clock::now();
        try
        {
            auto r = co_await std::move(call);
            record(operation, started, r.has_error());
            if(r.has_error() && span.recording())
            {
                if constexpr(requires { r.error().message; })
                    span.fail("store_error", r.error().message);
                else
                    span.fail("store_error");
            }
            co_return std::move(r);
        }
        catch(...)
        {
            record(operation, started, true);
            span.fail("exception");
            throw;
        }
    }

private:
    // Database conventions, loosely: the store is a database to its caller,
    // whatever its backend (SQLite in process, PostgreSQL over the network).
    trace::span start_span(std::string_view operation) const
    {
        std::string name(operation);
        name += ' ';
        name += component_;
        auto span = tracer_->start(name, trace::span_kind::client, parent_);
        span.set("db.operation.name", operation);
        span.set("agentio.component", component_);
        return span;
    }

    void record(std::string_view operation, std::chrono::steady_clock::time_point started, bool failed)
    {
        std::chrono::duration<double> const took = std::chrono::steady_clock::now() - started;
        duration_.with({component_, operation}).observe(took.count());
        outcomes_.with({component_, operation, failed ? std::string_view("error") : std::string_view("ok")}).inc();
    }

    metrics::histogram_family& duration_;
    metrics::counter_family& outcomes_;
    std::string component_;
    trace::tracer* tracer_ = nullptr;
    std::optional<trace::span_context> parent_;
};

} // namespace agentio::trace

#endif
