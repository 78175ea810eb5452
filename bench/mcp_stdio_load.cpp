// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Load over MCP stdio: starts the server command with pipes, initializes, then
// keeps WINDOW `tools/call` requests in flight for SECONDS and reports calls/s
// and latency percentiles (the first second is warm-up and not counted). The
// same driver runs against agentio and the TypeScript SDK (bench/mcp_bench.sh).
//
//   agentio_mcp_stdio_load [--seconds S] [--window W] [--tool NAME] [--arguments JSON] -- CMD ARGS...
#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace asio = boost::asio;
namespace json = boost::json;
using clock_type = std::chrono::steady_clock;

namespace {

struct options
{
    double seconds = 10;
    std::size_t window = 32;
    std::string tool = "echo";
    std::string arguments = R"({"text":"hola"})";
    std::vector<char*> command;
};

struct result
{
    std::vector<double> latencies_us;
    std::size_t errors = 0;
    double measured_s = 0;
};

asio::awaitable<void> drive(asio::posix::stream_descriptor& in, asio::posix::stream_descriptor& out, options const& opt,
    result& r)
{
    std::string buffer;
    auto read_line = [&]() -> asio::awaitable<std::string> {
        auto const n = co_await asio::async_read_until(out, asio::dynamic_buffer(buffer), '\n', asio::use_awaitable);
        std::string line = buffer.substr(0, n - 1);
        buffer.erase(0, n);
        co_return line;
    };
    auto send = [&](std::string text) -> asio::awaitable<void> {
        co_await asio::async_write(in, asio::buffer(text), asio::use_awaitable);
    };

    co_await send(
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"load","version":"1"}}})"
        "\n");
    for(;;)
        if(json::parse(co_await read_line()).as_object().contains("id"))
            break;
    co_await send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                  "\n");

    std::string const params = R"(,"method":"tools/call","params":{"name":")" + opt.tool + R"(","arguments":)" +
        opt.arguments + "}}\n";
    std::unordered_map<std::int64_t, clock_type::time_point> sent;
    std::int64_t next_id = 1;
    auto request = [&](std::string& batch) {
        sent[next_id] = clock_type::now();
        batch += R"({"jsonrpc":"2.0","id":)" + std::to_string(next_id++) + params;
    };
    auto const began = clock_type::now();
    auto const warm = began + std::chrono::seconds(1);
    auto const end_time = warm +
        std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(opt.seconds));
    std::string batch;
    for(std::size_t i = 0; i < opt.window; ++i)
        request(batch);
    co_await send(std::move(batch));
    while(!sent.empty())
    {
        // Every answer read so far; their replacements go out in one write.
        co_await asio::async_read_until(out, asio::dynamic_buffer(buffer), '\n', asio::use_awaitable);
        auto const now = clock_type::now();
        std::string more;
        std::size_t start = 0;
        for(std::size_t end; (end = buffer.find('\n', start)) != std::string::npos; start = end + 1)
        {
            auto const message = json::parse(std::string_view(buffer).substr(start, end - start)).as_object();
            auto const* id = message.if_contains("id");
            if(!id || !id->is_int64())
                continue; // a notification
            auto const it = sent.find(id->as_int64());
            if(it == sent.end())
                continue;
            if(now >= warm && now < end_time)
            {
                r.latencies_us.push_back(std::chrono::duration<double, std::micro>(now - it->second).count());
                auto const* res = message.if_contains("result");
                if(!res || (res->as_object().contains("isError") && res->at("isError").as_bool()))
                    ++r.errors;
            }
            sent.erase(it);
            if(now < end_time)
                request(more);
        }
        buffer.erase(0, start);
        if(!more.empty())
            co_await send(std::move(more));
    }
    r.measured_s = opt.seconds;
}

} // namespace

int main(int argc, char** argv)
{
    options opt;
    for(int i = 1; i < argc; ++i)
    {
        auto const arg = std::string_view(argv[i]);
        if(arg == "--")
        {
            opt.command.assign(argv + i + 1, argv + argc);
            break;
        }
        if(i + 1 >= argc)
            break;
        if(arg == "--seconds")
            opt.seconds = std::atof(argv[++i]);
        else if(arg == "--window")
            opt.window = static_cast<std::size_t>(std::atoi(argv[++i]));
        else if(arg == "--tool")
            opt.tool = argv[++i];
        else if(arg == "--arguments")
            opt.arguments = argv[++i];
    }
    if(opt.command.empty())
    {
        std::fprintf(stderr,
            "usage: agentio_mcp_stdio_load [--seconds S] [--window W] [--tool T] [--arguments JSON] -- CMD...\n");
        return 2;
    }
    opt.command.push_back(nullptr);

    int to_child[2], from_child[2];
    if(::pipe(to_child) != 0 || ::pipe(from_child) != 0)
        return 1;
    pid_t const pid = ::fork();
    if(pid == 0)
    {
        ::dup2(to_child[0], STDIN_FILENO);
        ::dup2(from_child[1], STDOUT_FILENO);
        ::close(to_child[0]);
        ::close(to_child[1]);
        ::close(from_child[0]);
        ::close(from_child[1]);
        ::execvp(opt.command[0], opt.command.data());
        std::perror("execvp");
        ::_exit(127);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);

    asio::io_context ioc;
    asio::posix::stream_descriptor in(ioc, to_child[1]);
    asio::posix::stream_descriptor out(ioc, from_child[0]);
    result r;
    std::exception_ptr failure;
    asio::co_spawn(ioc, drive(in, out, opt, r), [&](std::exception_ptr e) { failure = e; });
    ioc.run();
    in.close(); // end of input: the server exits
    int status = 0;
    ::waitpid(pid, &status, 0);
    if(failure)
    {
        try
        {
            std::rethrow_exception(failure);
        }
        catch(std::exception const& e)
        {
            std::fprintf(stderr, "stdio load: %s\n", e.what());
            return 1;
        }
    }
    auto& l = r.latencies_us;
    std::sort(l.begin(), l.end());
    auto pct = [&](double p) {
        return l.empty() ? 0.0 : l[std::min(l.size() - 1, static_cast<std::size_t>(p * l.size()))] / 1000.0;
    };
    std::printf("calls %zu rps %.0f p50_ms %.3f p99_ms %.3f errors %zu\n", l.size(), l.size() / r.measured_s, pct(0.50),
        pct(0.99), r.errors);
    return r.errors == 0 ? 0 : 1;
}
