//
// agentio/log.hpp
// ~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Structured logs: one line per event, as text (`key=value`, quoted and
// escaped when needed) or as JSON Lines, to stderr (systemd, journald) or to
// a file rotated by size. Lines are written by spdlog's background thread
// from a bounded queue that drops its oldest line rather than wait, so a
// slow disk never blocks a network thread; the drops are counted. A line's
// values are escaped (a newline in a user's question cannot forge a line),
// and fields whose names say they are secrets are never written.
//
//   log::logger log(log::settings_from_environment(process_environment, {.program = "agentio-platform"}).value());
//   log.info("http.request", {{"method", "POST"}, {"path", "/v1/chat/completions"}, {"status", 200}});
//   // 2026-11-29T13:00:00.123Z INFO agentio-platform http.request method=POST path=/v1/chat/completions status=200
//

#ifndef AGENTIO_LOG_HPP
#define AGENTIO_LOG_HPP

#include <agentio/config.hpp>
#include <agentio/environment.hpp>

#include <boost/json/value.hpp>
#include <boost/system/result.hpp>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentio::log {

/// How much is written: a level and every level above it.
enum class level
{
    trace,
    debug,
    info,
    warn,
    error,
    off
};

/// "TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF".
AGENTIO_DECL std::string_view to_string(level l) noexcept;

/** The level a name gives, in any case: trace, debug, info, warn or warning,
    error, critical (as error), off; also loguru's and Python's names
    (SUCCESS as info); nothing for any other. */
AGENTIO_DECL std::optional<level> parse_level(std::string_view name) noexcept;

/// How a line is written.
enum class format
{
    text, ///< `time LEVEL program event key=value ...`
    json  ///< `{"time": ..., "level": ..., "program": ..., "event": ..., key: value, ...}`
};

/// Where and how an application logs.
struct settings
{
    log::level level = log::level::info;
    log::format format = log::format::text;
    /// The file written and rotated; empty: stderr.
    std::string file = {};
    /// A file this large is renamed (`.1`, `.2`, ...) and a new one begun.
    std::uint64_t max_file_bytes = 10 * 1024 * 1024;
    /// Rotated files kept besides the current one.
    unsigned max_files = 5;
    /// Lines waiting for the writer; past it the oldest are dropped.
    std::size_t queue_lines = 8192;
    /// Written on every line (the program's name).
    std::string program = {};
};

/** The variables that configure the logs, first match wins: an
    application adds the names its specification uses (`LOG_LEVEL`,
    `LOGURU_LEVEL`) after the library's. */
struct variable_names
{
    std::vector<std::string> level = {"AGENTIO_LOG_LEVEL"};
    std::vector<std::string> format = {"AGENTIO_LOG_FORMAT"};
    std::vector<std::string> file = {"AGENTIO_LOG_FILE"};
};

/** Reads the variables `names` lists through `lookup` over `defaults`:
    a level's name, `text` or `json`, a file's path. A value that is not
    one of these is an error naming its variable. */
AGENTIO_DECL boost::system::result<settings, invalid_variable>
settings_from_environment(environment_lookup const& lookup, settings const& defaults, variable_names const& names);

/// As above with the library's names only.
AGENTIO_DECL boost::system::result<settings, invalid_variable>
settings_from_environment(environment_lookup const& lookup, settings const& defaults);

/// A field of a line: its name and its value (text, a number, a boolean, or any JSON).
struct field
{
    std::string_view name;
    boost::json::value value;

    field(std::string_view n, boost::json::value v) : name(n), value(std::move(v)) {}
    field(std::string_view n, std::string const& v) : name(n), value(std::string_view(v)) {}
    field(std::string_view n, std::string_view v) : name(n), value(v) {}
    field(std::string_view n, char const* v) : name(n), value(std::string_view(v)) {}
};

/** Whether a field's name says it holds a secret (`authorization`,
    `api_key`, `password`, `token`, `secret`, `cookie`, in any case and as
    part of a name): its value is written as `[redacted]`. */
AGENTIO_DECL bool is_secret_name(std::string_view name) noexcept;

/** `url` with what must not reach a log removed: a `user:password@` and
    the values of query parameters whose names say they are secrets
    (`?key=…`, `api_key=…`, `token=…`). */
AGENTIO_DECL std::string redact_url(std::string_view url);

/// Who and what a request is about: written on each of its lines (the empty ones are left out).
struct context
{
    std::string request_id = {};
    std::string user = {};
    std::string session = {};
    std::string thread = {};
    std::string run = {};
};

/** A line as the logger writes it, without the newline: for tests and for
    writers of their own. `time` is milliseconds since the epoch. */
AGENTIO_DECL std::string format_line(format how, std::int64_t time_ms, level l, std::string_view program,
    std::string_view event, context const* about, std::initializer_list<field> fields);

/** Writes lines as `settings` says. Thread-safe; `write` formats the line on
    the caller's thread and queues it (never waiting for the sink).

    A file that cannot be opened is replaced by stderr, and the first line
    written there says so (`warnings()` has it too).
*/
class logger
{
public:
    /// A logger that writes nothing.
    logger();

    explicit logger(settings s);

    ~logger();

    logger(logger const&) = delete;
    logger& operator=(logger const&) = delete;

    /// Whether a line of this level is written (check before building costly fields).
    bool enabled(log::level l) const noexcept { return l >= level_ && level_ != log::level::off; }

    void write(log::level l, std::string_view event, std::initializer_list<field> fields = {});
    void write(log::level l, std::string_view event, context const& about, std::initializer_list<field> fields = {});

    void debug(std::string_view event, std::initializer_list<field> fields = {}) { write(level::debug, event, fields); }
    void info(std::string_view event, std::initializer_list<field> fields = {}) { write(level::info, event, fields); }
    void warn(std::string_view event, std::initializer_list<field> fields = {}) { write(level::warn, event, fields); }
    void error(std::string_view event, std::initializer_list<field> fields = {}) { write(level::error, event, fields); }

    /// Waits until the lines queued so far are written.
    void flush();

    /// Lines dropped because the queue was full.
    std::uint64_t dropped() const noexcept;

    /// What could not be set up as asked (a file that could not be opened).
    std::vector<std::string> const& warnings() const noexcept { return warnings_; }

    settings const& config() const noexcept { return settings_; }

private:
    void queue(log::level l, std::string line);

    struct impl;
    settings settings_;
    log::level level_ = log::level::off;
    std::unique_ptr<impl> impl_;
    std::vector<std::string> warnings_;
};

} // namespace agentio::log

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/log/impl/log.ipp>
#endif

#endif
