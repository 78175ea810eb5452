// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// PNG encoding of the four bench charts by each deflate on the same pixels:
// encode_png (libdeflate level 2, what the server writes; until 2026-11-25 a
// hand-written deflate, measured by this program at commit 12343a3), zlib and
// libdeflate (Debian's zlib1g-dev and libdeflate-dev). Each chart is rendered
// once (chart_bench's data, 1500×900 at 150 dpi); then every encoder turns the
// same canvas into a whole PNG file (signature, IHDR, pHYs, IDAT, IEND) `repeat`
// times. Every output is decoded with lodepng and compared with the canvas's
// pixels before anything is timed; a mismatch exits 1.
//
//   cmake --build build/release --target agentio_png_encoder_bench
//   ./build/release/reference_server/portfolio/bench/agentio_png_encoder_bench [--repeat 200] [--type bar]
//
// Rows: each library at the settings named, filter None on every scanline
// (what the canvas holds and what encode_png writes) unless the row says Up,
// in which case the time includes the filter pass over a copy.
// Prints a Markdown table: median and p90 ms per encode, PNG bytes.
#include "sample_charts.hpp"
#include "charts/chart.hpp"
#include "charts/detail/png.hpp"
#include "charts/detail/render.hpp"

#include <libdeflate.h>
#include <lodepng.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

using namespace portfolio::charts;
using clock_type = std::chrono::steady_clock;
using bytes = std::vector<unsigned char>;

namespace {

using portfolio::charts::bench::sample;

void store_u32(unsigned char* p, std::uint32_t v)
{
    p[0] = static_cast<unsigned char>(v >> 24);
    p[1] = static_cast<unsigned char>(v >> 16);
    p[2] = static_cast<unsigned char>(v >> 8);
    p[3] = static_cast<unsigned char>(v);
}

/// Appends a chunk: length, type, data and the CRC that lodepng computes over type and data.
void put_chunk(bytes& out, char const (&type)[5], unsigned char const* data, std::size_t size)
{
    std::size_t const start = out.size();
    out.resize(start + 12 + size);
    store_u32(out.data() + start, static_cast<std::uint32_t>(size));
    std::memcpy(out.data() + start + 4, type, 4);
    if(size != 0)
        std::memcpy(out.data() + start + 8, data, size);
    lodepng_chunk_generate_crc(out.data() + start);
}

/// The same framing as encode_png: signature, IHDR (RGB 8), pHYs, IDAT, IEND.
bytes frame(detail::canvas const& image, int dpi, unsigned char const* idat, std::size_t idat_size)
{
    bytes png{137, 80, 78, 71, 13, 10, 26, 10};
    png.reserve(idat_size + 128);
    unsigned char header[13] = {0, 0, 0, 0, 0, 0, 0, 0, 8, 2, 0, 0, 0}; // 8 bits, RGB, no interlace
    store_u32(header, static_cast<std::uint32_t>(image.width()));
    store_u32(header + 4, static_cast<std::uint32_t>(image.height()));
    put_chunk(png, "IHDR", header, sizeof header);
    unsigned char phys[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1}; // unit: metre
    auto const per_metre = static_cast<std::uint32_t>(std::lround(dpi / 0.0254));
    store_u32(phys, per_metre);
    store_u32(phys + 4, per_metre);
    put_chunk(png, "pHYs", phys, sizeof phys);
    put_chunk(png, "IDAT", idat, idat_size);
    put_chunk(png, "IEND", nullptr, 0);
    return png;
}

enum class filter
{
    none,
    up
};

/// The scanlines to deflate: the canvas's own memory for None, else a copy with filter Up in `buffer`.
std::span<std::uint8_t const> filtered(detail::canvas const& image, filter f, std::vector<std::uint8_t>& buffer)
{
    auto const in = image.scanlines();
    if(f == filter::none)
        return in;
    std::size_t const stride = image.stride();
    buffer.resize(in.size());
    for(int y = 0; y < image.height(); ++y)
    {
        std::uint8_t const* src = in.data() + static_cast<std::size_t>(y) * stride;
        std::uint8_t* dst = buffer.data() + static_cast<std::size_t>(y) * stride;
        dst[0] = 2;
        if(y == 0)
            std::memcpy(dst + 1, src + 1, stride - 1);
        else
            for(std::size_t i = 1; i < stride; ++i)
                dst[i] = static_cast<std::uint8_t>(src[i] - src[i - stride]);
    }
    return buffer;
}

/// One zlib stream (level, strategy), reset rather than re-initialised between calls, as a server would keep it.
class zlib_encoder
{
public:
    zlib_encoder(int level, int strategy)
    {
        if(deflateInit2(&z_, level, Z_DEFLATED, 15, 8, strategy) != Z_OK)
            throw std::runtime_error("deflateInit2");
    }
    zlib_encoder(zlib_encoder const&) = delete;
    zlib_encoder& operator=(zlib_encoder const&) = delete;
    ~zlib_encoder() { deflateEnd(&z_); }

    bytes operator()(std::span<std::uint8_t const> in)
    {
        deflateReset(&z_);
        std::size_t const bound = deflateBound(&z_, static_cast<uLong>(in.size()));
        auto const out = std::make_unique_for_overwrite<unsigned char[]>(bound); // not 4 MB of zeros
        z_.next_in = const_cast<Bytef*>(in.data());
        z_.avail_in = static_cast<uInt>(in.size());
        z_.next_out = out.get();
        z_.avail_out = static_cast<uInt>(bound);
        if(deflate(&z_, Z_FINISH) != Z_STREAM_END)
            throw std::runtime_error("deflate");
        return bytes(out.get(), out.get() + z_.total_out);
    }

private:
    z_stream z_{};
};

/// One libdeflate compressor at `level`, kept between calls.
class libdeflate_encoder
{
public:
    explicit libdeflate_encoder(int level) : c_(libdeflate_alloc_compressor(level))
    {
        if(c_ == nullptr)
            throw std::runtime_error("libdeflate_alloc_compressor");
    }
    libdeflate_encoder(libdeflate_encoder const&) = delete;
    libdeflate_encoder& operator=(libdeflate_encoder const&) = delete;
    ~libdeflate_encoder() { libdeflate_free_compressor(c_); }

    bytes operator()(std::span<std::uint8_t const> in)
    {
        std::size_t const bound = libdeflate_zlib_compress_bound(c_, in.size());
        auto const out = std::make_unique_for_overwrite<unsigned char[]>(bound);
        std::size_t const n = libdeflate_zlib_compress(c_, in.data(), in.size(), out.get(), bound);
        if(n == 0)
            throw std::runtime_error("libdeflate_zlib_compress");
        return bytes(out.get(), out.get() + n);
    }

private:
    libdeflate_compressor* c_;
};

struct row
{
    std::string name;
    std::function<bytes(detail::canvas const&, int)> encode;
};

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    auto const i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

[[noreturn]] void usage()
{
    std::fprintf(stderr, "usage: agentio_png_encoder_bench [--repeat N] [--type bar|pie|line|stacked_bar]\n");
    std::exit(2);
}

} // namespace

int main(int argc, char** argv)
{
    int repeat = 200;
    std::string only;
    for(int i = 1; i < argc; ++i)
    {
        std::string_view const arg = argv[i];
        if(i + 1 >= argc)
            usage();
        char const* value = argv[++i];
        if(arg == "--repeat")
            repeat = std::max(1, std::atoi(value));
        else if(arg == "--type")
            only = value;
        else
            usage();
    }

    zlib_encoder zlib_rle(1, Z_RLE), zlib_fast(1, Z_DEFAULT_STRATEGY), zlib_rle_up(1, Z_RLE);
    libdeflate_encoder libdeflate1(1), libdeflate2(2), libdeflate6(6), libdeflate1_up(1);
    std::vector<std::uint8_t> scratch;
    auto via = [&](auto& encoder, filter f) {
        return [&encoder, f, &scratch](detail::canvas const& image, int dpi) {
            bytes const z = encoder(filtered(image, f, scratch));
            return frame(image, dpi, z.data(), z.size());
        };
    };
    std::vector<row> const rows{
        {"`encode_png` (libdeflate level 2)",
            [](detail::canvas const& image, int dpi) { return detail::encode_png(image, dpi); }},
        {"zlib level 1, `Z_RLE`", via(zlib_rle, filter::none)},
        {"libdeflate level 1", via(libdeflate1, filter::none)},
        {"zlib level 1, default strategy", via(zlib_fast, filter::none)},
        {"libdeflate level 2", via(libdeflate2, filter::none)},
        {"libdeflate level 6", via(libdeflate6, filter::none)},
        {"zlib level 1, `Z_RLE`, filter Up", via(zlib_rle_up, filter::up)},
        {"libdeflate level 1, filter Up", via(libdeflate1_up, filter::up)},
    };

    struct named
    {
        char const* name;
        chart_type type;
    };
    render_options const options;
    std::printf("| chart | encoder | median ms | p90 ms | PNG bytes |\n|---|---|---:|---:|---:|\n");
    bool any = false, ok = true;
    for(auto const& [name, type] : {named{"bar", chart_type::bar}, named{"pie", chart_type::pie},
            named{"line", chart_type::line}, named{"stacked_bar", chart_type::stacked_bar}})
    {
        if(!only.empty() && only != name)
            continue;
        any = true;
        detail::canvas const image = detail::render_canvas(sample(type), options);
        for(auto const& r : rows)
        {
            bytes png = r.encode(image, options.dpi);
            // Same pixels as the canvas, through lodepng's decoder.
            std::vector<unsigned char> rgb;
            unsigned w = 0, h = 0;
            unsigned const error = lodepng::decode(rgb, w, h, png, LCT_RGB, 8);
            bool same = error == 0 && w == static_cast<unsigned>(image.width()) &&
                h == static_cast<unsigned>(image.height());
            std::size_t const row_bytes = static_cast<std::size_t>(image.width()) * 3;
            for(int y = 0; same && y < image.height(); ++y)
                same = std::memcmp(rgb.data() + row_bytes * static_cast<std::size_t>(y), image.row(y), row_bytes) == 0;
            if(!same)
            {
                std::fprintf(stderr, "%s, %s: the PNG does not decode to the canvas (lodepng: %s)\n", name,
                    r.name.c_str(), error != 0 ? lodepng_error_text(error) : "different pixels");
                ok = false;
                continue;
            }
            std::vector<double> ms;
            ms.reserve(static_cast<std::size_t>(repeat));
            for(int i = 0; i < repeat; ++i)
            {
                auto const t0 = clock_type::now();
                png = r.encode(image, options.dpi);
                ms.push_back(std::chrono::duration<double, std::milli>(clock_type::now() - t0).count());
            }
            std::printf("| %s | %s | %.2f | %.2f | %zu |\n", name, r.name.c_str(), percentile(ms, 0.5),
                percentile(ms, 0.9), png.size());
            std::fflush(stdout);
        }
    }
    if(!any)
        usage();
    return ok ? 0 : 1;
}
