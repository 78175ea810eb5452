//
// agentio/app/telemetry.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What every application does to be seen from outside, written once: a
// logger (AGENTIO_LOG_*), a metrics registry served at GET /metrics, and a
// tracer whose spans go to an OTLP/HTTP collector (OTEL_*); the router's
// requests logged, counted and traced; the agents' model calls, tool calls
// and runs counted, logged and traced (`agent_observer`).
//
//   auto settings = app::telemetry_from_environment(process_environment, "agentio-facturas").value();
//   app::telemetry seen(ioc.get_executor(), std::move(settings));
//   agent_options.telemetry = seen.agent("facturas");
//   http::router<> routes(seen.router_options());
//   seen.add_metrics_route(routes);
//   seen.start();
//   ... serve ...
//   co_await seen.shutdown(); // the last spans sent, the log flushed
//

#ifndef AGENTIO_APP_TELEMETRY_HPP
#define AGENTIO_APP_TELEMETRY_HPP

#include <agentio/agent/telemetry.hpp>
#include <agentio/environment.hpp>
#include <agentio/http/metrics.hpp>
#include <agentio/http/request_log.hpp>
#include <agentio/http/router.hpp>
#include <agentio/log.hpp>
#include <agentio/metrics.hpp>
#include <agentio/otlp.hpp>
#include <agentio/threads/turn.hpp>
#include <agentio/trace.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/system/result.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace agentio::app {

namespace asio = boost::asio;

/// An application's logs and traces, as its environment sets them.
struct telemetry_settings
{
    log::settings log = {};
    trace::settings trace = {};
    /** Where `GET /metrics` is served on a listener of its own
        (`AGENTIO_METRICS_ADDRESS`: `127.0.0.1:9464`, `[::1]:9464`, `:9464`);
        unset, on the application's own port (@ref telemetry::add_metrics_route). */
    std::optional<http::tcp::endpoint> metrics_address = {};
};

/** `AGENTIO_METRICS_ADDRESS` (@ref http::parse_listen_address): where
    `GET /metrics` gets a listener of its own; nothing when unset. */
inline boost::system::result<std::optional<http::tcp::endpoint>, invalid_variable>
metrics_address_from_environment(environment_lookup const& lookup)
{
    auto const text = lookup("AGENTIO_METRICS_ADDRESS");
    if(!text || text->empty())
        return std::optional<http::tcp::endpoint>();
    auto address = http::parse_listen_address(*text);
    if(!address)
        return invalid_variable{"AGENTIO_METRICS_ADDRESS", *text, {"host:port", "[v6]:port", ":port"}};
    return address;
}

/** The logger's settings (`AGENTIO_LOG_LEVEL`, `AGENTIO_LOG_FORMAT`,
    `AGENTIO_LOG_FILE`, and the specification's own names in `names`) and
    the tracer's (`OTEL_*`, `program` being the service's name unless
    `OTEL_SERVICE_NAME` says another) and `AGENTIO_METRICS_ADDRESS`; the
    first bad variable is the error. */
inline boost::system::result<telemetry_settings, invalid_variable> telemetry_from_environment(
    environment_lookup const& lookup, std::string_view program, log::variable_names const& names = {})
{
    telemetry_settings s;
    log::settings log_defaults;
    log_defaults.program = std::string(program);
    auto log = log::settings_from_environment(lookup, log_defaults, names);
    if(!log)
        return log.error();
    s.log = std::move(*log);
    trace::settings trace_defaults;
    trace_defaults.service_name = std::string(program);
    auto trace = trace::settings_from_environment(lookup, trace_defaults);
    if(!trace)
        return trace.error();
    s.trace = std::move(*trace);
    auto metrics = metrics_address_from_environment(lookup);
    if(!metrics)
        return metrics.error();
    s.metrics_address = *metrics;
    return s;
}

/** Counts and logs what agents did (an `agent::observer`):

    - `agentio_agent_runs_active{strategy}` (gauge), `agentio_agent_runs_total{strategy, outcome}`,
      `agentio_agent_run_duration_seconds{strategy}`
    - `agentio_model_calls_total{provider, model, outcome}`, `agentio_model_call_duration_seconds{provider, model}`,
      `agentio_model_time_to_first_token_seconds{provider, model}`,
      `agentio_model_tokens_total{provider, model, type}` (`input`, `output`, `cache_read`, `cache_creation`),
      `agentio_model_retries_total{provider, model}`
    - `agentio_tool_calls_total{tool, outcome}`, `agentio_tool_call_duration_seconds{tool}`

    and writes `agent.run` and `tool.call` at INFO (a tool's error text at
    DEBUG), `model.call` at DEBUG and `provider.retry` at INFO. Labels are
    the application's own names (strategies, models, tools): never a user
    or a thread. */
class agent_observer final : public agent::observer
{
public:
    agent_observer(metrics::registry& registry, log::logger* log)
        : log_(log)
        , runs_active_(registry.gauge("agentio_agent_runs_active", "Agent runs in progress, by strategy.",
              {"strategy"}))
        , runs_(registry.counter("agentio_agent_runs_total", "Agent runs ended, by strategy and outcome.",
              {"strategy", "outcome"}))
        , run_duration_(registry.histogram("agentio_agent_run_duration_seconds", "Time an agent run took.",
              {"strategy"}, metrics::latency_buckets()))
        , model_calls_(registry.counter("agentio_model_calls_total",
              "Model calls ended, by provider, model and outcome (ok, or the failure's kind).",
              {"provider", "model", "outcome"}))
        , model_duration_(registry.histogram("agentio_model_call_duration_seconds",
              "Time a model call took, to the end of its streamed answer.", {"provider", "model"},
              metrics::latency_buckets()))
        , first_token_(registry.histogram("agentio_model_time_to_first_token_seconds",
              "Time from a model call to the first text, reasoning or tool call of its answer.", {"provider", "model"},
              metrics::latency_buckets()))
        , tokens_(registry.counter("agentio_model_tokens_total",
              "Tokens of model calls, by type: input, output, cache_read, cache_creation.",
              {"provider", "model", "type"}))
        , retries_(registry.counter("agentio_model_retries_total",
              "Model calls retried: by the provider's client (a 429, a 5xx, a lost connection) or because "
              "the stream failed before anything reached the user.",
              {"provider", "model"}))
        , tool_calls_(registry.counter("agentio_tool_calls_total", "Tool calls ended, by tool and outcome.",
              {"tool", "outcome"}))
        , tool_duration_(registry.histogram("agentio_tool_call_duration_seconds", "Time a tool call took.", {"tool"},
              metrics::latency_buckets()))
    {
    }

    /** Whether `agent.run` lines are written (on by default): off for an
        application that writes its own line per run, with what only it knows. */
    void log_runs(bool on) noexcept { log_runs_ = on; }

    void run_started(std::string_view strategy) override { runs_active_.with({strategy}).inc(); }

    void run_finished(agent::run_record const& r) override
    {
        runs_active_.with({r.strategy}).dec();
        runs_.with({r.strategy, to_string(r.status)}).inc();
        double const seconds = std::chrono::duration<double>(r.duration).count();
        run_duration_.with({r.strategy}).observe(seconds);
        if(log_runs_ && log_ && log_->enabled(log::level::info))
            log_->info("agent.run",
                {{"strategy", r.strategy}, {"model", r.model}, {"outcome", to_string(r.status)}, {"rounds", r.rounds},
                    {"input_tokens", r.usage.input_tokens}, {"output_tokens", r.usage.output_tokens},
                    {"duration_ms", seconds * 1000}, {"error", r.error_message}});
    }

    void model_call(agent::model_call_record const& c) override
    {
        std::string_view const provider = c.provider.empty() ? std::string_view("unknown") : c.provider;
        model_calls_.with({provider, c.model, c.outcome}).inc();
        double const seconds = std::chrono::duration<double>(c.duration).count();
        model_duration_.with({provider, c.model}).observe(seconds);
        if(c.time_to_first_token)
            first_token_.with({provider, c.model})
                .observe(std::chrono::duration<double>(*c.time_to_first_token).count());
        add_tokens(provider, c.model, "input", c.usage.input_tokens);
        add_tokens(provider, c.model, "output", c.usage.output_tokens);
        add_tokens(provider, c.model, "cache_read", c.usage.cache_read_input_tokens);
        add_tokens(provider, c.model, "cache_creation", c.usage.cache_creation_input_tokens);
        if(c.retries)
            retries_.with({provider, c.model}).inc(c.retries);
        if(log_ && log_->enabled(log::level::debug))
            log_->debug("model.call",
                {{"provider", provider}, {"model", c.model}, {"outcome", c.outcome}, {"duration_ms", seconds * 1000},
                    {"input_tokens", c.usage.input_tokens}, {"output_tokens", c.usage.output_tokens},
                    {"finish_reason", c.finish_reason}, {"retries", c.retries}});
    }

    void tool_call(agent::tool_call_record const& t) override
    {
        tool_calls_.with({t.tool, t.outcome}).inc();
        double const seconds = std::chrono::duration<double>(t.duration).count();
        tool_duration_.with({t.tool}).observe(seconds);
        if(log_ && log_->enabled(log::level::info))
            log_->info("tool.call",
                {{"tool", t.tool}, {"call_id", t.call_id}, {"outcome", t.outcome}, {"duration_ms", seconds * 1000}});
        if(!t.error_text.empty() && log_ && log_->enabled(log::level::debug))
            log_->debug("tool.error", {{"tool", t.tool}, {"call_id", t.call_id}, {"error", t.error_text}});
    }

    /** A provider's own retry (`llm::provider_options::on_retry`): counted,
        and written as `provider.retry` at INFO. */
    void provider_retry(std::string_view provider, std::string_view model, unsigned retry, llm::error const& failure)
    {
        retries_.with({provider.empty() ? std::string_view("unknown") : provider, model}).inc();
        if(log_ && log_->enabled(log::level::info))
            log_->info("provider.retry",
                {{"provider", provider}, {"model", model}, {"retry", retry}, {"kind", llm::to_string(failure.what)},
                    {"status", failure.status}, {"message", failure.message}});
    }

private:
    void add_tokens(std::string_view provider, std::string_view model, std::string_view type, std::uint64_t n)
    {
        if(n)
            tokens_.with({provider, model, type}).inc(static_cast<double>(n));
    }

    log::logger* log_;
    bool log_runs_ = true;
    metrics::gauge_family& runs_active_;
    metrics::counter_family& runs_;
    metrics::histogram_family& run_duration_;
    metrics::counter_family& model_calls_;
    metrics::histogram_family& model_duration_;
    metrics::histogram_family& first_token_;
    metrics::counter_family& tokens_;
    metrics::counter_family& retries_;
    metrics::counter_family& tool_calls_;
    metrics::histogram_family& tool_duration_;
};

/** An application's logger, metrics and tracer, and what connects them to
    its router and agents. Made before the routes, started once they are
    served, shut down after the server drained. */
class telemetry
{
public:
    telemetry(asio::any_io_executor ex, telemetry_settings settings)
        : log_(std::move(settings.log))
        , tracer_(std::move(settings.trace))
        , requests_(registry_)
        , agents_(registry_, &log_)
        , exporter_(ex, tracer_)
        , metrics_address_(settings.metrics_address)
    {
        if(metrics_address_)
            scrapes_.emplace(registry_);
        auto& spans = registry_.counter("agentio_trace_spans_total",
            "Spans ended, by fate: exported, failed (the collector was down, slow or refused them), dropped (the "
            "queue was full).",
            {"fate"});
        auto& log_dropped = registry_.counter("agentio_log_lines_dropped_total",
            "Log lines dropped because the writer fell behind.");
        auto& queued = registry_.gauge("agentio_agent_runs_queued",
            "Messages waiting in their thread's line for the run ahead to end (busy policy enqueue or interrupt).");
        registry_.on_collect([this, &spans, &log_dropped, &queued] {
            queued.with().set(static_cast<double>(threads::turns_waiting()));
            auto const stats = exporter_.stats();
            spans.with({"exported"}).set_total(static_cast<double>(stats.exported));
            spans.with({"failed"}).set_total(static_cast<double>(stats.failed));
            spans.with({"dropped"}).set_total(static_cast<double>(tracer_.dropped()));
            log_dropped.with().set_total(static_cast<double>(log_.dropped()));
        });
    }

    telemetry(telemetry const&) = delete;
    telemetry& operator=(telemetry const&) = delete;

    log::logger& log() noexcept { return log_; }
    metrics::registry& registry() noexcept { return registry_; }
    trace::tracer& tracer() noexcept { return tracer_; }
    agent_observer& agents() noexcept { return agents_; }

    /** What an agent's options take (`options::telemetry`): the observer,
        and the tracer, under the name `agent_name`. */
    agent::telemetry agent(std::string agent_name)
    {
        agent::telemetry t;
        t.observer = &agents_;
        t.tracer = &tracer_;
        t.agent_name = std::move(agent_name);
        return t;
    }

    /** `base` with each outgoing request that carries a `traceparent`
        recorded as a client span of the tracer (@ref http::client_options::tracer). */
    http::client_options client_options(http::client_options base = {})
    {
        base.tracer = &tracer_;
        return base;
    }

    /** `base` with each request logged (`http.request`), counted
        (`agentio_http_requests_total`, `..._duration_seconds`) and traced. */
    http::router_options router_options(http::router_options base = {}, http::request_log_options logged = {})
    {
        auto observed = http::observe_requests(&log_, &requests_, std::move(logged));
        if(base.observe)
            base.observe = [first = std::move(base.observe),
                               observed = std::move(observed)](http::request_observation const& seen) {
                first(seen);
                observed(seen);
            };
        else
            base.observe = std::move(observed);
        base.tracer = &tracer_;
        return base;
    }

    /** `GET {path}`: the registry in Prometheus's text format; nothing when
        the metrics have a listener of their own (`metrics_address`). */
    template<class Stream>
    void add_metrics_route(http::router<Stream>& routes, std::string const& path = "/metrics")
    {
        if(!scrapes_)
            http::add_metrics_route(routes, registry_, path);
    }

    /// Where the metrics' own listener is bound, once started; nothing without one.
    std::optional<http::tcp::endpoint> metrics_endpoint() const { return metrics_bound_; }

    /** A provider's `on_retry` (@ref llm::provider_options::on_retry) that
        counts and logs each retry under `provider`'s name. */
    std::function<void(std::string_view, unsigned, llm::error const&)> provider_retries(std::string provider)
    {
        return [this, provider = std::move(provider)](std::string_view model, unsigned retry,
                   llm::error const& failure) { agents_.provider_retry(provider, model, retry, failure); };
    }

    /** Starts sending spans, and writes the logger's start-up warnings
        (a log file that could not be opened) as `start.warning` lines. */
    void start()
    {
        for(auto const& w : log_.warnings())
            log_.warn("start.warning", {{"message", w}});
        if(scrapes_)
        {
            auto bound = scrapes_->listen(*metrics_address_);
            if(!bound)
                throw std::system_error(bound.error(),
                    "AGENTIO_METRICS_ADDRESS: cannot listen on " + endpoint_text(*metrics_address_));
            metrics_bound_ = *bound;
            scrapes_->start();
            log_.info("metrics.listening", {{"address", endpoint_text(*bound)}, {"path", "/metrics"}});
        }
        exporter_.start();
    }

    /// Stops the metrics' own listener, sends the spans still queued (bounded by the export timeout) and
    /// flushes the log.
    asio::awaitable<void> shutdown()
    {
        if(scrapes_)
            scrapes_->stop();
        co_await exporter_.shutdown();
        log_.flush();
    }

    /// What the exporter sent and lost.
    trace::export_stats exported() const noexcept { return exporter_.stats(); }

private:
    static std::string endpoint_text(http::tcp::endpoint const& e)
    {
        auto const address = e.address().to_string();
        auto const host = e.address().is_v6() ? "[" + address + "]" : address;
        return host + ":" + std::to_string(e.port());
    }

    log::logger log_;
    metrics::registry registry_;
    trace::tracer tracer_;
    http::request_metrics requests_;
    agent_observer agents_;
    trace::otlp_exporter exporter_;
    std::optional<http::tcp::endpoint> metrics_address_;
    std::optional<http::tcp::endpoint> metrics_bound_;
    std::optional<http::metrics_server> scrapes_; // after the registry: it serves it
};

} // namespace agentio::app

#endif
