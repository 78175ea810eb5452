// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// The generator's calendar, on the C++20 <chrono> calendar types: a date is a
// std::chrono::sys_days (a count of days since 1970-01-01); std::chrono does the
// civil-date conversions and month arithmetic. Also the fixed "today" and the
// years the amount columns cover.
#include <algorithm>
#include <chrono>
#include <string>

namespace portfolio::generator {

using Date = std::chrono::sys_days;
using std::chrono::days;

/// The date y-m-d.
constexpr Date ymd(int y, int m, int d)
{
    return std::chrono::year_month_day{std::chrono::year{y}, std::chrono::month{static_cast<unsigned>(m)},
        std::chrono::day{static_cast<unsigned>(d)}};
}
inline int year_of(Date d)
{
    return static_cast<int>(std::chrono::year_month_day{d}.year());
}
/// 1..12
inline int month_of(Date d)
{
    return static_cast<int>(static_cast<unsigned>(std::chrono::year_month_day{d}.month()));
}
/// Months since year 0: year * 12 + (month - 1).
inline int month_index(Date d)
{
    std::chrono::year_month_day const t{d};
    return static_cast<int>(t.year()) * 12 + static_cast<int>(static_cast<unsigned>(t.month())) - 1;
}
/// Days from a to b (negative when b is before a).
inline int days_between(Date a, Date b)
{
    return static_cast<int>((b - a).count());
}
/// "2025-06-30"
inline std::string iso(Date date)
{
    std::chrono::year_month_day const t{date};
    int const y = static_cast<int>(t.year());
    auto const m = static_cast<unsigned>(t.month()), d = static_cast<unsigned>(t.day());
    char buf[10];
    buf[0] = static_cast<char>('0' + (y / 1000) % 10);
    buf[1] = static_cast<char>('0' + (y / 100) % 10);
    buf[2] = static_cast<char>('0' + (y / 10) % 10);
    buf[3] = static_cast<char>('0' + y % 10);
    buf[4] = '-';
    buf[5] = static_cast<char>('0' + m / 10);
    buf[6] = static_cast<char>('0' + m % 10);
    buf[7] = '-';
    buf[8] = static_cast<char>('0' + d / 10);
    buf[9] = static_cast<char>('0' + d % 10);
    return std::string(buf, 10);
}

/// Last day of the month `mi` (a month_index()).
inline Date month_end(int mi)
{
    return std::chrono::year_month_day_last{std::chrono::year{mi / 12},
        std::chrono::month_day_last{std::chrono::month{static_cast<unsigned>(mi % 12 + 1)}}};
}
/// Day `day` of the month `mi` (a month_index()), clamped to the month's last day.
inline Date from_month_index(int mi, int day)
{
    std::chrono::year_month_day_last const last{std::chrono::year{mi / 12},
        std::chrono::month_day_last{std::chrono::month{static_cast<unsigned>(mi % 12 + 1)}}};
    return std::chrono::year_month_day{last.year(), last.month(),
        std::min(std::chrono::day{static_cast<unsigned>(day)}, last.day())};
}
/// `d` plus `k` months; the day is clamped to the length of the month reached (Jan 31 + 1 month = Feb 28/29).
inline Date add_months(Date d, int k)
{
    std::chrono::year_month_day const t = std::chrono::year_month_day{d} + std::chrono::months{k};
    return t.ok() ? Date{t} : Date{t.year() / t.month() / std::chrono::last};
}
/// Last day of the quarter of `d`.
inline Date quarter_end_of(Date d)
{
    int const mi = month_index(d);
    return month_end(mi - mi % 3 + 2);
}
/// `d` within [lo, hi]; unlike std::clamp, lo wins when hi < lo.
inline Date clamp(Date d, Date lo, Date hi)
{
    return d < lo ? lo : (hi < d ? hi : d);
}
/// Number of calendar months of year `y` overlapped by [a, b].
inline int months_overlap(Date a, Date b, int y)
{
    if(b < a)
        return 0;
    int const lo = std::max(month_index(a), y * 12);
    int const hi = std::min(month_index(b), y * 12 + 11);
    return std::max(0, hi - lo + 1);
}

inline constexpr Date kToday = ymd(2025, 6, 30);
inline constexpr int kFirstYear = 2024; // amount columns cover 2024..2028
inline constexpr int kNumYears = 5;

} // namespace portfolio::generator
