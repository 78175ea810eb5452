// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What the sandbox costs, measured beside the same interpreter run without it
// in the same process (posix_spawn, pipes, waitpid): start-up and end to end
// for print(1) and for a SymPy solve (p50, p99), calls a second with 8 in
// flight, and this process's memory while 32 sandboxes run.
//
//   agentio_sandbox_bench [runs]     (default 40 per measurement)
#include <agentio/detail/child_process.hpp>
#include <agentio/sandbox.hpp>

#include "bench_support.hpp"
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace sandbox = agentio::sandbox;
using clock_type = std::chrono::steady_clock;

namespace {

constexpr char const* print_one = "print(1)";
constexpr char const* sympy_solve = "import sympy\nx = sympy.symbols('x')\nprint(sympy.solve(x**2 - 5*x + 6, x))";

double ms_since(clock_type::time_point t)
{
    return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
}

// The same interpreter and flags, no sandbox: spawn, read its output to the end, reap.
double unsandboxed(std::string const& code)
{
    auto const began = clock_type::now();
    agentio::detail::child_process child;
    auto pipes = child.start({"/usr/bin/python3", {"-I", "-c", code}, {}, -1});
    ::close(pipes.to_child);
    char buffer[4096];
    std::string out;
    for(;;)
    {
        auto const n = ::read(pipes.from_child, buffer, sizeof buffer);
        if(n <= 0)
            break;
        out.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(pipes.from_child);
    int status = 0;
    ::waitpid(child.pid(), &status, 0); // its output ended: it is exiting
    child.running();
    if(out.empty())
        std::abort();
    return ms_since(began);
}

asio::awaitable<sandbox::python_result> sandboxed_run(sandbox::runner& r, std::string code)
{
    sandbox::python_request cell; // named: GCC 12 destroys a braced temporary in a co_await twice
    cell.code = std::move(code);
    co_return co_await sandbox::run_python(r, std::move(cell));
}

asio::awaitable<sandbox::result> raw_run(sandbox::runner& r, std::string code)
{
    sandbox::request run;
    run.program = "/usr/bin/python3";
    run.arguments = {"-I", "-c", std::move(code)};
    co_return co_await r.run(std::move(run));
}

asio::awaitable<sandbox::result> true_run(sandbox::runner& r, sandbox::landlock_by walled)
{
    sandbox::request run;
    run.program = "/usr/bin/true";
    run.landlock = walled;
    co_return co_await r.run(std::move(run));
}

// /usr/bin/true in a sandbox, walled by Landlock's launcher or not.
double sandboxed_true(asio::io_context& ioc, sandbox::runner& r, sandbox::landlock_by walled)
{
    auto const began = clock_type::now();
    ioc.restart();
    auto done = asio::co_spawn(ioc, true_run(r, walled), asio::use_future);
    ioc.run();
    if(!done.get().succeeded())
        std::abort();
    return ms_since(began);
}

// The same interpreter and command line in a sandbox, without run_python's driver.
double sandboxed_raw(asio::io_context& ioc, sandbox::runner& r, std::string const& code)
{
    auto const began = clock_type::now();
    ioc.restart();
    auto done = asio::co_spawn(ioc, raw_run(r, code), asio::use_future);
    ioc.run();
    if(!done.get().succeeded())
        std::abort();
    return ms_since(began);
}

double sandboxed(asio::io_context& ioc, sandbox::runner& r, std::string const& code)
{
    auto const began = clock_type::now();
    ioc.restart();
    auto done = asio::co_spawn(ioc, sandboxed_run(r, code), asio::use_future);
    ioc.run();
    auto const got = done.get();
    if(!got.run.succeeded())
        std::abort();
    return ms_since(began);
}

long rss_kib()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while(std::getline(status, line))
        if(line.starts_with("VmRSS:"))
            return std::atol(line.c_str() + 6);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    int const runs = argc > 1 ? std::atoi(argv[1]) : 40;
    asio::io_context ioc;
    sandbox::options one_at_a_time;
    one_at_a_time.max_running = 1;
    sandbox::runner runner(ioc.get_executor(), one_at_a_time);

    std::printf("sandbox bench: %d runs per measurement, ms (p50 / p99)\n", runs);
    {
        std::vector<double> open, walled;
        sandboxed_true(ioc, runner, sandbox::landlock_by::launcher);
        for(int i = 0; i < runs; ++i)
        {
            open.push_back(sandboxed_true(ioc, runner, sandbox::landlock_by::nobody));
            walled.push_back(sandboxed_true(ioc, runner, sandbox::landlock_by::launcher));
        }
        auto const o = bench::percentiles_of(open), w = bench::percentiles_of(walled);
        std::printf("  /usr/bin/true  no Landlock %6.1f / %6.1f; Landlock by the launcher (ABI %d) %6.1f / %6.1f "
                    "(%+.1f)\n",
            o.median, o.p99, runner.landlock_abi(), w.median, w.p99, w.median - o.median);
    }
    for(auto const& [label, code] : {std::pair{"print(1)", print_one}, std::pair{"sympy solve", sympy_solve}})
    {
        std::vector<double> bare, raw, boxed;
        unsandboxed(code); // warm the page cache for all three
        sandboxed_raw(ioc, runner, code);
        sandboxed(ioc, runner, code);
        for(int i = 0; i < runs; ++i)
        {
            // Alternating, so that the machine's drift touches all alike.
            bare.push_back(unsandboxed(code));
            raw.push_back(sandboxed_raw(ioc, runner, code));
            boxed.push_back(sandboxed(ioc, runner, code));
        }
        auto const b = bench::percentiles_of(bare), r = bench::percentiles_of(raw), s = bench::percentiles_of(boxed);
        std::printf("  %-12s python3 -c: unsandboxed %6.1f / %6.1f, sandboxed (launcher) %6.1f / %6.1f (%+.1f);"
                    " run_python (driver, Landlock) %6.1f / %6.1f (%+.1f)\n",
            label, b.median, b.p99, r.median, r.p99, r.median - b.median, s.median, s.p99, s.median - b.median);
    }

    // Throughput: 8 in flight.
    {
        sandbox::options eight;
        eight.max_running = 8;
        sandbox::runner parallel(ioc.get_executor(), eight);
        int const calls = runs * 4;
        ioc.restart();
        int done = 0;
        auto const began = clock_type::now();
        for(int i = 0; i < calls; ++i)
            asio::co_spawn(ioc, sandboxed_run(parallel, print_one), [&](std::exception_ptr e, sandbox::python_result) {
                if(e)
                    std::abort();
                ++done;
            });
        ioc.run();
        double const seconds = ms_since(began) / 1000;
        std::printf("  print(1), 8 in flight: %d calls in %.2f s = %.1f calls/s (%ld cores)\n", done, seconds,
            done / seconds, ::sysconf(_SC_NPROCESSORS_ONLN));
    }

    // Memory of the serving process while 32 sandboxes run (each sleeping a second).
    {
        sandbox::options many;
        many.max_running = 32;
        sandbox::runner wide(ioc.get_executor(), many);
        long const before = rss_kib();
        long peak = before;
        ioc.restart();
        int done = 0;
        for(int i = 0; i < 32; ++i)
            asio::co_spawn(ioc, sandboxed_run(wide, "import time\ntime.sleep(1)"),
                [&](std::exception_ptr e, sandbox::python_result) {
                    if(e)
                        std::abort();
                    ++done;
                });
        while(done < 32)
        {
            ioc.run_for(std::chrono::milliseconds(50));
            peak = std::max(peak, rss_kib());
        }
        std::printf("  32 sandboxes at once: this process's RSS %ld KiB before, %ld KiB at most while they ran "
                    "(+%ld KiB, %.1f KiB a sandbox)\n",
            before, peak, peak - before, static_cast<double>(peak - before) / 32);
    }
    return 0;
}
