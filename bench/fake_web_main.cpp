// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio-fake-web: fakes of Tavily, DuckDuckGo's HTML page, the MediaWiki
// API and Open-Meteo on one loopback port, for demos and tests of the web
// tools (docs/guide/12-fake-llm.md, "Fake web services").
//
//   agentio-fake-web [--world FILE] [--host 127.0.0.1] [--port 0] [--tavily-key K] [--today YYYY-MM-DD]
//
// Prints "agentio-fake-web listening on http://HOST:PORT" on stdout once it
// accepts connections, then the variables that point the tools at it, one a
// line, and serves until SIGINT or SIGTERM.

#include <agentio/app.hpp>
#include <agentio/testing/fake_web.hpp>

#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

constexpr char const* about = R"(Fakes of the web services behind the web tools, on one port: Tavily (POST /search),
DuckDuckGo's HTML page (/html/), the MediaWiki API (/{lang}/w/api.php), Open-Meteo geocoding (/v1/search) and
forecast (/v1/forecast). Without --world the world is empty: no search results, no pages, no places (forecasts
still answer for any coordinates). tests/web/world.json is a ready one.)";

struct values
{
    std::filesystem::path world;
    std::string host = "127.0.0.1";
    unsigned short port = 0;
    agentio::testing::fake_web_options options;
};

int run(values& v)
{
    auto const& host = v.host;
    boost::system::error_code ec;
    auto const address = boost::asio::ip::make_address(host, ec);
    if(ec)
        throw agentio::app::usage_error("--host: not an IP address: '" + host + "'");

    agentio::testing::web_world world;
    if(!v.world.empty())
        world = agentio::testing::read_web_world(v.world);

    boost::asio::io_context ioc(1);
    std::optional<agentio::testing::fake_web> constructed;
    try
    {
        constructed.emplace(ioc.get_executor(), v.options);
    }
    catch(std::invalid_argument const& e) // the only option it checks is --today
    {
        throw agentio::app::usage_error(std::string("--today: ") + e.what());
    }
    auto& web = *constructed;
    web.set_world(std::move(world));
    auto const ep = web.start({address, v.port});
    if(!ep)
        throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(v.port) + ": " +
            ep.error().message());

    std::string url = web.base_url();
    if(!address.is_unspecified())
        url = "http://" + (address.is_v6() ? "[" + host + "]" : host) + ":" + std::to_string(ep->port());
    std::fprintf(stderr, "agentio-fake-web: world %s\n", v.world.empty() ? "(empty)" : v.world.c_str());
    std::printf("agentio-fake-web listening on %s\n", url.c_str());
    std::printf("TAVILY_BASE_URL=%s\n", url.c_str());
    std::printf("WEB_SEARCH_FALLBACK_URL=%s/html/\n", url.c_str());
    std::printf("WIKIPEDIA_API_URL=%s/{lang}/w/api.php\n", url.c_str());
    std::printf("OPEN_METEO_GEOCODING_URL=%s/v1/search\n", url.c_str());
    std::printf("OPEN_METEO_FORECAST_URL=%s/v1/forecast\n", url.c_str());
    std::fflush(stdout);

    agentio::app::run_until_signal(ioc, 1, [&] {
        web.stop();
        ioc.stop(); // stalled connections end with the process
    });
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    agentio::app::command_line cli("agentio-fake-web");
    values v;
    v.options.max_recorded_requests = 0; // nobody reads them here
    auto& o = cli.root();
    o.option("--world", v.world, "FILE", "what the services know (JSON); none: an empty world");
    o.option("--host", v.host, "H", "where to listen");
    o.option("--port", v.port, "P", "port 0: any free port; the line printed says which");
    o.option("--tavily-key", v.options.tavily_key, "K", "the key Tavily requires (tvly-test)");
    o.option("--today", v.options.today, "YYYY-MM-DD", "the forecast's first day (2026-12-01)");
    cli.epilog(about);
    // A test double reads no .env: what it does is what its command line says.
    return agentio::app::run_main(cli, argc, argv, [&](std::string_view) { return run(v); }, {.dotenv = false});
}
