// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "app/server.hpp"

#include "app/error_body.hpp"

#include <agentio/app/serve.hpp>
#include <agentio/http/request_log.hpp>
#include <agentio/run.hpp>
#include <agentio/threads/observed_store.hpp>
#include <agentio/threads/open_store.hpp>
#include <agentio/version.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace portfolio {

namespace {

// What a URI shows in a message: no password.
std::string without_password(std::string const& uri)
{
    auto const scheme = uri.find("://");
    auto const at = uri.find('@');
    if(scheme == std::string::npos || at == std::string::npos)
        return uri;
    auto const colon = uri.find(':', scheme + 3);
    if(colon == std::string::npos || colon > at)
        return uri;
    return uri.substr(0, colon) + ":***" + uri.substr(at);
}

// AGENT_STORE: "sqlite:PATH" or a PostgreSQL URI. A store that cannot be
// opened stops the server at start, naming the variable. It is opened on the
// server's own io_context (a PostgreSQL pool lives there), driven here before
// the server runs.
std::unique_ptr<agentio::threads::thread_store> open_thread_store(std::string const& spec, boost::asio::io_context& ioc)
{
    auto opened = agentio::run_to_completion(ioc, agentio::threads::open_store(spec));
    if(opened)
        return std::move(*opened);
    if(spec.starts_with("sqlite:"))
        throw std::runtime_error("AGENT_STORE: no se puede abrir '" + spec + "': " + opened.error().message + " (" +
            opened.error().code.message() + ")");
    throw std::runtime_error("AGENT_STORE: no se puede usar la base de datos PostgreSQL " + without_password(spec) +
        ": " + opened.error().message);
}

} // namespace

portfolio_server::portfolio_server(server_options options)
    : options_(std::move(options))
    , log_(options_.log)
    , tracer_(options_.trace)
    , ioc_(static_cast<int>(options_.threads))
{
    exporter_.emplace(ioc_.get_executor(), tracer_);
    std::vector<agentio::sqlite::connection> connections;
    for(unsigned i = 0; i < options_.db_threads; ++i)
    {
        auto c = agentio::sqlite::connection::open(options_.db_path, agentio::sqlite::open_mode::read_only);
        if(!c)
            throw std::runtime_error("no se puede abrir la base de datos " + options_.db_path.string() + ": " +
                c.error().message());
        api::register_functions(*c);
        connections.push_back(std::move(*c));
    }
    auto schema = api::load_schema(connections.front());
    if(auto* e = std::get_if<api::api_error>(&schema))
        throw std::runtime_error(options_.db_path.string() + ": " + e->detail);
    auto shared_schema =
        std::make_shared<api::database_schema const>(std::move(std::get<api::database_schema>(schema)));

    pool_ = std::make_unique<agentio::sqlite::query_pool>(std::move(connections));
    // Each store call timed and counted (agentio_store_*), on GET /metrics.
    store_ = std::make_unique<agentio::threads::observed_store>(open_thread_store(options_.chat.store, ioc_), metrics_,
        "threads", &tracer_);
    auto const& cs = options_.charts;
    std::chrono::seconds const chart_max_age = std::chrono::hours(cs.max_age_hours);
    try
    {
        charts_ = std::make_unique<charts::chart_store>(cs.output_dir, chart_max_age);
    }
    catch(std::exception const& e)
    {
        throw std::runtime_error("CHART_OUTPUT_DIR: " + std::string(e.what()));
    }
    charts::render_options render;
    render.dpi = static_cast<int>(cs.dpi);
    render.width_in = cs.width_in;
    render.height_in = cs.height_in;
    render.max_categories = cs.max_categories;
    chat_ = std::make_shared<agent::chat_service>(ioc_.get_executor(), options_.chat, *store_, charts_.get(), render);
    chat_->set_log(&log_);
    agents_.log_runs(false); // the chat writes its own chat.run line, with the thread and the run
    chat_->set_telemetry({&agents_, &tracer_, "portfolio"});
    chat_->set_on_retry([this](std::string_view model, unsigned retry, agentio::llm::error const& failure) {
        agents_.provider_retry(options_.chat.provider == agent::provider_kind::anthropic ? "anthropic" : "openai",
            model, retry, failure);
    });
    web_ = std::make_shared<agentio::http::static_files const>(load_web_page(options_.web_dir));
    openai_ = std::make_shared<agentio::chat_completions::endpoint>();
    options_.http.error_body = write_detail;
    // Each request counted by its route's pattern and logged (the scrapes and health checks at debug).
    agentio::http::router_options observed;
    observed.observe = agentio::http::observe_requests(&log_, &requests_,
        {.routine_routes = {"/metrics", "/api/v1/health"}});
    observed.tracer = &tracer_; // each request a server span, whose context the handlers pass on
    http_ = std::make_unique<agentio::http::server<app_handler>>(ioc_.get_executor(),
        app_handler(api::rest_api(shared_schema, *pool_, options_.limits), chat_, charts_.get(), chart_max_age, web_,
            openai_, options_.metrics_address ? nullptr : &metrics_, std::move(observed)),
        options_.http);

    boost::system::error_code ec;
    auto const address = boost::asio::ip::make_address(options_.host, ec);
    if(ec)
        throw std::runtime_error("dirección no válida '" + options_.host + "': " + ec.message());
    auto ep = http_->listen({address, options_.port});
    if(!ep)
        throw std::runtime_error("no se puede escuchar en " + options_.host + ":" + std::to_string(options_.port) +
            ": " + ep.error().message());
    endpoint_ = *ep;
    // The tools call this server's API unless AGENT_API_BASE_URL says otherwise.
    chat_->start(endpoint_, options_.http.tls ? options_.self_client_tls : nullptr);
    if(auto model = chat_->openai_model())
        openai_->add(std::move(model)); // before serving: the endpoint's models are fixed once it serves
    http_->start();
    if(options_.metrics_address)
    {
        scrapes_.emplace(metrics_);
        auto bound = scrapes_->listen(*options_.metrics_address);
        if(!bound)
            throw std::runtime_error("AGENTIO_METRICS_ADDRESS: no se puede escuchar en " +
                options_.metrics_address->address().to_string() + ":" +
                std::to_string(options_.metrics_address->port()) + ": " + bound.error().message());
        scrapes_->start();
        log_.info("metrics.listening",
            {{"address", bound->address().to_string()}, {"port", bound->port()}, {"path", "/metrics"}});
    }
    exporter_->start();

    // Old charts go away while the server runs: at start, then every ten minutes.
    boost::asio::co_spawn(
        ioc_,
        [store = charts_.get(), log = &log_]() -> boost::asio::awaitable<void> {
            boost::asio::steady_timer timer(co_await boost::asio::this_coro::executor);
            for(;;)
            {
                try
                {
                    store->remove_expired();
                }
                catch(std::exception const& e)
                {
                    log->warn("charts.cleanup_failed", {{"error", e.what()}});
                }
                timer.expires_after(std::chrono::minutes(10));
                co_await timer.async_wait(boost::asio::use_awaitable);
            }
        },
        boost::asio::detached);
}

portfolio_server::~portfolio_server()
{
    stop();
    chat_->stop_runs(); // while the io_context's services still run: the runs' queues and timers use them
    // Connections' coroutines die with the io_context, before the pool they may wait on.
    http_.reset();
}

void portfolio_server::run()
{
    agentio::http::run_threads(ioc_, options_.threads);
}

void portfolio_server::serve()
{
    agentio::app::run_until_signal(ioc_, options_.threads, [this] { shutdown(); });
}

struct app_handler::parts
{
    api::rest_api api;
    std::shared_ptr<agent::chat_service> chat;
    charts::chart_store const* charts;
    std::chrono::seconds chart_max_age;
    std::shared_ptr<agentio::http::static_files const> web;
};

app_handler::app_handler(api::rest_api api, std::shared_ptr<agent::chat_service> chat,
    charts::chart_store const* charts, std::chrono::seconds chart_max_age,
    std::shared_ptr<agentio::http::static_files const> web,
    std::shared_ptr<agentio::chat_completions::endpoint const> openai, agentio::metrics::registry const* metrics,
    agentio::http::router_options options)
    : routes_(std::move(options))
{
    namespace bhttp = boost::beast::http;
    using agentio::http::request;
    using agentio::http::route_params;
    using reply = boost::asio::awaitable<std::optional<bhttp::message_generator>>;
    auto p = std::make_shared<parts>(parts{std::move(api), std::move(chat), charts, chart_max_age, std::move(web)});
    // Each handler answers its own 405s (in Spanish, as the API's clients read them).
    routes_.any("/api/v1/agent/chat",
        [p](request&& req, route_params const&, agentio::http::any_stream& stream) -> reply {
            return p->chat->handle(std::move(req), stream);
        });
    routes_.any("/api/v1/agent/runs/{run_id}/{action}",
        [p](request&& req, route_params const& params, agentio::http::any_stream& stream) -> reply {
            return p->chat->handle_run(std::move(req), stream, params["run_id"], params["action"]);
        });
    routes_.any("/api/v1/threads", [p](request&& req, route_params const&, agentio::http::any_stream&) -> reply {
        return p->chat->handle_threads(std::move(req), {});
    });
    routes_.any("/api/v1/threads/{thread_id}",
        [p](request&& req, route_params const& params, agentio::http::any_stream&) -> reply {
            return p->chat->handle_threads(std::move(req), params["thread_id"]);
        });
    routes_.any("/api/v1/charts/{file...}",
        [p](request&& req, route_params const& params) -> boost::asio::awaitable<bhttp::message_generator> {
            co_return serve_chart(*p, req, params["file"]);
        });
    if(openai)
    {
        openai->add_routes(routes_); // the server that owns these routes goes before the endpoint
        // The chat agent over AG-UI too: the chat's keys and store, its threads the chat's threads.
        agentio::ag_ui::endpoint_options ag;
        ag.store = &p->chat->store();
        ag.authenticate = [chat = p->chat](agentio::http::request const& req)
            -> boost::system::result<std::string, agentio::chat_completions::api_error> {
            if(auto owner = chat->owner_of(req))
                return std::move(*owner);
            return agentio::chat_completions::api_error{401,
                "Falta una clave de API válida: envíela como 'Authorization: Bearer CLAVE'", "authentication_error", {},
                "invalid_api_key"};
        };
        openai_ = openai;
        ag_ui_ = std::make_shared<agentio::ag_ui::endpoint>(*openai, std::move(ag));
        ag_ui_->add_routes(routes_);
        // ... and over A2A, to other agents: the same runs, keys and threads.
        agentio::a2a::endpoint_options a2a;
        a2a.card.name = "agentio-portfolio";
        a2a.card.description =
            "El asistente de la cartera de proyectos: busca iniciativas, cuenta, totaliza importes y dibuja gráficos.";
        a2a.card.version = AGENTIO_VERSION_STRING;
        a2a.card.security = p->chat->keyed() ? agentio::a2a::card_security::api_key : agentio::a2a::card_security::none;
        a2a.card.api_key_header = "X-API-Key";
        a2a.list_skills = [chat = p->chat] { return agentio::a2a::skills_of(chat->tools()); }; // known once it runs
        a2a_ = std::make_shared<agentio::a2a::endpoint>(*ag_ui_, std::move(a2a));
        a2a_->add_routes(routes_);
    }
    if(metrics)
        agentio::http::add_metrics_route(routes_, *metrics);
    // The REST API; its health check a route of its own, so that the access log can tell a monitor's calls apart.
    auto rest = [p](request&& req, route_params const&, agentio::http::any_stream& stream) -> reply {
        return p->api(std::move(req), stream);
    };
    routes_.any("/api/v1/health", rest);
    routes_.any("/api/{rest...}", rest);
    routes_.fallback([p](request&& req, route_params const&) -> boost::asio::awaitable<bhttp::message_generator> {
        std::string_view const target = req.target();
        co_return p->web->serve(req, target.substr(0, target.find('?')));
    });
}

boost::beast::http::message_generator app_handler::serve_chart(parts const& p, agentio::http::request const& req,
    std::string_view file)
{
    namespace bhttp = boost::beast::http;
    if(req.method() != bhttp::verb::get && req.method() != bhttp::verb::head)
    {
        auto res = portfolio::error_response(bhttp::status::method_not_allowed, "Método no permitido; usa GET",
            req.version(), req.keep_alive());
        res.set(bhttp::field::allow, "GET, HEAD");
        return res;
    }
    std::string body;
    auto const found = p.charts ? p.charts->find(file) : std::nullopt;
    if(found)
    {
        std::ifstream in(*found, std::ios::binary);
        body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        if(!in.good() && !in.eof())
            body.clear();
    }
    if(body.empty())
        return portfolio::error_response(bhttp::status::not_found, "Gráfico no encontrado: '" + std::string(file) + "'",
            req.version(), req.keep_alive());
    agentio::http::response res{bhttp::status::ok, req.version()};
    res.set(bhttp::field::server, "agentio-portfolio");
    res.set(bhttp::field::content_type, "image/png");
    // A name is never reused for other content: cache for as long as the file lives.
    res.set(bhttp::field::cache_control, "private, max-age=" + std::to_string(p.chart_max_age.count()) + ", immutable");
    res.set("X-Content-Type-Options", "nosniff");
    res.keep_alive(req.keep_alive());
    std::size_t const size = body.size();
    if(req.method() == bhttp::verb::get)
        res.body() = std::move(body);
    res.content_length(size);
    return res;
}

void portfolio_server::stop()
{
    ioc_.stop();
}

void portfolio_server::shutdown()
{
    // The chats' tools call this server's own API: it keeps accepting while
    // the chats in flight finish (new chats get 503), then drains the rest.
    chat_->stop_accepting();
    boost::asio::co_spawn(
        ioc_,
        [this]() -> boost::asio::awaitable<void> {
            auto const until = std::chrono::steady_clock::now() + options_.shutdown_grace;
            boost::asio::steady_timer tick(co_await boost::asio::this_coro::executor);
            while(chat_->running() != 0 && std::chrono::steady_clock::now() < until)
            {
                tick.expires_after(std::chrono::milliseconds(20));
                co_await tick.async_wait(boost::asio::use_awaitable);
            }
            chat_->stop_runs();             // what is left resumes from its checkpoint after a restart
            co_await exporter_->shutdown(); // the spans still queued
            auto const left = until - std::chrono::steady_clock::now();
            http_->shutdown(std::max<std::chrono::steady_clock::duration>(left, std::chrono::seconds(0)),
                [this] { ioc_.stop(); });
        },
        boost::asio::detached);
}

} // namespace portfolio
