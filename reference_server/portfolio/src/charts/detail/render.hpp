// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The two halves of render_png, apart so that the benchmark can time them apart.
#pragma once

#include "charts/chart.hpp"
#include "charts/detail/canvas.hpp"

#include <string>
#include <vector>

namespace portfolio::charts::detail {

/// Checks, groups and draws `spec`; the same throws as render_png.
canvas render_canvas(chart_spec const& spec, render_options const& options);

/// Ticks at 1, 2, 2,5 or 5 × 10^k covering [lo, hi] with about `target` intervals.
struct axis_scale
{
    double lo = 0, hi = 1, step = 1;
    std::vector<double> ticks;
};
axis_scale nice_scale(double lo, double hi, double target);

/// How the ticks of an axis are written: one scale (M€, k€, €, %) and one number of decimals for all.
struct tick_format
{
    double divisor = 1;
    int decimals = 0;
    std::string suffix;
    std::string operator()(double v) const;
};
tick_format choose_tick_format(axis_scale const& scale, value_unit unit);

} // namespace portfolio::charts::detail
