// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "charts/detail/canvas.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace portfolio::charts::detail {

namespace {

unsigned to_coverage(double c) noexcept
{
    return c <= 0 ? 0u : c >= 1 ? 255u : static_cast<unsigned>(c * 255.0 + 0.5);
}

} // namespace

rgb mix(rgb a, rgb b, double alpha) noexcept
{
    auto m = [&](std::uint8_t x, std::uint8_t y) {
        return static_cast<std::uint8_t>(std::lround(x * alpha + y * (1 - alpha)));
    };
    return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b)};
}

double luminance(rgb c) noexcept
{
    return (0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b) / 255.0;
}

canvas::canvas(int width, int height, rgb background)
    : width_(width)
    , height_(height)
    , stride_(1 + static_cast<std::size_t>(width) * 3)
    , pixels_(new std::uint8_t[stride_ * static_cast<std::size_t>(height)])
{
    std::uint8_t* const first = pixels_.get();
    if(background == rgb{255, 255, 255})
    {
        std::memset(first, 255, stride_ * static_cast<std::size_t>(height));
        for(int y = 0; y < height; ++y)
            first[static_cast<std::size_t>(y) * stride_] = 0; // filter type None
        return;
    }
    first[0] = 0;
    for(int x = 0; x < width; ++x)
    {
        first[1 + 3 * x] = background.r;
        first[2 + 3 * x] = background.g;
        first[3 + 3 * x] = background.b;
    }
    for(int y = 1; y < height; ++y)
        std::memcpy(first + static_cast<std::size_t>(y) * stride_, first, stride_);
}

float* canvas::scratch()
{
    // One per thread, reused by every canvas of the thread: growing keeps it all zero.
    thread_local std::vector<float> buffer;
    std::size_t const size = static_cast<std::size_t>(width_ + 2) * static_cast<std::size_t>(height_);
    if(buffer.size() < size)
        buffer.resize(size, 0.0f);
    return buffer.data();
}

rgb canvas::pixel(int x, int y) const noexcept
{
    auto const* p = row(y) + static_cast<std::size_t>(x) * 3;
    return {p[0], p[1], p[2]};
}

void canvas::fill_rect(double x0, double y0, double x1, double y1, rgb c)
{
    if(x0 > x1)
        std::swap(x0, x1);
    if(y0 > y1)
        std::swap(y0, y1);
    x0 = std::max(x0, 0.0);
    y0 = std::max(y0, 0.0);
    x1 = std::min(x1, static_cast<double>(width_));
    y1 = std::min(y1, static_cast<double>(height_));
    if(!(x0 < x1 && y0 < y1))
        return;
    int const xa = static_cast<int>(std::floor(x0));
    int const xb = static_cast<int>(std::ceil(x1));
    int const ya = static_cast<int>(std::floor(y0));
    int const yb = static_cast<int>(std::ceil(y1));
    // Columns [xa, xb): the partly covered ones at the ends, fully covered ones in between.
    int const inner_a = std::min(static_cast<int>(std::ceil(x0)), xb);
    int const inner_b = std::max(static_cast<int>(std::floor(x1)), inner_a);
    auto column_cover = [&](int x) { return std::min(x1, x + 1.0) - std::max(x0, static_cast<double>(x)); };
    std::vector<std::uint8_t> solid(static_cast<std::size_t>(inner_b - inner_a) * 3);
    for(std::size_t i = 0; i < solid.size(); i += 3)
    {
        solid[i] = c.r;
        solid[i + 1] = c.g;
        solid[i + 2] = c.b;
    }
    for(int y = ya; y < yb; ++y)
    {
        double const cy = std::min(y1, y + 1.0) - std::max(y0, static_cast<double>(y));
        for(int x = xa; x < inner_a; ++x)
            if(unsigned const cov = to_coverage(column_cover(x) * cy); cov != 0)
                blend_unchecked(at(x, y), c, cov);
        if(unsigned const cov = to_coverage(cy); cov == 255)
        {
            if(!solid.empty())
                std::memcpy(at(inner_a, y), solid.data(), solid.size());
        }
        else if(cov != 0)
        {
            std::uint8_t* p = at(inner_a, y);
            for(int x = inner_a; x < inner_b; ++x, p += 3)
                blend_unchecked(p, c, cov);
        }
        for(int x = inner_b; x < xb; ++x)
            if(unsigned const cov = to_coverage(column_cover(x) * cy); cov != 0)
                blend_unchecked(at(x, y), c, cov);
    }
}

void canvas::fill_polygon(std::span<point const> polygon, rgb c)
{
    if(polygon.size() < 3)
        return;
    double min_x = polygon[0].x, max_x = min_x, min_y = polygon[0].y, max_y = min_y;
    for(auto const& p : polygon)
    {
        min_x = std::min(min_x, p.x);
        max_x = std::max(max_x, p.x);
        min_y = std::min(min_y, p.y);
        max_y = std::max(max_y, p.y);
    }
    // Clamping x to the canvas keeps the winding of every pixel inside it.
    int const ox = std::clamp(static_cast<int>(std::floor(min_x)), 0, width_);
    int const oy = std::clamp(static_cast<int>(std::floor(min_y)), 0, height_);
    int const ex = std::clamp(static_cast<int>(std::ceil(max_x)), 0, width_);
    int const ey = std::clamp(static_cast<int>(std::ceil(max_y)), 0, height_);
    if(ox >= ex || oy >= ey)
        return;
    int const w = ex - ox;
    int const h = ey - oy;
    int const stride = w + 2;
    float* const acc = scratch();
    // The columns each row's edges touch: left of them the winding is 0, right of them it is 0 again.
    std::vector<int> lo(static_cast<std::size_t>(h), stride), hi(static_cast<std::size_t>(h), -1);

    auto line = [&](point p0, point p1) {
        p0 = {std::clamp(p0.x, static_cast<double>(ox), static_cast<double>(ex)) - ox, p0.y - oy};
        p1 = {std::clamp(p1.x, static_cast<double>(ox), static_cast<double>(ex)) - ox, p1.y - oy};
        if(std::fabs(p0.y - p1.y) < 1e-9)
            return;
        double dir = 1.0;
        if(p0.y > p1.y)
        {
            std::swap(p0, p1);
            dir = -1.0;
        }
        double const dxdy = (p1.x - p0.x) / (p1.y - p0.y);
        double x = p0.x;
        if(p0.y < 0)
            x -= p0.y * dxdy;
        int const y_first = std::max(0, static_cast<int>(std::floor(p0.y)));
        int const y_end = std::min(h, static_cast<int>(std::ceil(p1.y)));
        for(int y = y_first; y < y_end; ++y)
        {
            float* row = acc + static_cast<std::size_t>(y) * stride;
            double const dy = std::min(y + 1.0, p1.y) - std::max(static_cast<double>(y), p0.y);
            double const x_next = x + dxdy * dy;
            double const d = dy * dir;
            double const xl = std::min(x, x_next);
            double const xr = std::max(x, x_next);
            double const xl_floor = std::floor(xl);
            int const xli = static_cast<int>(xl_floor);
            double const xr_ceil = std::ceil(xr);
            int const xri = static_cast<int>(xr_ceil);
            lo[static_cast<std::size_t>(y)] = std::min(lo[static_cast<std::size_t>(y)], xli);
            hi[static_cast<std::size_t>(y)] = std::max(hi[static_cast<std::size_t>(y)], std::max(xri, xli + 1));
            if(xri <= xli + 1)
            {
                double const xmf = 0.5 * (x + x_next) - xl_floor;
                row[xli] += static_cast<float>(d - d * xmf);
                row[xli + 1] += static_cast<float>(d * xmf);
            }
            else
            {
                double const s = 1.0 / (xr - xl);
                double const xlf = xl - xl_floor;
                double const a0 = 0.5 * s * (1 - xlf) * (1 - xlf);
                double const xrf = xr - xr_ceil + 1;
                double const am = 0.5 * s * xrf * xrf;
                row[xli] += static_cast<float>(d * a0);
                if(xri == xli + 2)
                {
                    row[xli + 1] += static_cast<float>(d * (1 - a0 - am));
                }
                else
                {
                    double const a1 = s * (1.5 - xlf);
                    row[xli + 1] += static_cast<float>(d * (a1 - a0));
                    for(int xi = xli + 2; xi < xri - 1; ++xi)
                        row[xi] += static_cast<float>(d * s);
                    double const a2 = a1 + (xri - xli - 3) * s;
                    row[xri - 1] += static_cast<float>(d * (1 - a2 - am));
                }
                row[xri] += static_cast<float>(d * am);
            }
            x = x_next;
        }
    };
    for(std::size_t i = 0; i < polygon.size(); ++i)
        line(polygon[i], polygon[(i + 1) % polygon.size()]);

    std::vector<std::uint8_t> solid(static_cast<std::size_t>(w) * 3);
    for(std::size_t i = 0; i < solid.size(); i += 3)
    {
        solid[i] = c.r;
        solid[i + 1] = c.g;
        solid[i + 2] = c.b;
    }
    for(int y = 0; y < h; ++y)
    {
        int const x_end = hi[static_cast<std::size_t>(y)];
        float* row = acc + static_cast<std::size_t>(y) * stride;
        std::uint8_t* out = at(ox, y + oy);
        float sum = 0;
        for(int x = lo[static_cast<std::size_t>(y)]; x <= x_end; ++x)
        {
            sum += row[x];
            row[x] = 0; // the scratch buffer is left zeroed for the next shape
            if(x >= w)
                continue;
            unsigned const cov = to_coverage(std::fabs(sum));
            // Until the next edge the coverage stays the same: fill (or skip) the run at once.
            int run_end = x + 1;
            int const run_limit = std::min(w, x_end + 1);
            for(std::uint64_t pair = 0; run_end + 2 <= run_limit; run_end += 2)
            { // untouched cells are +0.0f
                std::memcpy(&pair, row + run_end, sizeof pair);
                if(pair != 0)
                    break;
            }
            while(run_end < run_limit && row[run_end] == 0)
                ++run_end;
            if(cov == 255)
            {
                std::memcpy(out + static_cast<std::ptrdiff_t>(x) * 3, solid.data(),
                    static_cast<std::size_t>(run_end - x) * 3);
            }
            else if(cov != 0)
            {
                for(int k = x; k < run_end; ++k)
                    blend_unchecked(out + static_cast<std::ptrdiff_t>(k) * 3, c, cov);
            }
            x = run_end - 1;
        }
    }
}

void canvas::stroke_polyline(std::span<point const> points, double width, rgb c)
{
    if(points.empty())
        return;
    double const r = width / 2;
    double const reach = r + 1.0;
    double min_x = points[0].x, max_x = min_x, min_y = points[0].y, max_y = min_y;
    for(auto const& p : points)
    {
        min_x = std::min(min_x, p.x);
        max_x = std::max(max_x, p.x);
        min_y = std::min(min_y, p.y);
        max_y = std::max(max_y, p.y);
    }
    int const ox = std::clamp(static_cast<int>(std::floor(min_x - reach)), 0, width_);
    int const oy = std::clamp(static_cast<int>(std::floor(min_y - reach)), 0, height_);
    int const ex = std::clamp(static_cast<int>(std::ceil(max_x + reach)), 0, width_);
    int const ey = std::clamp(static_cast<int>(std::ceil(max_y + reach)), 0, height_);
    if(ox >= ex || oy >= ey)
        return;
    int const w = ex - ox;
    int const h = ey - oy;
    // The union of the segments' capsules: the largest coverage wins, so joins are not darker.
    float* const mask = scratch();
    std::vector<int> lo_x(static_cast<std::size_t>(h), w), hi_x(static_cast<std::size_t>(h), 0);

    auto segment = [&](point a, point b) {
        double const dx = b.x - a.x;
        double const dy = b.y - a.y;
        double const len2 = dx * dx + dy * dy;
        int const y0 = std::max(oy, static_cast<int>(std::floor(std::min(a.y, b.y) - reach)));
        int const y1 = std::min(ey, static_cast<int>(std::ceil(std::max(a.y, b.y) + reach)));
        for(int y = y0; y < y1; ++y)
        {
            double const py = y + 0.5;
            double xl = std::min(a.x, b.x);
            double xr = std::max(a.x, b.x);
            if(std::fabs(dy) > 1e-9)
            {
                // Only the part of the segment within `reach` rows can be that close.
                double const lo = std::clamp(py - reach, std::min(a.y, b.y), std::max(a.y, b.y));
                double const hi = std::clamp(py + reach, std::min(a.y, b.y), std::max(a.y, b.y));
                double const xa = a.x + (lo - a.y) * dx / dy;
                double const xb = a.x + (hi - a.y) * dx / dy;
                xl = std::min(xa, xb);
                xr = std::max(xa, xb);
            }
            int const x0 = std::max(ox, static_cast<int>(std::floor(xl - reach)));
            int const x1 = std::min(ex, static_cast<int>(std::ceil(xr + reach)));
            if(x0 >= x1)
                continue;
            auto const ry = static_cast<std::size_t>(y - oy);
            lo_x[ry] = std::min(lo_x[ry], x0 - ox);
            hi_x[ry] = std::max(hi_x[ry], x1 - ox);
            float* row = mask + ry * static_cast<std::size_t>(w) - ox;
            for(int x = x0; x < x1; ++x)
            {
                double const px = x + 0.5;
                double t = len2 > 0 ? ((px - a.x) * dx + (py - a.y) * dy) / len2 : 0.0;
                t = std::clamp(t, 0.0, 1.0);
                double const qx = a.x + t * dx - px;
                double const qy = a.y + t * dy - py;
                double const cov = r + 0.5 - std::sqrt(qx * qx + qy * qy);
                if(cov > row[x])
                    row[x] = static_cast<float>(std::min(cov, 1.0));
            }
        }
    };
    if(points.size() == 1)
        segment(points[0], points[0]);
    for(std::size_t i = 1; i < points.size(); ++i)
        segment(points[i - 1], points[i]);

    for(int y = 0; y < h; ++y)
    {
        float* row = mask + static_cast<std::size_t>(y) * w;
        std::uint8_t* out = at(ox, y + oy);
        for(int x = lo_x[static_cast<std::size_t>(y)]; x < hi_x[static_cast<std::size_t>(y)]; ++x)
        {
            if(unsigned const cov = to_coverage(row[x]); cov != 0)
                blend_unchecked(out + static_cast<std::ptrdiff_t>(x) * 3, c, cov);
            row[x] = 0;
        }
    }
}

void canvas::fill_circle(point centre, double radius, rgb c)
{
    int const x0 = std::max(0, static_cast<int>(std::floor(centre.x - radius - 1)));
    int const y0 = std::max(0, static_cast<int>(std::floor(centre.y - radius - 1)));
    int const x1 = std::min(width_, static_cast<int>(std::ceil(centre.x + radius + 1)));
    int const y1 = std::min(height_, static_cast<int>(std::ceil(centre.y + radius + 1)));
    for(int y = y0; y < y1; ++y)
    {
        double const dy = y + 0.5 - centre.y;
        for(int x = x0; x < x1; ++x)
        {
            double const dx = x + 0.5 - centre.x;
            blend(x, y, c, to_coverage(radius + 0.5 - std::sqrt(dx * dx + dy * dy)));
        }
    }
}

void canvas::draw_mask(int x, int y, std::uint8_t const* mask, int mask_width, int mask_height, int pitch, rgb c)
{
    int const cx0 = std::max(0, -x);
    int const cy0 = std::max(0, -y);
    int const cx1 = std::min(mask_width, width_ - x);
    int const cy1 = std::min(mask_height, height_ - y);
    for(int my = cy0; my < cy1; ++my)
    {
        std::uint8_t const* src = mask + static_cast<std::ptrdiff_t>(my) * pitch;
        std::uint8_t* out = at(x + cx0, y + my);
        for(int mx = cx0; mx < cx1; ++mx, out += 3)
            if(unsigned const cov = src[mx]; cov != 0)
                blend_unchecked(out, c, cov);
    }
}

} // namespace portfolio::charts::detail
