// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// PNG encoding of a canvas: libdeflate compresses the canvas's scanlines in
// place (they already carry PNG's filter byte, 0 = None, at the head of each
// row) and the chunks are written here: signature, IHDR, pHYs (the dpi, so that
// a word processor places the chart at its size in inches), IDAT, IEND, each
// chunk's CRC computed by lodepng (lodepng_chunk_generate_crc).
//
// Measured on the four bench charts (docs/apps/portfolio/charts.md, "PNG encoding"): libdeflate
// level 2 takes 6,7-7,8 ms a chart, files 1-15 % smaller than the hand-written
// deflate's that it replaced (1,1-2,4 ms: a difference no chat can show, its LLM
// and HTTP round trips take seconds); zlib level 1 is 0,2-0,9 ms faster with
// files 8-27 % larger, libdeflate level 6 0,6-1,9 ms slower for 3-5 % less.
//
// An indexed palette does not apply: anti-aliasing leaves 310 (bar) to 3.844
// (pie) distinct colours, and counting them costs more than it would save.
#pragma once

#include "charts/detail/canvas.hpp"

#include <vector>

namespace portfolio::charts::detail {

enum class png_encoder
{
    libdeflate,      // libdeflate at `level`, chunks written here (the default)
    lodepng_deflate, // lodepng::encode with its own deflate and the settings below
};

/// The knobs, for the benchmark and the tests.
struct png_tuning
{
    png_encoder encoder = png_encoder::libdeflate;
    int level = 2; // png_encoder::libdeflate: 0 (stored) .. 12
    // png_encoder::lodepng_deflate only (lodepng's defaults: 2048, 3, 128, true, minimum sum).
    unsigned windowsize = 2048;
    unsigned minmatch = 3;
    unsigned nicematch = 128;
    bool lazymatching = true;
    int filter = -1; // -1: lodepng's minimum-sum heuristic per row; 0..4: that filter on every row
};

/// An RGB PNG of `image`; `dpi` > 0 adds a pHYs chunk. Throws std::runtime_error if the encoder fails
/// or the level is out of range.
std::vector<unsigned char> encode_png(canvas const& image, int dpi = 0, png_tuning const& tuning = {});

} // namespace portfolio::charts::detail
