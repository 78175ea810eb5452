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
#include <agentio/metrics.hpp>

#include <boost/beast/http/string_body.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

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

/** Records what a router observed (`router_options::observe`):

    - `agentio_http_requests_total{method, route, status}`
    - `agentio_http_request_duration_seconds{method, route}` (histogram; a
      stream written by its handler counts until it ends)

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
