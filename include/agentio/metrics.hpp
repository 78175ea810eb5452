//
// agentio/metrics.hpp
// ~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Prometheus metrics: counters, gauges and histograms in labelled families,
// written in the text exposition format 0.0.4 that Prometheus scrapes.
// Recording sits on the hot path (each request, each streamed token), so a
// series is a few atomics: adding to one takes no lock, and neither does
// finding it again; a family's mutex is taken only to create a series.
// Label values come from outside (a model's name, a route, a tool's), so a
// family holds a bounded number of series and sends new label combinations
// past the bound to one series labelled "other", counting each one it
// redirects: no client can grow the server's memory, or Prometheus's index,
// through a label. No HTTP here: a server answers GET /metrics with
// `expose()` under `content_type`.
//
//   metrics::registry registry;
//   auto& requests = registry.counter("http_requests_total", "HTTP requests answered.", {"method", "code"});
//   requests.with({"POST", "200"}).inc();
//   auto& latency = registry.histogram("http_request_duration_seconds", "Time to answer a request.", {"route"},
//       metrics::latency_buckets());
//   latency.with({"/v1/chat/completions"}).observe(0.42);
//   std::string body = registry.expose();
//

#ifndef AGENTIO_METRICS_HPP
#define AGENTIO_METRICS_HPP

#include <agentio/detail/utf8.hpp>
#include <agentio/text.hpp>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace agentio::metrics {

/// The `Content-Type` of the text `registry::expose()` writes: the text exposition format 0.0.4.
inline constexpr std::string_view content_type = "text/plain; version=0.0.4; charset=utf-8";

/// How many series a family holds when its registration does not say (`family_options::max_series`).
inline constexpr std::size_t default_max_series = 1000;

/// The longest label value kept, in bytes; a longer one is cut on a character boundary.
inline constexpr std::size_t max_label_value_bytes = 128;

/// The value of every label of the series that takes a full family's new label combinations.
inline constexpr std::string_view overflow_label_value = "other";

/** Upper bounds for durations in seconds, 5 ms to a minute: a route
    answered from memory lands in the first buckets, a model's whole answer
    in the last ones. */
inline std::vector<double> latency_buckets()
{
    return {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
}

/** Upper bounds, in seconds, for what a local store or index answers: from
    100 µs (a SQLite read in the page cache) to 5 s (a lock waited for). */
inline std::vector<double> storage_latency_buckets()
{
    return {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
}

/** Upper bounds for token counts: powers of 4 from 16 to 1 Mi, so that the
    context windows models come in (8 Ki … 1 Mi) each fall near a bound. */
inline std::vector<double> token_buckets()
{
    return {16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576};
}

static_assert(std::atomic<double>::is_always_lock_free && std::atomic<std::uint64_t>::is_always_lock_free,
    "the series' values must be lock-free atomics");

class registry;

/** A value that only goes up: requests answered, tokens spent. A
    counter_family makes them; adding is one atomic operation, lock-free. */
class counter
{
public:
    counter() = default;
    counter(counter const&) = delete;
    counter& operator=(counter const&) = delete;

    /** Adds `amount`.
        @throws std::invalid_argument when `amount` is negative or NaN: a
        counter that went down would read as a restart of the process. */
    void inc(double amount = 1)
    {
        if(!(amount >= 0))
            throw std::invalid_argument("agentio::metrics: a counter cannot go down");
        value_.fetch_add(amount, std::memory_order_relaxed);
    }

    /// The total so far.
    double value() const noexcept { return value_.load(std::memory_order_relaxed); }

    /** Makes the total `total`, when it is more than the total so far: for a
        count kept elsewhere (a queue's drops, the kernel's CPU time) and
        copied in by a `registry::on_collect` function. A smaller value is
        ignored, so the counter never goes down. */
    void set_total(double total) noexcept
    {
        double seen = value_.load(std::memory_order_relaxed);
        while(total > seen && !value_.compare_exchange_weak(seen, total, std::memory_order_relaxed))
        {
        }
    }

private:
    friend class registry; // process_cpu_seconds_total is read from the kernel, not added to
    void set(double value) noexcept { value_.store(value, std::memory_order_relaxed); }

    std::atomic<double> value_{0};
};

/** A value that goes up and down: streams open, connections in a pool. A
    gauge_family makes them; each change is one atomic operation, lock-free. */
class gauge
{
public:
    gauge() = default;
    gauge(gauge const&) = delete;
    gauge& operator=(gauge const&) = delete;

    /// Makes the value `value`.
    void set(double value) noexcept { value_.store(value, std::memory_order_relaxed); }
    /// Adds `amount` (which may be negative).
    void inc(double amount = 1) noexcept { value_.fetch_add(amount, std::memory_order_relaxed); }
    /// Takes `amount` away.
    void dec(double amount = 1) noexcept { value_.fetch_sub(amount, std::memory_order_relaxed); }
    /// The value now.
    double value() const noexcept { return value_.load(std::memory_order_relaxed); }

private:
    std::atomic<double> value_{0};
};

/** Observations counted in buckets by upper bound, with their sum: what
    Prometheus's `histogram_quantile` reads. A histogram_family makes them;
    an observation is two atomic additions, lock-free. */
class histogram
{
public:
    /** A histogram over `upper_bounds`: finite, increasing, +Inf implied
        after them. The bounds are not copied and must outlive it (a
        family's do). */
    explicit histogram(std::span<double const> upper_bounds)
        : upper_bounds_(upper_bounds)
        , counts_(std::make_unique<std::atomic<std::uint64_t>[]>(upper_bounds.size() + 1))
    {
    }

    histogram(histogram const&) = delete;
    histogram& operator=(histogram const&) = delete;

    /** Counts `value` in the first bucket whose bound is not below it. NaN
        lands in the +Inf bucket and makes the sum NaN, as the Prometheus
        client libraries do: the observation is counted, not hidden. */
    void observe(double value) noexcept
    {
        // !(value <= bound) rather than bound < value, so that NaN passes every finite bound
        auto const below = [value](double bound) { return !(value <= bound); };
        auto const bucket = std::partition_point(upper_bounds_.begin(), upper_bounds_.end(), below);
        counts_[static_cast<std::size_t>(bucket - upper_bounds_.begin())].fetch_add(1, std::memory_order_relaxed);
        sum_.fetch_add(value, std::memory_order_relaxed);
    }

    /// The finite upper bounds of the buckets.
    std::span<double const> upper_bounds() const noexcept { return upper_bounds_; }

    /** How many observations each bucket holds, cumulative as exposed: one
        per finite bound, then the +Inf bucket, which is `count()`. */
    std::vector<std::uint64_t> cumulative_counts() const
    {
        std::vector<std::uint64_t> counts(upper_bounds_.size() + 1);
        std::uint64_t total = 0;
        for(std::size_t i = 0; i < counts.size(); ++i)
            counts[i] = total += counts_[i].load(std::memory_order_relaxed);
        return counts;
    }

    /// How many observations there were.
    std::uint64_t count() const noexcept
    {
        std::uint64_t total = 0;
        for(std::size_t i = 0; i <= upper_bounds_.size(); ++i)
            total += counts_[i].load(std::memory_order_relaxed);
        return total;
    }

    /// The sum of the observations.
    double sum() const noexcept { return sum_.load(std::memory_order_relaxed); }

private:
    std::span<double const> upper_bounds_;
    // Per bucket, not cumulative: an observation touches one. The count is
    // their sum, so the +Inf bucket and _count always agree.
    std::unique_ptr<std::atomic<std::uint64_t>[]> counts_;
    std::atomic<double> sum_{0};
};

/// How a family is registered beyond its name, help and labels.
struct family_options
{
    /** The most series of distinct label values the family holds; past it,
        new label combinations share the series whose every label is
        "other" (`overflow_label_value`), one more. At least 1. */
    std::size_t max_series = default_max_series;
};

namespace detail {

enum class metric_type
{
    counter,
    gauge,
    histogram
};

template<class Series>
inline constexpr metric_type metric_type_of = std::is_same_v<Series, counter> ? metric_type::counter
    : std::is_same_v<Series, gauge>                                           ? metric_type::gauge
                                                                              : metric_type::histogram;

inline constexpr std::string_view type_names[] = {"counter", "gauge", "histogram"};

inline bool is_name_start(char c, bool colon_allowed) noexcept
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon_allowed && c == ':');
}

// [a-zA-Z_:][a-zA-Z0-9_:]* for a metric, [a-zA-Z_][a-zA-Z0-9_]* for a label (the data model's rules).
inline bool is_valid_name(std::string_view name, bool colon_allowed) noexcept
{
    if(name.empty() || !is_name_start(name[0], colon_allowed))
        return false;
    return std::all_of(name.begin() + 1, name.end(),
        [&](char c) { return is_name_start(c, colon_allowed) || (c >= '0' && c <= '9'); });
}

inline bool is_valid_utf8(std::string_view text) noexcept
{
    for(std::size_t i = 0; i < text.size();)
    {
        auto const n = static_cast<unsigned char>(text[i]) < 0x80 ? 1 : agentio::detail::utf8_sequence_length(text, i);
        if(n == 0)
            return false;
        i += n;
    }
    return true;
}

// Whether a label value must be repaired or cut before it names a series: the common case is no.
inline bool needs_normalizing(std::string_view value) noexcept
{
    return value.size() > max_label_value_bytes || !is_valid_utf8(value);
}

// The exposition must be UTF-8 (promtool rejects the scrape otherwise), and a value at most 128 bytes.
inline std::string normalized_label_value(std::string_view value)
{
    std::string out;
    append_valid_utf8(out, value);
    out.resize(utf8_byte_prefix(out, max_label_value_bytes));
    return out;
}

inline std::uint64_t hash_label_values(std::span<std::string_view const> values) noexcept
{
    std::uint64_t h = 14695981039346656037ull; // FNV-1a
    for(auto const value : values)
    {
        for(unsigned char c : value)
            h = (h ^ c) * 1099511628211ull;
        h = (h ^ 0xff) * 1099511628211ull; // a byte no UTF-8 text holds: ("a", "b") and ("ab", "") differ
    }
    // The table probes from the low bits, which FNV mixes poorly: finish as splitmix64 does.
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

// A sample value as Go's ParseFloat reads it (Prometheus's parser): shortest round trip, +Inf, -Inf, NaN.
inline void append_number(std::string& out, double value)
{
    if(std::isnan(value))
        out += "NaN";
    else if(std::isinf(value))
        out += value > 0 ? "+Inf" : "-Inf";
    else
    {
        char buffer[32];
        auto const end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
        out.append(buffer, end);
    }
}

inline void append_number(std::string& out, std::uint64_t value)
{
    char buffer[24];
    auto const end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    out.append(buffer, end);
}

// Label values escape backslash, double quote and line feed; HELP text only backslash and line feed.
inline void append_escaped(std::string& out, std::string_view text, bool quote)
{
    for(char c : text)
        if(c == '\\')
            out += "\\\\";
        else if(c == '\n')
            out += "\\n";
        else if(c == '"' && quote)
            out += "\\\"";
        else
            out += c;
}

// `{a="x",b="y"}` with `le` last for a histogram's bucket; nothing when there are no labels.
inline void append_labels(std::string& out, std::vector<std::string> const& names,
    std::vector<std::string> const& values, std::string_view bound = {})
{
    if(names.empty() && bound.empty())
        return;
    out += '{';
    for(std::size_t i = 0; i < names.size(); ++i)
    {
        if(i > 0)
            out += ',';
        out += names[i];
        out += "=\"";
        append_escaped(out, values[i], true);
        out += '"';
    }
    if(!bound.empty())
    {
        out += names.empty() ? "le=\"" : ",le=\"";
        out += bound;
        out += '"';
    }
    out += '}';
}

inline std::string registration_error(std::string_view name, std::string_view why)
{
    return "agentio::metrics: '" + std::string(name) + "' " + std::string(why);
}

// The rules of the data model, and the ones promtool's lint checks that a registration can keep by itself.
inline void check_registration(metric_type type, std::string_view name, std::string_view help,
    std::vector<std::string> const& label_names, family_options options)
{
    auto const fail = [&](std::string_view why) { throw std::invalid_argument(registration_error(name, why)); };
    if(!is_valid_name(name, true))
        fail("is not a metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)");
    if(type == metric_type::counter && !name.ends_with("_total"))
        fail("is a counter, whose name must end in _total");
    if(type != metric_type::counter && name.ends_with("_total"))
        fail("is not a counter: only a counter's name ends in _total");
    for(std::string_view suffix : {"_bucket", "_sum", "_count"})
        if(name.ends_with(suffix))
            fail("ends in " + std::string(suffix) + ", which names a histogram's samples");
    if(help.empty())
        fail("has no help text");
    for(std::size_t i = 0; i < label_names.size(); ++i)
    {
        auto const& label = label_names[i];
        if(!is_valid_name(label, false))
            fail("has a label '" + label + "' that is not a label name ([a-zA-Z_][a-zA-Z0-9_]*)");
        if(label.starts_with("__"))
            fail("has a label '" + label + "': names starting with __ are Prometheus's own");
        if(label == "le" || label == "quantile")
            fail("has a label '" + label + "', which histograms and summaries write themselves");
        if(std::find(label_names.begin(), label_names.begin() + static_cast<std::ptrdiff_t>(i), label) !=
            label_names.begin() + static_cast<std::ptrdiff_t>(i))
            fail("names the label '" + label + "' twice");
    }
    if(options.max_series == 0)
        fail("may hold no series (max_series is 0)");
}

// Finite, strictly increasing; a last +Inf is dropped, the exposition writes it anyway.
inline std::vector<double> checked_upper_bounds(std::string_view name, std::vector<double> bounds)
{
    if(!bounds.empty() && std::isinf(bounds.back()) && bounds.back() > 0)
        bounds.pop_back();
    for(std::size_t i = 0; i < bounds.size(); ++i)
        if(!std::isfinite(bounds[i]) || (i > 0 && !(bounds[i - 1] < bounds[i])))
            throw std::invalid_argument(registration_error(name,
                "has bucket bounds that are not finite and strictly increasing"));
    return bounds;
}

class family_base
{
public:
    virtual ~family_base() = default;
    virtual metric_type type() const noexcept = 0;
    virtual void write(std::string& out) const = 0;
};

} // namespace detail

/** A metric's series, one per combination of label values: what the
    registry returns for a name. Its series live as long as it does.

    @tparam Series `counter`, `gauge` or `histogram`.
*/
template<class Series>
class family final : public detail::family_base
{
public:
    family(family const&) = delete;
    family& operator=(family const&) = delete;

    /** The series of these label values, in the order of `label_names()`,
        made on first use. Keep the reference: it stays valid as long as
        the family, and adding to it takes no lock. Finding a series again
        takes none either; making one takes the family's mutex.

        A value longer than `max_label_value_bytes` is cut on a character
        boundary and invalid UTF-8 is repaired (U+FFFD), so the values that
        differ only past the cut share a series. Once the family holds
        `max_series()` series, a new combination gets the series whose
        labels are all "other", and `agentio_metrics_series_dropped_total`
        (label `family`: this one's name) counts it, each time.

        @throws std::invalid_argument when there are not as many values as label names.
    */
    Series& with(std::span<std::string_view const> label_values)
    {
        if(label_values.size() != label_names_.size())
            throw std::invalid_argument(detail::registration_error(name_,
                "has " + std::to_string(label_names_.size()) + " labels, given " + std::to_string(label_values.size()) +
                    " values"));
        if(std::none_of(label_values.begin(), label_values.end(), detail::needs_normalizing))
            return find_or_make(label_values);
        std::vector<std::string> normalized;
        normalized.reserve(label_values.size());
        for(auto const value : label_values)
            normalized.push_back(detail::normalized_label_value(value));
        std::vector<std::string_view> const views(normalized.begin(), normalized.end());
        return find_or_make(views);
    }

    /// The same, as `with({"POST", "200"})`; a family without labels: `with()`.
    Series& with(std::initializer_list<std::string_view> label_values = {})
    {
        return with(std::span<std::string_view const>(label_values.begin(), label_values.size()));
    }

    /// The metric's name.
    std::string const& name() const noexcept { return name_; }
    /// Its help text (as registered, invalid UTF-8 repaired).
    std::string const& help() const noexcept { return help_; }
    /// The names of its labels, in the order `with` takes their values.
    std::vector<std::string> const& label_names() const noexcept { return label_names_; }
    /// A histogram's finite bucket bounds; empty for the others.
    std::vector<double> const& upper_bounds() const noexcept { return upper_bounds_; }
    /// The most series of distinct label values it holds.
    std::size_t max_series() const noexcept { return max_series_; }

    /// How many series it holds, the "other" one included.
    std::size_t size() const
    {
        std::lock_guard lock(mutex_);
        return nodes_.size();
    }

private:
    friend class registry;

    struct node
    {
        node(std::vector<std::string> values, std::uint64_t hash_of_values, family const& owner)
            : label_values(std::move(values))
            , hash(hash_of_values)
            , series(make_series(owner))
        {
        }

        static Series make_series([[maybe_unused]] family const& owner)
        {
            if constexpr(std::is_same_v<Series, histogram>)
                return Series(owner.upper_bounds_);
            else
                return Series();
        }

        std::vector<std::string> label_values;
        std::uint64_t hash;
        Series series;
    };

    // Open addressing over node pointers, at most half full. Slots only ever
    // go from null to a node, and a table is never freed while the family
    // lives, so a reader may probe any table it loaded without a lock.
    struct slot_table
    {
        explicit slot_table(std::size_t capacity)
            : mask(capacity - 1)
            , slots(std::make_unique<std::atomic<node*>[]>(capacity))
        {
        }

        std::size_t mask;
        std::unique_ptr<std::atomic<node*>[]> slots;
    };

    family(std::string name, std::string help, std::vector<std::string> label_names, std::vector<double> upper_bounds,
        std::size_t max_series, family<counter>* dropped_family)
        : name_(std::move(name))
        , help_(std::move(help))
        , label_names_(std::move(label_names))
        , upper_bounds_(std::move(upper_bounds))
        , max_series_(max_series)
        , dropped_family_(dropped_family)
    {
        tables_.push_back(std::make_unique<slot_table>(label_names_.empty() ? 2 : 16));
        table_.store(tables_.back().get(), std::memory_order_release);
        if(label_names_.empty()) // the one series exists from the start: exposed as 0, not missing
            with();
    }

    detail::metric_type type() const noexcept override { return detail::metric_type_of<Series>; }

    static node* find(slot_table const& table, std::uint64_t hash, std::span<std::string_view const> values) noexcept
    {
        for(std::size_t i = hash & table.mask;; i = (i + 1) & table.mask)
        {
            node* const n = table.slots[i].load(std::memory_order_acquire);
            if(!n ||
                (n->hash == hash &&
                    std::equal(values.begin(), values.end(), n->label_values.begin(), n->label_values.end())))
                return n;
        }
    }

    static void place(slot_table& table, node* n) noexcept
    {
        auto i = n->hash & table.mask;
        while(table.slots[i].load(std::memory_order_relaxed))
            i = (i + 1) & table.mask;
        table.slots[i].store(n, std::memory_order_release);
    }

    Series& find_or_make(std::span<std::string_view const> values)
    {
        auto const hash = detail::hash_label_values(values);
        // The overflow series is loaded before the table: once it is set the table is final, so a miss is real.
        node* const overflow = overflow_.load(std::memory_order_acquire);
        if(node* const n = find(*table_.load(std::memory_order_acquire), hash, values))
            return n->series;
        if(overflow)
        {
            if(dropped_)
                dropped_->inc();
            return overflow->series;
        }
        std::lock_guard lock(mutex_);
        if(node* const n = find(*table_.load(std::memory_order_relaxed), hash, values))
            return n->series;
        if(!overflow_.load(std::memory_order_relaxed))
        {
            if(nodes_.size() < max_series_)
                return make(std::vector<std::string>(values.begin(), values.end()), hash)->series;
            std::vector<std::string_view> const others(label_names_.size(), overflow_label_value);
            auto const others_hash = detail::hash_label_values(others);
            node* other = find(*table_.load(std::memory_order_relaxed), others_hash, others);
            if(!other)
                other = make(std::vector<std::string>(others.begin(), others.end()), others_hash);
            if(dropped_family_)
                dropped_ = &dropped_family_->with({std::string_view(name_)});
            overflow_.store(other, std::memory_order_release); // after dropped_: readers of overflow_ see it
        }
        if(dropped_)
            dropped_->inc();
        return overflow_.load(std::memory_order_relaxed)->series;
    }

    // Under the mutex. Everything that can throw happens before the node is published.
    node* make(std::vector<std::string> values, std::uint64_t hash)
    {
        auto owned = std::make_unique<node>(std::move(values), hash, *this);
        nodes_.reserve(nodes_.size() + 1);
        slot_table* table = table_.load(std::memory_order_relaxed);
        if((nodes_.size() + 1) * 2 > table->mask + 1)
        {
            auto bigger = std::make_unique<slot_table>((table->mask + 1) * 2);
            for(auto const& n : nodes_)
                place(*bigger, n.get());
            tables_.reserve(tables_.size() + 1);
            table = tables_.emplace_back(std::move(bigger)).get();
            table_.store(table, std::memory_order_release);
        }
        place(*table, owned.get());
        return nodes_.emplace_back(std::move(owned)).get();
    }

    void write(std::string& out) const override
    {
        std::vector<node const*> series;
        {
            std::lock_guard lock(mutex_);
            series.reserve(nodes_.size());
            for(auto const& n : nodes_)
                series.push_back(n.get());
        }
        if(series.empty()) // a family nothing has used yet: no samples, so nothing to say
            return;
        // By label values, not by creation, which depends on which thread came first.
        std::sort(series.begin(), series.end(),
            [](node const* a, node const* b) { return a->label_values < b->label_values; });
        out += "# HELP ";
        out += name_;
        out += ' ';
        detail::append_escaped(out, help_, false);
        out += "\n# TYPE ";
        out += name_;
        out += ' ';
        out += detail::type_names[static_cast<int>(type())];
        out += '\n';
        for(node const* n : series)
            write_series(out, *n);
    }

    void write_series(std::string& out, node const& n) const
    {
        if constexpr(std::is_same_v<Series, histogram>)
        {
            auto const counts = n.series.cumulative_counts();
            std::string bound;
            for(std::size_t i = 0; i < counts.size(); ++i)
            {
                bound.clear();
                if(i < upper_bounds_.size())
                    detail::append_number(bound, upper_bounds_[i]);
                else
                    bound = "+Inf";
                out += name_;
                out += "_bucket";
                detail::append_labels(out, label_names_, n.label_values, bound);
                out += ' ';
                detail::append_number(out, counts[i]);
                out += '\n';
            }
            out += name_;
            out += "_sum";
            detail::append_labels(out, label_names_, n.label_values);
            out += ' ';
            detail::append_number(out, n.series.sum());
            out += '\n';
            out += name_;
            out += "_count";
            detail::append_labels(out, label_names_, n.label_values);
            out += ' ';
            detail::append_number(out, counts.back());
            out += '\n';
        }
        else
        {
            out += name_;
            detail::append_labels(out, label_names_, n.label_values);
            out += ' ';
            detail::append_number(out, n.series.value());
            out += '\n';
        }
    }

    bool same_as(std::string_view help, std::vector<std::string> const& label_names,
        std::vector<double> const& upper_bounds) const noexcept
    {
        return help_ == help && label_names_ == label_names && upper_bounds_ == upper_bounds;
    }

    std::string const name_;
    std::string const help_;
    std::vector<std::string> const label_names_;
    std::vector<double> const upper_bounds_;
    std::size_t const max_series_;
    family<counter>* const dropped_family_; // null for the dropped counter's own family

    mutable std::mutex mutex_; // guards the writers of everything below
    std::vector<std::unique_ptr<node>> nodes_;
    std::vector<std::unique_ptr<slot_table>> tables_;
    std::atomic<slot_table*> table_{nullptr};
    std::atomic<node*> overflow_{nullptr};
    counter* dropped_ = nullptr; // written once, before overflow_
};

/// The counters of a name, one per label combination.
using counter_family = family<counter>;
/// The gauges of a name, one per label combination.
using gauge_family = family<gauge>;
/// The histograms of a name, one per label combination.
using histogram_family = family<histogram>;

/// How a registry is made.
struct registry_options
{
    /** Whether `expose()` writes the process's own metrics, as the
        Prometheus client libraries name them: `process_resident_memory_bytes`,
        `process_virtual_memory_bytes`, `process_open_fds`, `process_max_fds`,
        `process_cpu_seconds_total`, `process_start_time_seconds`. Read from
        /proc/self when exposed; on a system without it there are none. */
    bool process_metrics = true;
};

namespace detail {

struct process_sample
{
    double resident_memory_bytes = 0;
    double virtual_memory_bytes = 0;
    double cpu_seconds = 0;
    double start_time_seconds = 0;
    double open_fds = 0;
    double max_fds = 0;
};

// What the Go client's process collector reads, from the same files: /proc/self/stat (proc(5)), /proc/stat's
// btime, the entries of /proc/self/fd, and the soft RLIMIT_NOFILE.
inline std::optional<process_sample> read_process_sample()
{
#if defined(__linux__)
    std::ifstream stat_file("/proc/self/stat");
    std::string stat;
    if(!std::getline(stat_file, stat))
        return std::nullopt;
    auto const comm_end = stat.rfind(')'); // the command name may hold spaces and parentheses
    if(comm_end == std::string::npos)
        return std::nullopt;
    std::istringstream fields(stat.substr(comm_end + 1));
    // From field 3 (state) on: utime is field 14, stime 15, starttime 22, vsize 23, rss 24.
    std::vector<std::string> field(22);
    for(auto& f : field)
        if(!(fields >> f))
            return std::nullopt;
    auto const number = [](std::string const& text) {
        double value = 0;
        std::from_chars(text.data(), text.data() + text.size(), value);
        return value;
    };
    double const ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
    double const page = static_cast<double>(::sysconf(_SC_PAGESIZE));
    process_sample sample;
    sample.cpu_seconds = (number(field[11]) + number(field[12])) / ticks;
    sample.virtual_memory_bytes = number(field[20]);
    sample.resident_memory_bytes = number(field[21]) * page;

    std::ifstream system_stat("/proc/stat");
    for(std::string line; std::getline(system_stat, line);)
        if(line.starts_with("btime "))
            sample.start_time_seconds = number(line.substr(6)) + number(field[19]) / ticks;

    std::error_code ec;
    for(std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec))
        ++sample.open_fds;
    ::rlimit limit{};
    if(::getrlimit(RLIMIT_NOFILE, &limit) == 0)
        sample.max_fds = static_cast<double>(limit.rlim_cur);
    return sample;
#else
    return std::nullopt;
#endif
}

} // namespace detail

/** The metrics of a program, and their exposition. Thread-safe: families
    are registered, series made and the whole exposed from any thread.

    @par Example
    @code
    metrics::registry registry;
    auto& tokens = registry.histogram("llm_tokens", "Tokens per model call.", {"model", "direction"},
        metrics::token_buckets());
    tokens.with({"gpt-4o", "output"}).observe(812);
    auto& streams = registry.gauge("sse_streams_open", "Event streams open.");
    registry.on_collect([&] { streams.with().set(double(open_stream_count())); });
    // GET /metrics: Content-Type metrics::content_type, body registry.expose()
    @endcode
*/
class registry
{
public:
    /// A registry, with the process's metrics unless `options` says not.
    explicit registry(registry_options options = {})
    {
        dropped_ = &make<metrics::counter>("agentio_metrics_series_dropped_total",
            "Label combinations a full family sent to its series labelled \"other\" (family_options::max_series).",
            {"family"}, {}, {});
        if(options.process_metrics)
            add_process_metrics();
    }

    registry(registry const&) = delete;
    registry& operator=(registry const&) = delete;

    /** The counter family `name`, registered now or before with the same
        help and label names.

        @param name A metric name, `[a-zA-Z_:][a-zA-Z0-9_:]*`, ending in `_total` (promtool's lint asks it of a
            counter, and only of one). Colons are valid but left to recording rules, and promtool warns of
            camelCase: use snake_case.
        @param help What it counts, one line preferably (not empty).
        @param label_names `[a-zA-Z_][a-zA-Z0-9_]*`, not starting with `__`, not `le` or `quantile`.
        @param options The bound on its series.
        @throws std::invalid_argument when a name is invalid, or `name` is registered with another type, help or
            label names. No name ends in `_bucket`, `_sum` or `_count`, which histograms' samples take.
    */
    counter_family& counter(std::string_view name, std::string_view help, std::vector<std::string> label_names = {},
        family_options options = {})
    {
        return make<metrics::counter>(name, help, std::move(label_names), {}, options);
    }

    /** The gauge family `name`, registered now or before with the same help
        and label names. The rules of `counter`, except that the name must
        not end in `_total`.
        @throws std::invalid_argument as `counter` does. */
    gauge_family& gauge(std::string_view name, std::string_view help, std::vector<std::string> label_names = {},
        family_options options = {})
    {
        return make<metrics::gauge>(name, help, std::move(label_names), {}, options);
    }

    /** The histogram family `name`, registered now or before with the same
        help, label names and buckets. The rules of `gauge`; its samples are
        `name_bucket` (label `le`), `name_sum` and `name_count`.

        @param upper_bounds Finite and increasing (`latency_buckets()`, `token_buckets()`); +Inf is implied.
        @throws std::invalid_argument as `counter` does, and when the bounds are not finite and increasing.
    */
    histogram_family& histogram(std::string_view name, std::string_view help, std::vector<std::string> label_names,
        std::vector<double> upper_bounds, family_options options = {})
    {
        return make<metrics::histogram>(name, help, std::move(label_names),
            detail::checked_upper_bounds(name, std::move(upper_bounds)), options);
    }

    /** Calls `collector` at each `expose()`, before anything is written, in
        the order they were given: for gauges that are cheaper to read when
        scraped than to keep (streams open, a queue's length). It runs on
        the exposing thread, without the registry's lock, so it may use any
        family; what it throws, `expose()` throws. */
    void on_collect(std::function<void()> collector)
    {
        std::lock_guard lock(mutex_);
        collectors_.push_back(std::move(collector));
    }

    /** Every family with at least one series, sorted by name, in the text
        exposition format 0.0.4 (serve it as `content_type`): `# HELP` and
        `# TYPE`, then the series sorted by label values; a histogram's
        buckets cumulative, ending with `le="+Inf"`, then `_sum` and
        `_count`. Runs the collectors and reads the process's metrics first. */
    std::string expose() const
    {
        std::vector<std::function<void()>> collectors;
        {
            std::lock_guard lock(mutex_);
            collectors = collectors_;
        }
        for(auto const& collect : collectors)
            collect();
        collect_process_metrics();
        std::vector<detail::family_base const*> families;
        {
            std::lock_guard lock(mutex_);
            families.reserve(families_.size());
            for(auto const& entry : families_)
                families.push_back(entry.second.get());
        }
        std::string out;
        for(auto const* f : families)
            f->write(out);
        return out;
    }

private:
    struct process_series
    {
        metrics::gauge* resident_memory_bytes;
        metrics::gauge* virtual_memory_bytes;
        metrics::counter* cpu_seconds;
        metrics::gauge* open_fds;
        metrics::gauge* max_fds;
    };

    template<class Series>
    family<Series>& make(std::string_view name, std::string_view help, std::vector<std::string> label_names,
        std::vector<double> upper_bounds, family_options options)
    {
        constexpr auto type = detail::metric_type_of<Series>;
        detail::check_registration(type, name, help, label_names, options);
        std::string valid_help;
        append_valid_utf8(valid_help, help);
        std::lock_guard lock(mutex_);
        if(auto const it = families_.find(name); it != families_.end())
        {
            if(it->second->type() != type)
                throw std::invalid_argument(detail::registration_error(name,
                    "is registered already as a " +
                        std::string(detail::type_names[static_cast<int>(it->second->type())])));
            auto& existing = static_cast<family<Series>&>(*it->second);
            if(!existing.same_as(valid_help, label_names, upper_bounds))
                throw std::invalid_argument(detail::registration_error(name,
                    "is registered already with another help, labels or buckets"));
            return existing;
        }
        auto made = std::unique_ptr<family<Series>>(new family<Series>(std::string(name), std::move(valid_help),
            std::move(label_names), std::move(upper_bounds), options.max_series, dropped_));
        auto& result = *made;
        families_.emplace(std::string(name), std::move(made));
        return result;
    }

    void add_process_metrics()
    {
        auto const sample = detail::read_process_sample();
        if(!sample)
            return;
        process_ = process_series{
            &gauge("process_resident_memory_bytes", "Resident memory size in bytes.").with(),
            &gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.").with(),
            &counter("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.").with(),
            &gauge("process_open_fds", "Number of open file descriptors.").with(),
            &gauge("process_max_fds", "Maximum number of open file descriptors.").with(),
        };
        gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.")
            .with()
            .set(sample->start_time_seconds);
    }

    void collect_process_metrics() const
    {
        if(!process_)
            return;
        auto const sample = detail::read_process_sample();
        if(!sample)
            return;
        process_->resident_memory_bytes->set(sample->resident_memory_bytes);
        process_->virtual_memory_bytes->set(sample->virtual_memory_bytes);
        process_->cpu_seconds->set(sample->cpu_seconds);
        process_->open_fds->set(sample->open_fds);
        process_->max_fds->set(sample->max_fds);
    }

    mutable std::mutex mutex_; // guards families_ and collectors_, never held while a family writes
    std::map<std::string, std::unique_ptr<detail::family_base>, std::less<>> families_;
    std::vector<std::function<void()>> collectors_;
    family<metrics::counter>* dropped_ = nullptr;
    std::optional<process_series> process_;
};

} // namespace agentio::metrics

#endif
