// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// HTTP client requests/s on loopback (plain chrono harness).
//
//   ninja -C build/release agentio_http_client_bench && ./build/release/bench/agentio_http_client_bench [requests]
//
// Starts an agentio::http::server in-process on 127.0.0.1 (its own thread and
// io_context) that answers every GET with a small JSON body, then measures the
// client on the main thread:
//   1. sequential GETs over one keep-alive connection;
//   2. 8 request loops at once over the pool (8 keep-alive connections).
// Each measurement is repeated 5 times; the median is printed.
#include <agentio/http/client.hpp>
#include <agentio/http/server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
namespace ah = agentio::http;
using clock_type = std::chrono::steady_clock;

namespace {

struct json_handler
{
    asio::awaitable<bhttp::message_generator> operator()(ah::request&& req)
    {
        ah::response res{bhttp::status::ok, req.version()};
        res.set(bhttp::field::content_type, "application/json");
        res.body() = R"({"id":42,"name":"widget","price":12.5,"tags":["a","b"],"stock":true})";
        res.keep_alive(req.keep_alive());
        res.prepare_payload();
        co_return bhttp::message_generator(std::move(res));
    }
};

// `count` sequential requests; `left` counts the loops still running.
asio::awaitable<void> request_loop(ah::client* c, std::string url, int count, int* left)
{
    for(int i = 0; i < count; ++i)
    {
        ah::client_request req;
        req.url = url;
        auto [err, res] = co_await c->async_request(std::move(req), asio::use_awaitable);
        if(err || res.status != 200 || res.body.size() < 10)
        {
            std::fprintf(stderr, "request failed: %s (status %u)\n", err.message.c_str(), res.status);
            std::exit(1);
        }
    }
    --*left;
}

// Requests per second of `loops` loops sharing `requests` requests.
double measure(ah::client& c, asio::io_context& ioc, std::string const& url, int requests, int loops)
{
    int left = loops;
    auto const t0 = clock_type::now();
    for(int l = 0; l < loops; ++l)
        asio::co_spawn(ioc, request_loop(&c, url, requests / loops, &left), asio::detached);
    ioc.restart();
    ioc.run();
    double const seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
    if(left != 0)
        std::exit(1);
    return (requests / loops) * loops / seconds;
}

double median_of_5(auto&& f)
{
    std::vector<double> runs;
    for(int i = 0; i < 5; ++i)
        runs.push_back(f());
    std::sort(runs.begin(), runs.end());
    return runs[2];
}

} // namespace

int main(int argc, char** argv)
{
    int const requests = argc > 1 ? std::atoi(argv[1]) : 20000;

    asio::io_context server_ioc;
    ah::server srv(server_ioc.get_executor(), json_handler{});
    auto const ep = srv.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    srv.start();
    std::thread server_thread([&] { server_ioc.run(); });
    std::string const url = "http://127.0.0.1:" + std::to_string(ep.port()) + "/api/v1/items/42";

    asio::io_context ioc;
    ah::client_options opts;
    opts.max_connections_per_origin = 8;
    ah::client c(ioc.get_executor(), opts);
    measure(c, ioc, url, 1000, 8); // warm-up: opens the 8 pooled connections

    std::printf("agentio_http_client_bench %d  (GET %s, %d requests per run, median of 5)\n", requests, url.c_str(),
        requests);
    double const one = median_of_5([&] { return measure(c, ioc, url, requests, 1); });
    std::printf("  1 keep-alive connection, sequential : %9.0f requests/s\n", one);
    double const eight = median_of_5([&] { return measure(c, ioc, url, requests, 8); });
    std::printf("  8 concurrent loops, pool of 8       : %9.0f requests/s\n", eight);
    auto const stats = c.stats();
    std::printf("  connections opened: %llu, requests on pooled connections: %llu\n",
        static_cast<unsigned long long>(stats.connections_opened),
        static_cast<unsigned long long>(stats.connections_reused));

    srv.stop();
    server_ioc.stop();
    server_thread.join();
}
