// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Native chart rendering: milliseconds per chart, render and PNG encoding apart,
// on the data the matplotlib yardstick of bench/chart_compare.sh draws:
// 15 units with their 2025 amounts (bar, pie), 5 units × 2024/2025/2026 at
// ×0.8/×1/×1.1 (line, stacked_bar), 10×6 in at 150 dpi = 1500×900 px.
//
//   cmake --build --preset release --target agentio_chart_bench
//   ./build/release/reference_server/portfolio/bench/agentio_chart_bench [--repeat 50] [--type bar] [--dpi 150] [--out DIR]
//       [--encoder libdeflate|lodepng] [--level 2] [--window 2048] [--nicematch 128] [--lazy 1] [--filter -1]
//
// bench/chart_compare.sh runs it next to matplotlib in the same run. One line per type:
//   bar: median 7.22 ms p90 7.40 ms (render 0.35, encode 6.87) PNG 69327 bytes
#include "sample_charts.hpp"
#include "charts/chart.hpp"
#include "charts/detail/png.hpp"
#include "charts/detail/render.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

using namespace portfolio::charts;
using clock_type = std::chrono::steady_clock;

namespace {

using portfolio::charts::bench::sample;

double ms_since(clock_type::time_point t)
{
    return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    auto const i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

[[noreturn]] void usage()
{
    std::fprintf(stderr,
        "usage: agentio_chart_bench [--repeat N] [--type bar|pie|line|stacked_bar] [--dpi D] [--out DIR]\n"
        "       [--encoder libdeflate|lodepng] [--level 0..12] [--window W] [--nicematch M] [--lazy 0|1]\n"
        "       [--filter -1..4]\n");
    std::exit(2);
}

} // namespace

int main(int argc, char** argv)
{
    int repeat = 50;
    render_options options;
    std::string only, out_dir;
    detail::png_tuning tuning;
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
        else if(arg == "--dpi")
            options.dpi = std::atoi(value);
        else if(arg == "--out")
            out_dir = value;
        else if(arg == "--encoder")
        {
            std::string_view const e = value;
            if(e == "libdeflate")
                tuning.encoder = detail::png_encoder::libdeflate;
            else if(e == "lodepng")
                tuning.encoder = detail::png_encoder::lodepng_deflate;
            else
                usage();
        }
        else if(arg == "--level")
            tuning.level = std::atoi(value);
        else if(arg == "--window")
            tuning.windowsize = static_cast<unsigned>(std::atoi(value));
        else if(arg == "--nicematch")
            tuning.nicematch = static_cast<unsigned>(std::atoi(value));
        else if(arg == "--lazy")
            tuning.lazymatching = std::atoi(value) != 0;
        else if(arg == "--filter")
            tuning.filter = std::atoi(value);
        else
            usage();
    }
    if(!out_dir.empty())
        std::filesystem::create_directories(out_dir);

    struct named
    {
        char const* name;
        chart_type type;
    };
    bool any = false;
    for(auto const& [name, type] : {named{"bar", chart_type::bar}, named{"pie", chart_type::pie},
            named{"line", chart_type::line}, named{"stacked_bar", chart_type::stacked_bar}})
    {
        if(!only.empty() && only != name)
            continue;
        any = true;
        chart_spec const spec = sample(type);
        std::vector<unsigned char> png = detail::encode_png(detail::render_canvas(spec, options), options.dpi, tuning);
        std::vector<double> total, render, encode;
        for(int r = 0; r < repeat; ++r)
        {
            auto const t0 = clock_type::now();
            auto const image = detail::render_canvas(spec, options);
            double const rendered = ms_since(t0);
            auto const t1 = clock_type::now();
            png = detail::encode_png(image, options.dpi, tuning);
            double const encoded = ms_since(t1);
            render.push_back(rendered);
            encode.push_back(encoded);
            total.push_back(rendered + encoded);
        }
        std::printf("%s: median %.2f ms p90 %.2f ms (render %.2f, encode %.2f) PNG %zu bytes\n", name,
            percentile(total, 0.5), percentile(total, 0.9), percentile(render, 0.5), percentile(encode, 0.5),
            png.size());
        if(!out_dir.empty())
        {
            std::ofstream file(std::filesystem::path(out_dir) / (std::string(name) + ".png"), std::ios::binary);
            file.write(reinterpret_cast<char const*>(png.data()), static_cast<std::streamsize>(png.size()));
        }
    }
    if(!any)
        usage();
}
