// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// PNG encoding of a canvas. Measured on the 1500×900 bar chart (docs/charts.md):
//
//   lodepng::encode, default settings ............................ ~80 ms
//   lodepng::encode, best tuning (window 256, nicematch 32, no lazy
//     matching, filter Up on every row, no auto_convert) .......... ~36 ms
//   lodepng::encode + custom_zlib = chart_zlib (deflate.hpp) ........ ~5,7 ms
//   chunks written here around chart_zlib (the default) ............ ~2,7 ms
//
// The last two differ by lodepng's filter pass, a byte-at-a-time copy of the
// whole image (~1,3 ms) plus its buffers. The canvas already holds PNG
// scanlines (filter byte "None" at the head of each row), so the default path
// deflates it in place and only frames it: signature, IHDR, pHYs (the dpi, so
// that a word processor places the chart at its size in inches), IDAT, IEND,
// each chunk's CRC computed by lodepng (lodepng_chunk_generate_crc).
//
// An indexed palette does not apply: anti-aliasing leaves 310 (bar) to 3.844
// (pie) distinct colours, and counting them costs more than it would save.
#pragma once

#include "charts/detail/canvas.hpp"

#include <vector>

namespace portfolio::charts::detail {

enum class png_encoder {
    chart,            // chart_zlib, chunks written here (the default)
    lodepng_custom,   // lodepng::encode with custom_zlib = chart_zlib
    lodepng_deflate,  // lodepng::encode with its own deflate and the settings below
};

/// The knobs, for the benchmark and the tests.
struct png_tuning
{
    png_encoder encoder = png_encoder::chart;
    // png_encoder::lodepng_deflate only (lodepng's defaults: 2048, 3, 128, true, minimum sum).
    unsigned windowsize = 2048;
    unsigned minmatch = 3;
    unsigned nicematch = 128;
    bool lazymatching = true;
    int filter = -1; // -1: lodepng's minimum-sum heuristic per row; 0..4: that filter on every row
};

/// An RGB PNG of `image`; `dpi` > 0 adds a pHYs chunk. Throws std::runtime_error if lodepng fails.
std::vector<unsigned char> encode_png(canvas const& image, int dpi = 0, png_tuning const& tuning = {});

} // namespace portfolio::charts::detail
