// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Text with FreeType: UTF-8 in, anti-aliased glyphs blended onto a canvas.
// Each thread has its own FreeType library, faces, sizes and caches (FreeType
// objects must not be shared between threads), so rendering needs no lock.
//
// Pen positions are unhinted (linear advances plus kerning, in fractions of a
// pixel); glyphs are rendered at 4 sub-pixel phases per axis and cached, with
// light (vertical-only) hinting for horizontal text. Rotated text is rendered
// rotated by FreeType itself (FT_Set_Transform), not by resampling a bitmap.
#pragma once

#include "charts/detail/canvas.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace portfolio::charts::detail {

enum class font_weight
{
    regular,
    bold
};

/// Which line of the text the anchor's y refers to.
enum class v_anchor
{
    baseline,
    top,
    middle,
    bottom
};

struct text_extent
{
    double width = 0;      // advance width in pixels
    double ascent = 0;     // above the baseline (the font's ascender)
    double descent = 0;    // below the baseline, positive
    double cap_height = 0; // height of capitals and digits: "middle" centres on it
    double height() const noexcept { return ascent + descent; }
};

class font_set
{
public:
    /// This thread's fonts from `font_dir` (DejaVuSans.ttf, DejaVuSans-Bold.ttf), loaded on first use.
    /// Throws std::runtime_error naming the file when a font cannot be loaded.
    static font_set& for_thread(std::string const& font_dir);

    text_extent measure(std::string_view utf8, font_weight weight, double size_px);

    /// Draws `utf8` so that the point at `h_align` of its width (0 left, 0.5 centre, 1 right) and at
    /// `v` lands on `anchor`, rotated `angle_deg` degrees counter-clockwise about it (90: reads upwards).
    void draw(canvas& target, std::string_view utf8, font_weight weight, double size_px, rgb colour, point anchor,
        double h_align, v_anchor v, int angle_deg = 0);

    /// `utf8` itself when it fits in `max_width` pixels, else its longest prefix that fits followed by "…".
    std::string ellipsize(std::string_view utf8, font_weight weight, double size_px, double max_width);

    font_set(font_set const&) = delete;
    font_set& operator=(font_set const&) = delete;
    ~font_set();

private:
    struct impl;
    explicit font_set(std::string const& font_dir);
    std::unique_ptr<impl> impl_;
};

} // namespace portfolio::charts::detail
