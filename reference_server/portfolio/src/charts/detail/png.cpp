// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "charts/detail/png.hpp"

#include "charts/detail/deflate.hpp"

#include <lodepng.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace portfolio::charts::detail {

namespace {

void check(unsigned error)
{
    if (error != 0)
        throw std::runtime_error(std::string("no se ha podido codificar el PNG: ") + lodepng_error_text(error));
}

void put_u32(std::vector<unsigned char>& out, std::uint32_t v)
{
    unsigned char const b[4] = {static_cast<unsigned char>(v >> 24), static_cast<unsigned char>(v >> 16),
        static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v)};
    out.insert(out.end(), b, b + 4);
}

/// Appends a chunk: length, type, data and the CRC that lodepng computes over type and data.
void put_chunk(std::vector<unsigned char>& out, char const (&type)[5], unsigned char const* data, std::size_t size)
{
    std::size_t const start = out.size();
    put_u32(out, static_cast<std::uint32_t>(size));
    out.insert(out.end(), type, type + 4);
    if (size != 0)
        out.insert(out.end(), data, data + size);
    out.insert(out.end(), 4, 0);
    lodepng_chunk_generate_crc(out.data() + start);
}

/// The rows without their filter bytes, for lodepng::encode.
std::vector<unsigned char> packed_rgb(canvas const& image)
{
    std::size_t const row_bytes = static_cast<std::size_t>(image.width()) * 3;
    std::vector<unsigned char> rgb(row_bytes * static_cast<std::size_t>(image.height()));
    for (int y = 0; y < image.height(); ++y)
        std::memcpy(rgb.data() + row_bytes * static_cast<std::size_t>(y), image.row(y), row_bytes);
    return rgb;
}

struct zlib_context
{
    std::size_t pixel_bytes;
    std::size_t row_bytes;
};

/// LodePNGCompressSettings::custom_zlib; lodepng releases *out with free().
unsigned chart_zlib_hook(unsigned char** out, std::size_t* out_size, unsigned char const* in, std::size_t in_size,
    LodePNGCompressSettings const* settings)
{
    auto const* ctx = static_cast<zlib_context const*>(settings->custom_context);
    try {
        auto const z = chart_zlib({in, in_size}, ctx->pixel_bytes, ctx->row_bytes);
        auto* buffer = static_cast<unsigned char*>(std::malloc(z.size()));
        if (buffer == nullptr)
            return 83; // lodepng's "memory allocation failed"
        std::memcpy(buffer, z.data(), z.size());
        *out = buffer;
        *out_size = z.size();
        return 0;
    } catch (...) {
        return 83;
    }
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
    zlib_context const ctx{3, image.stride()};
    if (tuning.encoder == png_encoder::lodepng_custom) {
        enc.filter_strategy = LFS_ZERO; // chart_zlib matches the row above itself
        enc.zlibsettings.custom_zlib = &chart_zlib_hook;
        enc.zlibsettings.custom_context = &ctx;
    } else {
        enc.filter_strategy = tuning.filter < 0 ? LFS_MINSUM : static_cast<LodePNGFilterStrategy>(tuning.filter);
        enc.zlibsettings.btype = 2;
        enc.zlibsettings.use_lz77 = 1;
        enc.zlibsettings.windowsize = tuning.windowsize;
        enc.zlibsettings.minmatch = tuning.minmatch;
        enc.zlibsettings.nicematch = tuning.nicematch;
        enc.zlibsettings.lazymatching = tuning.lazymatching ? 1 : 0;
    }
    std::vector<unsigned char> png;
    check(lodepng::encode(png, packed_rgb(image), static_cast<unsigned>(image.width()),
        static_cast<unsigned>(image.height()), state));
    return png;
}

} // namespace

std::vector<unsigned char> encode_png(canvas const& image, int dpi, png_tuning const& tuning)
{
    if (tuning.encoder != png_encoder::chart)
        return encode_with_lodepng(image, tuning);

    std::vector<unsigned char> const idat = chart_zlib(image.scanlines(), 3, image.stride());
    std::vector<unsigned char> png;
    png.reserve(idat.size() + 128);
    static constexpr unsigned char signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    png.insert(png.end(), signature, signature + 8);

    std::vector<unsigned char> header;
    put_u32(header, static_cast<std::uint32_t>(image.width()));
    put_u32(header, static_cast<std::uint32_t>(image.height()));
    header.insert(header.end(), {8, 2, 0, 0, 0}); // 8 bits, RGB, deflate, adaptive filters, no interlace
    put_chunk(png, "IHDR", header.data(), header.size());
    if (dpi > 0) {
        std::vector<unsigned char> phys;
        auto const per_metre = static_cast<std::uint32_t>(std::lround(dpi / 0.0254));
        put_u32(phys, per_metre);
        put_u32(phys, per_metre);
        phys.push_back(1); // unit: metre
        put_chunk(png, "pHYs", phys.data(), phys.size());
    }
    put_chunk(png, "IDAT", idat.data(), idat.size());
    put_chunk(png, "IEND", nullptr, 0);
    return png;
}

} // namespace portfolio::charts::detail
