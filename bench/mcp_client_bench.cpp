// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio::mcp::client as a load generator: connects to a server (a child
// process on stdio, or Streamable HTTP), then keeps CONCURRENCY `tools/call`
// requests in flight for SECONDS after a warm-up, and prints calls/s and
// latency percentiles. Its twin with the official TypeScript SDK's Client is
// tests/mcp/js/client_bench.mjs (same options, same output), so
// bench/mcp_client_bench.sh compares the two clients against the same
// servers; bench/sqlite_mcp_bench.sh drives two SQLite MCP servers with it.
//
//   agentio_mcp_client_bench [--seconds S] [--warmup S] [--concurrency N]
//       [--tool NAME] [--arguments JSON|@FILE] [--mode handshake|automatic]
//       [--timeout-ms T] [--stderr PATH] [--once | --list-tools]
//       (--url URL | -- COMMAND ARGS...)
//
// Output of a load run, one line (CPU: this process's user + system time over
// the whole load, warm-up included, divided by every call made):
//   calls N rps R p50_ms A p99_ms B errors E cpu_us_per_call C protocol V
// --once makes one call and prints what became of it as JSON:
//   {"outcome":"ok|tool_error|rpc_error|timeout|closed|failed","ms":..,"code":..,"text":..}
// --list-tools prints the server's tool names, one a line.
#include <agentio/json_text.hpp>
#include <agentio/mcp/client.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <sys/resource.h>

namespace asio = boost::asio;
namespace json = boost::json;
namespace mcp = agentio::mcp;
using clock_type = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

struct options
{
    double seconds = 3;
    double warmup = 0.5;
    std::size_t concurrency = 1;
    std::string tool = "echo";
    std::string arguments = R"({"message":"hola"})";
    std::string url;
    std::vector<std::string> command;
    mcp::negotiation mode = mcp::negotiation::handshake;
    std::chrono::milliseconds timeout{30000};
    std::string stderr_log = "/dev/null";
    bool once = false;
    bool list_tools = false;
};

// What the workers share (one thread: no locks).
struct load_state
{
    clock_type::time_point warm, end;
    std::vector<double> latencies_us; // calls that completed inside [warm, end]
    std::size_t errors = 0;
    std::size_t completed = 0; // every call, warm-up included
    std::string first_error;
};

// CPU time of this process (every thread; not the server's child process).
double cpu_seconds()
{
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
        static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double ms_since(clock_type::time_point t0)
{
    return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

std::string shorten(std::string s, std::size_t n = 160)
{
    if(s.size() > n)
    {
        s.resize(n);
        // Not in the middle of a UTF-8 sequence.
        while(!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80)
            s.pop_back();
        if(!s.empty() && static_cast<unsigned char>(s.back()) >= 0xC0)
            s.pop_back();
        s += "…";
    }
    return s;
}

mcp::client make_client(asio::any_io_executor ex, options const& opt)
{
    std::shared_ptr<mcp::client_transport> transport;
    if(!opt.url.empty())
    {
        mcp::http_transport_options h;
        h.url = opt.url;
        transport = mcp::make_http_transport(ex, std::move(h));
    }
    else
    {
        mcp::process_options p;
        p.program = opt.command.front();
        p.arguments.assign(opt.command.begin() + 1, opt.command.end());
        p.stderr_log = opt.stderr_log;
        p.shutdown_grace = 1s;
        transport = mcp::make_stdio_transport(ex, std::move(p));
    }
    mcp::client_options o;
    o.name = "agentio_mcp_client_bench";
    o.mode = opt.mode;
    o.request_timeout = opt.timeout;
    return mcp::client(std::move(transport), std::move(o));
}

// Calls one after another until the end; a call that completes inside
// [warm, end] counts, with its latency from its own start.
asio::awaitable<void> timed_worker(mcp::client c, options const& opt, json::value const& arguments, load_state& st)
{
    while(clock_type::now() < st.end)
    {
        auto const t0 = clock_type::now();
        bool ok = true;
        std::string why;
        try
        {
            agentio::tool_result r = co_await c.call_tool(opt.tool, arguments);
            ok = !r.is_error;
            if(!ok)
                why = r.joined_text();
        }
        catch(mcp::client_error const& e)
        {
            ok = false;
            why = e.what();
        }
        auto const done = clock_type::now();
        ++st.completed;
        if(!ok && st.first_error.empty())
            st.first_error = shorten(why);
        if(done < st.warm || done > st.end)
            continue;
        if(!ok)
            ++st.errors;
        st.latencies_us.push_back(std::chrono::duration<double, std::micro>(done - t0).count());
    }
}

asio::awaitable<int> load(mcp::client c, options const& opt, json::value const& arguments, std::string protocol)
{
    auto const ex = co_await asio::this_coro::executor;
    load_state st;
    auto const began = clock_type::now();
    st.warm = began + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(opt.warmup));
    st.end = st.warm + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(opt.seconds));
    asio::steady_timer all_done(ex, clock_type::time_point::max());
    std::size_t running = opt.concurrency;
    std::exception_ptr failure;
    double const cpu_before = cpu_seconds();
    for(std::size_t i = 0; i < opt.concurrency; ++i)
        asio::co_spawn(ex, timed_worker(c, opt, arguments, st), [&](std::exception_ptr e) {
            if(e && !failure)
                failure = e;
            if(--running == 0)
                all_done.cancel();
        });
    co_await all_done.async_wait(asio::as_tuple(asio::use_awaitable));
    double const cpu_us_per_call = (cpu_seconds() - cpu_before) * 1e6 /
        static_cast<double>(std::max<std::size_t>(st.completed, 1));
    if(failure)
        std::rethrow_exception(failure);
    auto& l = st.latencies_us;
    std::sort(l.begin(), l.end());
    auto pct = [&](double p) {
        return l.empty()
            ? 0.0
            : l[std::min(l.size() - 1, static_cast<std::size_t>(p * static_cast<double>(l.size())))] / 1000.0;
    };
    std::printf("calls %zu rps %.0f p50_ms %.3f p99_ms %.3f errors %zu cpu_us_per_call %.1f protocol %s\n", l.size(),
        static_cast<double>(l.size()) / opt.seconds, pct(0.50), pct(0.99), st.errors, cpu_us_per_call,
        protocol.c_str());
    if(st.errors != 0)
        std::fprintf(stderr, "agentio_mcp_client_bench: %zu failed calls; the first: %s\n", st.errors,
            st.first_error.c_str());
    co_return st.errors == 0 ? 0 : 1;
}

// One call, and what became of it.
asio::awaitable<int> once(mcp::client c, options const& opt, json::value const& arguments)
{
    json::object out;
    auto const t0 = clock_type::now();
    try
    {
        agentio::tool_result r = co_await c.call_tool(opt.tool, arguments);
        out["outcome"] = r.is_error ? "tool_error" : "ok";
        std::string code;
        if(r.structured && r.structured->is_object())
            if(auto const* e = r.structured->get_object().if_contains("error_code"); e && e->is_string())
                code = e->get_string();
        out["code"] = code;
        out["text"] = shorten(r.joined_text());
    }
    catch(mcp::client_error const& e)
    {
        auto const code = e.code();
        out["outcome"] = code == mcp::client_errc::server_error ? "rpc_error"
            : code == mcp::client_errc::timeout                 ? "timeout"
            : code == mcp::client_errc::closed                  ? "closed"
                                                                : "failed";
        out["code"] = e.rpc_code();
        out["text"] = shorten(e.what());
    }
    out["ms"] = std::round(ms_since(t0) * 10) / 10;
    std::printf("%s\n", agentio::to_json_text(out).c_str());
    co_return 0;
}

asio::awaitable<int> run(options const& opt)
{
    auto const ex = co_await asio::this_coro::executor;
    json::value const arguments = json::parse(opt.arguments);
    mcp::client c = make_client(ex, opt);
    mcp::server_description const server = co_await c.connect();
    int rc = 0;
    if(opt.list_tools)
    {
        std::vector<mcp::tool_info> const tools = co_await c.list_tools();
        for(auto const& t : tools)
            std::printf("%s\n", t.name.c_str());
    }
    else if(opt.once)
        rc = co_await once(c, opt, arguments);
    else
        rc = co_await load(c, opt, arguments, server.protocol_version);
    try
    {
        co_await c.close();
    }
    catch(std::exception const&)
    {
    }
    co_return rc;
}

std::string read_file(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    if(!in)
        throw std::runtime_error("cannot read " + path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

int main(int argc, char** argv)
{
    options opt;
    try
    {
        for(int i = 1; i < argc; ++i)
        {
            std::string_view const arg = argv[i];
            if(arg == "--")
            {
                opt.command.assign(argv + i + 1, argv + argc);
                break;
            }
            if(arg == "--once")
            {
                opt.once = true;
                continue;
            }
            if(arg == "--list-tools")
            {
                opt.list_tools = true;
                continue;
            }
            if(i + 1 >= argc)
                throw std::invalid_argument(std::string(arg) + " needs a value");
            std::string const value = argv[++i];
            if(arg == "--seconds")
                opt.seconds = std::stod(value);
            else if(arg == "--warmup")
                opt.warmup = std::stod(value);
            else if(arg == "--concurrency")
                opt.concurrency = std::max<std::size_t>(1, std::stoul(value));
            else if(arg == "--tool")
                opt.tool = value;
            else if(arg == "--arguments")
                opt.arguments = value.starts_with('@') ? read_file(value.substr(1)) : value;
            else if(arg == "--mode")
            {
                if(value == "handshake")
                    opt.mode = mcp::negotiation::handshake;
                else if(value == "automatic")
                    opt.mode = mcp::negotiation::automatic;
                else
                    throw std::invalid_argument("--mode: handshake or automatic");
            }
            else if(arg == "--timeout-ms")
                opt.timeout = std::chrono::milliseconds(std::stol(value));
            else if(arg == "--stderr")
                opt.stderr_log = value;
            else if(arg == "--url")
                opt.url = value;
            else
                throw std::invalid_argument("unknown option " + std::string(arg));
        }
        if(opt.url.empty() == opt.command.empty())
            throw std::invalid_argument("give either --url URL or -- COMMAND ARGS...");
    }
    catch(std::exception const& e)
    {
        std::fprintf(stderr,
            "agentio_mcp_client_bench: %s\nusage: agentio_mcp_client_bench [--seconds S] [--warmup S] "
            "[--concurrency N] [--tool NAME] [--arguments JSON|@FILE] [--mode handshake|automatic] [--timeout-ms T] "
            "[--stderr PATH] [--once | --list-tools] (--url URL | -- COMMAND ARGS...)\n",
            e.what());
        return 2;
    }

    // One thread, as node has one: the client and its transport on it.
    asio::io_context ioc(1);
    int rc = 1;
    std::exception_ptr failure;
    asio::co_spawn(ioc, run(opt), [&](std::exception_ptr e, int r) {
        failure = e;
        rc = r;
    });
    ioc.run();
    if(failure)
    {
        try
        {
            std::rethrow_exception(failure);
        }
        catch(std::exception const& e)
        {
            std::fprintf(stderr, "agentio_mcp_client_bench: %s\n", e.what());
            return 1;
        }
    }
    return rc;
}
