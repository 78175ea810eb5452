// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio-portfolio's HTTP server: the REST API over a read-only SQLite pool,
// on an io_context run by several threads. Used by `serve` and by the tests,
// which run it in-process on an ephemeral port.
#pragma once

#include "agent/chat.hpp"
#include "api/rest_api.hpp"
#include "app/web_assets.hpp"

#include <agentio/a2a.hpp>
#include <agentio/ag_ui.hpp>
#include <agentio/chat_completions/endpoint.hpp>
#include <agentio/app/telemetry.hpp>
#include <agentio/http/metrics.hpp>
#include <agentio/http/router.hpp>
#include <agentio/http/server.hpp>
#include <agentio/log.hpp>
#include <agentio/metrics.hpp>
#include <agentio/sqlite.hpp>

#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace portfolio {

struct server_options
{
    std::filesystem::path db_path;
    std::string host = "127.0.0.1";
    unsigned short port = 8080;
    unsigned threads = std::max(1u, std::thread::hardware_concurrency()); // network threads
    unsigned db_threads = std::max(1u, std::thread::hardware_concurrency());
    api::limits limits{};
    agentio::http::server_options http{};
    agent::chat_settings chat{};     // the agent endpoint; answers 503 without a provider key
    agent::chart_settings charts{};  // generar_grafico and GET /api/v1/charts/{file}
    std::filesystem::path web_dir{}; // the built chat page (reference_server/portfolio/web/dist); empty: none
    std::chrono::steady_clock::duration shutdown_grace =
        std::chrono::seconds(10); // for requests in flight on shutdown()
    // With TLS (http.tls): how the agent's tools, clients of this server's
    // API over https, verify it (a context trusting the served certificate).
    std::shared_ptr<boost::asio::ssl::context> self_client_tls{};
    // The log (AGENTIO_LOG_*, read by `serve`): each request, each chat's end. Off unless set.
    agentio::log::settings log{.level = agentio::log::level::off, .program = "agentio-portfolio"};
    // Traces (OTEL_*, read by `serve`): off unless a collector is named.
    agentio::trace::settings trace{.service_name = "agentio-portfolio"};
    // AGENTIO_METRICS_ADDRESS: GET /metrics on a listener of its own, not on `port`.
    std::optional<boost::asio::ip::tcp::endpoint> metrics_address{};
};

/// The server's handler: the agent's streaming endpoint, charts, the REST
/// API, and the chat page for every other path.
class app_handler
{
public:
    /** `openai` (the `/v1` API) may be null: no `/v1` routes; `metrics`,
        when given, is served at `GET /metrics` (it outlives the handler);
        `options` as the router takes them (`observe`: the access log and
        the HTTP metrics). */
    app_handler(api::rest_api api, std::shared_ptr<agent::chat_service> chat, charts::chart_store const* charts,
        std::chrono::seconds chart_max_age, std::shared_ptr<agentio::http::static_files const> web,
        std::shared_ptr<agentio::chat_completions::endpoint const> openai = {},
        agentio::metrics::registry const* metrics = nullptr, agentio::http::router_options options = {});

    boost::asio::awaitable<std::optional<boost::beast::http::message_generator>>
    operator()(agentio::http::request&& req, agentio::http::any_stream& stream) const
    {
        return routes_(std::move(req), stream);
    }

private:
    struct parts;

    // GET /api/v1/charts/{file}: only the PNGs the chart store wrote.
    static boost::beast::http::message_generator serve_chart(parts const& p, agentio::http::request const& req,
        std::string_view file);

    agentio::http::router<agentio::http::any_stream> routes_;
    std::shared_ptr<agentio::chat_completions::endpoint const> openai_; // what ag_ui_ serves from
    std::shared_ptr<agentio::ag_ui::endpoint> ag_ui_;                   // POST /ag-ui
    std::shared_ptr<agentio::a2a::endpoint> a2a_;                       // POST /a2a, over ag_ui_'s runs
};

class portfolio_server
{
public:
    /// Opens the database and listens; nothing is served until run().
    /// Throws std::runtime_error with a message for the user on failure.
    explicit portfolio_server(server_options options);
    ~portfolio_server();

    /// The address actually bound (the port is known even when 0 was asked).
    boost::asio::ip::tcp::endpoint endpoint() const { return endpoint_; }

    /// Where generated charts are kept.
    charts::chart_store& charts() noexcept { return *charts_; }

    /// Whether the chat page was found (server_options::web_dir).
    bool web_page_loaded() const noexcept { return web_->loaded(); }

    /// Connections open right now.
    std::size_t connection_count() const noexcept { return http_->connection_count(); }

    /// The log server_options::log configures (`start` and `stop` are the caller's to write).
    agentio::log::logger& log() noexcept { return log_; }

    /// What GET /metrics serves.
    agentio::metrics::registry& metrics() noexcept { return metrics_; }

    /// Serves on `threads` threads (the calling one included) until stop().
    void run();

    /** As run(), until SIGINT or SIGTERM: the first one shuts down (see
        shutdown()), a second stops at once (agentio::app::run_until_signal). */
    void serve();

    /// Stops serving at once; run() returns. Safe from any thread and from signal handlers' completions.
    void stop();

    /// Stops accepting, lets requests and streams in flight finish for up to
    /// `shutdown_grace`, cancels what is left, then stops; run() returns.
    /// Safe from any thread.
    void shutdown();

private:
    // Destroyed bottom-up: the server, then the pool (whose finished work posts
    // to ioc_), then ioc_ with whatever is still queued on it.
    server_options options_;
    agentio::log::logger log_;           // outlives what logs to it
    agentio::metrics::registry metrics_; // GET /metrics
    agentio::http::request_metrics requests_{metrics_};
    agentio::app::agent_observer agents_{metrics_, &log_}; // the runs' metrics and lines
    agentio::trace::tracer tracer_;                        // outlives its spans
    boost::asio::io_context ioc_;
    std::optional<agentio::trace::otlp_exporter> exporter_; // before ioc_ goes: its strand and client are ioc_'s
    std::unique_ptr<agentio::sqlite::query_pool> pool_;
    std::unique_ptr<agentio::threads::thread_store> store_; // AGENT_STORE: threads and runs
    std::unique_ptr<charts::chart_store> charts_;
    std::shared_ptr<agent::chat_service> chat_;
    std::shared_ptr<agentio::chat_completions::endpoint> openai_; // /v1: the agent as an OpenAI-compatible model
    std::shared_ptr<agentio::http::static_files const> web_;
    std::unique_ptr<agentio::http::server<app_handler>> http_;
    std::optional<agentio::http::metrics_server> scrapes_; // AGENTIO_METRICS_ADDRESS
    boost::asio::ip::tcp::endpoint endpoint_;
};

} // namespace portfolio
