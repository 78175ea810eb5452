//
// agentio/http/router.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Routes requests by method and path pattern to handlers, and answers what
// no route takes: 404 when no pattern matches the path, 405 with `Allow` when
// one does for other methods. GET routes serve HEAD unless router_options
// says otherwise (the server sends the header only). A router is itself a
// request handler for http::server.
//

#ifndef AGENTIO_HTTP_ROUTER_HPP
#define AGENTIO_HTTP_ROUTER_HPP

#include <agentio/trace.hpp>
#include <agentio/http/any_stream.hpp>
#include <agentio/http/server.hpp>
#include <agentio/messages.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/beast/http/verb.hpp>
#include <boost/url/pct_string_view.hpp>

#include <algorithm>
#include <chrono>
#include <concepts>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentio::http {

/// What a route's pattern captured: `{name}` → its path segment, percent-decoded.
class route_params
{
public:
    /// The value captured as `name`, or nothing.
    std::optional<std::string_view> find(std::string_view name) const noexcept
    {
        for(auto const& [key, value] : items_)
            if(key == name)
                return std::string_view(value);
        return std::nullopt;
    }

    /// The value captured as `name`; empty when there is none.
    std::string_view operator[](std::string_view name) const noexcept
    {
        return find(name).value_or(std::string_view{});
    }

    std::size_t size() const noexcept { return items_.size(); }

private:
    template<class>
    friend class router;
    std::vector<std::pair<std::string_view, std::string>> items_;
};

/// What the router saw of one request, for logs and metrics.
struct request_observation
{
    beast::http::verb method = beast::http::verb::unknown;
    /// The pattern of the route that took it (`/v1/files/{id}`: never a path, whose ids are unbounded); empty
    /// when none did (a 404 or a 405), `*` for the fallback.
    std::string_view route = {};
    /// The answer's status; 200 for an answer the handler wrote itself (a stream of events); 0 when unknown.
    unsigned status = 0;
    /// Until the answer was ready to write, or until a stream the handler wrote ended.
    std::chrono::steady_clock::duration duration = {};
    /// Whether the handler wrote its answer itself (a stream of events).
    bool streamed = false;
};

/// The texts and body of the answers a router makes itself.
struct router_options
{
    /// The detail of a 404; `{path}` is the request's path.
    std::string_view not_found = "No route for {path}";
    /// The detail of a 405; `{method}` the request's, `{allow}` the methods allowed.
    std::string_view method_not_allowed = "Method {method} not allowed; use {allow}";
    /// How the body is written (see server_options::error_body).
    error_body_writer error_body = {};
    /// Whether a GET route also serves HEAD (and a 405's `Allow` names it).
    /// False makes HEAD a method like any other, for an API that has always
    /// answered it with 405.
    bool head_from_get = true;
    /// Whether the first pattern that matches the path takes the request
    /// whatever its method: a method none of that pattern's routes has is a
    /// 405, even where a later pattern has a route for it (`GET /items/search`
    /// with `POST /items/search` added before `GET /items/{id}`). False: the
    /// first route matching both the path and the method takes it.
    bool first_pattern_decides = false;
    /// Whether a path's trailing slash is ignored (`/items/7/` is `/items/7`);
    /// when not, it is an empty last segment, which no `{name}` matches.
    bool ignore_trailing_slash = false;
    /** Called once per request, after its answer is ready (before it is
        written), or after a stream the handler wrote itself: the route's
        pattern, the status, the time taken. For an access log and metrics;
        it must not block. Empty: nothing is measured. */
    std::function<void(request_observation const&)> observe = {};
    /** Traces each request as a server span (`{method} {route}`, with the
        HTTP semantic conventions' attributes), the child of the request's
        `traceparent` when it has a valid one. The handler then finds the
        server span's context in the request's `traceparent` (a malformed
        one is removed, never passed on). Null: nothing is traced. The tracer
        outlives the router. */
    trace::tracer* tracer = nullptr;
};

/** Routes requests to handlers by method and path pattern.

    A pattern is a path of literal segments and `{name}` segments, each of
    which matches one non-empty segment; a last `{name...}` matches the rest
    of the path (one or more segments). The path's segments are compared
    percent-decoded, so `/it%65ms` is `/items`. The query is not part of the
    match. Routes are tried in the order they were added; router_options says
    what HEAD, a trailing slash and overlapping patterns do.

    @code
    agentio::http::router<> routes;
    routes.get("/api/v1/charts/{file}", [](auto&& req, auto const& params) -> asio::awaitable<message_generator> {
        co_return serve_chart(req, params["file"]);
    });
    routes.post("/api/v1/agent/chat", [&](auto&& req, auto const&, agentio::http::any_stream& stream) { return chat(req, stream); });
    agentio::http::server server(ex, std::move(routes));
    @endcode

    A handler is called as `h(request&&, route_params const&)` returning
    `asio::awaitable<beast::http::message_generator>`, or — to answer by
    writing to the connection itself, as a stream of events does — as
    `h(request&&, route_params const&, Stream&)` returning
    `asio::awaitable<std::optional<beast::http::message_generator>>`.

    @tparam Stream the stream a streaming route writes to: by default the
    type-erased @ref any_stream, so that the routes are compiled once and
    serve plain and TLS connections alike
*/
template<class Stream = any_stream>
class router
{
public:
    /// A handler as the router keeps it.
    using handler_type = std::function<asio::awaitable<std::optional<beast::http::message_generator>>(request&&,
        route_params const&, Stream&)>;

    explicit router(router_options options = {}) : options_(std::move(options)) {}

    /// Adds a route for `method` (a GET route also serves HEAD).
    template<class Handler>
    router& route(beast::http::verb method, std::string_view pattern, Handler&& h)
    {
        routes_.push_back({std::optional<beast::http::verb>(method), split(pattern), wrap(std::forward<Handler>(h)),
            std::string(pattern)});
        return *this;
    }

    /// Adds a route for every method (the handler answers 405 itself, if it does).
    template<class Handler>
    router& any(std::string_view pattern, Handler&& h)
    {
        routes_.push_back({std::nullopt, split(pattern), wrap(std::forward<Handler>(h)), std::string(pattern)});
        return *this;
    }

    template<class Handler>
    router& get(std::string_view pattern, Handler&& h)
    {
        return route(beast::http::verb::get, pattern, std::forward<Handler>(h));
    }

    template<class Handler>
    router& post(std::string_view pattern, Handler&& h)
    {
        return route(beast::http::verb::post, pattern, std::forward<Handler>(h));
    }

    template<class Handler>
    router& put(std::string_view pattern, Handler&& h)
    {
        return route(beast::http::verb::put, pattern, std::forward<Handler>(h));
    }

    template<class Handler>
    router& del(std::string_view pattern, Handler&& h)
    {
        return route(beast::http::verb::delete_, pattern, std::forward<Handler>(h));
    }

    /// What answers a path no pattern matches, instead of a 404 (a page's
    /// files, say); it gets no parameters.
    template<class Handler>
    router& fallback(Handler&& h)
    {
        fallback_ = wrap(std::forward<Handler>(h));
        return *this;
    }

    /// The request handler entry point (a streaming_request_handler).
    asio::awaitable<std::optional<beast::http::message_generator>> operator()(request&& req, Stream& stream) const
    {
        if(!options_.observe && !options_.tracer)
            co_return co_await dispatch(std::move(req), stream, nullptr);
        auto const started = std::chrono::steady_clock::now();
        request_observation seen;
        seen.method = req.method();
        trace::span server;
        if(options_.tracer)
            server = start_server_span(req);
        auto answer = co_await dispatch(std::move(req), stream, &seen.route);
        seen.streamed = !answer.has_value();
        seen.status = answer ? status_of(*answer) : 200;
        seen.duration = std::chrono::steady_clock::now() - started;
        if(server.recording())
        {
            std::string_view const method = beast::http::to_string(seen.method);
            server.rename(seen.route.empty() ? method : std::string(method) + " " + std::string(seen.route));
            if(!seen.route.empty())
                server.set("http.route", seen.route);
            server.set("http.response.status_code", seen.status);
            if(seen.status >= 500)
                server.fail(std::to_string(seen.status));
        }
        server.end();
        if(options_.observe)
            options_.observe(seen);
        co_return answer;
    }

private:
    // The request's server span; the request carries its context on to the handler.
    trace::span start_server_span(request& req) const
    {
        std::string_view incoming;
        if(auto const it = req.find("traceparent"); it != req.end())
            incoming = std::string_view(it->value().data(), it->value().size());
        auto const parent = trace::parse_traceparent(incoming);
        std::string_view const method = beast::http::to_string(req.method());
        trace::span server = options_.tracer->start(method, trace::span_kind::server, parent);
        if(server.recording())
        {
            server.set("http.request.method", method);
            std::string_view const target = req.target();
            server.set("url.path", target.substr(0, target.find('?')));
            server.set("network.protocol.version", req.version() == 10 ? "1.0" : "1.1");
        }
        std::string const mine = server.traceparent();
        if(!mine.empty())
            req.set("traceparent", mine);
        else if(!parent)
            req.erase("traceparent");
        return server;
    }

    // The status of an answer not yet written, read from the start of its head ("HTTP/1.1 404 ..."): preparing
    // a generator's buffers again, before any is consumed, gives the same buffers.
    static unsigned status_of(beast::http::message_generator& answer)
    {
        system::error_code ec;
        auto const buffers = answer.prepare(ec);
        char head[12] = {};
        if(ec || asio::buffer_copy(asio::buffer(head), buffers) < sizeof head)
            return 0;
        unsigned status = 0;
        for(std::size_t i = 9; i < 12; ++i)
        {
            if(head[i] < '0' || head[i] > '9')
                return 0;
            status = status * 10 + static_cast<unsigned>(head[i] - '0');
        }
        return status;
    }

    // Finds the route and answers; `route`, when given, is set to the pattern that took the request.
    asio::awaitable<std::optional<beast::http::message_generator>> dispatch(request&& req, Stream& stream,
        std::string_view* route) const
    {
        std::string_view const target = req.target();
        std::string_view const path = target.substr(0, target.find('?'));
        std::vector<std::string> segments;
        for(auto const part : split_parts(path))
            segments.push_back(decode(part));
        if(options_.ignore_trailing_slash && !segments.empty() && segments.back().empty())
            segments.pop_back();
        bool const head_as_get = options_.head_from_get && req.method() == beast::http::verb::head;
        auto const method = head_as_get ? beast::http::verb::get : req.method();
        std::string allow;
        std::vector<segment> const* decided = nullptr; // the pattern that took the path (first_pattern_decides)
        for(auto const& r : routes_)
        {
            if(decided && !same_shape(*decided, r.pattern))
                continue;
            route_params params;
            if(!match(r.pattern, segments, params))
                continue;
            if(!r.method || *r.method == method)
            {
                if(route)
                    *route = r.text;
                co_return co_await r.handler(std::move(req), params, stream);
            }
            append_allowed(allow, *r.method);
            if(options_.first_pattern_decides)
                decided = &r.pattern;
        }
        if(!allow.empty())
        {
            auto res = make_error_response(beast::http::status::method_not_allowed,
                format_message(options_.method_not_allowed, {{"method", req.method_string()}, {"allow", allow}}),
                req.version(), req.keep_alive(), options_.error_body);
            res.set(beast::http::field::allow, allow);
            co_return beast::http::message_generator(std::move(res));
        }
        if(fallback_)
        {
            if(route)
                *route = "*";
            co_return co_await fallback_(std::move(req), route_params{}, stream);
        }
        co_return beast::http::message_generator(make_error_response(beast::http::status::not_found,
            format_message(options_.not_found, {{"path", path}}), req.version(), req.keep_alive(),
            options_.error_body));
    }

    struct segment
    {
        std::string text; // the literal, or the parameter's name
        bool parameter = false;
        bool rest = false; // `{name...}`
    };

    struct entry
    {
        std::optional<beast::http::verb> method;
        std::vector<segment> pattern;
        handler_type handler;
        std::string text; // the pattern as written
    };

    // The parts between slashes: empty ones are dropped, except that a
    // trailing slash gives an empty last part.
    static std::vector<std::string_view> split_parts(std::string_view text)
    {
        std::vector<std::string_view> out;
        std::size_t start = 0;
        while(start <= text.size())
        {
            auto end = text.find('/', start);
            if(end == std::string_view::npos)
                end = text.size();
            std::string_view const part = text.substr(start, end - start);
            if(!part.empty() || (end == text.size() && !out.empty() && start == text.size()))
                out.push_back(part);
            start = end + 1;
        }
        return out;
    }

    static std::vector<segment> split(std::string_view pattern)
    {
        std::vector<segment> out;
        for(auto const part : split_parts(pattern))
        {
            if(part.size() > 2 && part.front() == '{' && part.back() == '}')
            {
                std::string_view name = part.substr(1, part.size() - 2);
                bool const rest = name.ends_with("...");
                if(rest)
                    name.remove_suffix(3);
                out.push_back({std::string(name), true, rest});
            }
            else
                out.push_back({std::string(part), false, false});
        }
        return out;
    }

    // Whether two patterns match the same paths.
    static bool same_shape(std::vector<segment> const& a, std::vector<segment> const& b)
    {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](segment const& x, segment const& y) {
            return x.parameter == y.parameter && x.rest == y.rest && (x.parameter || x.text == y.text);
        });
    }

    // `path`: the request's segments, percent-decoded (a request's braces are
    // text, never a parameter).
    static bool match(std::vector<segment> const& pattern, std::vector<std::string> const& path, route_params& params)
    {
        std::size_t i = 0;
        for(; i < pattern.size(); ++i)
        {
            auto const& p = pattern[i];
            if(p.rest)
            {
                if(i >= path.size() || path[i].empty())
                    return false;
                std::string joined;
                for(std::size_t j = i; j < path.size(); ++j)
                    joined += (j > i ? "/" : "") + path[j];
                params.items_.emplace_back(p.text, std::move(joined));
                return true;
            }
            if(i >= path.size())
                return false;
            if(p.parameter)
            {
                if(path[i].empty())
                    return false;
                params.items_.emplace_back(p.text, path[i]);
            }
            else if(p.text != path[i])
                return false;
        }
        return i == path.size();
    }

    static std::string decode(std::string_view text)
    {
        // An invalid escape is kept as it is: the handler sees what was sent.
        auto const checked = boost::urls::make_pct_string_view(text);
        return checked ? checked->decode() : std::string(text);
    }

    void append_allowed(std::string& allow, beast::http::verb method) const
    {
        auto add = [&](std::string_view name) {
            if(allow.find(name) != std::string::npos)
                return;
            if(!allow.empty())
                allow += ", ";
            allow += name;
        };
        add(beast::http::to_string(method));
        if(method == beast::http::verb::get && options_.head_from_get)
            add("HEAD");
    }

    template<class Handler>
    static handler_type wrap(Handler&& h)
    {
        using H = std::decay_t<Handler>;
        if constexpr(std::is_invocable_v<H&, request&&, route_params const&, Stream&>)
            return handler_type(std::forward<Handler>(h));
        else
        {
            static_assert(std::is_invocable_r_v<asio::awaitable<beast::http::message_generator>, H&, request&&,
                              route_params const&>,
                "agentio: a route's handler is called as h(request&&, route_params const&) returning "
                "asio::awaitable<beast::http::message_generator>, or as h(request&&, route_params const&, Stream&) "
                "returning asio::awaitable<std::optional<beast::http::message_generator>>");
            return [h = H(std::forward<Handler>(h))](request&& req, route_params const& params,
                       Stream&) mutable -> asio::awaitable<std::optional<beast::http::message_generator>> {
                co_return co_await h(std::move(req), params);
            };
        }
    }

    router_options options_;
    std::vector<entry> routes_;
    handler_type fallback_;
};

} // namespace agentio::http

#endif
