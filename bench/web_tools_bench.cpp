// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What each ready-made web tool costs per call against its fake service,
// the fake in another process (agentio-fake-web, beside this program) so
// that this process holds only the tool: p50 and p99 of a call, and the
// allocations it makes, without the cache (every call asks the service) and
// on the cache's hit path; beside the same requests made and parsed by
// Python's http.client and json over one keep-alive connection (the peer: the
// specified platform's tools are Python), in the same run.
//
//   agentio_web_tools_bench [calls] [world]     (200 per measurement; tests/web/world.json, from the
//                                               repository's root)
// The allocation counter below replaces operator new and delete with malloc
// and free; inlined, GCC 12 takes each delete for a free of a new'd pointer.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <agentio/tools.hpp>

#include <agentio/detail/child_process.hpp>

#include "bench_support.hpp"
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <string>
#include <vector>

namespace {

std::atomic<std::uint64_t> allocations{0};

} // namespace

[[gnu::noinline]] void* operator new(std::size_t n)
{
    allocations.fetch_add(1, std::memory_order_relaxed);
    if(void* p = std::malloc(n ? n : 1))
        return p;
    throw std::bad_alloc();
}

[[gnu::noinline]] void operator delete(void* p) noexcept
{
    std::free(p);
}

[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace tools = agentio::tools;
using clock_type = std::chrono::steady_clock;

struct measured
{
    bench::percentiles ms;
    double allocations_per_call = 0;
};

template<class Catalog>
asio::awaitable<agentio::tool_result> call_on(Catalog const& catalog, std::string name, json::value arguments)
{
    agentio::tool_context ctx;
    ctx.tool_name = name;
    co_return co_await catalog.call(name, arguments, ctx);
}

template<class Catalog>
measured measure(asio::io_context& ioc, Catalog const& catalog, std::string const& name, json::value const& arguments,
    int calls)
{
    std::vector<double> ms;
    std::uint64_t counted = 0;
    for(int i = 0; i < calls; ++i)
    {
        ioc.restart();
        auto const before = allocations.load();
        auto const began = clock_type::now();
        auto done = asio::co_spawn(ioc, call_on(catalog, name, arguments), asio::use_future);
        ioc.run();
        auto const r = done.get();
        ms.push_back(std::chrono::duration<double, std::milli>(clock_type::now() - began).count());
        counted += allocations.load() - before;
        if(r.is_error)
        {
            std::fprintf(stderr, "web_tools_bench: %s failed\n", name.c_str());
            std::exit(1);
        }
    }
    return {bench::percentiles_of(ms), static_cast<double>(counted) / calls};
}

// The peer: the same requests by Python's http.client over one connection, parsed by json; ms per call.
constexpr char const* python_peer = R"py(
import http.client, json, sys, time, urllib.parse
port, calls, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
c = http.client.HTTPConnection("127.0.0.1", port)
ua = {"User-Agent": "peer/1.0 (https://example.org/peer)"}
def get(path):
    c.request("GET", path, headers=ua)
    r = c.getresponse()
    return json.loads(r.read())
def wikipedia():
    q = urllib.parse.urlencode({"action": "query", "list": "search", "srsearch": "Bilbao", "srlimit": 5, "srprop": "", "format": "json", "formatversion": 2})
    title = get("/es/w/api.php?" + q)["query"]["search"][0]["title"]
    q = urllib.parse.urlencode({"action": "query", "prop": "extracts|info|pageprops", "exsentences": 3, "explaintext": 1, "inprop": "url", "ppprop": "disambiguation", "redirects": 1, "titles": title, "format": "json", "formatversion": 2})
    return get("/es/w/api.php?" + q)["query"]["pages"][0]["extract"]
def weather():
    place = get("/v1/search?" + urllib.parse.urlencode({"name": "Bilbao", "count": 10, "language": "es", "format": "json"}))["results"][0]
    q = urllib.parse.urlencode({"latitude": place["latitude"], "longitude": place["longitude"], "current": "temperature_2m,relative_humidity_2m,wind_speed_10m,weather_code", "daily": "weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum", "timezone": "auto", "forecast_days": 3})
    return get("/v1/forecast?" + q)["daily"]["temperature_2m_max"]
def search():
    body = json.dumps({"query": "messi", "max_results": 5, "search_depth": "basic", "topic": "general", "include_answer": True})
    c.request("POST", "/search", body=body, headers={"Content-Type": "application/json", "Authorization": "Bearer tvly-test", **ua})
    return json.loads(c.getresponse().read())["results"]
run = {"wikipedia": wikipedia, "weather": weather, "web_search": search}[kind]
times = []
for _ in range(calls):
    t = time.perf_counter()
    run()
    times.append((time.perf_counter() - t) * 1000)
times.sort()
print("%.3f %.3f" % (times[len(times) // 2], times[min(len(times) - 1, len(times) * 99 // 100)]))
)py";

bench::percentiles python(std::uint16_t port, int calls, char const* kind)
{
    agentio::detail::child_process child;
    auto pipes = child.start({"/usr/bin/python3",
        {"-c", python_peer, std::to_string(port), std::to_string(calls), kind}, {}, -1});
    ::close(pipes.to_child);
    std::string out;
    char buffer[256];
    for(ssize_t n; (n = ::read(pipes.from_child, buffer, sizeof buffer)) > 0;)
        out.append(buffer, static_cast<std::size_t>(n));
    ::close(pipes.from_child);
    int status = 0;
    ::waitpid(child.pid(), &status, 0);
    child.running();
    bench::percentiles p;
    if(std::sscanf(out.c_str(), "%lf %lf", &p.median, &p.p99) != 2)
    {
        std::fprintf(stderr, "web_tools_bench: the Python peer said '%s'\n", out.c_str());
        std::exit(1);
    }
    return p;
}

} // namespace

int main(int argc, char** argv)
{
    int const calls = argc > 1 ? std::atoi(argv[1]) : 200;
    namespace fs = std::filesystem;
    auto const here = fs::read_symlink("/proc/self/exe").parent_path();
    fs::path const world = argc > 2 ? argv[2] : "tests/web/world.json";

    // The fakes in their own process: this one allocates for the tool only.
    agentio::detail::child_process fake;
    auto pipes = fake.start({(here / "agentio-fake-web").string(), {"--world", world.string(), "--port", "0"}, {}, -1});
    ::close(pipes.to_child);
    std::string line;
    char c = 0;
    while(::read(pipes.from_child, &c, 1) == 1 && c != '\n')
        line += c;
    auto const at = line.find("http://127.0.0.1:");
    if(at == std::string::npos)
    {
        std::fprintf(stderr, "web_tools_bench: agentio-fake-web said '%s'\n", line.c_str());
        return 1;
    }
    auto const port = static_cast<std::uint16_t>(std::atoi(line.c_str() + at + 17));
    std::string const base = "http://127.0.0.1:" + std::to_string(port);

    asio::io_context ioc;
    agentio::http::client http(ioc.get_executor());
    auto settings = [&](bool cache) {
        tools::web_tools_settings s;
        s.web_search.tavily_api_key = "tvly-test";
        s.web_search.tavily_base_url = base;
        s.web_search.fallback_url = base + "/html/";
        s.wikipedia.api_url = base + "/{lang}/w/api.php";
        s.wikipedia.default_language = "es";
        s.weather.geocoding_url = base + "/v1/search";
        s.weather.forecast_url = base + "/v1/forecast";
        s.weather.language = "es";
        for(auto* o : {&s.web_search.tavily, &s.web_search.fallback, &s.wikipedia.service, &s.weather.geocoding,
                &s.weather.forecast})
            if(!cache)
                o->cache_ttl = std::chrono::seconds(0);
        return s;
    };
    auto const cold = settings(false), warm = settings(true);
    agentio::toolset uncached{tools::web_search(http, cold.web_search), tools::wikipedia(http, cold.wikipedia),
        tools::weather(http, cold.weather)};
    agentio::toolset cached{tools::web_search(http, warm.web_search), tools::wikipedia(http, warm.wikipedia),
        tools::weather(http, warm.weather)};
    // Without a key: DuckDuckGo's page through gumbo.
    auto keyless_settings = cold.web_search;
    keyless_settings.tavily_api_key.clear();
    agentio::toolset keyless{tools::web_search(http, keyless_settings)};

    struct row
    {
        char const* label;
        char const* tool;
        json::value arguments;
        char const* peer; // the Python peer's kind, or none
    };
    std::vector<row> const rows = {
        {"wikipedia (search + extract)", "wikipedia", json::object{{"query", "Bilbao"}}, "wikipedia"},
        {"weather (geocoding + forecast)", "weather", json::object{{"location", "Bilbao"}}, "weather"},
        {"web_search (Tavily)", "web_search", json::object{{"query", "messi"}}, "web_search"},
    };
    std::printf("web tools bench: %d calls per measurement against agentio-fake-web on loopback, ms (p50 / p99)\n",
        calls);
    std::printf("| tool | no cache p50 / p99 | allocations a call | cache hit p50 / p99 | allocations a hit | Python "
                "http.client + json p50 / p99 |\n|---|---:|---:|---:|---:|---:|\n");
    for(auto const& r : rows)
    {
        measure(ioc, uncached, r.tool, r.arguments, 5); // warm the pool and the page cache
        auto const miss = measure(ioc, uncached, r.tool, r.arguments, calls);
        measure(ioc, cached, r.tool, r.arguments, 1);
        auto const hit = measure(ioc, cached, r.tool, r.arguments, calls);
        auto const peer = python(port, calls, r.peer);
        std::printf("| %s | %.3f / %.3f | %.0f | %.3f / %.3f | %.0f | %.3f / %.3f |\n", r.label, miss.ms.median,
            miss.ms.p99, miss.allocations_per_call, hit.ms.median, hit.ms.p99, hit.allocations_per_call, peer.median,
            peer.p99);
    }
    measure(ioc, keyless, "web_search", json::object{{"query", "messi"}}, 5);
    auto const page = measure(ioc, keyless, "web_search", json::object{{"query", "messi"}}, calls);
    std::printf("| web_search (DuckDuckGo's page, gumbo) | %.3f / %.3f | %.0f | | | |\n", page.ms.median, page.ms.p99,
        page.allocations_per_call);

    ::kill(fake.pid(), SIGTERM);
    int status = 0;
    ::waitpid(fake.pid(), &status, 0);
    fake.running();
    ::close(pipes.from_child);
    return 0;
}
