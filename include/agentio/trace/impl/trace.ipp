//
// agentio/trace/impl/trace.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_TRACE_IMPL_TRACE_IPP
#define AGENTIO_TRACE_IMPL_TRACE_IPP

#include <agentio/trace.hpp>
#include <agentio/version.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <random>

namespace agentio::trace {

namespace detail {

inline bool all_zero(std::span<std::uint8_t const> bytes) noexcept
{
    return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0; });
}

inline int hex_digit(char c) noexcept
{
    if(c >= '0' && c <= '9')
        return c - '0';
    if(c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1; // upper case is invalid in traceparent
}

inline bool parse_hex(std::string_view text, std::span<std::uint8_t> out) noexcept
{
    if(text.size() != out.size() * 2)
        return false;
    for(std::size_t i = 0; i < out.size(); ++i)
    {
        int const hi = hex_digit(text[2 * i]);
        int const lo = hex_digit(text[2 * i + 1]);
        if(hi < 0 || lo < 0)
            return false;
        out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
    }
    return true;
}

// Identifiers need to be unique, not secret: a per-thread xoshiro256** seeded
// once from the system's entropy costs a few nanoseconds a span.
class id_source
{
public:
    id_source()
    {
        std::random_device entropy;
        for(auto& word : state_)
            word = (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
    }

    std::uint64_t next() noexcept
    {
        auto const result = rotl(state_[1] * 5, 7) * 9;
        auto const t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

    template<std::size_t N>
    void fill(std::array<std::uint8_t, N>& out) noexcept
    {
        do
        {
            for(std::size_t i = 0; i < N; i += 8)
            {
                auto word = next();
                for(std::size_t j = 0; j < 8 && i + j < N; ++j, word >>= 8)
                    out[i + j] = static_cast<std::uint8_t>(word);
            }
        } while(all_zero(out));
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
    std::uint64_t state_[4];
};

inline id_source& ids()
{
    thread_local id_source source;
    return source;
}

inline std::uint64_t now_unix_nano() noexcept
{
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
}

inline std::string lower(std::string_view s)
{
    std::string out(s);
    for(auto& c : out)
        if(c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

inline std::string_view trim(std::string_view s) noexcept
{
    while(!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while(!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

inline std::string percent_decode(std::string_view s)
{
    std::string out;
    for(std::size_t i = 0; i < s.size(); ++i)
    {
        if(s[i] == '%' && i + 2 < s.size())
        {
            auto const digit = [](char c) {
                if(c >= 'A' && c <= 'F')
                    c = static_cast<char>(c - 'A' + 'a');
                return hex_digit(c);
            };
            int const hi = digit(s[i + 1]);
            int const lo = digit(s[i + 2]);
            if(hi >= 0 && lo >= 0)
            {
                out += static_cast<char>(hi * 16 + lo);
                i += 2;
                continue;
            }
        }
        out += s[i];
    }
    return out;
}

// `k=v,k2=v2` (OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS); false when a member has no `=` or no key.
inline bool parse_pairs(std::string_view text, std::vector<std::pair<std::string, std::string>>& out)
{
    while(!text.empty())
    {
        auto const comma = text.find(',');
        std::string_view const member = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        if(trim(member).empty())
            continue;
        auto const eq = member.find('=');
        if(eq == std::string_view::npos || trim(member.substr(0, eq)).empty())
            return false;
        out.emplace_back(percent_decode(trim(member.substr(0, eq))), percent_decode(trim(member.substr(eq + 1))));
    }
    return true;
}

inline boost::json::value attribute_json(attribute_value const& v)
{
    boost::json::object o;
    switch(v.index())
    {
    case 0: o["stringValue"] = std::get<0>(v); break;
    case 1: o["boolValue"] = std::get<1>(v); break;
    case 2: o["intValue"] = std::to_string(std::get<2>(v)); break; // int64: a decimal string in OTLP/JSON
    case 3:
    {
        double const d = std::get<3>(v);
        if(std::isfinite(d))
            o["doubleValue"] = d;
        else // JSON has no NaN or infinity; the encoding spells them as strings
            o["doubleValue"] = std::isnan(d) ? "NaN" : (d > 0 ? "Infinity" : "-Infinity");
        break;
    }
    case 4:
    {
        boost::json::array values;
        for(auto const& s : std::get<4>(v))
            values.push_back(boost::json::object{{"stringValue", s}});
        o["arrayValue"] = boost::json::object{{"values", std::move(values)}};
        break;
    }
    }
    return o;
}

inline boost::json::array attributes_json(std::vector<attribute> const& attributes)
{
    boost::json::array out;
    out.reserve(attributes.size());
    for(auto const& a : attributes)
        out.push_back(boost::json::object{{"key", a.key}, {"value", attribute_json(a.value)}});
    return out;
}

} // namespace detail

bool span_context::valid() const noexcept
{
    return !detail::all_zero(trace_id) && !detail::all_zero(span_id);
}

std::optional<span_context> parse_traceparent(std::string_view h) noexcept
{
    // version "-" trace-id "-" parent-id "-" flags: 2 + 1 + 32 + 1 + 16 + 1 + 2 = 55
    if(h.size() < 55 || h[2] != '-' || h[35] != '-' || h[52] != '-')
        return std::nullopt;
    std::array<std::uint8_t, 1> version{};
    std::array<std::uint8_t, 1> flags{};
    span_context c;
    if(!detail::parse_hex(h.substr(0, 2), version) || version[0] == 0xff ||
        !detail::parse_hex(h.substr(3, 32), c.trace_id) || !detail::parse_hex(h.substr(36, 16), c.span_id) ||
        !detail::parse_hex(h.substr(53, 2), flags) || !c.valid())
        return std::nullopt;
    // Version 00 has exactly these fields; a later one may add more after a dash.
    if(h.size() > 55 && (version[0] == 0 || h[55] != '-'))
        return std::nullopt;
    c.sampled = (flags[0] & 0x01) != 0;
    return c;
}

std::string to_hex(std::span<std::uint8_t const> bytes)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(bytes.size() * 2, '0');
    for(std::size_t i = 0; i < bytes.size(); ++i)
    {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 0x0f];
    }
    return out;
}

std::string format_traceparent(span_context const& c)
{
    if(!c.valid())
        return {};
    std::string out;
    out.reserve(55);
    out += "00-";
    out += to_hex(c.trace_id);
    out += '-';
    out += to_hex(c.span_id);
    out += c.sampled ? "-01" : "-00";
    return out;
}

boost::system::result<settings, invalid_variable> settings_from_environment(environment_lookup const& lookup,
    settings const& defaults)
{
    settings s = defaults;
    auto const get = [&](char const* name) { return lookup(name); };

    if(auto v = get("OTEL_SERVICE_NAME"))
        s.service_name = *v;
    if(auto v = get("OTEL_RESOURCE_ATTRIBUTES"))
    {
        std::vector<std::pair<std::string, std::string>> pairs;
        if(!detail::parse_pairs(*v, pairs))
            return invalid_variable{"OTEL_RESOURCE_ATTRIBUTES", *v, {"key=value,key2=value2"}};
        for(auto& [key, value] : pairs)
        {
            if(key == "service.name")
            {
                if(!get("OTEL_SERVICE_NAME")) // OTEL_SERVICE_NAME wins
                    s.service_name = value;
                continue;
            }
            s.resource.push_back({std::move(key), attribute_value(std::move(value))});
        }
    }

    // Where spans go; an endpoint turns tracing on.
    if(auto v = get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))
    {
        s.endpoint = *v;
        s.enabled = true;
    }
    else if(auto base = get("OTEL_EXPORTER_OTLP_ENDPOINT"))
    {
        s.endpoint = *base;
        if(s.endpoint.ends_with('/'))
            s.endpoint.pop_back();
        s.endpoint += "/v1/traces";
        s.enabled = true;
    }
    if(!s.endpoint.starts_with("http://") && !s.endpoint.starts_with("https://"))
        return invalid_variable{get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") ? "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
                                                                          : "OTEL_EXPORTER_OTLP_ENDPOINT",
            s.endpoint, {"http://host:port", "https://host:port"}};
    for(char const* name : {"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"})
        if(auto v = get(name))
        {
            if(*v != "http/json")
                return invalid_variable{name, *v, {"http/json"}};
            break;
        }
    for(char const* name : {"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"})
        if(auto v = get(name))
            if(!detail::parse_pairs(*v, s.headers))
                return invalid_variable{name, "[redacted]", {"key=value,key2=value2"}}; // headers hold keys
    for(char const* name : {"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"})
        if(auto v = get(name))
        {
            auto const ms = parse_unsigned(*v, 1, 600000);
            if(!ms)
                return invalid_variable{name, *v, {"1..600000"}};
            s.export_timeout = std::chrono::milliseconds(*ms);
            break;
        }
    struct bounded
    {
        char const* name;
        unsigned lo, hi;
        std::function<void(unsigned)> apply;
    };
    bounded const numbers[] = {
        {"OTEL_BSP_MAX_QUEUE_SIZE", 1, 1000000, [&](unsigned n) { s.max_queue_size = n; }},
        {"OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 1, 1000000, [&](unsigned n) { s.max_export_batch_size = n; }},
        {"OTEL_BSP_SCHEDULE_DELAY", 1, 3600000, [&](unsigned n) { s.schedule_delay = std::chrono::milliseconds(n); }},
    };
    for(auto const& n : numbers)
        if(auto v = get(n.name))
        {
            auto const parsed = parse_unsigned(*v, n.lo, n.hi);
            if(!parsed)
                return invalid_variable{n.name, *v, {std::to_string(n.lo) + ".." + std::to_string(n.hi)}};
            n.apply(*parsed);
        }
    s.max_export_batch_size = std::min(s.max_export_batch_size, s.max_queue_size);

    if(auto v = get("OTEL_TRACES_SAMPLER"))
    {
        static constexpr std::pair<std::string_view, sampler> names[] = {{"always_on", sampler::always_on},
            {"always_off", sampler::always_off}, {"traceidratio", sampler::traceidratio},
            {"parentbased_always_on", sampler::parentbased_always_on},
            {"parentbased_always_off", sampler::parentbased_always_off},
            {"parentbased_traceidratio", sampler::parentbased_traceidratio}};
        auto const it = std::find_if(std::begin(names), std::end(names), [&](auto const& n) { return n.first == *v; });
        if(it == std::end(names))
        {
            std::vector<std::string> expected;
            for(auto const& n : names)
                expected.emplace_back(n.first);
            return invalid_variable{"OTEL_TRACES_SAMPLER", *v, std::move(expected)};
        }
        s.sampler = it->second;
    }
    if(auto v = get("OTEL_TRACES_SAMPLER_ARG"))
    {
        if(s.sampler == sampler::traceidratio || s.sampler == sampler::parentbased_traceidratio)
        {
            double ratio = -1;
            auto const [end, ec] = std::from_chars(v->data(), v->data() + v->size(), ratio);
            if(ec != std::errc() || end != v->data() + v->size() || !(ratio >= 0 && ratio <= 1))
                return invalid_variable{"OTEL_TRACES_SAMPLER_ARG", *v, {"a number from 0 to 1"}};
            s.sampler_ratio = ratio;
        }
    }

    if(auto v = get("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"))
        s.capture_message_content = detail::lower(*v) == "true";

    // What turns it off wins over what turns it on.
    if(auto v = get("OTEL_TRACES_EXPORTER"))
    {
        if(*v == "otlp")
            s.enabled = true;
        else if(*v == "none")
            s.enabled = false;
        else
            return invalid_variable{"OTEL_TRACES_EXPORTER", *v, {"otlp", "none"}};
    }
    if(auto v = get("OTEL_SDK_DISABLED"); v && detail::lower(*v) == "true")
        s.enabled = false;
    return s;
}

// --- span ----------------------------------------------------------------------

span::span(span&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr))
    , context_(other.context_)
    , data_(std::move(other.data_))
{
}

span& span::operator=(span&& other) noexcept
{
    if(this != &other)
    {
        end();
        owner_ = std::exchange(other.owner_, nullptr);
        context_ = other.context_;
        data_ = std::move(other.data_);
    }
    return *this;
}

span& span::set(std::string_view key, attribute_value value)
{
    if(!data_)
        return *this;
    for(auto& a : data_->attributes)
        if(a.key == key)
        {
            a.value = std::move(value);
            return *this;
        }
    data_->attributes.push_back({std::string(key), std::move(value)});
    return *this;
}

void span::rename(std::string_view name)
{
    if(data_)
        data_->name.assign(name);
}

void span::fail(std::string_view error_type, std::string_view message)
{
    if(!data_)
        return;
    data_->status = status_code::error;
    data_->status_message.assign(message);
    set("error.type", error_type);
}

void span::end() noexcept
{
    if(!data_)
        return;
    data_->end_unix_nano = detail::now_unix_nano();
    if(owner_)
        owner_->finish(std::move(data_));
    data_.reset();
}

// --- tracer --------------------------------------------------------------------

bool tracer::sample(span_context const& parent, trace_id const& id) const noexcept
{
    auto const by_ratio = [&] {
        // The last 8 bytes of the id, as W3C level 2's random part: kept when below ratio · 2^64.
        std::uint64_t low = 0;
        for(std::size_t i = 8; i < 16; ++i)
            low = (low << 8) | id[i];
        if(settings_.sampler_ratio >= 1.0)
            return true;
        return static_cast<double>(low) < settings_.sampler_ratio * 18446744073709551616.0;
    };
    switch(settings_.sampler)
    {
    case sampler::always_on: return true;
    case sampler::always_off: return false;
    case sampler::traceidratio: return by_ratio();
    case sampler::parentbased_always_on: return parent.valid() ? parent.sampled : true;
    case sampler::parentbased_always_off: return parent.valid() ? parent.sampled : false;
    case sampler::parentbased_traceidratio: return parent.valid() ? parent.sampled : by_ratio();
    }
    return false;
}

span tracer::start(std::string_view name, span_kind kind, std::optional<span_context> const& parent)
{
    span_context const from = parent && parent->valid() ? *parent : span_context{};
    if(!settings_.enabled)
        return span(nullptr, from, nullptr); // passes the incoming context on unchanged
    span_context c;
    if(from.valid())
        c.trace_id = from.trace_id;
    else
        detail::ids().fill(c.trace_id);
    detail::ids().fill(c.span_id);
    c.sampled = sample(from, c.trace_id);
    if(!c.sampled)
        return span(nullptr, c, nullptr);
    auto data = std::make_unique<span_data>();
    data->context = c;
    data->parent_span_id = from.span_id;
    data->name.assign(name);
    data->kind = kind;
    data->start_unix_nano = detail::now_unix_nano();
    return span(this, c, std::move(data));
}

void tracer::finish(std::unique_ptr<span_data> data) noexcept
{
    ended_.fetch_add(1, std::memory_order_relaxed);
    std::function<void()> wake;
    try
    {
        std::lock_guard lock(mutex_);
        if(queue_.size() >= settings_.max_queue_size)
        {
            dropped_.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        queue_.push_back(std::move(*data));
        if(queue_.size() == settings_.max_export_batch_size)
            wake = wake_; // called outside the lock
    }
    catch(...)
    {
        dropped_.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    if(wake)
        wake();
}

std::size_t tracer::take(std::vector<span_data>& out, std::size_t max)
{
    std::lock_guard lock(mutex_);
    std::size_t const n = std::min(max, queue_.size());
    out.insert(out.end(), std::make_move_iterator(queue_.begin()),
        std::make_move_iterator(queue_.begin() + static_cast<std::ptrdiff_t>(n)));
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
    return n;
}

std::size_t tracer::queued() const
{
    std::lock_guard lock(mutex_);
    return queue_.size();
}

// --- OTLP/JSON -----------------------------------------------------------------

std::string to_otlp_json(settings const& resource, std::span<span_data const> spans)
{
    std::vector<attribute> resource_attributes;
    resource_attributes.push_back({"service.name",
        attribute_value(resource.service_name.empty() ? std::string("unknown_service") : resource.service_name)});
    resource_attributes.push_back({"telemetry.sdk.name", attribute_value(std::string("agentio"))});
    resource_attributes.push_back({"telemetry.sdk.language", attribute_value(std::string("cpp"))});
    resource_attributes.push_back({"telemetry.sdk.version", attribute_value(std::string(AGENTIO_VERSION_STRING))});
    for(auto const& a : resource.resource)
        resource_attributes.push_back(a);

    boost::json::array out_spans;
    out_spans.reserve(spans.size());
    for(auto const& sd : spans)
    {
        boost::json::object o;
        o["traceId"] = to_hex(sd.context.trace_id);
        o["spanId"] = to_hex(sd.context.span_id);
        if(!detail::all_zero(sd.parent_span_id))
            o["parentSpanId"] = to_hex(sd.parent_span_id);
        o["name"] = sd.name;
        o["kind"] = static_cast<int>(sd.kind);
        o["startTimeUnixNano"] = std::to_string(sd.start_unix_nano);
        o["endTimeUnixNano"] = std::to_string(sd.end_unix_nano);
        if(!sd.attributes.empty())
            o["attributes"] = detail::attributes_json(sd.attributes);
        boost::json::object status;
        if(sd.status != status_code::unset)
            status["code"] = static_cast<int>(sd.status);
        if(!sd.status_message.empty())
            status["message"] = sd.status_message;
        o["status"] = std::move(status);
        out_spans.push_back(std::move(o));
    }
    boost::json::object scope_spans{
        {"scope", boost::json::object{{"name", "agentio"}, {"version", AGENTIO_VERSION_STRING}}},
        {"spans", std::move(out_spans)}};
    boost::json::object resource_spans{
        {"resource", boost::json::object{{"attributes", detail::attributes_json(resource_attributes)}}},
        {"scopeSpans", boost::json::array{std::move(scope_spans)}}};
    boost::json::object request{{"resourceSpans", boost::json::array{std::move(resource_spans)}}};
    return boost::json::serialize(request);
}

} // namespace agentio::trace

#endif
