//
// agentio/http/request_log.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The access log of a router: one `http.request` line per request it
// observed (method, route pattern, status, streamed, duration), and the
// observer that writes it and counts the request for Prometheus at once.
// Needs the CMake component agentio::log besides agentio::http.
//
//   agentio::log::logger log(settings);
//   agentio::metrics::registry registry;
//   agentio::http::request_metrics requests(registry);
//   agentio::http::router_options o;
//   o.observe = agentio::http::observe_requests(&log, &requests);
//   agentio::http::router<> routes(std::move(o));
//   agentio::http::add_metrics_route(routes, registry);
//   // 2026-11-29T13:00:00.123Z INFO my-app http.request method=GET route=/items/{id} status=200 streamed=false
//   //   duration_ms=0.41
//

#ifndef AGENTIO_HTTP_REQUEST_LOG_HPP
#define AGENTIO_HTTP_REQUEST_LOG_HPP

#include <agentio/http/metrics.hpp>
#include <agentio/http/router.hpp>
#include <agentio/log.hpp>

#include <boost/beast/http/verb.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentio::http {

/// How the `http.request` lines are written.
struct request_log_options
{
    /** The route patterns a monitor calls all the time (a scrape, a health
        check): their lines are DEBUG rather than INFO, so that they do not
        drown the requests of users. */
    std::vector<std::string> routine_routes = {"/metrics", "/health"};
};

/** Writes the `http.request` line of a request a router observed: INFO, or
    DEBUG for a route `options` calls routine, with the fields `method`,
    `route` (the pattern; `unmatched` when no route took the request, a 404
    or a 405), `status`, `streamed` (the handler wrote its answer itself)
    and `duration_ms`. Nothing is formatted when the logger's level leaves
    the line out. */
inline void log_request(log::logger& log, request_observation const& seen, request_log_options const& options)
{
    bool const routine = std::find(options.routine_routes.begin(), options.routine_routes.end(), seen.route) !=
        options.routine_routes.end();
    auto const level = routine ? log::level::debug : log::level::info;
    if(!log.enabled(level))
        return;
    log.write(level, "http.request",
        {{"method", std::string_view(beast::http::to_string(seen.method))},
            {"route", seen.route.empty() ? std::string_view("unmatched") : seen.route}, {"status", seen.status},
            {"streamed", seen.streamed},
            {"duration_ms", std::chrono::duration<double, std::milli>(seen.duration).count()}});
}

/// As above, `/metrics` and `/health` being the routine routes.
inline void log_request(log::logger& log, request_observation const& seen)
{
    static request_log_options const defaults;
    log_request(log, seen, defaults);
}

/** The function `router_options::observe` takes to count each request in
    `metrics` (@ref request_metrics::record) and log it in `log`
    (@ref log_request). A null pointer leaves its part out; with both null
    the function is empty, and the router measures nothing. Both outlive
    the router.

    @code
    agentio::http::router_options o;
    o.observe = agentio::http::observe_requests(&log, &requests);
    @endcode
*/
inline std::function<void(request_observation const&)> observe_requests(log::logger* log, request_metrics* metrics,
    request_log_options options = {})
{
    if(!log && !metrics)
        return {};
    return [log, metrics, options = std::move(options)](request_observation const& seen) {
        if(metrics)
            metrics->record(seen);
        if(log)
            log_request(*log, seen, options);
    };
}

} // namespace agentio::http

#endif
