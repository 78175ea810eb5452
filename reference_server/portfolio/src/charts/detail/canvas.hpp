// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// An opaque RGB canvas with anti-aliased drawing: every primitive computes a
// coverage in [0, 1] per pixel and blends its colour by it. Coordinates are in
// pixels, y down, and pixel (x, y) covers the square [x, x+1) × [y, y+1).
//
// The memory is already a PNG's scanlines: each row is a filter-type byte (0,
// "None") followed by R G B per pixel, so encoding deflates it without a copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace portfolio::charts::detail {

struct rgb
{
    std::uint8_t r = 0, g = 0, b = 0;
    friend bool operator==(rgb, rgb) = default;
};

constexpr rgb hex(std::uint32_t v) noexcept
{
    return {static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)};
}

/// `a` over `b` at opacity `alpha` (0..1): for lighter tints of a colour.
rgb mix(rgb a, rgb b, double alpha) noexcept;

/// Relative luminance in 0..1 (sRGB weights, no gamma): picks white or dark text on a fill.
double luminance(rgb c) noexcept;

struct point
{
    double x = 0, y = 0;
};

class canvas
{
public:
    canvas(int width, int height, rgb background);

    int width() const noexcept { return width_; }
    int height() const noexcept { return height_; }
    /// Bytes from one row to the next: 1 + 3 × width().
    std::size_t stride() const noexcept { return stride_; }
    /// The R G B bytes of row y.
    std::uint8_t const* row(int y) const noexcept { return pixels_.get() + static_cast<std::size_t>(y) * stride_ + 1; }
    /// All rows, each with its leading filter byte: the data of a PNG's IDAT before compression.
    std::span<std::uint8_t const> scanlines() const noexcept { return {pixels_.get(), stride_ * height_}; }
    rgb pixel(int x, int y) const noexcept;

    /// Blends `c` at (x, y) with coverage 0..255; outside the canvas is ignored.
    void blend(int x, int y, rgb c, unsigned coverage) noexcept
    {
        if(x < 0 || y < 0 || x >= width_ || y >= height_ || coverage == 0)
            return;
        blend_unchecked(at(x, y), c, coverage);
    }

    /// An axis-aligned rectangle with fractional edges (partial pixels are blended).
    void fill_rect(double x0, double y0, double x1, double y1, rgb c);

    /// A closed polygon, non-zero winding for simple shapes (exact area coverage,
    /// the accumulation rasterizer of font-rs). Overlapping sub-paths are not unioned.
    void fill_polygon(std::span<point const> polygon, rgb c);

    /// A polyline `width` pixels wide with round joins and caps.
    void stroke_polyline(std::span<point const> points, double width, rgb c);

    void fill_circle(point centre, double radius, rgb c);

    /// An 8-bit coverage bitmap (a glyph or a text run) with its top-left corner at (x, y).
    void draw_mask(int x, int y, std::uint8_t const* mask, int mask_width, int mask_height, int pitch, rgb c);

private:
    static void blend_unchecked(std::uint8_t* p, rgb c, unsigned coverage) noexcept
    {
        unsigned const inv = 255 - coverage;
        auto mix8 = [&](unsigned dst, unsigned src) {
            unsigned const t = dst * inv + src * coverage + 128;
            return static_cast<std::uint8_t>((t + (t >> 8)) >> 8); // t / 255, rounded
        };
        p[0] = mix8(p[0], c.r);
        p[1] = mix8(p[1], c.g);
        p[2] = mix8(p[2], c.b);
    }

    /// (width + 2) × height floats of this thread, all zero between drawing calls: each call clears
    /// what it used.
    float* scratch();

    std::uint8_t* at(int x, int y) noexcept
    {
        return pixels_.get() + static_cast<std::size_t>(y) * stride_ + 1 + static_cast<std::size_t>(x) * 3;
    }

    int width_;
    int height_;
    std::size_t stride_;
    std::unique_ptr<std::uint8_t[]> pixels_;
};

} // namespace portfolio::charts::detail
