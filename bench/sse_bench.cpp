// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// SSE parser and formatter throughput on the wire fixtures (plain chrono harness).
//
//   cmake --build --preset release --target agentio_sse_bench && ./build/release/bench/agentio_sse_bench
//
// Prints the median of 7 runs for each measurement.
#include <agentio/sse/format.hpp>
#include <agentio/sse/parser.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace sse = agentio::sse;
using clock_type = std::chrono::steady_clock;

namespace {

template<class F>
double median_seconds(F&& f)
{
    std::vector<double> runs;
    for(int i = 0; i < 7; ++i)
    {
        auto const t0 = clock_type::now();
        f();
        runs.push_back(std::chrono::duration<double>(clock_type::now() - t0).count());
    }
    std::sort(runs.begin(), runs.end());
    return runs[3];
}

std::size_t sink = 0; // keeps the optimizer honest

} // namespace

int main(int argc, char** argv)
{
    std::filesystem::path const dir = argc > 1 ? argv[1] : AGENTIO_WIRE_FIXTURES;
    std::string corpus;
    for(auto const& e : std::filesystem::directory_iterator(dir))
        if(e.path().extension() == ".sse")
        {
            std::ifstream in(e.path(), std::ios::binary);
            std::ostringstream ss;
            ss << in.rdbuf();
            corpus += ss.str();
        }
    // ~16 MiB of real provider streams.
    std::string input;
    while(input.size() < 16u << 20)
        input += corpus;
    double const mib = static_cast<double>(input.size()) / (1 << 20);

    auto parse_in_chunks = [&](std::size_t chunk) {
        return median_seconds([&] {
            sse::parser p;
            std::size_t events = 0;
            for(std::size_t at = 0; at < input.size(); at += chunk)
                p.feed(std::string_view(input).substr(at, chunk),
                    [&](sse::event const& e) { events += e.data.size(); });
            p.finish();
            sink += events;
        });
    };
    std::printf("input: %.1f MiB of the wire fixtures\n", mib);
    for(std::size_t chunk : {std::size_t(1) << 30, std::size_t(16384), std::size_t(1460), std::size_t(7)})
    {
        double const s = parse_in_chunks(chunk);
        std::printf("parse, %-12s chunks: %8.1f MiB/s\n",
            chunk >= (1u << 30) ? "one" : (std::to_string(chunk) + " B").c_str(), mib / s);
    }

    std::string const data = R"({"content":"Según los datos del portfolio, hay 832 iniciativas"})";
    constexpr int n = 2'000'000;
    double const s = median_seconds([&] {
        std::string out;
        out.reserve(1 << 20);
        for(int i = 0; i < n; ++i)
        {
            sse::append_event(out, {.type = "chunk", .data = data});
            if(out.size() > (1 << 20) - 256)
            {
                sink += out.size();
                out.clear();
            }
        }
        sink += out.size();
    });
    std::printf("format: %.1f M events/s (%zu-byte chunk events)\n", n / s / 1e6, data.size());
    return sink == 42 ? 1 : 0;
}
