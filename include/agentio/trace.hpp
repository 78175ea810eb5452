//
// agentio/trace.hpp
// ~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Distributed traces as OpenTelemetry has them: spans with W3C trace
// context, sampled by the OTEL_* variables, queued for an exporter
// (otlp.hpp sends them as OTLP/JSON). No OpenTelemetry C++ SDK is
// packaged in Debian, so this is the part of one an agent server needs, and
// no more: no metrics or logs signal, no baggage, no span events or links.
//
// The context crosses process boundaries as a `traceparent` header and
// crosses layers as its text (`llm::request::traceparent`,
// `tool_context::traceparent`): the layers below carry a string and need
// not know this header. A tracer that is off (the default) makes spans
// that record nothing and cost a branch: the incoming context is passed on
// unchanged, so a trace still crosses a process that does not record it.
//
//   trace::tracer tracer(trace::settings_from_environment(process_environment, {.service_name = "my-agent"}).value());
//   trace::span server = tracer.start("POST /ask", trace::span_kind::server, trace::parse_traceparent(header));
//   trace::span chat = tracer.start("chat claude-sonnet-4-5", trace::span_kind::client, server.context());
//   chat.set("gen_ai.usage.input_tokens", std::int64_t(120));
//   // ends when it goes out of scope; an exporter drains tracer's queue
//

#ifndef AGENTIO_TRACE_HPP
#define AGENTIO_TRACE_HPP

#include <agentio/config.hpp>
#include <agentio/environment.hpp>

#include <boost/system/result.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace agentio::trace {

/// A trace's identifier: 16 bytes, not all zero when valid.
using trace_id = std::array<std::uint8_t, 16>;
/// A span's identifier: 8 bytes, not all zero when valid.
using span_id = std::array<std::uint8_t, 8>;

/// What identifies a span across processes: W3C Trace Context's `traceparent`.
struct span_context
{
    trace::trace_id trace_id = {};
    trace::span_id span_id = {};
    /// The `sampled` flag: the caller records this trace.
    bool sampled = false;

    /// Whether both identifiers are set (not all zero).
    AGENTIO_DECL bool valid() const noexcept;
};

/** The context a `traceparent` header carries, or nothing when it is
    malformed (which a receiver ignores: it starts a new trace and never
    echoes the value). Version 00 must be exactly 55 characters; a later
    version may append fields after a dash; version ff, upper-case hex and
    all-zero identifiers are invalid (W3C Trace Context, level 1). */
AGENTIO_DECL std::optional<span_context> parse_traceparent(std::string_view header) noexcept;

/// The `traceparent` header of a context: `00-{trace id}-{span id}-{01|00}`; empty when it is not valid.
AGENTIO_DECL std::string format_traceparent(span_context const& context);

/// Lower-case hex of an identifier.
AGENTIO_DECL std::string to_hex(std::span<std::uint8_t const> bytes);

/// What a span stands for, as OTLP numbers it.
enum class span_kind
{
    internal = 1,
    server = 2,
    client = 3,
    producer = 4,
    consumer = 5
};

/// How a span ended.
enum class status_code
{
    unset = 0,
    ok = 1,
    error = 2
};

/// A span attribute's value: OTLP's scalar types and an array of strings.
using attribute_value = std::variant<std::string, bool, std::int64_t, double, std::vector<std::string>>;

/// A span (or resource) attribute.
struct attribute
{
    std::string key;
    attribute_value value;
};

/// A finished span, as an exporter sends it.
struct span_data
{
    span_context context = {};
    /// All zero for a root span.
    span_id parent_span_id = {};
    std::string name = {};
    span_kind kind = span_kind::internal;
    /// Since the Unix epoch, in nanoseconds.
    std::uint64_t start_unix_nano = 0;
    std::uint64_t end_unix_nano = 0;
    std::vector<attribute> attributes = {};
    status_code status = status_code::unset;
    /// With `status_code::error` only.
    std::string status_message = {};
};

/// Which traces are recorded, as `OTEL_TRACES_SAMPLER` names them.
enum class sampler
{
    always_on,
    always_off,
    traceidratio,
    parentbased_always_on,
    parentbased_always_off,
    parentbased_traceidratio
};

/// How a tracer records and where its spans go.
struct settings
{
    /** Whether spans are recorded at all. Off by default: the environment
        turns it on with an endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or
        `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) or `OTEL_TRACES_EXPORTER=otlp`,
        and `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turns it off. */
    bool enabled = false;
    /// `service.name` of the resource (`OTEL_SERVICE_NAME`).
    std::string service_name = {};
    /// The resource's other attributes (`OTEL_RESOURCE_ATTRIBUTES`: `k=v,k2=v2`, values percent-decoded).
    std::vector<attribute> resource = {};
    /// `OTEL_TRACES_SAMPLER`, and its ratio (`OTEL_TRACES_SAMPLER_ARG`, 0–1).
    trace::sampler sampler = sampler::parentbased_always_on;
    double sampler_ratio = 1.0;
    /** Where spans are POSTed: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as is,
        or `OTEL_EXPORTER_OTLP_ENDPOINT` with `/v1/traces` appended; by
        default `http://localhost:4318/v1/traces`. */
    std::string endpoint = "http://localhost:4318/v1/traces";
    /// Fields sent with each export (`OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TRACES_HEADERS`).
    std::vector<std::pair<std::string, std::string>> headers = {};
    /// Longest an export may take (`OTEL_EXPORTER_OTLP_TIMEOUT`, `…_TRACES_TIMEOUT`, milliseconds).
    std::chrono::milliseconds export_timeout{10000};
    /// Spans waiting for export at most (`OTEL_BSP_MAX_QUEUE_SIZE`); more are dropped and counted.
    std::size_t max_queue_size = 2048;
    /// Spans per export at most (`OTEL_BSP_MAX_EXPORT_BATCH_SIZE`).
    std::size_t max_export_batch_size = 512;
    /// Longest a span waits before an export (`OTEL_BSP_SCHEDULE_DELAY`, milliseconds).
    std::chrono::milliseconds schedule_delay{5000};
    /** Whether prompts, answers, tool arguments and results go on spans
        (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`): off, as
        the GenAI conventions ask, since they may hold personal data. */
    bool capture_message_content = false;
};

/** Settings from the standard `OTEL_*` variables over `defaults` (whose
    `service_name` stands when `OTEL_SERVICE_NAME` is unset). A value that is
    not one the specification allows is an error naming its variable, except
    `OTEL_EXPORTER_OTLP_PROTOCOL`, of which only `http/json` is spoken: another
    value is an error too, so that a collector is never sent what it does not expect. */
AGENTIO_DECL boost::system::result<settings, invalid_variable>
settings_from_environment(environment_lookup const& lookup, settings const& defaults = {});

class tracer;

/** A span being recorded: move-only, it ends when `end()` is called or when
    it is destroyed, and its data then goes to its tracer's queue. A span of
    a tracer that is off, or of a trace not sampled, records nothing: its
    setters return at once, and it still has a context to pass on. */
class span
{
public:
    /// A span that records nothing and has no context.
    span() noexcept = default;
    span(span&& other) noexcept;
    span& operator=(span&& other) noexcept;
    span(span const&) = delete;
    span& operator=(span const&) = delete;
    ~span() { end(); }

    /// Whether what is set on it is kept.
    bool recording() const noexcept { return data_ != nullptr; }

    /// Its context, to parent other spans and to send on; invalid when none.
    span_context const& context() const noexcept { return context_; }

    /// Its context as a `traceparent` header; empty when there is none.
    std::string traceparent() const { return format_traceparent(context_); }

    /// Sets an attribute (replacing one of the same key).
    AGENTIO_DECL span& set(std::string_view key, attribute_value value);
    span& set(std::string_view key, std::string_view value)
    {
        return recording() ? set(key, attribute_value(std::string(value))) : *this;
    }
    span& set(std::string_view key, char const* value) { return set(key, std::string_view(value)); }
    span& set(std::string_view key, std::string value)
    {
        return recording() ? set(key, attribute_value(std::move(value))) : *this;
    }
    span& set(std::string_view key, bool value) { return recording() ? set(key, attribute_value(value)) : *this; }
    span& set(std::string_view key, double value) { return recording() ? set(key, attribute_value(value)) : *this; }
    span& set(std::string_view key, std::int64_t value)
    {
        return recording() ? set(key, attribute_value(value)) : *this;
    }
    span& set(std::string_view key, int value) { return set(key, static_cast<std::int64_t>(value)); }
    span& set(std::string_view key, unsigned value) { return set(key, static_cast<std::int64_t>(value)); }
    /// Above 2^63 - 1 it is written as that (OTLP's integers are signed).
    span& set(std::string_view key, std::uint64_t value)
    {
        constexpr std::uint64_t most = static_cast<std::uint64_t>(INT64_MAX);
        return set(key, static_cast<std::int64_t>(value > most ? most : value));
    }

    /// Renames it (a server span named once its route is known).
    AGENTIO_DECL void rename(std::string_view name);

    /// Marks it failed: status error, `error.type` (a low-cardinality kind) and a message.
    AGENTIO_DECL void fail(std::string_view error_type, std::string_view message = {});

    /// Ends it now; later calls do nothing.
    AGENTIO_DECL void end() noexcept;

private:
    friend class tracer;
    span(tracer* owner, span_context context, std::unique_ptr<span_data> data) noexcept
        : owner_(owner)
        , context_(context)
        , data_(std::move(data))
    {
    }

    tracer* owner_ = nullptr;
    span_context context_ = {};
    std::unique_ptr<span_data> data_;
};

/** Makes spans and queues the finished ones for an exporter. Thread-safe:
    spans end on any thread; the queue is bounded, and a span that finds it
    full is dropped and counted, never waited for. Outlives its spans. */
class tracer
{
public:
    /// A tracer that records nothing.
    tracer() = default;
    explicit tracer(trace::settings s) : settings_(std::move(s)) {}
    tracer(tracer const&) = delete;
    tracer& operator=(tracer const&) = delete;

    /// Whether it records spans.
    bool enabled() const noexcept { return settings_.enabled; }

    trace::settings const& config() const noexcept { return settings_; }

    /** Starts a span, child of `parent` when it is valid, else the root of a
        new trace. With the tracer off, the span records nothing and its
        context is the parent's (so that it is passed on unchanged). */
    AGENTIO_DECL span start(std::string_view name, span_kind kind, std::optional<span_context> const& parent = {});

    /// As above, the parent given as a `traceparent` header (ignored when malformed).
    span start(std::string_view name, span_kind kind, std::string_view parent_traceparent)
    {
        return start(name, kind, parse_traceparent(parent_traceparent));
    }

    /// Moves up to `max` finished spans into `out`, oldest first; returns how many.
    AGENTIO_DECL std::size_t take(std::vector<span_data>& out, std::size_t max);

    /// Spans waiting for export.
    AGENTIO_DECL std::size_t queued() const;

    /// Spans dropped because the queue was full.
    std::uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }

    /// Spans that ended (recorded ones, exported or not).
    std::uint64_t ended() const noexcept { return ended_.load(std::memory_order_relaxed); }

    /** Called (outside the lock) when the queue reaches a batch: an exporter
        wakes up. Set before any span ends. */
    void on_batch_ready(std::function<void()> wake)
    {
        std::lock_guard lock(mutex_);
        wake_ = std::move(wake);
    }

private:
    friend class span;
    AGENTIO_DECL void finish(std::unique_ptr<span_data> data) noexcept;
    AGENTIO_DECL bool sample(span_context const& parent_or_invalid, trace_id const& id) const noexcept;

    trace::settings settings_;
    mutable std::mutex mutex_;
    std::vector<span_data> queue_;
    std::atomic<std::uint64_t> dropped_{0};
    std::atomic<std::uint64_t> ended_{0};
    std::function<void()> wake_;
};

/** OTLP/JSON (`ExportTraceServiceRequest`) of spans of one resource: what
    an exporter POSTs to `/v1/traces`. Identifiers are hex, 64-bit integers
    decimal strings, enums numbers, as the OTLP specification's JSON encoding
    requires. */
AGENTIO_DECL std::string to_otlp_json(settings const& resource, std::span<span_data const> spans);

/// The names of the OpenTelemetry GenAI semantic conventions the library's spans use.
namespace gen_ai {
inline constexpr std::string_view operation_name = "gen_ai.operation.name";
inline constexpr std::string_view provider_name = "gen_ai.provider.name";
inline constexpr std::string_view agent_name = "gen_ai.agent.name";
inline constexpr std::string_view conversation_id = "gen_ai.conversation.id";
inline constexpr std::string_view request_model = "gen_ai.request.model";
inline constexpr std::string_view request_max_tokens = "gen_ai.request.max_tokens";
inline constexpr std::string_view request_temperature = "gen_ai.request.temperature";
inline constexpr std::string_view response_model = "gen_ai.response.model";
inline constexpr std::string_view response_id = "gen_ai.response.id";
inline constexpr std::string_view response_finish_reasons = "gen_ai.response.finish_reasons";
inline constexpr std::string_view usage_input_tokens = "gen_ai.usage.input_tokens";
inline constexpr std::string_view usage_output_tokens = "gen_ai.usage.output_tokens";
inline constexpr std::string_view usage_cache_read_input_tokens = "gen_ai.usage.cache_read.input_tokens";
inline constexpr std::string_view usage_cache_creation_input_tokens = "gen_ai.usage.cache_creation.input_tokens";
inline constexpr std::string_view tool_name = "gen_ai.tool.name";
inline constexpr std::string_view tool_call_id = "gen_ai.tool.call.id";
inline constexpr std::string_view tool_type = "gen_ai.tool.type";
inline constexpr std::string_view tool_call_arguments = "gen_ai.tool.call.arguments";
inline constexpr std::string_view tool_call_result = "gen_ai.tool.call.result";
inline constexpr std::string_view input_messages = "gen_ai.input.messages";
inline constexpr std::string_view output_messages = "gen_ai.output.messages";
inline constexpr std::string_view system_instructions = "gen_ai.system_instructions";
} // namespace gen_ai

} // namespace agentio::trace

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/trace/impl/trace.ipp>
#endif

#endif
