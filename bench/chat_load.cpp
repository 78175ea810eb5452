// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Concurrent streams against running servers: N clients POST at once and
// read their event streams to the end. Reports the completed and failed
// streams, the time, the events received (SSE frames) and their rate, each
// stream's time to its first event and to its end (p50, p99), and the
// servers' memory (VmRSS sampled from /proc/PID/status while the streams
// are open; several servers, as replicas, are summed). Several ports share
// the clients in turn. `{n}` in the body is the stream's number (ids that
// must differ, as AG-UI's threadId and runId).
//
//   agentio_chat_load HOST PORT[,PORT...] N SERVER_PID[,SERVER_PID...]
//       [--path P] [--body JSON] [--done TEXT] [--error TEXT]
//
// By default an agentio-portfolio chat (POST /api/v1/agent/chat, ends at
// `event: done`). bench/chat_bench.sh runs it with the fake LLM pacing 20
// tokens/s; bench/platform_bench.sh points it at agentio-platform's
// /v1/chat/completions (ends at `data: [DONE]`).
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

long rss_kib(std::string const& pid)
{
    std::ifstream in("/proc/" + pid + "/status");
    std::string line;
    while(std::getline(in, line))
        if(line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

// The sum over comma-separated pids.
long rss_kib_of(std::string const& pids)
{
    long sum = 0;
    std::size_t begin = 0;
    while(begin <= pids.size())
    {
        auto const end = std::min(pids.find(',', begin), pids.size());
        if(end > begin)
            sum += rss_kib(pids.substr(begin, end - begin));
        begin = end + 1;
    }
    return sum;
}

} // namespace

int main(int argc, char** argv)
{
    if(argc < 5 || (argc - 5) % 2 != 0)
    {
        std::fprintf(stderr,
            "usage: agentio_chat_load HOST PORT[,PORT...] N SERVER_PID[,SERVER_PID...] [--path P] "
            "[--body JSON] [--done TEXT] [--error TEXT] [--header 'NAME: VALUE']...\n");
        return 2;
    }
    std::string const host = argv[1], ports = argv[2], pid = argv[4];
    int const n = std::stoi(argv[3]);
    std::string path = "/api/v1/agent/chat";
    std::string body = R"({"messages":[{"role":"user","content":"¿Cuántas iniciativas hay en ejecución?"}]})";
    std::string done_marker = "event: done", error_marker = "event: error";
    std::string headers; // more request header lines, each ending in CRLF
    for(int i = 5; i + 1 < argc; i += 2)
    {
        std::string_view const flag = argv[i];
        if(flag == "--path")
            path = argv[i + 1];
        else if(flag == "--body")
            body = argv[i + 1];
        else if(flag == "--done")
            done_marker = argv[i + 1];
        else if(flag == "--error")
            error_marker = argv[i + 1];
        else if(flag == "--header")
            headers.append(argv[i + 1]).append("\r\n");
        else
        {
            std::fprintf(stderr, "agentio_chat_load: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    auto request_of = [&](int number) {
        std::string b = body;
        for(auto at = b.find("{n}"); at != std::string::npos; at = b.find("{n}", at))
            b.replace(at, 3, std::to_string(number));
        return "POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n" + headers +
            "Content-Length: " + std::to_string(b.size()) + "\r\n\r\n" + b;
    };

    asio::io_context ioc;
    std::vector<tcp::endpoint> endpoints;
    for(std::size_t begin = 0; begin < ports.size();)
    {
        auto const end = std::min(ports.find(',', begin), ports.size());
        endpoints.emplace_back(asio::ip::make_address(host),
            static_cast<unsigned short>(std::stoi(ports.substr(begin, end - begin))));
        begin = end + 1;
    }
    int done = 0, failed = 0, open = 0, peak_open = 0;
    long long events = 0;                   // SSE frames received, all streams
    std::vector<double> first_ms, whole_ms; // per completed stream: to its first event, to its end
    long const rss_before = rss_kib_of(pid);
    long rss_peak = rss_before;
    auto const started = std::chrono::steady_clock::now();

    // Why streams failed: each distinct reason (its first 160 bytes) and how often.
    std::map<std::string, int> failures;
    auto note_failure = [&failures](std::string why) {
        if(why.size() > 160)
            why.resize(160);
        ++failures[why];
    };

    auto one = [&](tcp::endpoint ep, std::string request) -> asio::awaitable<void> {
        tcp::socket s(ioc);
        try
        {
            auto const asked = std::chrono::steady_clock::now();
            auto const since = [&asked] {
                return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - asked).count();
            };
            co_await s.async_connect(ep, asio::use_awaitable);
            co_await asio::async_write(s, asio::buffer(request), asio::use_awaitable);
            ++open;
            peak_open = std::max(peak_open, open);
            std::string got;
            char buf[4096];
            char last = 0; // the byte before this read: a frame's "\n\n" may straddle two reads
            double first = -1;
            for(;;)
            {
                auto const k = co_await s.async_read_some(asio::buffer(buf), asio::use_awaitable);
                for(std::size_t i = 0; i < k; ++i)
                {
                    if(buf[i] == '\n' && last == '\n')
                    {
                        ++events;
                        if(first < 0)
                            first = since();
                    }
                    last = buf[i];
                }
                got.append(buf, k);
                if(got.find(done_marker) != std::string::npos)
                {
                    ++done;
                    first_ms.push_back(first < 0 ? since() : first);
                    whole_ms.push_back(since());
                    break;
                }
                if(auto const at = got.find(error_marker); at != std::string::npos || got.size() > (1 << 20))
                {
                    ++failed;
                    note_failure(at == std::string::npos ? "more than 1 MiB without an end"
                                                         : got.substr(at, got.find('\n', at) - at));
                    break;
                }
                if(got.size() > 8192) // keep the tail only: the markers are short
                    got.erase(0, got.size() - 64);
            }
        }
        catch(std::exception const& e)
        {
            ++failed;
            note_failure(e.what());
        }
        --open;
    };
    for(int i = 0; i < n; ++i)
        asio::co_spawn(ioc, one(endpoints[static_cast<std::size_t>(i) % endpoints.size()], request_of(i)),
            asio::detached);

    // Sample the server's memory while streams run.
    asio::steady_timer sampler(ioc);
    std::function<void()> sample = [&] {
        rss_peak = std::max(rss_peak, rss_kib_of(pid));
        if(done + failed < n)
        {
            sampler.expires_after(std::chrono::milliseconds(100));
            sampler.async_wait([&](boost::system::error_code ec) {
                if(!ec)
                    sample();
            });
        }
    };
    sample();
    ioc.run();
    double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("streams %d: completed %d, failed %d, most open at once %d, %.2f s\n", n, done, failed, peak_open,
        seconds);
    auto percentile = [](std::vector<double> v, double p) {
        if(v.empty())
            return 0.0;
        std::sort(v.begin(), v.end());
        return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
    };
    std::printf("events %lld, %.0f per second; first event p50 %.2f ms, p99 %.2f ms; whole stream p50 %.2f ms, "
                "p99 %.2f ms\n",
        events, static_cast<double>(events) / seconds, percentile(first_ms, 0.5), percentile(first_ms, 0.99),
        percentile(whole_ms, 0.5), percentile(whole_ms, 0.99));
    for(auto const& [why, count] : failures)
        std::printf("  failed %d×: %s\n", count, why.c_str());
    std::printf("server RSS: %ld KiB before, %ld KiB peak, %.1f KiB per stream\n", rss_before, rss_peak,
        static_cast<double>(rss_peak - rss_before) / n);
    return failed == 0 ? 0 : 1;
}
