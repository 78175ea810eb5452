//
// agentio/http/metrics.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An HTTP server's side of Prometheus: GET /metrics (a registry's
// exposition), and the requests a router answers counted by method, route
// pattern and status, with their latency (labelled by the pattern, never the
// path: `/v1/files/{id}`, not one series per file).
//
//   http::request_metrics requests(registry);
//   router_options o;
//   o.observe = [&](http::request_observation const& seen) { requests.record(seen); };
//   ...
//   http::add_metrics_route(routes, registry);
//
// <agentio/http/request_log.hpp> has the observer that also writes each
// request's `http.request` log line (http::observe_requests).
//

#ifndef AGENTIO_HTTP_METRICS_HPP
#define AGENTIO_HTTP_METRICS_HPP

#include <agentio/http/router.hpp>
#include <agentio/http/server.hpp>
#include <agentio/metrics.hpp>
#include <agentio/sse/writer.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/beast/http/string_body.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <thread>

namespace agentio::http {

/** Adds `GET {path}` answering `registry.expose()` in Prometheus's text
    format (`Cache-Control: no-store`). The registry outlives the routes. */
template<class Stream>
void add_metrics_route(router<Stream>& routes, metrics::registry const& registry, std::string const& path = "/metrics")
{
    routes.get(path,
        [&registry](request&& req, route_params const&) -> asio::awaitable<beast::http::message_generator> {
            beast::http::response<beast::http::string_body> res{beast::http::status::ok, req.version()};
            res.set(beast::http::field::content_type, metrics::content_type);
            res.set(beast::http::field::cache_control, "no-store");
            res.keep_alive(req.keep_alive());
            res.body() = registry.expose();
            res.prepare_payload();
            co_return beast::http::message_generator(std::move(res));
        });
}

/** `GET {path}` on a listener and a thread of its own
    (`AGENTIO_METRICS_ADDRESS` in the applications): a scrape never waits
    behind the application's clients — its accept queue, its bound on
    connections, the handlers its threads are busy with — and the
    application's port need not expose the metrics at all. Every other path
    is a 404.

    @code
    http::metrics_server scrapes(registry);
    auto bound = scrapes.listen(*http::parse_listen_address("127.0.0.1:9464")).value();
    scrapes.start();
    ...
    scrapes.stop();
    @endcode
*/
class metrics_server
{
public:
    /// The registry outlives the server (it is read from the server's thread).
    explicit metrics_server(metrics::registry const& registry, std::string const& path = "/metrics")
        : server_(io_.get_executor(), routes(registry, path), limits())
    {
    }

    metrics_server(metrics_server const&) = delete;
    metrics_server& operator=(metrics_server const&) = delete;

    ~metrics_server() { stop(); }

    /// Binds (port 0 picks a free one); the endpoint bound, or why not.
    system::result<tcp::endpoint> listen(tcp::endpoint const& where) { return server_.listen(where); }

    /// Starts answering, on a thread of its own; after a successful `listen`.
    void start()
    {
        if(thread_.joinable())
            return;
        server_.start();
        thread_ = std::thread([this] { io_.run(); });
    }

    /// Stops answering and joins its thread; a scrape in progress is cut off. Safe to call twice.
    void stop()
    {
        if(!thread_.joinable())
            return;
        server_.stop();
        io_.stop();
        thread_.join();
    }

private:
    static router<> routes(metrics::registry const& registry, std::string const& path)
    {
        router<> r;
        add_metrics_route(r, registry, path);
        return r;
    }

    // A scraper or two, and a person with curl: few connections, no bodies.
    static server_options limits()
    {
        server_options o;
        o.max_body_bytes = 0;
        o.max_connections = 64;
        o.max_connections_per_address = 16;
        o.server_name = "agentio-metrics";
        return o;
    }

    asio::io_context io_{1};
    server<router<>> server_;
    std::thread thread_;
};

/** Records what a router observed (`router_options::observe`):

    - `agentio_http_requests_total{method, route, status}`
    - `agentio_http_request_duration_seconds{method, route}` (histogram; a
      stream written by its handler counts until it ends)
    - `agentio_sse_streams_open` (gauge): event streams open in the process
      (@ref sse::open_streams), read at each scrape

    A request no route took has the route `unmatched`. */
class request_metrics
{
public:
    explicit request_metrics(metrics::registry& registry)
        : requests_(registry.counter("agentio_http_requests_total",
              "HTTP requests answered, by method, route pattern and status.", {"method", "route", "status"}))
        , duration_(registry.histogram("agentio_http_request_duration_seconds",
              "Time to answer an HTTP request (to the end of a stream the handler writes).", {"method", "route"},
              metrics::latency_buckets()))
    {
        auto& streams = registry.gauge("agentio_sse_streams_open", "Server-sent event streams open in the process.");
        registry.on_collect([&streams] { streams.with().set(static_cast<double>(sse::open_streams())); });
    }

    void record(request_observation const& seen)
    {
        std::string_view const method = beast::http::to_string(seen.method);
        std::string_view const route = seen.route.empty() ? std::string_view("unmatched") : seen.route;
        char status[16];
        auto const written = std::snprintf(status, sizeof status, "%u", seen.status % 1000);
        requests_.with({method, route, std::string_view(status, static_cast<std::size_t>(written))}).inc();
        duration_.with({method, route}).observe(std::chrono::duration<double>(seen.duration).count());
    }

private:
    metrics::counter_family& requests_;
    metrics::histogram_family& duration_;
};

} // namespace agentio::http

#endif
