// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// The generator's calendar: dates as days since 1970-01-01, month arithmetic
// (adding months clamps the day to the month's length), and the fixed "today".
#include <algorithm>
#include <compare>
#include <string>

namespace portfolio::generator {

struct Date {
    int n = 0;   // days since 1970-01-01

    static Date ymd(int y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        int const era = (y >= 0 ? y : y - 399) / 400;
        int const yoe = y - era * 400;
        int const doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        int const doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return Date{era * 146097 + doe - 719468};
    }
    void civil(int& y, int& m, int& d) const {
        int z = n + 719468;
        int const era = (z >= 0 ? z : z - 146096) / 146097;
        int const doe = z - era * 146097;
        int const yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        y = yoe + era * 400;
        int const doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        int const mp = (5 * doy + 2) / 153;
        d = doy - (153 * mp + 2) / 5 + 1;
        m = mp < 10 ? mp + 3 : mp - 9;
        if (m <= 2) ++y;
    }
    int year() const { int y, m, d; civil(y, m, d); return y; }
    int month() const { int y, m, d; civil(y, m, d); return m; }
    int day() const { int y, m, d; civil(y, m, d); return d; }
    int month_index() const { int y, m, d; civil(y, m, d); return y * 12 + (m - 1); }
    std::string iso() const {
        int y, m, d;
        civil(y, m, d);
        char buf[16];
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
    friend Date operator+(Date a, int k) { return Date{a.n + k}; }
    friend Date operator-(Date a, int k) { return Date{a.n - k}; }
    friend int operator-(Date a, Date b) { return a.n - b.n; }
    friend bool operator==(Date const&, Date const&) = default;
    friend auto operator<=>(Date const&, Date const&) = default;
};

inline int days_in_month(int y, int m) {
    Date const a = Date::ymd(y, m, 1);
    Date const b = m == 12 ? Date::ymd(y + 1, 1, 1) : Date::ymd(y, m + 1, 1);
    return b - a;
}
inline Date from_month_index(int mi, int day) {
    int const y = mi / 12, m = mi % 12 + 1;
    return Date::ymd(y, m, std::min(day, days_in_month(y, m)));
}
inline Date add_months(Date d, int k) {
    return from_month_index(d.month_index() + k, d.day());
}
inline Date month_end(int mi) { return from_month_index(mi, 31); }
inline Date quarter_end_of(Date d) {
    int const mi = d.month_index();
    return month_end(mi - mi % 3 + 2);
}
inline Date min(Date a, Date b) { return a < b ? a : b; }
inline Date max(Date a, Date b) { return a < b ? b : a; }
inline Date clamp(Date d, Date lo, Date hi) { return d < lo ? lo : (hi < d ? hi : d); }
/// Number of calendar months of year `y` overlapped by [a, b].
inline int months_overlap(Date a, Date b, int y) {
    if (b < a) return 0;
    int const lo = std::max(a.month_index(), y * 12);
    int const hi = std::min(b.month_index(), y * 12 + 11);
    return std::max(0, hi - lo + 1);
}

inline Date const kToday = Date::ymd(2025, 6, 30);
inline constexpr int kFirstYear = 2024;   // amount columns cover 2024..2028
inline constexpr int kNumYears = 5;

} // namespace portfolio::generator
