// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// A zlib stream (RFC 1950/1951) specialised for chart scanlines, plugged into
// lodepng as LodePNGCompressSettings::custom_zlib.
//
// lodepng's own deflate hashes every byte and searches chains: 35-80 ms for a
// 1500×900 RGB chart whatever the window or nice-match settings. A chart is
// flat colour, text and a few edges, so its redundancy is almost all "same as
// the pixel to the left" or "same as the row above". This encoder tries only
// those two distances at each position (greedy, matches compared 8 bytes at a
// time), then codes the symbols with dynamic Huffman tables per block: a few
// hundred MB/s on chart images, for files about the size lodepng makes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace portfolio::charts::detail {

/// `scanlines` is what a PNG's IDAT compresses: rows of `row_bytes` (filter byte included) of pixels
/// `pixel_bytes` wide. Returns the zlib stream (header, deflate blocks, Adler-32).
std::vector<std::uint8_t> chart_zlib(std::span<std::uint8_t const> scanlines, std::size_t pixel_bytes,
    std::size_t row_bytes);

std::uint32_t adler32(std::span<std::uint8_t const> data) noexcept;

} // namespace portfolio::charts::detail
