//
// agentio/http/metrics_route.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// GET /metrics: a registry's exposition for Prometheus to scrape.
//
//   http::add_metrics_route(routes, registry);
//

#ifndef AGENTIO_HTTP_METRICS_ROUTE_HPP
#define AGENTIO_HTTP_METRICS_ROUTE_HPP

#include <agentio/http/router.hpp>
#include <agentio/metrics.hpp>

#include <boost/beast/http/string_body.hpp>

#include <string>

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

} // namespace agentio::http

#endif
