//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_LOG_IMPL_LOG_IPP
#define AGENTIO_LOG_IMPL_LOG_IPP

#include <agentio/log.hpp>

#include <boost/json/serialize.hpp>

#include <spdlog/async.h>
#include <spdlog/async_logger.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <thread>

namespace agentio::log {

AGENTIO_DECL std::string_view to_string(level l) noexcept
{
    switch(l)
    {
    case level::trace: return "TRACE";
    case level::debug: return "DEBUG";
    case level::info: return "INFO";
    case level::warn: return "WARN";
    case level::error: return "ERROR";
    case level::off: return "OFF";
    }
    return "INFO";
}

AGENTIO_DECL std::optional<level> parse_level(std::string_view name) noexcept
{
    std::string lower(name.substr(0, 16));
    for(auto& c : lower)
        if(c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    if(lower == "trace")
        return level::trace;
    if(lower == "debug")
        return level::debug;
    if(lower == "info" || lower == "success") // loguru's SUCCESS sits between INFO and WARNING
        return level::info;
    if(lower == "warn" || lower == "warning")
        return level::warn;
    if(lower == "error" || lower == "critical" || lower == "fatal")
        return level::error;
    if(lower == "off" || lower == "none")
        return level::off;
    return std::nullopt;
}

AGENTIO_DECL boost::system::result<settings, invalid_variable>
settings_from_environment(environment_lookup const& lookup, settings const& defaults, variable_names const& names)
{
    auto first = [&](std::vector<std::string> const& candidates) -> std::optional<std::pair<std::string, std::string>> {
        for(auto const& name : candidates)
            if(auto v = lookup(name.c_str()))
                return std::pair{name, std::move(*v)};
        return std::nullopt;
    };
    settings s = defaults;
    if(auto v = first(names.level))
    {
        auto const l = parse_level(v->second);
        if(!l)
            return invalid_variable{v->first, v->second, {"trace", "debug", "info", "warn", "error", "off"}};
        s.level = *l;
    }
    if(auto v = first(names.format))
    {
        if(v->second == "text")
            s.format = format::text;
        else if(v->second == "json")
            s.format = format::json;
        else
            return invalid_variable{v->first, v->second, {"text", "json"}};
    }
    if(auto v = first(names.file))
        s.file = v->second;
    return s;
}

AGENTIO_DECL boost::system::result<settings, invalid_variable>
settings_from_environment(environment_lookup const& lookup, settings const& defaults)
{
    variable_names const names;
    return settings_from_environment(lookup, defaults, names);
}

namespace detail {

inline std::string lower_ascii(std::string_view s)
{
    std::string out(s);
    for(auto& c : out)
        if(c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// Whether a text value must be quoted in a text line: empty, or with a space, a quote, '=' or a control byte.
inline bool needs_quotes(std::string_view v) noexcept
{
    if(v.empty())
        return true;
    return std::any_of(v.begin(), v.end(), [](char c) {
        auto const u = static_cast<unsigned char>(c);
        return u <= 0x20 || c == '"' || c == '=' || c == '\\' || u == 0x7f;
    });
}

// A text value, quoted and escaped as JSON strings are when needed: a line is always one line.
inline void append_text_value(std::string& out, std::string_view v)
{
    if(!needs_quotes(v))
    {
        out += v;
        return;
    }
    out += boost::json::serialize(boost::json::value(v)); // quotes, \n, \", \\, \u00XX
}

inline void append_iso_time(std::string& out, std::int64_t time_ms)
{
    std::time_t const seconds = static_cast<std::time_t>(time_ms / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
        utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(time_ms % 1000));
    out += buf;
}

inline std::string_view lower_level(level l) noexcept
{
    switch(l)
    {
    case level::trace: return "trace";
    case level::debug: return "debug";
    case level::info: return "info";
    case level::warn: return "warn";
    case level::error: return "error";
    case level::off: return "off";
    }
    return "info";
}

// The sink of the background thread: the configured one until it fails, then stderr (said once).
class guarded_sink final : public spdlog::sinks::sink
{
public:
    guarded_sink(std::shared_ptr<spdlog::sinks::sink> inner, std::atomic<std::uint64_t>& written)
        : inner_(std::move(inner))
        , written_(written)
    {
        inner_->set_pattern("%v"); // the line is formatted already
    }

    void log(spdlog::details::log_msg const& msg) override
    {
        if(inner_)
        {
            try
            {
                inner_->log(msg);
            }
            catch(std::exception const& e)
            {
                std::fprintf(stderr, "agentio log: the log file cannot be written (%s); logging to stderr\n", e.what());
                inner_.reset();
            }
        }
        if(!inner_)
        {
            std::fwrite(msg.payload.data(), 1, msg.payload.size(), stderr);
            std::fputc('\n', stderr);
        }
        written_.fetch_add(1, std::memory_order_release);
    }

    void flush() override
    {
        try
        {
            if(inner_)
                inner_->flush();
            else
                std::fflush(stderr);
        }
        catch(std::exception const&)
        {
            inner_.reset();
        }
    }

    void set_pattern(std::string const&) override {}
    void set_formatter(std::unique_ptr<spdlog::formatter>) override {}

private:
    std::shared_ptr<spdlog::sinks::sink> inner_;
    std::atomic<std::uint64_t>& written_;
};

} // namespace detail

AGENTIO_DECL bool is_secret_name(std::string_view name) noexcept
{
    // The words of the name (split at _ - . and spaces): "refresh_token" and "X-Api-Key" are secrets, "tokens_in" is
    // a count.
    auto const lower = detail::lower_ascii(name);
    std::string_view rest = lower;
    std::string_view previous;
    while(!rest.empty())
    {
        auto const end = rest.find_first_of("_-. ");
        auto const word = rest.substr(0, end);
        for(std::string_view secret : {"authorization", "password", "passwd", "secret", "cookie", "token", "apikey"})
            if(word == secret)
                return true;
        if(word == "key" && previous == "api")
            return true;
        previous = word;
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
    return false;
}

AGENTIO_DECL std::string redact_url(std::string_view url)
{
    std::string out(url);
    // scheme://user:password@host → scheme://[redacted]@host
    if(auto const scheme = out.find("://"); scheme != std::string::npos)
    {
        auto const authority = scheme + 3;
        auto const end = out.find_first_of("/?#", authority);
        auto const at = out.rfind('@', end == std::string::npos ? out.size() : end);
        if(at != std::string::npos && at >= authority)
            out.replace(authority, at - authority, "[redacted]");
    }
    // ?key=value&...: the values of secret-named parameters
    auto const query = out.find('?');
    if(query == std::string::npos)
        return out;
    std::string rebuilt = out.substr(0, query + 1);
    auto const fragment = out.find('#', query);
    std::string_view const params = std::string_view(out).substr(query + 1,
        (fragment == std::string::npos ? out.size() : fragment) - query - 1);
    std::size_t at = 0;
    while(at <= params.size())
    {
        auto const amp = params.find('&', at);
        auto const part = params.substr(at, amp == std::string_view::npos ? std::string_view::npos : amp - at);
        auto const eq = part.find('=');
        auto const key = part.substr(0, eq);
        if(eq != std::string_view::npos &&
            (is_secret_name(key) || detail::lower_ascii(key) == "key" || detail::lower_ascii(key) == "sig" ||
                detail::lower_ascii(key) == "code"))
            rebuilt.append(key).append("=[redacted]");
        else
            rebuilt.append(part);
        if(amp == std::string_view::npos)
            break;
        rebuilt += '&';
        at = amp + 1;
    }
    if(fragment != std::string::npos)
        rebuilt.append(out, fragment, std::string::npos);
    return rebuilt;
}

namespace detail {

// The shortest text that reads back as the same double (`0.212487`, `1e+21`); null for what JSON cannot say.
inline void append_json_double(std::string& out, double value)
{
    if(!std::isfinite(value))
    {
        out += "null";
        return;
    }
    char buf[32];
    auto const [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    out.append(buf, ec == std::errc() ? end : buf);
}

} // namespace detail

AGENTIO_DECL std::string format_line(format how, std::int64_t time_ms, level l, std::string_view program,
    std::string_view event, context const* about, std::initializer_list<field> fields)
{
    std::vector<std::pair<std::string_view, boost::json::value>> all;
    if(about)
        for(auto const& [name, value] :
            {std::pair<std::string_view, std::string const*>{"request_id", &about->request_id}, {"user", &about->user},
                {"session", &about->session}, {"thread", &about->thread}, {"run", &about->run}})
            if(!value->empty())
                all.emplace_back(name, boost::json::value(*value));
    for(auto const& [name, value] : fields)
        all.emplace_back(name, is_secret_name(name) ? boost::json::value("[redacted]") : value);

    std::string line;
    if(how == format::json)
    {
        boost::json::object o;
        std::string time;
        detail::append_iso_time(time, time_ms);
        o["time"] = time;
        o["level"] = detail::lower_level(l);
        if(!program.empty())
            o["program"] = program;
        o["event"] = event;
        for(auto& [name, value] : all)
            o[name] = std::move(value);
        // Written here rather than by json::serialize, whose doubles read `2.12487E-1`: a duration is `0.212487`.
        line += '{';
        for(auto const& member : o)
        {
            if(line.size() > 1)
                line += ',';
            line += boost::json::serialize(boost::json::string_view(member.key()));
            line += ':';
            if(member.value().is_double())
                detail::append_json_double(line, member.value().get_double());
            else
                line += boost::json::serialize(member.value());
        }
        line += '}';
        return line;
    }
    detail::append_iso_time(line, time_ms);
    line += ' ';
    line += to_string(l);
    if(!program.empty())
    {
        line += ' ';
        detail::append_text_value(line, program);
    }
    line += ' ';
    detail::append_text_value(line, event);
    for(auto const& [name, value] : all)
    {
        line += ' ';
        detail::append_text_value(line, name);
        line += '=';
        if(value.is_string())
            detail::append_text_value(line, value.get_string());
        else if(value.is_double())
            detail::append_json_double(line, value.get_double());
        else
            line += boost::json::serialize(value); // whole numbers, booleans, null, arrays and objects as JSON
    }
    return line;
}

struct logger::impl
{
    std::shared_ptr<spdlog::details::thread_pool> pool;
    std::shared_ptr<spdlog::async_logger> writer;
    std::atomic<std::uint64_t> queued{0};
    std::atomic<std::uint64_t> written{0};
};

AGENTIO_DECL logger::logger() = default;

AGENTIO_DECL logger::logger(settings s) : settings_(std::move(s)), level_(settings_.level)
{
    if(level_ == level::off)
        return;
    impl_ = std::make_unique<impl>();
    std::shared_ptr<spdlog::sinks::sink> sink;
    if(!settings_.file.empty())
    {
        try
        {
            sink = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(settings_.file,
                static_cast<std::size_t>(settings_.max_file_bytes), settings_.max_files);
        }
        catch(std::exception const& e)
        {
            warnings_.push_back("the log file '" + settings_.file + "' cannot be written (" + e.what() +
                "); logging to stderr");
        }
    }
    if(!sink)
        sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    auto guarded = std::make_shared<detail::guarded_sink>(std::move(sink), impl_->written);
    impl_->pool = std::make_shared<spdlog::details::thread_pool>(std::max<std::size_t>(settings_.queue_lines, 16), 1);
    // Never wait for the disk: a full queue loses its oldest line (counted) instead.
    impl_->writer = std::make_shared<spdlog::async_logger>(settings_.program.empty() ? "agentio" : settings_.program,
        std::move(guarded), impl_->pool, spdlog::async_overflow_policy::overrun_oldest);
    impl_->writer->set_level(spdlog::level::trace);
    impl_->writer->flush_on(spdlog::level::warn); // a warning or an error is on disk before what follows it
    impl_->writer->set_error_handler([](std::string const&) {});
    for(auto const& w : warnings_)
        write(level::warn, "log.fallback", {{"reason", w}});
}

AGENTIO_DECL logger::~logger()
{
    if(impl_)
        flush();
}

AGENTIO_DECL void logger::queue(level l, std::string line)
{
    if(!impl_)
        return;
    impl_->queued.fetch_add(1, std::memory_order_relaxed);
    auto const spd = l == level::trace ? spdlog::level::trace
        : l == level::debug            ? spdlog::level::debug
        : l == level::info             ? spdlog::level::info
        : l == level::warn             ? spdlog::level::warn
                                       : spdlog::level::err;
    impl_->writer->log(spd, "{}", line);
}

AGENTIO_DECL void logger::write(level l, std::string_view event, std::initializer_list<field> fields)
{
    if(!enabled(l))
        return;
    auto const now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    queue(l, format_line(settings_.format, now, l, settings_.program, event, nullptr, fields));
}

AGENTIO_DECL void logger::write(level l, std::string_view event, context const& about,
    std::initializer_list<field> fields)
{
    if(!enabled(l))
        return;
    auto const now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    queue(l, format_line(settings_.format, now, l, settings_.program, event, &about, fields));
}

AGENTIO_DECL void logger::flush()
{
    if(!impl_)
        return;
    // Every line queued so far is written or dropped; then the sink is flushed (for at most 5 s).
    auto const target = impl_->queued.load(std::memory_order_relaxed);
    auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while(impl_->written.load(std::memory_order_acquire) + impl_->pool->overrun_counter() < target &&
        std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    impl_->writer->flush();
    while(impl_->pool->queue_size() > 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

AGENTIO_DECL std::uint64_t logger::dropped() const noexcept
{
    return impl_ ? impl_->pool->overrun_counter() : 0;
}

} // namespace agentio::log

#endif
