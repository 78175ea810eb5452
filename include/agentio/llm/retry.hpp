//
// agentio/llm/retry.hpp
// ~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// When and how long to wait before retrying a model call: the policy of the
// official Anthropic and OpenAI SDKs (Stainless), kept to the letter so that
// an agent built on agentio behaves towards the APIs as their own clients do.
//
//  1. `x-should-retry: true|false` decides when present;
//  2. else 408, 409, 429 and every status >= 500 are retried, as are
//     connection errors and timeouts; nothing else is;
//  3. the delay is `retry-after-ms`, else `retry-after` (seconds or an HTTP
//     date), when it is positive and not above a cap;
//  4. else min(0.5 s · 2^n, 8 s) with up to 25 % jitter off, n = retries done;
//  5. two retries by default (three attempts).
//

#ifndef AGENTIO_LLM_RETRY_HPP
#define AGENTIO_LLM_RETRY_HPP

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <ctime>
#include <optional>
#include <string_view>

namespace agentio::llm {

/// How many times and how long to wait; defaults as in the official SDKs.
struct retry_policy
{
    /// Retries after the first attempt.
    unsigned max_retries = 2;
    std::chrono::milliseconds initial_delay{500};
    std::chrono::milliseconds max_delay{8000};
    /// Up to this fraction is taken off each backoff delay, at random.
    double jitter = 0.25;
    /// A server-requested delay above this is ignored in favour of backoff
    /// (openai-node: 60 s).
    std::chrono::milliseconds max_retry_after{60000};
};

/** Whether a failed HTTP status is worth retrying.

    @param status the response status
    @param x_should_retry the `x-should-retry` header, empty when absent
*/
inline bool status_is_retryable(unsigned status, std::string_view x_should_retry) noexcept
{
    if(x_should_retry == "true")
        return true;
    if(x_should_retry == "false")
        return false;
    return status == 408 || status == 409 || status == 429 || status >= 500;
}

namespace detail {

// IMF-fixdate, the form RFC 9110 requires senders to use:
// "Sun, 06 Nov 1994 08:49:37 GMT".
inline std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view s)
{
    static constexpr std::array<std::string_view, 12> months{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug",
        "Sep", "Oct", "Nov", "Dec"};
    if(s.size() != 29 || s[3] != ',' || s.substr(25) != " GMT")
        return std::nullopt;
    auto number = [&](std::size_t pos, std::size_t len, int& out) {
        auto const r = std::from_chars(s.data() + pos, s.data() + pos + len, out);
        return r.ec == std::errc() && r.ptr == s.data() + pos + len;
    };
    int day = 0, year = 0, hour = 0, minute = 0, second = 0;
    auto const month = std::find(months.begin(), months.end(), s.substr(8, 3));
    if(month == months.end() || !number(5, 2, day) || !number(12, 4, year) || !number(17, 2, hour) ||
        !number(20, 2, minute) || !number(23, 2, second))
        return std::nullopt;
    using namespace std::chrono;
    year_month_day const date{std::chrono::year(year),
        std::chrono::month(static_cast<unsigned>(month - months.begin() + 1)),
        std::chrono::day(static_cast<unsigned>(day))};
    if(!date.ok())
        return std::nullopt;
    return sys_days(date) + hours(hour) + minutes(minute) + seconds(second);
}

} // namespace detail

/** The delay a server asked for, from `retry-after-ms` (milliseconds, may be
    fractional) or else `retry-after` (seconds, may be fractional, or an HTTP
    date). Empty when neither is present or parseable.
*/
inline std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view retry_after_ms,
    std::string_view retry_after, std::chrono::system_clock::time_point now = std::chrono::system_clock::now())
{
    auto parse_double = [](std::string_view s) -> std::optional<double> {
        double v = 0;
        auto const r = std::from_chars(s.data(), s.data() + s.size(), v);
        if(r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(v))
            return std::nullopt;
        return v;
    };
    using ms = std::chrono::milliseconds;
    if(!retry_after_ms.empty())
        if(auto v = parse_double(retry_after_ms))
            return ms(static_cast<ms::rep>(std::llround(*v)));
    if(!retry_after.empty())
    {
        if(auto v = parse_double(retry_after))
            return ms(static_cast<ms::rep>(std::llround(*v * 1000)));
        if(auto date = detail::parse_http_date(retry_after))
            return std::chrono::duration_cast<ms>(*date - now);
    }
    return std::nullopt;
}

/** The delay before the next attempt.

    @param policy the policy
    @param retries_done retries already made (0 before the first retry)
    @param server_delay what the server asked for (see @ref parse_retry_after)
    @param random a number in [0, 1), for the jitter
*/
inline std::chrono::milliseconds retry_delay(retry_policy const& policy, unsigned retries_done,
    std::optional<std::chrono::milliseconds> server_delay, double random) noexcept
{
    using ms = std::chrono::milliseconds;
    if(server_delay && server_delay->count() > 0 && *server_delay <= policy.max_retry_after)
        return *server_delay;
    double const base = std::min(static_cast<double>(policy.initial_delay.count()) * std::pow(2.0, retries_done),
        static_cast<double>(policy.max_delay.count()));
    return ms(static_cast<ms::rep>(std::llround(base * (1.0 - policy.jitter * random))));
}

} // namespace agentio::llm

#endif
