// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio-fake-llm: a fake Anthropic / OpenAI endpoint on loopback, driven by
// scenario files, for demos, client tests and load tests (docs/guide/12-fake-llm.md).
//
//   agentio-fake-llm --scenarios DIR_OR_FILE [--host 127.0.0.1] [--port 0] [--api-key K]
//                    [--token-interval-ms N] [--threads N]
//
// Prints "listening on http://HOST:PORT" on stdout once it accepts
// connections, and serves until SIGINT or SIGTERM.

#include <agentio/testing/fake_llm.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <sys/resource.h>

#include <charconv>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

constexpr char const* usage = R"(agentio-fake-llm — a fake LLM API (Anthropic Messages and OpenAI Chat Completions)

Usage:
  agentio-fake-llm --scenarios DIR_OR_FILE [--host 127.0.0.1] [--port 0] [--api-key K]
                   [--token-interval-ms N] [--threads N]

  --scenarios          a scenario file, or a directory of *.json scenario files (docs/guide/12-fake-llm.md)
  --host, --port       where to listen (port 0: any free port; the line printed says which)
  --api-key            require this key (x-api-key or Authorization: Bearer); default: accept any
  --token-interval-ms  default delay between streamed pieces (default 0; scenarios may set their own)
  --threads            threads running the server (default 1)

Point a client at it: Anthropic base URL http://HOST:PORT, OpenAI base URL http://HOST:PORT/v1,
model = a scenario's name.
)";

struct usage_error
{
    std::string message;
};

template<class Int>
Int parse_number(std::string_view flag, std::string_view text, Int lo, Int hi)
{
    Int v{};
    auto const [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if(ec != std::errc() || ptr != text.data() + text.size() || v < lo || v > hi)
        throw usage_error{std::string(flag) + ": expected a number from " + std::to_string(lo) + " to " +
            std::to_string(hi) + ", got '" + std::string(text) + "'"};
    return v;
}

// Load tests open thousands of connections: take all the descriptors allowed.
void raise_descriptor_limit()
{
    rlimit rl{};
    if(::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max)
    {
        rl.rlim_cur = rl.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int run(std::span<char* const> args)
{
    std::string scenarios;
    std::string host = "127.0.0.1";
    unsigned short port = 0;
    unsigned threads = 1;
    agentio::testing::fake_llm_options options;
    options.max_recorded_requests = 0; // nobody reads them here
    for(std::size_t i = 0; i < args.size(); ++i)
    {
        std::string_view const flag = args[i];
        if(flag == "--help" || flag == "-h")
        {
            std::fputs(usage, stdout);
            return 0;
        }
        if(i + 1 >= args.size())
            throw usage_error{std::string(flag) + ": missing value"};
        std::string_view const value = args[++i];
        if(flag == "--scenarios")
            scenarios = value;
        else if(flag == "--host")
            host = value;
        else if(flag == "--port")
            port = parse_number<unsigned short>(flag, value, 0, 65535);
        else if(flag == "--api-key")
            options.api_key = value;
        else if(flag == "--token-interval-ms")
            options.token_interval = std::chrono::milliseconds(parse_number<unsigned>(flag, value, 0, 3'600'000));
        else if(flag == "--threads")
            threads = parse_number<unsigned>(flag, value, 1, 256);
        else
            throw usage_error{"unknown option '" + std::string(flag) + "'"};
    }
    if(scenarios.empty())
        throw usage_error{"--scenarios is required"};

    boost::system::error_code ec;
    auto const address = boost::asio::ip::make_address(host, ec);
    if(ec)
        throw usage_error{"--host: not an IP address: '" + host + "'"};

    raise_descriptor_limit();
    boost::asio::io_context ioc(static_cast<int>(threads));
    agentio::testing::fake_llm fake(ioc.get_executor(), options);
    std::size_t const loaded = fake.load_scenarios(scenarios);
    auto const ep = fake.start({address, port});
    if(!ep)
        throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(port) + ": " + ep.error().message());

    boost::asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code const& error, int) {
        if(error)
            return;
        fake.stop();
        ioc.stop(); // streams in progress end with the process
    });

    std::string url = fake.anthropic_base_url();
    if(!address.is_unspecified())
        url = "http://" + (address.is_v6() ? "[" + host + "]" : host) + ":" + std::to_string(ep->port());
    std::fprintf(stderr, "agentio-fake-llm: %zu scenarios from %s\n", loaded, scenarios.c_str());
    std::printf("listening on %s\n", url.c_str());
    std::fflush(stdout);

    agentio::http::run_threads(ioc, threads);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::span<char* const> args(argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0));
    try
    {
        return run(args);
    }
    catch(usage_error const& e)
    {
        std::fprintf(stderr, "agentio-fake-llm: %s\n\n%s", e.message.c_str(), usage);
        return 2;
    }
    catch(std::exception const& e)
    {
        std::fprintf(stderr, "agentio-fake-llm: error: %s\n", e.what());
        return 1;
    }
}
