// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// Amounts are kept in integer cents; OptMoney is a nullable amount.
#include "portfolio/generator/calendar.hpp"

#include <cmath>
#include <cstddef>
#include <optional>
#include <span>

namespace portfolio::generator {

using i64 = long long;
using OptMoney = std::optional<i64>; // amounts are kept in integer cents

inline OptMoney sum_opt(std::span<OptMoney const> v)
{
    OptMoney s;
    for(auto const& x : v)
        if(x)
            s = s.value_or(0) + *x;
    return s;
}
inline i64 round_to(double cents, i64 step_cents)
{
    return static_cast<i64>(std::llround(cents / static_cast<double>(step_cents))) * step_cents;
}
inline i64 to_cents(double cents)
{
    return static_cast<i64>(std::llround(cents));
}
inline std::size_t yi(int year)
{
    return static_cast<std::size_t>(year - kFirstYear);
}

} // namespace portfolio::generator
