//
// agentio/environment.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Settings read from environment variables, with errors as data (the
// variable, what it held, what it may hold) so that each application words
// them in its users' language. A lookup function stands for the environment,
// so tests need not touch the process's. And where a companion program is.
//

#ifndef AGENTIO_ENVIRONMENT_HPP
#define AGENTIO_ENVIRONMENT_HPP

#include <boost/system/result.hpp>

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace agentio {

/// A variable whose value the settings cannot take.
struct invalid_variable
{
    std::string variable = {};
    std::string value = {};
    /// The values it may take, or a range ("1..64").
    std::vector<std::string> expected = {};
};

/** The error in English: `NAME: expected 'a' or 'b', got 'c'`, or
    `NAME: expected a whole number from 1 to 64, got 'c'`. An application
    in another language writes its own from the fields. */
inline std::string to_string(invalid_variable const& e)
{
    std::string expected;
    for(auto const& v : e.expected)
        if(auto const dots = v.find(".."); dots != std::string::npos) // a range, "1..64"
            expected += "a whole number from " + v.substr(0, dots) + " to " + v.substr(dots + 2);
        else
            expected += (expected.empty() ? "'" : " or '") + v + "'";
    return e.variable + ": expected " + expected + ", got '" + e.value + "'";
}

/** What `result<T, invalid_variable>::value()` throws when there is no
    value: `std::invalid_argument` with @ref to_string's sentence (found by
    argument-dependent lookup). */
[[noreturn]] inline void throw_exception_from_error(invalid_variable const& e, boost::source_location const&)
{
    throw std::invalid_argument(to_string(e));
}

/// Looks a variable up; unset and empty are the same.
using environment_lookup = std::function<std::optional<std::string>(char const* name)>;

/// The process's environment.
inline std::optional<std::string> process_environment(char const* name)
{
    char const* v = std::getenv(name);
    if(!v || !*v)
        return std::nullopt;
    return std::string(v);
}

/// `text` as a whole number in [lo, hi] (digits only), or nothing.
/** The items of a comma-separated list (`AGENT_API_KEYS=a, b`), each
    without the spaces and tabs around it; empty items are left out, so
    `"a,,b,"` is two. */
inline std::vector<std::string> split_list(std::string_view list)
{
    std::vector<std::string> out;
    while(!list.empty())
    {
        auto const comma = list.find(',');
        auto item = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        auto const first = item.find_first_not_of(" \t");
        if(first == std::string_view::npos)
            continue;
        item = item.substr(first, item.find_last_not_of(" \t") - first + 1);
        out.emplace_back(item);
    }
    return out;
}

inline std::optional<unsigned> parse_unsigned(std::string_view text, unsigned lo, unsigned hi) noexcept
{
    unsigned v = 0;
    auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if(text.empty() || ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
        return std::nullopt;
    return v;
}

/** A whole number in [lo, hi] from `name`; unset: nothing, and `out` is untouched.
    @return the error naming the variable when the value is not such a number */
inline boost::system::result<void, invalid_variable> read_unsigned(char const* name, unsigned& out, unsigned lo,
    unsigned hi, environment_lookup const& lookup = process_environment)
{
    auto const text = lookup(name);
    if(!text)
        return {};
    auto const v = parse_unsigned(*text, lo, hi);
    if(!v)
        return invalid_variable{name, *text, {std::to_string(lo) + ".." + std::to_string(hi)}};
    out = *v;
    return {};
}

/** Where a companion program of the running one is: `name` in the running
    program's folder (installed side by side), else in one of `relative_dirs`
    of that folder (a build tree keeps each program in its own folder), as a
    canonical path; else `name` alone, for the shell's search of PATH.

    @par Example
    @code
    // next to agentio-platform, or at ../sqlite_mcp/ in the build tree
    auto const server = agentio::companion_program("agentio-sqlite-mcp", {"../sqlite_mcp"});
    @endcode
*/
inline std::string companion_program(std::string_view name, std::initializer_list<std::string_view> relative_dirs = {})
{
    namespace fs = std::filesystem;
    std::error_code ec;
    auto const folder = fs::read_symlink("/proc/self/exe", ec).parent_path();
    if(!ec)
    {
        auto found = [&](fs::path const& candidate) {
            return fs::is_regular_file(candidate, ec) ? fs::canonical(candidate, ec).string() : std::string();
        };
        if(auto p = found(folder / name); !p.empty())
            return p;
        for(auto const dir : relative_dirs)
            if(auto p = found(folder / dir / name); !p.empty())
                return p;
    }
    return std::string(name);
}

} // namespace agentio

#endif
