// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "charts/format.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

namespace portfolio::charts {

namespace {

/// Adds one unit in the last place of a string of decimal digits; true when a
/// carry is left over (the string was all nines and is now all zeros).
bool increment_digits(std::string& digits)
{
    for(auto it = digits.rbegin(); it != digits.rend(); ++it)
    {
        if(*it != '9')
        {
            ++*it;
            return false;
        }
        *it = '0';
    }
    return true;
}

std::string group_thousands(std::string_view digits)
{
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    std::size_t const lead = digits.size() % 3;
    for(std::size_t i = 0; i < digits.size(); ++i)
    {
        if(i != 0 && (i + 3 - lead) % 3 == 0)
            out.push_back('.');
        out.push_back(digits[i]);
    }
    return out;
}

/// format_number, then drops a decimal part made only of zeros ("4,0" → "4").
std::string format_trimmed(double v, int decimals)
{
    std::string s = format_number(v, decimals);
    auto const comma = s.find(',');
    if(comma != std::string::npos && s.find_first_not_of('0', comma + 1) == std::string::npos)
        s.erase(comma);
    return s;
}

double rounded_abs(double x, int decimals)
{
    double const f = std::pow(10.0, decimals);
    return std::round(std::fabs(x) * f) / f;
}

std::string format_short(double v, std::string_view unit_suffix)
{
    if(!std::isfinite(v))
    {
        std::string out = format_number(v, 0);
        if(!unit_suffix.empty())
        {
            out += ' ';
            out += unit_suffix;
        }
        return out;
    }
    double const a = std::fabs(v);
    auto with = [&](std::string number, std::string_view scale) {
        std::string out = std::move(number);
        if(!scale.empty() || !unit_suffix.empty())
        {
            out += ' ';
            out += scale;
            out += unit_suffix;
        }
        return out;
    };
    auto millions = [&] { return with(format_trimmed(v / 1e6, 1), "M"); };
    auto thousands = [&] {
        double const x = v / 1e3;
        int const d = std::fabs(x) < 10 ? 1 : 0;
        if(rounded_abs(x, d) >= 1000)
            return millions();
        return with(format_trimmed(x, rounded_abs(x, d) >= 10 ? 0 : d), "k");
    };
    if(a >= 1e6)
        return millions();
    if(a >= 1e3)
        return thousands();
    int const d = a >= 10 ? 0 : (a >= 1 ? 1 : 2);
    if(rounded_abs(v, d) >= 1000)
        return thousands();
    return with(format_trimmed(v, d), "");
}

} // namespace

std::string format_number(double v, int decimals)
{
    if(std::isnan(v))
        return "NaN";
    if(std::isinf(v))
        return v < 0 ? "-∞" : "∞";
    decimals = std::clamp(decimals, 0, 12);

    // The shortest representation that reads back as v, in fixed notation
    // (at most 309 integer digits plus the fraction of a subnormal).
    char buf[1100];
    auto const [end, ec] = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::fixed);
    if(ec != std::errc{})
        return "NaN";                                                      // cannot happen: the buffer holds any double
    std::string_view const text(buf, static_cast<std::size_t>(end - buf)); // "0.5", never ".5"
    auto const dot = text.find('.');
    std::string integer(text.substr(0, dot));
    std::string fraction(dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1));

    auto const keep = static_cast<std::size_t>(decimals);
    if(fraction.size() > keep)
    {
        bool const round_up = fraction[keep] >= '5'; // half away from zero on the decimal digits
        fraction.resize(keep);
        if(round_up)
        {
            std::string digits = integer + fraction;
            if(increment_digits(digits))
                digits.insert(digits.begin(), '1');
            integer = digits.substr(0, digits.size() - keep);
            fraction = digits.substr(digits.size() - keep);
        }
    }
    fraction.resize(keep, '0');

    bool const zero = integer.find_first_not_of('0') == std::string::npos &&
        fraction.find_first_not_of('0') == std::string::npos;
    std::string out;
    if(v < 0 && !zero)
        out.push_back('-');
    out += group_thousands(integer);
    if(keep > 0)
    {
        out.push_back(',');
        out += fraction;
    }
    return out;
}

std::string format_euros(double v)
{
    return format_number(v, 2) + " €";
}

std::string format_euros_short(double v)
{
    return format_short(v, "€");
}

std::string format_number_short(double v)
{
    return format_short(v, "");
}

std::string format_percent(double fraction)
{
    return format_number(fraction * 100.0, 1) + " %";
}

} // namespace portfolio::charts
