//
// agentio/testing/impl/fake_web.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The fake web services' members and their request handler: routing, the
// gates (Tavily's key, Wikimedia's User-Agent policy), faults, and the
// connection-level faults; each service's answers are in detail/.
//

#ifndef AGENTIO_TESTING_IMPL_FAKE_WEB_IPP
#define AGENTIO_TESTING_IMPL_FAKE_WEB_IPP

#include <agentio/config.hpp>
#include <agentio/testing/detail/fake_web_faults.hpp>
#include <agentio/testing/detail/fake_web_mediawiki.hpp>
#include <agentio/testing/detail/fake_web_open_meteo.hpp>
#include <agentio/testing/detail/fake_web_search.hpp>
#include <agentio/testing/detail/fake_web_text.hpp>
#include <agentio/testing/detail/fake_web_world.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json/parse.hpp>

#include <deque>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace agentio::testing {

AGENTIO_DECL web_world parse_web_world(json::value const& v)
{
    detail::web_world_reader({}).read(v);
    return web_world{v.get_object()};
}

AGENTIO_DECL web_world read_web_world(std::filesystem::path const& file)
{
    std::ifstream in(file, std::ios::binary);
    if(!in)
        throw web_world_error(file.string(), {}, "cannot open the file");
    std::string const text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    json::parse_options options;
    options.allow_comments = true;
    options.allow_trailing_commas = true;
    system::error_code ec;
    json::value v = json::parse(text, ec, {}, options);
    if(ec)
        throw web_world_error(file.string(), {}, "not valid JSON: " + ec.message());
    detail::web_world_reader(file.string()).read(v);
    return web_world{std::move(v.get_object())};
}

namespace detail {

// ================================================================================
// Shared state
// ================================================================================

struct fake_web_state
{
    fake_web_state(fake_web_options o, std::chrono::sys_days day)
        : options(std::move(o))
        , today(day)
        , world(std::make_shared<web_world_model const>())
    {
    }

    fake_web_options const options;
    std::chrono::sys_days const today;

    struct armed_fault
    {
        web_fault fault;
        std::size_t answered = 0;
        bool from_world = false;
    };

    mutable std::mutex mutex;
    std::shared_ptr<web_world_model const> world;
    std::vector<armed_fault> faults;
    std::deque<recorded_web_request> recorded;
    std::uint64_t request_count = 0;
    tcp::endpoint endpoint; // bound by start()

    std::shared_ptr<web_world_model const> current_world() const
    {
        std::lock_guard lock(mutex);
        return world;
    }

    // Records the request; returns its number (from 1).
    std::uint64_t record(std::string_view service, http::request const& req)
    {
        std::lock_guard lock(mutex);
        ++request_count;
        if(options.max_recorded_requests == 0)
            return request_count;
        recorded_web_request r;
        r.service = std::string(service);
        r.method = std::string(req.method_string());
        r.target = std::string(req.target());
        for(auto const& f : req)
            r.headers.insert(f.name_string(), f.value());
        r.body = req.body();
        recorded.push_back(std::move(r));
        while(recorded.size() > options.max_recorded_requests)
            recorded.pop_front();
        return request_count;
    }

    // The fault that answers this request, if any (and counts it).
    std::optional<web_fault> take_fault(std::string_view service, std::string_view target, std::string_view body)
    {
        std::lock_guard lock(mutex);
        for(auto& a : faults)
        {
            web_fault const& f = a.fault;
            if(f.service != service || (f.times != 0 && a.answered >= f.times))
                continue;
            if(!f.when_contains.empty() && target.find(f.when_contains) == std::string_view::npos &&
                body.find(f.when_contains) == std::string_view::npos)
                continue;
            ++a.answered;
            return f;
        }
        return std::nullopt;
    }
};

// ================================================================================
// The handler
// ================================================================================

// What to do with one request: answer it, or act on the connection instead.
enum class web_action
{
    answer,
    truncate,
    stall,
    disconnect
};

struct web_plan
{
    web_answer answer;
    web_action action = web_action::answer;
};

struct web_route
{
    std::string service; // empty: unknown path
    std::string lang;    // wikipedia
};

AGENTIO_DECL web_route route_of(std::string_view path)
{
    if(path == "/search")
        return {"tavily", {}};
    if(path == "/html/" || path == "/html")
        return {"duckduckgo", {}};
    if(path == "/v1/search")
        return {"geocoding", {}};
    if(path == "/v1/forecast")
        return {"forecast", {}};
    if(path == "/w/api.php")
        return {"wikipedia", "en"};
    constexpr std::string_view api = "/w/api.php";
    if(path.size() > api.size() + 1 && path.ends_with(api) && path[0] == '/')
    {
        auto const lang = path.substr(1, path.size() - api.size() - 1);
        if(valid_wiki_language(lang))
            return {"wikipedia", std::string(lang)};
    }
    return {};
}

AGENTIO_DECL bool form_body(http::request const& req)
{
    auto const it = req.find(beast::http::field::content_type);
    return it != req.end() && contains_ignoring_case(it->value(), "application/x-www-form-urlencoded");
}

// Tavily's gate: `Authorization: Bearer <key>`.
AGENTIO_DECL bool tavily_key_ok(http::request const& req, std::string const& key)
{
    auto const it = req.find(beast::http::field::authorization);
    if(it == req.end())
        return false;
    std::string_view const v = it->value();
    return v.size() > 7 && contains_ignoring_case(v.substr(0, 7), "bearer ") && v.substr(7) == key;
}

// Everything but the I/O: which service, its gates, the fault, the answer.
AGENTIO_DECL web_plan plan_answer(fake_web_state& st, http::request const& req)
{
    namespace bhttp = beast::http;
    std::string_view const target = req.target();
    auto const question = target.find('?');
    std::string_view const path = target.substr(0, question);
    std::string_view const query_string = question == std::string_view::npos ? std::string_view()
                                                                             : target.substr(question + 1);
    web_route const route = route_of(path);
    std::uint64_t const number = st.record(route.service, req);
    web_plan plan;
    auto const method = req.method();
    bool const reads = method == bhttp::verb::get || method == bhttp::verb::head;

    if(route.service.empty())
    {
        plan.answer = path.starts_with("/v1/") ? open_meteo_error(404, "Not Found")
                                               : html_answer(404, proxy_page(404, "nginx", {}));
        return plan;
    }
    web_params params;
    params.add_from(query_string);
    if(method == bhttp::verb::post && form_body(req) && route.service != "tavily")
        params.add_from(req.body());

    // The gates come before faults: a fault plays the server's state, these the client's mistakes.
    if(route.service == "tavily")
    {
        if(method != bhttp::verb::post)
        {
            plan.answer = json_answer(405, R"({"detail":"Method Not Allowed"})");
            plan.answer.headers.emplace_back("Allow", "POST");
            return plan;
        }
        if(!tavily_key_ok(req, st.options.tavily_key))
        {
            plan.answer = tavily_error(401, tavily_message(401));
            return plan;
        }
    }
    else if(route.service == "wikipedia" || route.service == "duckduckgo")
    {
        if(!reads && method != bhttp::verb::post)
        {
            plan.answer = html_answer(405, proxy_page(405, "nginx", {}));
            plan.answer.headers.emplace_back("Allow", "GET, HEAD, POST");
            return plan;
        }
        if(route.service == "wikipedia")
        {
            auto const ua = req.find(bhttp::field::user_agent);
            std::string_view agent;
            if(ua != req.end())
                agent = ua->value();
            auto refusal = mediawiki_refusal(agent, ua != req.end());
            if(refusal)
            {
                plan.answer = std::move(*refusal);
                return plan;
            }
        }
    }
    else if(!reads)
    {
        plan.answer = open_meteo_error(404, "Not Found"); // Vapor routes GET only
        return plan;
    }

    auto const fault = st.take_fault(route.service, target, req.body());
    auto const world = st.current_world();
    std::string const query = params.get_or("q", "");
    std::string const version = params.get_or("formatversion", "1");
    mediawiki_call wiki;
    wiki.lang = route.lang;
    wiki.v2 = version == "2" || version == "latest";
    wiki.params = &params;
    wiki.today = st.today;

    if(fault && (fault->kind == "disconnect" || fault->kind == "stall"))
    {
        plan.action = fault->kind == "stall" ? web_action::stall : web_action::disconnect;
        return plan;
    }
    bool const needs_normal = !fault || fault->kind == "truncate" || fault->kind == "stream_error";
    if(needs_normal)
    {
        if(route.service == "tavily")
            plan.answer = tavily_search(*world, req.body(), number);
        else if(route.service == "duckduckgo")
            plan.answer = duckduckgo_page(*world, query);
        else if(route.service == "wikipedia")
            plan.answer = mediawiki_answer(*world, route.lang, params, st.today);
        else if(route.service == "geocoding")
            plan.answer = geocoding_answer(*world, params, target);
        else
            plan.answer = forecast_answer(*world, params, st.today, target);
    }
    if(fault && fault->kind == "truncate")
        plan.action = web_action::truncate;
    else if(fault)
        plan.answer = fault_answer(*fault, plan.answer, wiki, query.empty() ? target : std::string_view(query));
    return plan;
}

AGENTIO_DECL http::response to_response(web_answer&& a, unsigned version, bool keep_alive)
{
    http::response res;
    res.version(version);
    res.result(a.status);
    res.set(beast::http::field::content_type, a.content_type);
    for(auto const& [name, value] : a.headers)
        res.set(name, value);
    res.body() = std::move(a.body);
    res.keep_alive(keep_alive);
    if(a.chunked && version >= 11)
        res.chunked(true);
    else
        res.prepare_payload();
    return res;
}

inline constexpr auto web_use_tuple = asio::as_tuple(asio::use_awaitable);

// truncate: the header promises the whole body (Content-Length), half is sent, the connection closes.
AGENTIO_DECL asio::awaitable<void> write_truncated(beast::tcp_stream& stream, http::response& res,
    std::chrono::steady_clock::duration timeout)
{
    namespace bhttp = beast::http;
    res.chunked(false);
    res.prepare_payload();
    res.keep_alive(false);
    bhttp::response_serializer<bhttp::string_body> sr(res);
    stream.expires_after(timeout);
    auto [ec, n] = co_await bhttp::async_write_header(stream, sr, web_use_tuple);
    if(!ec)
    {
        auto const half = asio::buffer(res.body().data(), res.body().size() / 2);
        [[maybe_unused]] auto const [wec, wn] = co_await asio::async_write(stream, half, web_use_tuple);
    }
    system::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream.socket().close(ignored);
}

// stall: nothing is sent; the connection is held until the client leaves.
AGENTIO_DECL asio::awaitable<void> hold_until_client_leaves(beast::tcp_stream& stream)
{
    stream.expires_never();
    char sink[256];
    for(;;)
    {
        auto const into = asio::buffer(sink);
        auto [ec, n] = co_await stream.socket().async_read_some(into, web_use_tuple);
        if(ec)
            break;
    }
}

AGENTIO_DECL asio::awaitable<std::optional<beast::http::message_generator>>
fake_web_handler::operator()(http::request&& req, beast::tcp_stream& stream)
{
    using result = std::optional<beast::http::message_generator>;
    web_plan plan = plan_answer(*state, req);
    if(plan.action == web_action::disconnect)
    {
        system::error_code ignored;
        stream.socket().close(ignored);
        co_return std::nullopt;
    }
    if(plan.action == web_action::stall)
    {
        co_await hold_until_client_leaves(stream);
        co_return std::nullopt;
    }
    http::response res = to_response(std::move(plan.answer), req.version(), req.keep_alive());
    if(plan.action == web_action::truncate)
    {
        auto const timeout = state->options.server.write_timeout;
        co_await write_truncated(stream, res, timeout);
        co_return std::nullopt;
    }
    co_return result(std::move(res));
}

} // namespace detail

// ================================================================================
// fake_web
// ================================================================================

AGENTIO_DECL fake_web::fake_web(asio::any_io_executor ex, fake_web_options options)
    : state_(std::make_shared<detail::fake_web_state>(options,
          [&] {
              auto const day = detail::parse_day(options.today);
              if(!day)
                  throw std::invalid_argument("fake_web_options::today: not a date YYYY-MM-DD: '" + options.today +
                      "'");
              return *day;
          }()))
    , server_(std::move(ex), detail::fake_web_handler{state_}, options.server)
{
}

AGENTIO_DECL void fake_web::set_world(web_world w)
{
    auto model = std::make_shared<detail::web_world_model const>(
        detail::web_world_reader({}).read(json::value(std::move(w.data))));
    std::lock_guard lock(state_->mutex);
    std::erase_if(state_->faults, [](auto const& a) { return a.from_world; });
    for(auto const& f : model->faults)
        state_->faults.push_back({f, 0, true});
    state_->world = std::move(model);
}

AGENTIO_DECL void fake_web::add_fault(web_fault f)
{
    if(auto problem = detail::web_fault_problem(f))
        throw std::invalid_argument("fake_web::add_fault: " + *problem);
    std::lock_guard lock(state_->mutex);
    state_->faults.push_back({std::move(f), 0, false});
}

AGENTIO_DECL void fake_web::clear_faults()
{
    std::lock_guard lock(state_->mutex);
    state_->faults.clear();
}

AGENTIO_DECL system::result<tcp::endpoint> fake_web::start(tcp::endpoint const& endpoint)
{
    auto bound = server_.listen(endpoint);
    if(!bound)
        return bound;
    {
        std::lock_guard lock(state_->mutex);
        state_->endpoint = *bound;
    }
    server_.start();
    return bound;
}

AGENTIO_DECL tcp::endpoint fake_web::endpoint() const
{
    std::lock_guard lock(state_->mutex);
    return state_->endpoint;
}

AGENTIO_DECL void fake_web::stop()
{
    server_.stop();
}

AGENTIO_DECL std::string fake_web::base_url() const
{
    return http::url_of(endpoint());
}

AGENTIO_DECL std::string fake_web::tavily_base_url() const
{
    return base_url();
}

AGENTIO_DECL std::string fake_web::duckduckgo_url() const
{
    return base_url() + "/html/";
}

AGENTIO_DECL std::string fake_web::wikipedia_api_url() const
{
    return base_url() + "/{lang}/w/api.php";
}

AGENTIO_DECL std::string fake_web::geocoding_url() const
{
    return base_url() + "/v1/search";
}

AGENTIO_DECL std::string fake_web::forecast_url() const
{
    return base_url() + "/v1/forecast";
}

AGENTIO_DECL std::size_t fake_web::connection_count() const noexcept
{
    return server_.connection_count();
}

AGENTIO_DECL std::vector<recorded_web_request> fake_web::requests() const
{
    std::lock_guard lock(state_->mutex);
    return {state_->recorded.begin(), state_->recorded.end()};
}

AGENTIO_DECL void fake_web::reset()
{
    std::lock_guard lock(state_->mutex);
    state_->recorded.clear();
    for(auto& a : state_->faults)
        a.answered = 0;
}

} // namespace agentio::testing

#endif
