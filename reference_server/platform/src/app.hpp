// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The platform: the agents of this repository as OpenAI-compatible models.
//   asistente   the platform's general agent (math_calc, sql_query, rag_retrieval, …, and the remote A2A agents);
//   portfolio,  the sibling applications, each configured and run as its own
//   facturas,   application, reached through its own /v1 (PLATFORM_AGENT_*);
//   normativa
//   and each remote A2A agent of PLATFORM_A2A_AGENTS, by its name.
// GET /health answers at once and says whether the provider answers; GET /metrics is Prometheus's.
#pragma once

#include "settings.hpp"
#include "tools.hpp"

#include <agentio/a2a.hpp>
#include <agentio/ag_ui.hpp>
#include <agentio/app/telemetry.hpp>
#include <agentio/chat_completions.hpp>
#include <agentio/http/client.hpp>
#include <agentio/http/jwt.hpp>
#include <agentio/http/metrics.hpp>
#include <agentio/http/router.hpp>
#include <agentio/llm/any_provider.hpp>
#include <agentio/llm/openai.hpp>
#include <agentio/log.hpp>

#include <boost/asio/steady_timer.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace platform {

class application
{
public:
    /** `http`, `provider`, `store` (the sessions; may be null: none) and
        `seen` (the logger, the metrics and the tracer) outlive the application.
        Throws `std::invalid_argument` when the JWT key cannot be used. */
    application(settings config, agentio::http::client& http, agentio::llm::any_provider& provider,
        agentio::threads::thread_store* store, agentio::app::telemetry& seen);
    ~application();

    /// Connects what the tools use (the SQLite MCP server, the retrieval index);
    /// what cannot be reached is reported and its tool says so.
    boost::asio::awaitable<void> start();

    /// Closes the MCP connection.
    boost::asio::awaitable<void> close();

    /// `/v1/...`, `/ag-ui`, `/health`, `/metrics`, every error in OpenAI's shape.
    agentio::http::router<> routes();

    agentio::chat_completions::endpoint const& api() const noexcept { return api_; }
    settings const& config() const noexcept { return config_; }

    /** The largest body of a request from its head: an upload's for
        `POST /v1/files`, 8 MiB (images as data URLs) for the rest. */
    std::size_t body_limit(boost::beast::http::request_header<> const& head) const;

    /// What `start` could not open, for the log (empty: everything).
    std::vector<std::string> const& warnings() const noexcept { return warnings_; }

    /** The `/health` body, at once: the models served, and what the last
        check of the provider (every 30 s) found: whether it answers, and
        the models it lists. */
    boost::json::object health() const;

    /// Checks the provider now and every 30 s, until `close`: what `/health` reports.
    boost::asio::awaitable<void> watch_provider();

    /** The strategy for a request that does not ask for one: the model's
        classification (PLATFORM_ROUTER=model), else the request's words. */
    boost::asio::awaitable<agentio::agent::strategy> choose_strategy(agentio::chat_completions::request const& r);

private:
    boost::asio::awaitable<boost::json::object> probe_provider();

    struct retrieval_state;
    struct documents_state;

    /// An upload's text indexed in its owner's collection (the files API's `on_stored`).
    boost::asio::awaitable<boost::system::result<boost::json::object, std::string>>
    index_upload(agentio::chat_completions::stored_file const& file);
    /// A deleted file's passages removed (the files API's `on_deleted`).
    boost::asio::awaitable<void> unindex_upload(agentio::threads::file_record const& file);
    /// The uploads' index opened for writing (PLATFORM_DOCUMENTS_INDEX), when files and the sandbox are there.
    boost::asio::awaitable<void> open_documents();

    settings config_;
    agentio::app::telemetry& seen_; // logs, GET /metrics, traces
    agentio::log::logger& log_;
    agentio::chat_completions::completion_metrics completions_;
    agentio::http::client& http_;
    agentio::llm::any_provider& provider_;
    tool_resources resources_;
    std::unique_ptr<agentio::sandbox::runner> sandbox_;
    std::unique_ptr<agentio::chat_completions::files_api> files_;
    std::unique_ptr<retrieval_state> retrieval_;
    std::unique_ptr<documents_state> documents_;
    std::vector<std::unique_ptr<agentio::llm::openai_provider>> upstream_providers_;
    /// The asistente's tools (the platform's and the remote A2A agents'), before `api_`, whose model views them.
    std::unique_ptr<agentio::combined_toolset<asistente_tools>> asistente_tools_;
    agentio::chat_completions::endpoint api_;
    /// POST /ag-ui: the same models over AG-UI (made with the routes, when the models are all there).
    std::unique_ptr<agentio::ag_ui::endpoint> ag_ui_;
    /// POST /a2a and the agent card: the asistente over A2A, on ag_ui_'s runs.
    std::unique_ptr<agentio::a2a::endpoint> a2a_;
    std::vector<agentio::a2a::skill> skills_; // the asistente's tools, for the card
    /// PLATFORM_A2A_AGENTS: the remote agents, by name (each a model and a tool of the asistente).
    std::vector<std::pair<std::string, agentio::a2a::client>> remote_agents_;
    std::vector<std::string> warnings_;
    std::optional<agentio::http::jwt::verifier> jwt_;
    agentio::agent::keyword_rules rules_;
    boost::asio::steady_timer probe_timer_;
    mutable std::mutex health_mutex_;
    boost::json::object provider_status_;
};

} // namespace platform
