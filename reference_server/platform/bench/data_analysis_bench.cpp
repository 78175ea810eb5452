// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// data_analysis on an uploaded file of 100 000 rows (the mean of a decimal
// field per group, exact), beside the same question answered by Python's
// json and statistics without a sandbox, in the same run.
//
//   data_analysis_bench [rows] [runs]     (default 100000 rows, 5 runs)
#include "tools.hpp"

#include <agentio/detail/child_process.hpp>
#include <agentio/threads/sqlite_store.hpp>

#include "bench_support.hpp"
#include <boost/json.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

namespace asio = boost::asio;
namespace json = boost::json;
using clock_type = std::chrono::steady_clock;

int main(int argc, char** argv)
{
    std::size_t const rows = argc > 1 ? std::stoul(argv[1]) : 100000;
    int const runs = argc > 2 ? std::atoi(argv[2]) : 5;
    auto const dir = std::filesystem::temp_directory_path() / ("agentio-data-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "uploads");

    // The file: regions and decimal amounts, as a sales export has them.
    std::mt19937 random(42);
    std::string body = "[";
    char const* regions[] = {"north", "south", "east", "west", "centre"};
    for(std::size_t i = 0; i < rows; ++i)
    {
        char row[128];
        std::snprintf(row, sizeof row, "%s{\"region\": \"%s\", \"amount\": %u.%02u, \"units\": %u}", i ? ", " : "",
            regions[random() % 5], static_cast<unsigned>(random() % 10000), static_cast<unsigned>(random() % 100),
            static_cast<unsigned>(random() % 50));
        body += row;
    }
    body += "]";
    std::string const id = "file-benchmark000000000000000";
    std::ofstream(dir / "uploads" / id, std::ios::binary) << body;

    asio::io_context ioc;
    auto store = agentio::sqlite::thread_store::open(dir / "threads.db").value();
    agentio::chat_completions::files_api files(*store, {.folder = dir / "uploads"});
    agentio::threads::file_record record{.id = id,
        .filename = "sales.json",
        .purpose = "user_data",
        .media_type = "application/json",
        .bytes = body.size()};
    asio::co_spawn(ioc, store->save_file(record), asio::use_future);
    ioc.run();
    agentio::sandbox::runner runner(ioc.get_executor());
    platform::tool_resources resources;
    resources.sandbox = &runner;
    resources.files = &files;
    platform::data_analysis tool{{&resources}};

    std::vector<double> ours, peer;
    std::string answer;
    for(int i = 0; i < runs; ++i)
    {
        auto began = clock_type::now();
        agentio::tool_context ctx;
        ioc.restart();
        auto done = asio::co_spawn(ioc, tool({id, "mean", "amount", "region", {}}, ctx), asio::use_future);
        ioc.run();
        auto const r = done.get();
        ours.push_back(std::chrono::duration<double, std::milli>(clock_type::now() - began).count());
        if(r.is_error)
        {
            std::fprintf(stderr, "data_analysis failed\n");
            return 1;
        }
        answer = json::serialize(r.structured->at("groups").at(0));

        began = clock_type::now();
        agentio::detail::child_process python;
        auto pipes = python.start({"/usr/bin/python3",
            {"-I", "-c",
                "import collections, json, statistics, sys\n"
                "rows = json.load(open(sys.argv[1]))\n"
                "groups = collections.defaultdict(list)\n"
                "for r in rows: groups[r['region']].append(r['amount'])\n"
                "print({k: statistics.mean(v) for k, v in sorted(groups.items())})",
                (dir / "uploads" / id).string()},
            {}, -1});
        ::close(pipes.to_child);
        char buffer[4096];
        while(::read(pipes.from_child, buffer, sizeof buffer) > 0)
        {
        }
        ::close(pipes.from_child);
        int status = 0;
        ::waitpid(python.pid(), &status, 0);
        python.running();
        peer.push_back(std::chrono::duration<double, std::milli>(clock_type::now() - began).count());
    }
    std::printf("data_analysis, mean of amount by region over %zu rows (%.1f MB of JSON), %d runs, ms p50 / p99\n",
        rows, static_cast<double>(body.size()) / 1e6, runs);
    auto const o = bench::percentiles_of(ours), p = bench::percentiles_of(peer);
    std::printf("  data_analysis (sandboxed, exact decimals): %8.1f / %8.1f\n", o.median, o.p99);
    std::printf("  python3 json + statistics (no sandbox, floats): %8.1f / %8.1f\n", p.median, p.p99);
    std::printf("  first group: %s\n", answer.c_str());
    store.reset();
    std::filesystem::remove_all(dir);
    return 0;
}
