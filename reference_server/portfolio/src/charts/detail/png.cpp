// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "charts/detail/png.hpp"

#include <libdeflate.h>
#include <lodepng.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace portfolio::charts::detail {

namespace {

void check(unsigned error)
{
    if(error != 0)
        throw std::runtime_error(std::string("no se ha podido codificar el PNG: ") + lodepng_error_text(error));
}

void store_u32(unsigned char* p, std::uint32_t v) noexcept
{
    p[0] = static_cast<unsigned char>(v >> 24);
    p[1] = static_cast<unsigned char>(v >> 16);
    p[2] = static_cast<unsigned char>(v >> 8);
    p[3] = static_cast<unsigned char>(v);
}

/// Writes a chunk at `p`: length, type, `size` bytes of data already there (p + 8), and the CRC that lodepng
/// computes over type and data. Returns the end of the chunk.
unsigned char* finish_chunk(unsigned char* p, char const (&type)[5], std::size_t size) noexcept
{
    store_u32(p, static_cast<std::uint32_t>(size));
    std::memcpy(p + 4, type, 4);
    lodepng_chunk_generate_crc(p);
    return p + 12 + size;
}

struct compressor_deleter
{
    void operator()(libdeflate_compressor* c) const noexcept { libdeflate_free_compressor(c); }
};

/// The rows without their filter bytes, for lodepng::encode.
std::vector<unsigned char> packed_rgb(canvas const& image)
{
    std::size_t const row_bytes = static_cast<std::size_t>(image.width()) * 3;
    std::vector<unsigned char> rgb(row_bytes * static_cast<std::size_t>(image.height()));
    for(int y = 0; y < image.height(); ++y)
        std::memcpy(rgb.data() + row_bytes * static_cast<std::size_t>(y), image.row(y), row_bytes);
    return rgb;
}

std::vector<unsigned char> encode_with_lodepng(canvas const& image, png_tuning const& tuning)
{
    lodepng::State state;
    LodePNGEncoderSettings& enc = state.encoder;
    enc.auto_convert = 0; // the image is RGB: spare lodepng counting its colours
    state.info_raw.colortype = LCT_RGB;
    state.info_raw.bitdepth = 8;
    state.info_png.color.colortype = LCT_RGB;
    state.info_png.color.bitdepth = 8;
    enc.filter_palette_zero = 0;
    enc.filter_strategy = tuning.filter < 0 ? LFS_MINSUM : static_cast<LodePNGFilterStrategy>(tuning.filter);
    enc.zlibsettings.btype = 2;
    enc.zlibsettings.use_lz77 = 1;
    enc.zlibsettings.windowsize = tuning.windowsize;
    enc.zlibsettings.minmatch = tuning.minmatch;
    enc.zlibsettings.nicematch = tuning.nicematch;
    enc.zlibsettings.lazymatching = tuning.lazymatching ? 1 : 0;
    std::vector<unsigned char> png;
    check(lodepng::encode(png, packed_rgb(image), static_cast<unsigned>(image.width()),
        static_cast<unsigned>(image.height()), state));
    return png;
}

} // namespace

std::vector<unsigned char> encode_png(canvas const& image, int dpi, png_tuning const& tuning)
{
    if(tuning.encoder == png_encoder::lodepng_deflate)
        return encode_with_lodepng(image, tuning);

    // A compressor per call: allocating one is microseconds, compressing a chart milliseconds.
    std::unique_ptr<libdeflate_compressor, compressor_deleter> const compressor(tuning.level >= 0 && tuning.level <= 12
            ? libdeflate_alloc_compressor(tuning.level)
            : nullptr);
    if(!compressor)
        throw std::runtime_error("no se ha podido codificar el PNG: libdeflate no acepta el nivel " +
            std::to_string(tuning.level));
    auto const scanlines = image.scanlines();
    std::size_t const bound = libdeflate_zlib_compress_bound(compressor.get(), scanlines.size());

    // signature, IHDR, pHYs, IDAT (compressed in place), IEND: only the bytes written are touched.
    static constexpr unsigned char signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    std::size_t const head = sizeof signature + (12 + 13) + (dpi > 0 ? 12 + 9 : 0) + 8;
    auto buffer = std::make_unique_for_overwrite<unsigned char[]>(head + bound + 4 + 12);
    unsigned char* p = buffer.get();
    std::memcpy(p, signature, sizeof signature);
    p += sizeof signature;

    store_u32(p + 8, static_cast<std::uint32_t>(image.width()));
    store_u32(p + 12, static_cast<std::uint32_t>(image.height()));
    unsigned char const format[5] = {8, 2, 0, 0, 0}; // 8 bits, RGB, deflate, adaptive filters, no interlace
    std::memcpy(p + 16, format, sizeof format);
    p = finish_chunk(p, "IHDR", 13);
    if(dpi > 0)
    {
        auto const per_metre = static_cast<std::uint32_t>(std::lround(dpi / 0.0254));
        store_u32(p + 8, per_metre);
        store_u32(p + 12, per_metre);
        p[16] = 1; // unit: metre
        p = finish_chunk(p, "pHYs", 9);
    }
    std::size_t const idat = libdeflate_zlib_compress(compressor.get(), scanlines.data(), scanlines.size(), p + 8,
        bound);
    if(idat == 0) // cannot happen with the bound, but libdeflate says so by returning 0
        throw std::runtime_error("no se ha podido codificar el PNG: libdeflate no ha podido comprimir la imagen");
    p = finish_chunk(p, "IDAT", idat);
    p = finish_chunk(p, "IEND", 0);
    return {buffer.get(), p};
}

} // namespace portfolio::charts::detail
