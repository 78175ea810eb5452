// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Prometheus metrics: the values, the exposition text to the byte, escaping,
// the bound on series, exact sums under concurrent increments, and the
// registrations that must be refused. (promtool reads an exposition in the
// CTest test metrics.promtool_check.)
#include <agentio/metrics.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

// Not `metrics`: the suite's name is a namespace too.
namespace agentio_metrics = agentio::metrics;

namespace {

bool contains(std::string const& text, std::string const& part)
{
    return text.find(part) != std::string::npos;
}

// The number after `sample ` on its line, or NaN when the sample is missing.
double sample_value(std::string const& exposition, std::string const& sample)
{
    auto const at = exposition.find("\n" + sample + " ");
    if(at == std::string::npos)
        return std::nan("");
    return std::stod(exposition.substr(at + sample.size() + 2));
}

} // namespace

BOOST_AUTO_TEST_SUITE(metrics)

BOOST_AUTO_TEST_CASE(counters_gauges_and_histograms_exposed_to_the_byte)
{
    agentio_metrics::registry registry({.process_metrics = false});
    auto& requests = registry.counter("http_requests_total", "HTTP requests answered.", {"method", "code"});
    auto& posted = requests.with({"POST", "200"});
    posted.inc();
    posted.inc(2);
    requests.with({"GET", "404"}).inc();
    BOOST_TEST(&requests.with({"POST", "200"}) == &posted); // found again, not made again
    BOOST_TEST(posted.value() == 3.0);

    auto& streams = registry.gauge("sse_streams_open", "Event streams open.");
    streams.with().inc(3);
    streams.with().dec();
    BOOST_TEST(streams.with().value() == 2.0);

    auto& latency = registry.histogram("llm_call_duration_seconds", "Time of a model call.", {"model"}, {0.25, 1, 10});
    auto& calls = latency.with({"m"});
    for(double seconds : {0.125, 0.25, 2.0, 100.0}) // 0.25 is in the bucket le="0.25": bounds are inclusive
        calls.observe(seconds);
    BOOST_TEST(calls.count() == 4u);
    BOOST_TEST(calls.sum() == 102.375);
    BOOST_TEST(calls.cumulative_counts() == (std::vector<std::uint64_t>{2, 2, 3, 4}), boost::test_tools::per_element());

    // Sorted by name; series by label values; the dropped counter has no series, so it is not written.
    BOOST_TEST(registry.expose() == R"(# HELP http_requests_total HTTP requests answered.
# TYPE http_requests_total counter
http_requests_total{method="GET",code="404"} 1
http_requests_total{method="POST",code="200"} 3
# HELP llm_call_duration_seconds Time of a model call.
# TYPE llm_call_duration_seconds histogram
llm_call_duration_seconds_bucket{model="m",le="0.25"} 2
llm_call_duration_seconds_bucket{model="m",le="1"} 2
llm_call_duration_seconds_bucket{model="m",le="10"} 3
llm_call_duration_seconds_bucket{model="m",le="+Inf"} 4
llm_call_duration_seconds_sum{model="m"} 102.375
llm_call_duration_seconds_count{model="m"} 4
# HELP sse_streams_open Event streams open.
# TYPE sse_streams_open gauge
sse_streams_open 2
)");
}

BOOST_AUTO_TEST_CASE(families_without_labels_start_at_zero_and_labelled_ones_empty)
{
    agentio_metrics::registry registry({.process_metrics = false});
    registry.counter("jobs_total", "Jobs done.");
    registry.histogram("job_duration_seconds", "Time of a job.", {}, {1});
    registry.gauge("queue_length", "Jobs waiting.", {"queue"}); // no series yet: nothing to write
    BOOST_TEST(registry.expose() == R"(# HELP job_duration_seconds Time of a job.
# TYPE job_duration_seconds histogram
job_duration_seconds_bucket{le="1"} 0
job_duration_seconds_bucket{le="+Inf"} 0
job_duration_seconds_sum 0
job_duration_seconds_count 0
# HELP jobs_total Jobs done.
# TYPE jobs_total counter
jobs_total 0
)");
}

BOOST_AUTO_TEST_CASE(label_values_and_help_escaped_cut_and_repaired)
{
    agentio_metrics::registry registry({.process_metrics = false});
    auto& calls = registry.counter("tool_calls_total", "Calls of a tool,\nby name (C:\\tools \"quoted\").", {"tool"});
    calls.with({"say \"hi\"\\\nbye"}).inc();
    // HELP escapes backslash and line feed only; a label value the double quote too.
    BOOST_TEST(registry.expose() == R"(# HELP tool_calls_total Calls of a tool,\nby name (C:\\tools "quoted").
# TYPE tool_calls_total counter
tool_calls_total{tool="say \"hi\"\\\nbye"} 1
)");

    // 128 bytes at most, cut before a character that would straddle the limit.
    std::string const long_value = std::string(127, 'a') + "\xC3\xA9" + "tail";
    auto& cut = calls.with({long_value});
    BOOST_TEST(&calls.with({std::string(127, 'a') + "\xC3\xA9" + "other tail"}) == &cut);
    BOOST_TEST(&calls.with({std::string(127, 'a')}) == &cut);
    BOOST_TEST(contains(registry.expose(), "tool_calls_total{tool=\"" + std::string(127, 'a') + "\"} 0"));
    std::string const fits = std::string(126, 'b') + "\xC3\xA9"; // exactly 128 bytes: kept whole
    calls.with({fits}).inc();
    BOOST_TEST(contains(registry.expose(), "tool_calls_total{tool=\"" + fits + "\"} 1"));

    // Invalid UTF-8 becomes U+FFFD: the exposition stays UTF-8, which Prometheus requires.
    calls.with({"bad \xFF byte"}).inc();
    BOOST_TEST(&calls.with({"bad \xEF\xBF\xBD byte"}) == &calls.with({"bad \xFF byte"}));
    BOOST_TEST(contains(registry.expose(), "tool_calls_total{tool=\"bad \xEF\xBF\xBD byte\"} 1"));
}

BOOST_AUTO_TEST_CASE(past_max_series_new_label_values_go_to_other_and_are_counted)
{
    agentio_metrics::registry registry({.process_metrics = false});
    auto& calls = registry.counter("model_calls_total", "Model calls.", {"model", "outcome"}, {.max_series = 2});
    calls.with({"a", "ok"}).inc();
    calls.with({"b", "ok"}).inc();
    calls.with({"c", "ok"}).inc();         // a third combination: "other"
    calls.with({"d", "error"}).inc(5);     // and a fourth
    calls.with({"a", "ok"}).inc();         // a series it holds is still its own
    auto& other = calls.with({"c", "ok"}); // counted again: the family does not remember what it dropped
    BOOST_TEST(&other == &calls.with({"other", "other"}));
    BOOST_TEST(other.value() == 6.0);
    BOOST_TEST(calls.size() == 3u);
    BOOST_TEST(calls.max_series() == 2u);

    auto const text = registry.expose();
    BOOST_TEST(contains(text, R"(# TYPE model_calls_total counter
model_calls_total{model="a",outcome="ok"} 2
model_calls_total{model="b",outcome="ok"} 1
model_calls_total{model="other",outcome="other"} 6
)"));
    BOOST_TEST(contains(text,
        "# TYPE agentio_metrics_series_dropped_total counter\n"
        "agentio_metrics_series_dropped_total{family=\"model_calls_total\"} 3\n"));
    BOOST_TEST(text.find("# HELP agentio_metrics_series_dropped_total ") == 0u); // sorted first

    // A family that made its own ("other", "other") series before it filled up keeps one such series.
    auto& routes = registry.gauge("route_inflight", "Requests in flight.", {"route"}, {.max_series = 2});
    routes.with({"other"}).inc();
    routes.with({"/a"}).inc();
    routes.with({"/b"}).inc();
    BOOST_TEST(routes.size() == 2u);
    BOOST_TEST(routes.with({"other"}).value() == 2.0);
    BOOST_TEST(sample_value(registry.expose(), "agentio_metrics_series_dropped_total{family=\"route_inflight\"}") ==
        1.0);
}

BOOST_AUTO_TEST_CASE(increments_from_four_threads_sum_exactly)
{
    agentio_metrics::registry registry({.process_metrics = false});
    auto& requests = registry.counter("requests_total", "Requests.", {"route"});
    auto& inflight = registry.gauge("inflight", "In flight.");
    auto& sizes = registry.histogram("body_bytes", "Body sizes.", {"route"}, {10, 100});
    constexpr int threads = 4, rounds = 100'000, own_series = 200;
    std::vector<std::thread> workers;
    for(int t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
            for(int i = 0; i < rounds; ++i)
            {
                requests.with({"/shared"}).inc(); // found without a lock while others make series
                inflight.with().inc();
                sizes.with({"/shared"}).observe(i % 3 == 0 ? 5 : 50);
                inflight.with().dec();
                if(i < own_series) // new series, so the tables grow under the readers
                    requests.with({"/t" + std::to_string(t) + "/" + std::to_string(i)}).inc();
            }
        });
    for(int i = 0; i < 20; ++i) // exposing meanwhile
        BOOST_TEST(!registry.expose().empty());
    for(auto& w : workers)
        w.join();
    BOOST_TEST(requests.with({"/shared"}).value() == double(threads) * rounds);
    BOOST_TEST(inflight.with().value() == 0.0);
    auto& shared = sizes.with({"/shared"});
    BOOST_TEST(shared.count() == std::uint64_t(threads) * rounds);
    auto const small = std::uint64_t(threads) * ((rounds + 2) / 3);
    BOOST_TEST(shared.cumulative_counts().front() == small);
    BOOST_TEST(shared.sum() == 5.0 * double(small) + 50.0 * double(std::uint64_t(threads) * rounds - small));
    BOOST_TEST(requests.size() == std::size_t(1 + threads * own_series));
    for(int t = 0; t < threads; ++t)
        for(int i = 0; i < own_series; ++i)
            BOOST_TEST_REQUIRE(requests.with({"/t" + std::to_string(t) + "/" + std::to_string(i)}).value() == 1.0);
}

BOOST_AUTO_TEST_CASE(registering_again_returns_the_family_and_a_conflict_throws)
{
    agentio_metrics::registry registry({.process_metrics = false});
    auto& calls = registry.counter("calls_total", "Calls.", {"tool"});
    BOOST_TEST(&registry.counter("calls_total", "Calls.", {"tool"}) == &calls);
    BOOST_CHECK_THROW(registry.counter("calls_total", "Calls.", {"tool", "outcome"}), std::invalid_argument);
    BOOST_CHECK_THROW(registry.counter("calls_total", "Calls made.", {"tool"}), std::invalid_argument);

    auto& latency = registry.histogram("latency_seconds", "Latency.", {}, agentio_metrics::latency_buckets());
    BOOST_TEST(&registry.histogram("latency_seconds", "Latency.", {}, agentio_metrics::latency_buckets()) == &latency);
    BOOST_CHECK_THROW(registry.histogram("latency_seconds", "Latency.", {}, {1, 2}), std::invalid_argument);
    BOOST_CHECK_THROW(registry.gauge("latency_seconds", "Latency."), std::invalid_argument);

    // The exception names the metric.
    try
    {
        registry.gauge("latency_seconds", "Latency.");
        BOOST_FAIL("no exception");
    }
    catch(std::invalid_argument const& e)
    {
        BOOST_TEST(std::string(e.what()) == "agentio::metrics: 'latency_seconds' is registered already as a histogram");
    }
}

BOOST_AUTO_TEST_CASE(invalid_names_labels_and_buckets_throw)
{
    agentio_metrics::registry registry({.process_metrics = false});
    for(auto const* name : {"", "1st_total", "http-requests_total", "requests", "caf\xC3\xA9_total", "a b_total"})
        BOOST_CHECK_THROW(registry.counter(name, "Help."), std::invalid_argument);
    for(auto const* name : {"open_total", "open_count", "open_sum", "open_bucket"})
        BOOST_CHECK_THROW(registry.gauge(name, "Help."), std::invalid_argument);
    BOOST_CHECK_THROW(registry.histogram("size_bytes_count", "Help.", {}, {1}), std::invalid_argument);
    BOOST_CHECK_THROW(registry.gauge("open", ""), std::invalid_argument);
    for(auto const* label : {"", "1a", "a:b", "a-b", "__name", "le", "quantile"})
        BOOST_CHECK_THROW(registry.gauge("open", "Help.", {label}), std::invalid_argument);
    BOOST_CHECK_THROW(registry.gauge("open", "Help.", {"a", "a"}), std::invalid_argument);
    BOOST_CHECK_THROW(registry.gauge("open", "Help.", {"a"}, {.max_series = 0}), std::invalid_argument);
    double const nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    for(auto const& bounds : std::vector<std::vector<double>>{{1, 1}, {2, 1}, {nan}, {-inf, 1}, {1, inf, 2}})
        BOOST_CHECK_THROW(registry.histogram("size_bytes", "Help.", {}, bounds), std::invalid_argument);
    BOOST_TEST(registry.expose().empty()); // nothing of the above was registered

    // Valid, if unusual: colons in a metric name, a label starting with one underscore; a last +Inf is implied.
    registry.counter("job:calls:rate_total", "Help.", {"_shard"});
    BOOST_TEST(registry.histogram("size_bytes", "Help.", {}, {1, inf}).upper_bounds() == std::vector<double>{1});

    // Using a family wrongly throws too.
    auto& calls = registry.counter("calls_total", "Calls.", {"tool", "outcome"});
    BOOST_CHECK_THROW(calls.with({"only one"}), std::invalid_argument);
    BOOST_CHECK_THROW(calls.with({"a", "b"}).inc(-1), std::invalid_argument);
    BOOST_CHECK_THROW(calls.with({"a", "b"}).inc(nan), std::invalid_argument);
    BOOST_TEST(calls.with({"a", "b"}).value() == 0.0);
}

BOOST_AUTO_TEST_CASE(buckets_for_latency_and_tokens_and_observations_that_are_not_numbers)
{
    auto const increasing = [](std::vector<double> const& b) {
        return std::adjacent_find(b.begin(), b.end(), [](double x, double y) { return !(x < y); }) == b.end();
    };
    auto const latency = agentio_metrics::latency_buckets();
    BOOST_TEST(latency.front() == 0.005);
    BOOST_TEST(latency.back() == 60.0);
    BOOST_TEST(increasing(latency));
    auto const tokens = agentio_metrics::token_buckets();
    BOOST_TEST(tokens.front() == 16.0);
    BOOST_TEST(tokens.back() == 1048576.0);
    BOOST_TEST(increasing(tokens));

    agentio_metrics::registry registry({.process_metrics = false});
    auto& h = registry.histogram("odd_values", "Help.", {}, {1}).with();
    h.observe(std::numeric_limits<double>::quiet_NaN()); // counted in +Inf; the sum becomes NaN
    h.observe(-1);
    BOOST_TEST(h.cumulative_counts() == (std::vector<std::uint64_t>{1, 2}), boost::test_tools::per_element());
    BOOST_TEST(contains(registry.expose(), "odd_values_sum NaN\n"));
    BOOST_TEST(agentio_metrics::content_type == "text/plain; version=0.0.4; charset=utf-8");
}

BOOST_AUTO_TEST_CASE(collectors_run_before_each_exposition)
{
    agentio_metrics::registry registry({.process_metrics = false});
    auto& open = registry.gauge("streams_open", "Streams open.");
    int runs = 0;
    registry.on_collect([&] { open.with().set(++runs * 10); });
    registry.on_collect([&] { registry.gauge("made_while_collecting", "Help.").with().set(1); }); // no deadlock
    BOOST_TEST(contains(registry.expose(), "\nstreams_open 10\n"));
    auto const second = registry.expose();
    BOOST_TEST(contains(second, "\nstreams_open 20\n"));
    BOOST_TEST(contains(second, "\nmade_while_collecting 1\n"));
    BOOST_TEST(runs == 2);
}

BOOST_AUTO_TEST_CASE(the_process_metrics_read_from_proc)
{
    agentio_metrics::registry registry; // process_metrics is on unless turned off
    auto const text = registry.expose();
    for(auto const* gauge : {"process_resident_memory_bytes", "process_virtual_memory_bytes", "process_open_fds",
            "process_max_fds", "process_start_time_seconds"})
    {
        BOOST_TEST(contains(text, std::string("# TYPE ") + gauge + " gauge\n"), gauge);
        BOOST_TEST(sample_value(text, gauge) > 0, gauge);
    }
    BOOST_TEST(contains(text, "# TYPE process_cpu_seconds_total counter\n"));
    BOOST_TEST(sample_value(text, "process_cpu_seconds_total") >= 0);
    BOOST_TEST(sample_value(text, "process_resident_memory_bytes") <=
        sample_value(text, "process_virtual_memory_bytes"));
    BOOST_TEST(sample_value(text, "process_open_fds") <= sample_value(text, "process_max_fds"));
    auto const now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    auto const started = sample_value(text, "process_start_time_seconds");
    BOOST_TEST(started <= now + 1);
    BOOST_TEST(started > now - 24 * 3600); // this test binary started today

    agentio_metrics::registry quiet({.process_metrics = false});
    BOOST_TEST(!contains(quiet.expose(), "process_"));
}

BOOST_AUTO_TEST_SUITE_END()
