//
// agentio/chat_completions/metrics.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What a Chat Completions endpoint answered, as Prometheus metrics: the
// completions by model, outcome and whether streamed, their duration, and
// the tokens they spent. Labelled by the model served, never by user or
// session (a label per user would grow without bound).
//
//   metrics::registry registry;
//   chat_completions::completion_metrics recorded(registry);
//   options.on_complete = [&](auto const& r) { recorded.record(r); log_it(r); };
//

#ifndef AGENTIO_CHAT_COMPLETIONS_METRICS_HPP
#define AGENTIO_CHAT_COMPLETIONS_METRICS_HPP

#include <agentio/chat_completions/endpoint.hpp>
#include <agentio/metrics.hpp>

namespace agentio::chat_completions {

/** Records each finished request (an `endpoint_options::on_complete`'s
    record) in a registry:

    - `agentio_chat_completions_total{model, outcome, stream}`
    - `agentio_chat_completion_duration_seconds{model, stream}` (histogram)
    - `agentio_chat_completion_tokens_total{model, type}` (`input`, `output`)
*/
class completion_metrics
{
public:
    explicit completion_metrics(metrics::registry& registry)
        : completions_(registry.counter("agentio_chat_completions_total",
              "Chat Completions requests answered, by model, outcome and whether streamed.",
              {"model", "outcome", "stream"}))
        , duration_(registry.histogram("agentio_chat_completion_duration_seconds",
              "Time from a Chat Completions request to its last byte.", {"model", "stream"},
              metrics::latency_buckets()))
        , tokens_(registry.counter("agentio_chat_completion_tokens_total",
              "Tokens the model read (input) and wrote (output) for Chat Completions requests.", {"model", "type"}))
    {
    }

    /// Counts one finished request.
    void record(completion_record const& r)
    {
        std::string_view const stream = r.stream ? "true" : "false";
        completions_.with({r.model, r.outcome, stream}).inc();
        duration_.with({r.model, stream}).observe(static_cast<double>(r.duration.count()) / 1e6);
        if(r.usage.input_tokens)
            tokens_.with({r.model, "input"}).inc(static_cast<double>(r.usage.input_tokens));
        if(r.usage.output_tokens)
            tokens_.with({r.model, "output"}).inc(static_cast<double>(r.usage.output_tokens));
    }

private:
    metrics::counter_family& completions_;
    metrics::histogram_family& duration_;
    metrics::counter_family& tokens_;
};

} // namespace agentio::chat_completions

#endif
