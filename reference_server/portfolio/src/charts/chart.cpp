// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "charts/chart.hpp"

#include "charts/detail/canvas.hpp"
#include "charts/detail/png.hpp"
#include "charts/detail/render.hpp"
#include "charts/detail/text.hpp"
#include "charts/format.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numbers>
#include <numeric>
#include <stdexcept>

namespace portfolio::charts {

namespace {

constexpr char const* others_label = "Otros";
constexpr double max_abs_value = 1e15;

std::size_t utf8_length(std::string_view s) noexcept
{
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(),
        [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

char const* type_name(chart_type t) noexcept
{
    switch(t)
    {
    case chart_type::bar: return "de barras";
    case chart_type::pie: return "circular";
    case chart_type::line: return "de líneas";
    case chart_type::stacked_bar: return "de barras apiladas";
    }
    return "";
}

bool single_series(chart_type t) noexcept
{
    return t == chart_type::bar || t == chart_type::pie;
}

std::string short_number(double v)
{
    char buf[64];
    auto const r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

/// Sum with Neumaier's compensation: "Otros" is exact for amounts with cents.
struct exact_sum
{
    double sum = 0, compensation = 0;
    void add(double v) noexcept
    {
        double const t = sum + v;
        compensation += std::fabs(sum) >= std::fabs(v) ? (sum - t) + v : (v - t) + sum;
        sum = t;
    }
    double value() const noexcept { return sum + compensation; }
};

double value_at(chart_series const& s, std::size_t i) noexcept
{
    return i < s.values.size() ? s.values[i] : 0.0;
}

} // namespace

std::string check_spec(chart_spec const& spec)
{
    if(std::size_t const n = utf8_length(spec.title); n > max_title_chars)
        return "title: tiene " + std::to_string(n) + " caracteres y el máximo es " + std::to_string(max_title_chars);
    if(spec.categories.empty())
        return "categories: hace falta al menos una categoría";
    if(spec.categories.size() > max_chart_categories)
        return "categories: hay " + std::to_string(spec.categories.size()) + " categorías y el máximo es " +
            std::to_string(max_chart_categories);
    std::size_t const ns = spec.series.size();
    if(single_series(spec.type) && ns != 1)
        return std::string("series: un gráfico ") + type_name(spec.type) + " lleva exactamente 1 serie y hay " +
            std::to_string(ns);
    if(!single_series(spec.type) && (ns < 1 || ns > max_chart_series))
        return std::string("series: un gráfico ") + type_name(spec.type) + " lleva entre 1 y " +
            std::to_string(max_chart_series) + " series y hay " + std::to_string(ns);
    for(std::size_t s = 0; s < ns; ++s)
    {
        auto const& values = spec.series[s].values;
        std::string const field = "series[" + std::to_string(s) + "].values";
        if(values.size() != spec.categories.size())
            return field + ": tiene " + std::to_string(values.size()) + (values.size() == 1 ? " valor" : " valores") +
                " y hay " + std::to_string(spec.categories.size()) +
                (spec.categories.size() == 1 ? " categoría" : " categorías");
        for(std::size_t i = 0; i < values.size(); ++i)
        {
            std::string const item = field + "[" + std::to_string(i) + "]";
            if(!std::isfinite(values[i]))
                return item + ": no es un número finito";
            if(std::fabs(values[i]) > max_abs_value)
                return item + ": " + short_number(values[i]) + " es demasiado grande (máximo 1e15 en valor absoluto)";
            if(spec.type == chart_type::pie && values[i] < 0)
                return item + ": un gráfico circular no admite valores negativos (" + short_number(values[i]) + ")";
        }
        if(spec.type == chart_type::pie && std::accumulate(values.begin(), values.end(), 0.0) <= 0)
            return field + ": en un gráfico circular la suma debe ser positiva";
    }
    return {};
}

chart_spec group_small_categories(chart_spec spec, std::size_t max_categories)
{
    std::size_t const n = spec.categories.size();
    if(max_categories == 0 || n <= max_categories || spec.series.empty())
        return spec;

    bool const by_first = single_series(spec.type);
    auto score = [&](std::size_t i) {
        double v = 0;
        if(by_first)
        {
            v = value_at(spec.series[0], i);
        }
        else
        {
            for(auto const& s : spec.series)
                v += std::fabs(value_at(s, i));
        }
        return std::isnan(v) ? -HUGE_VAL : v;
    };
    std::vector<std::size_t> ranked;
    for(std::size_t i = 0; i < n; ++i)
        if(spec.categories[i] != others_label)
            ranked.push_back(i);
    std::stable_sort(ranked.begin(), ranked.end(), [&](std::size_t a, std::size_t b) { return score(a) > score(b); });
    std::size_t const keep = std::min(max_categories - 1, ranked.size());
    std::vector<std::size_t> kept(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(keep));
    if(!by_first)
        std::sort(kept.begin(), kept.end()); // lines and stacks keep their order (often time)
    std::vector<bool> is_kept(n, false);
    for(auto i : kept)
        is_kept[i] = true;

    chart_spec out = spec;
    out.categories.clear();
    for(auto i : kept)
        out.categories.push_back(spec.categories[i]);
    out.categories.push_back(others_label);
    for(std::size_t s = 0; s < spec.series.size(); ++s)
    {
        auto& values = out.series[s].values;
        values.clear();
        for(auto i : kept)
            values.push_back(value_at(spec.series[s], i));
        exact_sum rest;
        for(std::size_t i = 0; i < n; ++i)
            if(!is_kept[i])
                rest.add(value_at(spec.series[s], i));
        values.push_back(rest.value());
    }
    return out;
}

std::vector<unsigned char> render_png(chart_spec const& spec, render_options const& options)
{
    return detail::encode_png(detail::render_canvas(spec, options), options.dpi);
}

// ---------------------------------------------------------------------------------------------
namespace detail {

axis_scale nice_scale(double lo, double hi, double target)
{
    if(!(hi > lo))
    {
        double const m = std::max(std::fabs(lo), std::fabs(hi));
        if(m == 0)
        {
            lo = 0;
            hi = 1;
        }
        else if(lo >= 0)
        {
            lo = 0;
            hi = m;
        }
        else if(hi <= 0)
        {
            lo = -m;
            hi = 0;
        }
        else
        {
            lo -= m / 2;
            hi += m / 2;
        }
    }
    target = std::clamp(target, 2.0, 12.0);
    double const raw = (hi - lo) / target;
    double const magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    axis_scale best;
    double best_distance = HUGE_VAL;
    for(double const mag : {magnitude / 10, magnitude, magnitude * 10})
    {
        for(double const m : {1.0, 2.0, 2.5, 5.0})
        {
            double const step = m * mag;
            double const first = std::floor(lo / step + 1e-9);
            double const last = std::ceil(hi / step - 1e-9);
            double const intervals = last - first;
            if(intervals < 1 || intervals > 14)
                continue;
            double const distance = std::fabs(std::log(intervals / target));
            if(distance < best_distance - 1e-12)
            {
                best_distance = distance;
                best.step = step;
                best.lo = first * step;
                best.hi = last * step;
            }
        }
    }
    best.ticks.clear();
    long const count = std::lround((best.hi - best.lo) / best.step);
    long const first = std::lround(best.lo / best.step);
    for(long k = 0; k <= count; ++k)
        best.ticks.push_back(static_cast<double>(first + k) * best.step);
    return best;
}

std::string tick_format::operator()(double v) const
{
    if(std::fabs(v) < 1e-9 * divisor)
        v = 0;
    return format_number(v / divisor, decimals) + suffix;
}

tick_format choose_tick_format(axis_scale const& scale, value_unit unit)
{
    tick_format f;
    double const top = std::max(std::fabs(scale.lo), std::fabs(scale.hi));
    if(unit == value_unit::percent)
    {
        f.divisor = 0.01;
        f.suffix = " %";
    }
    else
    {
        bool const euros = unit == value_unit::euros;
        if(top >= 1e6)
        {
            f.divisor = 1e6;
            f.suffix = euros ? " M€" : " M";
        }
        else if(top >= 1e3)
        {
            f.divisor = 1e3;
            f.suffix = euros ? " k€" : " k";
        }
        else
        {
            f.suffix = euros ? " €" : "";
        }
    }
    double const step = scale.step / f.divisor;
    while(f.decimals < 6)
    {
        double const scaled = step * std::pow(10.0, f.decimals);
        if(std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled))
            break;
        ++f.decimals;
    }
    return f;
}

namespace {

// --- look ---------------------------------------------------------------------------------------
constexpr rgb white{255, 255, 255};
constexpr rgb title_colour = hex(0x1F1F1F);
constexpr rgb text_colour = hex(0x333333);
constexpr rgb muted_colour = hex(0x595959);
constexpr rgb grid_colour = hex(0xE2E2E2);
constexpr rgb baseline_colour = hex(0x8A8A8A);
constexpr rgb others_colour = hex(0xBAB0AC);

/// Tableau 10 without its grey (kept for "Otros"), then the light halves of Tableau 20.
constexpr std::array<rgb, 18> palette{hex(0x4E79A7), hex(0xF28E2B), hex(0xE15759), hex(0x76B7B2), hex(0x59A14F),
    hex(0xEDC948), hex(0xB07AA1), hex(0xFF9DA7), hex(0x9C755F), hex(0xA0CBE8), hex(0xFFBE7D), hex(0xFF9D9A),
    hex(0x86BCB6), hex(0x8CD17D), hex(0xF1CE63), hex(0xD4A6C8), hex(0xFABFD2), hex(0xD7B5A6)};

rgb colour_of(std::size_t i) noexcept
{
    return palette[i % palette.size()];
}

// Sizes in points (1/72 in), turned into pixels by the dpi.
constexpr double pad_pt = 12;
constexpr double title_pt = 15;
constexpr double title_gap_pt = 10;
constexpr double tick_pt = 9;
constexpr double tick_gap_pt = 6;
constexpr double axis_title_pt = 9.5;
constexpr double data_label_pt = 8;
constexpr double legend_pt = 9;
constexpr double line_width_pt = 2;
constexpr double marker_pt = 3.2;

std::string value_label(double v, value_unit unit)
{
    switch(unit)
    {
    case value_unit::euros: return format_euros_short(v);
    case value_unit::number: return format_number_short(v);
    case value_unit::percent: return format_percent(v);
    }
    return {};
}

struct rect
{
    double left = 0, top = 0, right = 0, bottom = 0;
    double width() const noexcept { return right - left; }
    double height() const noexcept { return bottom - top; }
};

/// The extent, relative to the anchor, of a text drawn with font_set::draw's alignment and angle.
rect text_bounds(text_extent const& e, double h_align, v_anchor v, int angle_deg)
{
    double const v_offset = v == v_anchor::top ? e.ascent
        : v == v_anchor::middle                ? e.cap_height / 2
        : v == v_anchor::bottom                ? -e.descent
                                               : 0.0;
    double const a = angle_deg * std::numbers::pi / 180.0;
    point const along{std::cos(a), -std::sin(a)};
    point const up{-std::sin(a), -std::cos(a)};
    rect r{HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for(double const u : {-h_align * e.width, (1 - h_align) * e.width})
    {
        for(double const w : {e.ascent - v_offset, -e.descent - v_offset})
        {
            double const x = u * along.x + w * up.x;
            double const y = u * along.y + w * up.y;
            r.left = std::min(r.left, x);
            r.right = std::max(r.right, x);
            r.top = std::min(r.top, y);
            r.bottom = std::max(r.bottom, y);
        }
    }
    return r;
}

class painter
{
public:
    painter(chart_spec const& spec, render_options const& options, int width, int height)
        : spec_(spec)
        , img_(width, height, white)
        , fonts_(font_set::for_thread(options.font_dir))
        , pt_(options.dpi / 72.0)
        , width_(width)
        , height_(height)
    {
    }

    canvas take() { return std::move(img_); }

    void draw()
    {
        double top = px(pad_pt);
        if(!spec_.title.empty())
        {
            std::string const title = fonts_.ellipsize(spec_.title, font_weight::bold, px(title_pt),
                width_ - 2 * px(pad_pt));
            auto const e = fonts_.measure(title, font_weight::bold, px(title_pt));
            fonts_.draw(img_, title, font_weight::bold, px(title_pt), title_colour, {px(pad_pt), top + e.ascent}, 0,
                v_anchor::baseline);
            top += e.height() + px(title_gap_pt);
        }
        if(spec_.type == chart_type::pie)
            draw_pie(top);
        else
            draw_cartesian(top);
    }

private:
    double px(double points) const noexcept { return points * pt_; }

    text_extent measure(std::string_view s, double size_pt, font_weight w = font_weight::regular)
    {
        return fonts_.measure(s, w, px(size_pt));
    }

    void text(std::string_view s, double size_pt, rgb c, point at, double h_align, v_anchor v, int angle = 0,
        font_weight w = font_weight::regular)
    {
        fonts_.draw(img_, s, w, px(size_pt), c, at, h_align, v, angle);
    }

    // --- legend ------------------------------------------------------------------------------------
    struct legend_entry
    {
        std::string label;
        rgb colour;
        double width = 0;
    };

    /// Wraps the entries into rows `max_width` wide; returns the rows' height.
    double legend_swatch(bool as_lines) const { return px(legend_pt) * (as_lines ? 1.9 : 0.8); }

    double layout_legend(std::vector<legend_entry>& entries, double max_width, std::vector<std::size_t>& row_starts,
        bool as_lines)
    {
        double const swatch = legend_swatch(as_lines);
        double const gap = px(5);
        double const spacing = px(16);
        row_starts.assign(1, 0);
        double x = 0;
        for(std::size_t i = 0; i < entries.size(); ++i)
        {
            entries[i].label = fonts_.ellipsize(entries[i].label, font_weight::regular, px(legend_pt),
                std::max(px(legend_pt) * 4, max_width - swatch - gap));
            entries[i].width = swatch + gap + measure(entries[i].label, legend_pt).width;
            if(x > 0 && x + entries[i].width > max_width)
            {
                row_starts.push_back(i);
                x = 0;
            }
            x += entries[i].width + spacing;
        }
        return static_cast<double>(row_starts.size()) * legend_row_height();
    }

    double legend_row_height() { return measure("", legend_pt).height() * 1.35; }

    void draw_legend(std::vector<legend_entry> const& entries, std::vector<std::size_t> const& row_starts, double left,
        double top, bool as_lines)
    {
        double const swatch = legend_swatch(as_lines);
        double const gap = px(5);
        double const spacing = px(16);
        double const row_h = legend_row_height();
        for(std::size_t r = 0; r < row_starts.size(); ++r)
        {
            std::size_t const end = r + 1 < row_starts.size() ? row_starts[r + 1] : entries.size();
            double x = left;
            double const mid = top + (static_cast<double>(r) + 0.5) * row_h;
            for(std::size_t i = row_starts[r]; i < end; ++i)
            {
                auto const& e = entries[i];
                if(as_lines)
                {
                    point const seg[2] = {{x + px(1), mid}, {x + swatch - px(1), mid}};
                    img_.stroke_polyline(seg, px(line_width_pt), e.colour);
                    img_.fill_circle({x + swatch / 2, mid}, px(marker_pt) * 0.85, e.colour);
                }
                else
                {
                    double const side = px(legend_pt) * 0.8;
                    img_.fill_rect(x, mid - side / 2, x + side, mid + side / 2, e.colour);
                }
                text(e.label, legend_pt, text_colour, {x + swatch + gap, mid}, 0, v_anchor::middle);
                x += e.width + spacing;
            }
        }
    }

    // --- bars, stacks and lines ------------------------------------------------------------------------
    void draw_cartesian(double top)
    {
        std::size_t const n = spec_.categories.size();
        bool const stacked = spec_.type == chart_type::stacked_bar;
        bool const line = spec_.type == chart_type::line;
        bool const multi = !single_series(spec_.type);
        double const pad = px(pad_pt);

        // The values the axis must show.
        double lo = 0, hi = 0;
        std::vector<double> stack_pos(n, 0.0), stack_neg(n, 0.0);
        if(stacked)
        {
            for(auto const& s : spec_.series)
                for(std::size_t i = 0; i < n; ++i)
                    (s.values[i] >= 0 ? stack_pos[i] : stack_neg[i]) += s.values[i];
            lo = *std::min_element(stack_neg.begin(), stack_neg.end());
            hi = *std::max_element(stack_pos.begin(), stack_pos.end());
        }
        else
        {
            lo = hi = spec_.series[0].values[0];
            for(auto const& s : spec_.series)
                for(double v : s.values)
                {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
            if(!line)
            {
                lo = std::min(lo, 0.0);
                hi = std::max(hi, 0.0);
            }
            else if(lo > 0 && lo <= hi * 0.5)
            {
                lo = 0; // amounts read better from zero unless they all sit far above it
            }
            else if(hi < 0 && hi >= lo * 0.5)
            {
                hi = 0;
            }
            else
            {
                double const margin = (hi - lo) * 0.05;
                lo -= margin;
                hi += margin;
            }
        }

        // Legend under the title for several series.
        std::vector<legend_entry> legend;
        std::vector<std::size_t> legend_rows;
        if(multi && (spec_.series.size() > 1 || !spec_.series[0].name.empty()))
        {
            for(std::size_t s = 0; s < spec_.series.size(); ++s)
                legend.push_back({spec_.series[s].name.empty() ? "Serie " + std::to_string(s + 1)
                                                               : spec_.series[s].name,
                    colour_of(s)});
            double const h = layout_legend(legend, width_ - 2 * pad, legend_rows, line);
            draw_legend(legend, legend_rows, pad, top, line);
            top += h + px(8);
        }
        // Room above the top tick label.
        top += measure("0", tick_pt).cap_height / 2;

        // Category labels: at most ~2,2 in long, ellipsized.
        std::vector<std::string> labels;
        double const max_label = std::min(px(160), height_ * 0.3);
        for(auto const& c : spec_.categories)
            labels.push_back(fonts_.ellipsize(c, font_weight::regular, px(tick_pt), max_label));
        std::vector<double> label_widths;
        double widest = 0;
        for(auto const& l : labels)
        {
            label_widths.push_back(measure(l, tick_pt).width);
            widest = std::max(widest, label_widths.back());
        }
        text_extent const tick_e = measure("0", tick_pt);

        double const y_title_w = spec_.y_label.empty() ? 0 : measure(spec_.y_label, axis_title_pt).height() + px(6);
        double const x_title_h = spec_.x_label.empty() ? 0 : measure(spec_.x_label, axis_title_pt).height() + px(6);
        double const gap = px(tick_gap_pt);
        double const right = width_ - pad - px(4);

        // Every dimension depends on the others: a few rounds settle it.
        rect plot{pad, top, right, height_ - pad};
        axis_scale scale;
        tick_format fmt;
        bool rotated = false;
        std::size_t label_every = 1;
        double const data_label_h = measure("0", data_label_pt).height() + px(3);
        bool const labels_on_bars = !line || spec_.series.size() == 1;
        for(int round = 0; round < 4; ++round)
        {
            double const plot_h = std::max(plot.height(), 1.0);
            scale = nice_scale(lo, hi, plot_h / (tick_e.height() * 4.2));
            // Headroom for the data labels above the highest bar and below the lowest.
            for(int extra = 0; extra < 3 && labels_on_bars; ++extra)
            {
                double const per_px = (scale.hi - scale.lo) / plot_h;
                bool const top_ok = hi <= 0 || scale.hi - hi >= data_label_h * per_px;
                bool const bottom_ok = lo >= 0 || lo - scale.lo >= data_label_h * per_px;
                if(top_ok && bottom_ok)
                    break;
                if(!top_ok)
                {
                    scale.hi += scale.step;
                    scale.ticks.push_back(scale.hi);
                }
                if(!bottom_ok)
                {
                    scale.lo -= scale.step;
                    scale.ticks.insert(scale.ticks.begin(), scale.lo);
                }
            }
            fmt = choose_tick_format(scale, spec_.unit);
            double tick_w = 0;
            for(double t : scale.ticks)
                tick_w = std::max(tick_w, measure(fmt(t), tick_pt).width);
            plot.left = pad + y_title_w + tick_w + gap;

            double const band = std::max(plot.width(), 1.0) / static_cast<double>(n);
            rotated = widest > band * 0.92;
            double below = 0;
            if(!rotated)
            {
                label_every = 1;
                below = tick_e.height();
            }
            else
            {
                // Parallel 45° labels are band·sin 45° apart: thin them out when they would touch.
                double const need = tick_e.height() * 1.1 / std::sin(std::numbers::pi / 4);
                label_every = static_cast<std::size_t>(std::ceil(need / band));
                label_every = std::max<std::size_t>(label_every, 1);
                for(std::size_t i = 0; i < n; i += label_every)
                {
                    rect const b = text_bounds(measure(labels[i], tick_pt), 1, v_anchor::middle, 45);
                    below = std::max(below, b.bottom + tick_e.cap_height / 2);
                    // The first labels reach left of the plot: keep them on the canvas.
                    double const anchor_x = plot.left + (static_cast<double>(i) + 0.5) * band;
                    if(anchor_x + b.left < pad)
                        plot.left += pad - (anchor_x + b.left);
                }
            }
            plot.bottom = height_ - pad - x_title_h - below - gap;
        }
        plot.left = std::round(plot.left);
        plot.top = std::round(plot.top);
        plot.right = std::round(plot.right);
        plot.bottom = std::round(plot.bottom);
        double const plot_h = std::max(plot.height(), 1.0);
        double const band = std::max(plot.width(), 1.0) / static_cast<double>(n);
        auto y_of = [&](double v) { return plot.bottom - (v - scale.lo) / (scale.hi - scale.lo) * plot_h; };
        auto x_of = [&](std::size_t i) { return plot.left + (static_cast<double>(i) + 0.5) * band; };

        // Grid and tick labels.
        double const hair = std::max(1.0, std::round(px(0.5)));
        for(double t : scale.ticks)
        {
            double const y = std::round(y_of(t));
            img_.fill_rect(plot.left, y - hair / 2, plot.right, y + hair / 2, grid_colour);
            text(fmt(t), tick_pt, muted_colour, {plot.left - gap, y}, 1, v_anchor::middle);
        }

        // Axis titles.
        if(!spec_.y_label.empty())
        {
            std::string const t = fonts_.ellipsize(spec_.y_label, font_weight::regular, px(axis_title_pt), plot_h);
            text(t, axis_title_pt, text_colour, {pad, (plot.top + plot.bottom) / 2}, 0.5, v_anchor::top, 90);
        }
        if(!spec_.x_label.empty())
        {
            std::string const t = fonts_.ellipsize(spec_.x_label, font_weight::regular, px(axis_title_pt),
                plot.width());
            text(t, axis_title_pt, text_colour, {(plot.left + plot.right) / 2, height_ - pad}, 0.5, v_anchor::bottom);
        }

        double const zero_y = std::round(y_of(std::clamp(0.0, scale.lo, scale.hi)));
        if(line)
            draw_lines(n, band, x_of, y_of);
        else
            draw_bars(n, band, x_of, y_of, zero_y, stacked, stack_pos, stack_neg);

        // The zero line over the bars' feet.
        img_.fill_rect(plot.left, zero_y - hair / 2, plot.right, zero_y + hair / 2 + (hair < 1.5 ? 0.5 : 0),
            baseline_colour);

        // Category labels.
        for(std::size_t i = 0; i < n; i += label_every)
        {
            double const x = x_of(i);
            if(!rotated)
                text(labels[i], tick_pt, text_colour, {x, plot.bottom + gap}, 0.5, v_anchor::top);
            else
                text(labels[i], tick_pt, text_colour, {x + tick_e.cap_height * 0.35, plot.bottom + gap * 0.6}, 1,
                    v_anchor::middle, 45);
        }
    }

    template<class X, class Y>
    void draw_bars(std::size_t n, double band, X x_of, Y y_of, double zero_y, bool stacked,
        std::vector<double> const& stack_pos, std::vector<double> const& stack_neg)
    {
        double const bar_w = band * (stacked ? 0.62 : 0.72);
        // Data labels only when every one fits over its bar.
        double label_pt = data_label_pt;
        std::vector<std::string> totals(n);
        double widest = 0;
        for(std::size_t i = 0; i < n; ++i)
        {
            double const total = stacked ? stack_pos[i] + stack_neg[i] : spec_.series[0].values[i];
            totals[i] = value_label(total, spec_.unit);
            widest = std::max(widest, measure(totals[i], label_pt).width);
        }
        if(widest > band * 0.98)
        {
            label_pt = data_label_pt * 0.85;
            widest *= 0.85;
        }
        bool const show_totals = widest <= band * 0.98;

        for(std::size_t i = 0; i < n; ++i)
        {
            double const x0 = x_of(i) - bar_w / 2;
            double const x1 = x_of(i) + bar_w / 2;
            if(!stacked)
            {
                double const v = spec_.series[0].values[i];
                rgb const c = spec_.categories[i] == others_label && n > 1 ? others_colour : colour_of(0);
                img_.fill_rect(x0, zero_y, x1, y_of(v), c);
            }
            else
            {
                double pos = 0, neg = 0;
                std::vector<double> edges; // segment boundaries for the white separators
                for(std::size_t s = 0; s < spec_.series.size(); ++s)
                {
                    double const v = spec_.series[s].values[i];
                    double& base = v >= 0 ? pos : neg;
                    double const ya = base == 0 ? zero_y : y_of(base);
                    double const yb = y_of(base + v);
                    base += v;
                    if(v == 0)
                        continue;
                    rgb const c = colour_of(s);
                    img_.fill_rect(x0, ya, x1, yb, c);
                    edges.push_back(yb);
                    // The value inside its segment when it fits.
                    std::string const label = value_label(v, spec_.unit);
                    auto const e = measure(label, data_label_pt * 0.95);
                    if(std::fabs(yb - ya) >= e.height() + px(2) && e.width <= bar_w - px(4))
                        text(label, data_label_pt * 0.95, luminance(c) > 0.55 ? text_colour : white,
                            {(x0 + x1) / 2, (ya + yb) / 2}, 0.5, v_anchor::middle);
                }
                double const sep = std::max(1.0, px(0.6));
                for(double y : edges)
                    img_.fill_rect(x0, y - sep / 2, x1, y + sep / 2, white);
            }
            if(show_totals)
            {
                double const total = stacked ? stack_pos[i] + stack_neg[i] : spec_.series[0].values[i];
                double const top_value = stacked ? stack_pos[i] : total;
                if(total >= 0 || stacked)
                    text(totals[i], label_pt, text_colour, {x_of(i), y_of(top_value) - px(3)}, 0.5, v_anchor::bottom, 0,
                        stacked ? font_weight::bold : font_weight::regular);
                else
                    text(totals[i], label_pt, text_colour, {x_of(i), y_of(total) + px(3)}, 0.5, v_anchor::top);
            }
        }
    }

    template<class X, class Y>
    void draw_lines(std::size_t n, double band, X x_of, Y y_of)
    {
        double const radius = px(marker_pt);
        bool const markers = band >= radius * 3;
        for(std::size_t s = 0; s < spec_.series.size(); ++s)
        {
            std::vector<point> pts;
            for(std::size_t i = 0; i < n; ++i)
                pts.push_back({x_of(i), y_of(spec_.series[s].values[i])});
            img_.stroke_polyline(pts, px(line_width_pt), colour_of(s));
            if(markers)
                for(auto const& p : pts)
                {
                    img_.fill_circle(p, radius + px(1), white);
                    img_.fill_circle(p, radius, colour_of(s));
                }
        }
        if(spec_.series.size() != 1)
            return;
        // One series: its values over the points, when they fit.
        std::vector<std::string> labels;
        double widest = 0;
        for(double v : spec_.series[0].values)
        {
            labels.push_back(value_label(v, spec_.unit));
            widest = std::max(widest, measure(labels.back(), data_label_pt).width);
        }
        if(widest > band * 0.95)
            return;
        for(std::size_t i = 0; i < n; ++i)
            text(labels[i], data_label_pt, text_colour, {x_of(i), y_of(spec_.series[0].values[i]) - radius - px(4)},
                0.5, v_anchor::bottom);
    }

    // --- pie -----------------------------------------------------------------------------------------------
    void draw_pie(double top)
    {
        double const pad = px(pad_pt);
        auto const& values = spec_.series[0].values;
        double total = 0;
        for(double v : values)
            total += v;

        // Largest first from 12 o'clock, clockwise; "Otros" last.
        std::vector<std::size_t> order(values.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            bool const oa = spec_.categories[a] == others_label;
            bool const ob = spec_.categories[b] == others_label;
            if(oa != ob)
                return ob;
            return values[a] > values[b];
        });
        std::vector<rgb> colours(values.size());
        std::size_t next_colour = 0;
        for(std::size_t i : order)
            colours[i] = spec_.categories[i] == others_label && values.size() > 1 ? others_colour
                                                                                  : colour_of(next_colour++);

        // Legend on the right: swatch, name, amount and share in columns.
        double legend_size = legend_pt;
        double const avail_h = height_ - pad - top;
        double row_h = 0;
        for(;; legend_size *= 0.9)
        {
            row_h = measure("", legend_size).height() * 1.45;
            if(row_h * static_cast<double>(values.size()) <= avail_h || legend_size < 6.5)
                break;
        }
        // Slices beyond what the legend can list (only without grouping) end in "… y N más".
        auto const fit_rows = static_cast<std::size_t>(std::max(1.0, std::floor(avail_h / row_h)));
        std::size_t const listed = order.size() <= fit_rows ? order.size() : fit_rows - 1;
        double const max_name = width_ * 0.28;
        std::vector<std::string> names, amounts, shares;
        double name_w = 0, amount_w = 0, share_w = 0;
        for(std::size_t k = 0; k < listed; ++k)
        {
            std::size_t const i = order[k];
            names.push_back(fonts_.ellipsize(spec_.categories[i], font_weight::regular, px(legend_size), max_name));
            amounts.push_back(value_label(values[i], spec_.unit));
            shares.push_back(format_percent(values[i] / total));
            name_w = std::max(name_w, measure(names.back(), legend_size).width);
            amount_w = std::max(amount_w, measure(amounts.back(), legend_size).width);
            share_w = std::max(share_w, measure(shares.back(), legend_size).width);
        }
        double const swatch = px(legend_size) * 0.8;
        double const col_gap = px(legend_size) * 1.4;
        double const legend_w = swatch + px(6) + name_w + col_gap + amount_w + col_gap + share_w;

        // The pie and its legend side by side, the pair centred on the canvas.
        double const between = px(28);
        double const area_w = width_ - 2 * pad - legend_w - between;
        double const radius = std::max(4.0, std::min(area_w, avail_h) / 2 - px(4));
        double const group_left = std::max(pad, (width_ - (2 * radius + between + legend_w)) / 2);
        point const centre{group_left + radius, top + avail_h / 2};

        // Slices as polygons with an edge point every ~2 px of arc.
        double angle = -std::numbers::pi / 2;
        std::vector<double> boundaries;
        std::vector<std::pair<std::size_t, double>> mids; // slice, mid angle
        for(std::size_t i : order)
        {
            double const sweep = values[i] / total * 2 * std::numbers::pi;
            if(sweep <= 0)
                continue;
            int const steps = std::max(2, static_cast<int>(std::ceil(sweep * radius / 2)));
            std::vector<point> poly;
            poly.reserve(static_cast<std::size_t>(steps) + 2);
            if(sweep < 2 * std::numbers::pi - 1e-9)
                poly.push_back(centre);
            for(int k = 0; k <= steps; ++k)
            {
                double const a = angle + sweep * k / steps;
                poly.push_back({centre.x + radius * std::cos(a), centre.y + radius * std::sin(a)});
            }
            img_.fill_polygon(poly, colours[i]);
            boundaries.push_back(angle);
            mids.emplace_back(i, angle + sweep / 2);
            angle += sweep;
        }
        // White separators cover the seams between neighbouring slices.
        if(boundaries.size() > 1)
            for(double a : boundaries)
            {
                point const seg[2] = {centre, {centre.x + radius * std::cos(a), centre.y + radius * std::sin(a)}};
                img_.stroke_polyline(seg, std::max(1.5, px(1.2)), white);
            }

        // Shares on the slices that have room for them.
        double const share_pt = 9;
        for(auto const& [i, mid] : mids)
        {
            double const sweep = values[i] / total * 2 * std::numbers::pi;
            std::string const label = format_percent(values[i] / total);
            auto const e = measure(label, share_pt, font_weight::bold);
            double const r = radius * (sweep > 1.2 ? 0.6 : 0.7);
            // The chord at that radius must hold the label.
            double const room = 2 * r * std::sin(std::min(sweep, std::numbers::pi) / 2);
            if(room < e.width * 1.05 && sweep < std::numbers::pi)
                continue;
            point const at{centre.x + r * std::cos(mid), centre.y + r * std::sin(mid)};
            rgb const c = luminance(colours[i]) > 0.6 ? title_colour : white;
            text(label, share_pt, c, at, 0.5, v_anchor::middle, 0, font_weight::bold);
        }

        // The legend, centred vertically beside the pie.
        double const legend_left = centre.x + radius + between;
        std::size_t const rows = listed < order.size() ? listed + 1 : listed;
        double y = top + std::max(0.0, (avail_h - row_h * static_cast<double>(rows)) / 2);
        if(listed < order.size())
            text("… y " + std::to_string(order.size() - listed) + " más", legend_size, muted_colour,
                {legend_left + swatch + px(6), y + row_h * (static_cast<double>(listed) + 0.5)}, 0, v_anchor::middle);
        for(std::size_t k = 0; k < listed; ++k, y += row_h)
        {
            double const mid = y + row_h / 2;
            img_.fill_rect(legend_left, mid - swatch / 2, legend_left + swatch, mid + swatch / 2, colours[order[k]]);
            double x = legend_left + swatch + px(6);
            text(names[k], legend_size, text_colour, {x, mid}, 0, v_anchor::middle);
            x += name_w + col_gap + amount_w;
            text(amounts[k], legend_size, text_colour, {x, mid}, 1, v_anchor::middle);
            x += col_gap + share_w;
            text(shares[k], legend_size, muted_colour, {x, mid}, 1, v_anchor::middle);
        }
    }

    chart_spec const& spec_;
    canvas img_;
    font_set& fonts_;
    double pt_;
    int width_;
    int height_;
};

} // namespace

canvas render_canvas(chart_spec const& spec, render_options const& options)
{
    if(std::string const problem = check_spec(spec); !problem.empty())
        throw std::runtime_error("gráfico no válido: " + problem);
    if(options.dpi < 10 || options.dpi > 1200)
        throw std::runtime_error("render_options.dpi: " + std::to_string(options.dpi) +
            " está fuera del intervalo 10..1200");
    double const w = options.width_in * options.dpi;
    double const h = options.height_in * options.dpi;
    if(!(w >= 16 && w <= 10000 && h >= 16 && h <= 10000))
        throw std::runtime_error("render_options: el tamaño en píxeles debe estar entre 16 y 10000 por lado");
    chart_spec const grouped = group_small_categories(spec, options.max_categories);
    painter p(grouped, options, static_cast<int>(std::lround(w)), static_cast<int>(std::lround(h)));
    p.draw();
    return p.take();
}

} // namespace detail

} // namespace portfolio::charts
