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

#include <agentio/app.hpp>
#include <agentio/testing/fake_llm.hpp>

#include <boost/asio/io_context.hpp>

#include <sys/resource.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

constexpr char const* about = R"(A fake LLM API (Anthropic Messages and OpenAI Chat Completions). Point a client at it:
Anthropic base URL http://HOST:PORT, OpenAI base URL http://HOST:PORT/v1, model = a scenario's name.)";

void raise_descriptor_limit()
{
    rlimit rl{};
    if(::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max)
    {
        rl.rlim_cur = rl.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &rl);
    }
}

struct values
{
    std::string scenarios;
    std::string host = "127.0.0.1";
    unsigned short port = 0;
    unsigned threads = 1;
    agentio::testing::fake_llm_options options;
};

int run(values& v)
{
    auto const& scenarios = v.scenarios;
    auto const& host = v.host;
    auto const port = v.port;
    auto const threads = v.threads;
    auto& options = v.options;
    boost::system::error_code ec;
    auto const address = boost::asio::ip::make_address(host, ec);
    if(ec)
        throw agentio::app::usage_error("--host: not an IP address: '" + host + "'");

    raise_descriptor_limit();
    boost::asio::io_context ioc(static_cast<int>(threads));
    agentio::testing::fake_llm fake(ioc.get_executor(), options);
    std::size_t const loaded = fake.load_scenarios(scenarios);
    auto const ep = fake.start({address, port});
    if(!ep)
        throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(port) + ": " + ep.error().message());

    std::string url = fake.anthropic_base_url();
    if(!address.is_unspecified())
        url = "http://" + (address.is_v6() ? "[" + host + "]" : host) + ":" + std::to_string(ep->port());
    std::fprintf(stderr, "agentio-fake-llm: %zu scenarios from %s\n", loaded, scenarios.c_str());
    std::printf("listening on %s\n", url.c_str());
    std::fflush(stdout);

    agentio::app::run_until_signal(ioc, threads, [&] {
        fake.stop();
        ioc.stop(); // streams in progress end with the process
    });
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    agentio::app::command_line cli("agentio-fake-llm");
    values v;
    v.options.max_recorded_requests = 0; // nobody reads them here
    auto& o = cli.root();
    o.option("--scenarios", v.scenarios, "DIR_OR_FILE", "a scenario file, or a directory of *.json scenario files")
        .required();
    o.option("--host", v.host, "H", "where to listen");
    o.option("--port", v.port, "P", "port 0: any free port; the line printed says which");
    o.option("--api-key", v.options.api_key, "K", "require this key (x-api-key or Authorization: Bearer)");
    o.option("--token-interval-ms", v.options.token_interval, "N", "default delay between streamed pieces (0)")
        .range(0, 3'600'000);
    o.option("--threads", v.threads, "N", "threads running the server (1)").range(1, 256);
    cli.epilog(about);
    // A test double reads no .env: what it does is what its command line says.
    return agentio::app::run_main(cli, argc, argv, [&](std::string_view) { return run(v); }, {.dotenv = false});
}
