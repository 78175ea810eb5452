// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Prints the exposition of a registry holding every kind of metric, for the
// CTest test metrics.promtool_check to pipe into the real `promtool check
// metrics`: counters, gauges and histograms with and without labels, the
// process's metrics, values that need escaping, cutting or repairing, a full
// family's "other" series and the dropped counter, NaN and infinities.
//
//   agentio_metrics_exposition               what a registry writes
//   agentio_metrics_exposition --lint-error  the same with a gauge named as a counter, which promtool must refuse
#include <agentio/metrics.hpp>

#include <iostream>
#include <limits>
#include <string>
#include <string_view>

int main(int argc, char** argv)
{
    namespace metrics = agentio::metrics;
    metrics::registry registry;

    auto& requests = registry.counter("http_requests_total", "HTTP requests answered, by method and status code.",
        {"method", "code"});
    requests.with({"POST", "200"}).inc(41);
    requests.with({"GET", "404"}).inc();
    registry.counter("agent_runs_total", "Agent runs started.").with().inc(3);
    auto& tool_calls = registry.counter("tool_calls_total",
        "Tool calls by tool name.\nA name is what the model sent (C:\\tools \"quoted\").", {"tool"}, {.max_series = 3});
    tool_calls.with({"say \"hi\"\\\nbye"}).inc();
    tool_calls.with({std::string(200, 'x') + "\xC3\xA9"}).inc(); // cut to 128 bytes
    tool_calls.with({"bad \xFF\xFE utf-8"}).inc();               // repaired
    tool_calls.with({"a fourth tool"}).inc();                    // past max_series: "other"
    tool_calls.with({"a fifth tool"}).inc();

    auto& streams = registry.gauge("sse_streams_open", "Event streams open.");
    registry.on_collect([&] { streams.with().set(7); });
    auto& pool = registry.gauge("http_client_connections", "Pooled connections by host and state.", {"host", "state"});
    pool.with({"api.openai.com:443", "idle"}).set(2);
    pool.with({"api.anthropic.com:443", "busy"}).set(1);
    registry.gauge("clock_skew_seconds", "How far the clock is off.").with().set(-0.25);
    registry.gauge("temperature_celsius", "Not measured.", {"sensor"})
        .with({"nan"})
        .set(std::numeric_limits<double>::quiet_NaN());
    registry.gauge("budget_remaining_ratio", "Unbounded here.", {"kind"})
        .with({"inf"})
        .set(std::numeric_limits<double>::infinity());

    auto& latency = registry.histogram("http_request_duration_seconds", "Time to answer a request.", {"route"},
        metrics::latency_buckets());
    for(double seconds : {0.003, 0.04, 0.7, 12.0, 75.0})
        latency.with({"/v1/chat/completions"}).observe(seconds);
    latency.with({"/healthz"}).observe(0.001);
    auto& tokens = registry.histogram("llm_tokens", "Tokens per model call.", {"model", "direction"},
        metrics::token_buckets());
    tokens.with({"gpt-4o", "input"}).observe(3000);
    tokens.with({"gpt-4o", "output"}).observe(812);
    registry.histogram("queue_wait_seconds", "Time a job waits.", {}, {0.5, 1}).with().observe(0.75);

    std::cout << registry.expose();
    if(argc > 1 && std::string_view(argv[1]) == "--lint-error")
        std::cout << "# HELP queue_jobs_total Jobs waiting.\n# TYPE queue_jobs_total gauge\nqueue_jobs_total 1\n";
    return 0;
}
