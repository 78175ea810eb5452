// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Spanish number formatting for charts and tool answers: dot for thousands,
// comma for decimals, "-" for negatives (never "-0"), "€" and "%" after a space.
// Rounding is decimal and half away from zero on the shortest representation of
// the double, so 999999.995 rounds as written: "1.000.000,00".
#pragma once

#include <string>

namespace portfolio::charts {

/// "1.234.567,89" for (1234567.891, 2). `decimals` is clamped to 0..12.
/// NaN and infinities come out as "NaN", "∞" and "-∞".
std::string format_number(double v, int decimals);

/// "1.234.567,89 €": two decimals.
std::string format_euros(double v);

/// Axis and data-label style: "4,3 M€", "2 M€", "870 k€", "1,5 k€", "90 €", "2,5 €".
/// Millions and thousands below 10 keep one decimal unless it is zero; values
/// that round up to the next unit move to it (999.999 → "1 M€").
std::string format_euros_short(double v);

/// The same rules without the currency: "1,2 M", "870 k", "90".
std::string format_number_short(double v);

/// A fraction as a percentage with one decimal: 0.125 → "12,5 %".
std::string format_percent(double fraction);

} // namespace portfolio::charts
