// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// POST /api/v1/agent/chat (docs/apps/portfolio/chat.md): a conversation in, the agent's
// answer out as Server-Sent Events — `chunk`, `clear_streaming`, `tool_call`,
// `done`, `error`, `round_restart` — while the orchestrator runs the model and
// the tools. Conversations are stored threads and runs outlive their client:
// GET /api/v1/agent/runs/{id}/events reattaches, POST .../cancel stops, and
// /api/v1/threads lists, shows and deletes conversations.
#pragma once

#include "agent/api_client.hpp"
#include "agent/settings.hpp"
#include "agent/system_prompt.hpp"
#include "agent/tools.hpp"

#include <agentio/agent/telemetry.hpp>
#include <agentio/http/api_keys.hpp>
#include <agentio/agent/orchestrator.hpp>
#include <agentio/http/any_stream.hpp>
#include <agentio/http/client.hpp>
#include <agentio/http/server.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/llm/any_provider.hpp>
#include <agentio/llm/openai.hpp>
#include <agentio/log.hpp>
#include <agentio/threads.hpp>
#include <agentio/threads/run_manager.hpp>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace agentio::chat_completions {
class model;
} // namespace agentio::chat_completions

namespace portfolio::agent {

/// Limits of a chat request, beyond the HTTP server's body limit.
struct chat_limits
{
    std::size_t max_messages = 100;
    std::size_t max_message_chars = 32 * 1024;
    std::size_t max_total_chars = 256 * 1024;
};

/// The conversation of a valid request, or the 4xx answer's status and detail.
struct parsed_chat
{
    std::vector<agentio::llm::message> messages;
    std::optional<std::string> thread_id; // continue this stored thread
    // While the thread answers another message: the request's own choice (else AGENT_BUSY_POLICY).
    std::optional<agentio::threads::busy_policy> when_busy;
    unsigned status = 0; // 0: valid
    std::string detail;
};

/// Whether `id` is a thread or run id as this server makes them (a UUID, lower-case).
bool is_valid_id(std::string_view id) noexcept;

/// Validates a request body (exposed for tests).
parsed_chat parse_chat_request(std::string_view body, chat_limits const& limits);

/// The message a user reads for a provider failure; names the setting to fix.
std::string describe_provider_error(agentio::llm::error const& e, chat_settings const& settings);

/// A finished chat in a sentence (the `summary` of its `chat.run` log
/// line): outcome (and why a run was cancelled: `cancel_reason` as the run
/// manager says it), time, rounds, tool calls and tokens (exposed for tests).
std::string describe_run(agentio::agent::run_result const& result, std::chrono::milliseconds elapsed,
    std::string_view cancel_reason);

class chat_service
{
public:
    /// @param charts where generar_grafico saves charts (null: no charts); outlives the service
    /// @param store where threads and runs are kept; outlives the service
    chat_service(boost::asio::any_io_executor ex, chat_settings settings, agentio::threads::thread_store& store,
        charts::chart_store* charts = nullptr, charts::render_options chart_options = {}, chat_limits limits = {});
    ~chat_service();

    /** Where each run's end is logged (`chat.run`); null: nowhere. Before
        `start`; the logger outlives the service. */
    void set_log(agentio::log::logger* log) noexcept { log_ = log; }
    /// Where the agent's runs report (spans, metrics, log lines); set before start().
    void set_telemetry(agentio::agent::telemetry t) { telemetry_ = std::move(t); }
    /// Told of each retry of a model call (`llm::provider_options::on_retry`); set before start().
    void set_on_retry(std::function<void(std::string_view, unsigned, agentio::llm::error const&)> f)
    {
        on_retry_ = std::move(f);
    }

    /// Builds the provider, the tools and the orchestrator. The tools call
    /// the REST API at `settings.api_base_url`, or at `self` when it is empty:
    /// over https verified with `self_tls` when it is set (the server serves TLS).
    void start(boost::asio::ip::tcp::endpoint self, std::shared_ptr<boost::asio::ssl::context> self_tls = {});

    using reply = boost::asio::awaitable<std::optional<boost::beast::http::message_generator>>;

    /// POST /api/v1/agent/chat: starts a run and streams it.
    reply handle(agentio::http::request&& req, agentio::http::any_stream& stream);

    /// /api/v1/agent/runs/{run_id}/{action}: `events` (GET, the stream from
    /// Last-Event-ID or ?after=N), `cancel` (POST).
    reply handle_run(agentio::http::request&& req, agentio::http::any_stream& stream, std::string_view run_id,
        std::string_view action);

    /// /api/v1/threads (GET) and /api/v1/threads/{id} (GET, DELETE).
    reply handle_threads(agentio::http::request&& req, std::string_view thread_id);

    chat_settings const& settings() const noexcept { return settings_; }

    /** The agent as an OpenAI-compatible model (`portfolio`): its provider,
        tools and prompt in a `chat_completions::agent_model`, without threads
        (the client sends the conversation). Null before `start`, or without
        a provider key. */
    std::shared_ptr<agentio::chat_completions::model> openai_model() const { return openai_model_; }

    /// From now on a new chat is answered 503 (the server is stopping); chats
    /// already running go on. Safe from any thread.
    void stop_accepting() noexcept { stopping_ = true; }

    /// Runs of this process and streams open right now.
    std::size_t running() const noexcept { return streaming_.load() + (runs_ ? runs_->running() : 0); }

    /// Stops the runs of this process; their leases let another process (or
    /// this server, restarted) resume them.
    void stop_runs();

    /// Who asks: the owner of threads and runs ("" without AGENT_API_KEYS), or nothing when the key is wrong.
    std::optional<std::string> owner_of(agentio::http::request const& req) const;

    /// The agent's tools (none before `start`): the skills its A2A card lists.
    std::vector<agentio::tool_descriptor> tools() const
    {
        if(!agent_)
            return {};
        auto const d = agent_->tools().descriptors();
        return {d.begin(), d.end()};
    }

    /// Whether AGENT_API_KEYS asks callers for a key.
    bool keyed() const noexcept { return keys_.required(); }

    /// Where the chat's threads and runs are kept.
    agentio::threads::thread_store& store() const noexcept { return store_; }

private:
    using portfolio_agent = agentio::agent::orchestrator<agentio::llm::any_provider, portfolio_tools>;

    /// POST /api/v1/agent/runs/{run_id}/approvals: a decision on a call the run waits for.
    boost::asio::awaitable<boost::beast::http::message_generator> handle_approval(agentio::http::request const& req,
        std::string_view run_id, std::string const& owner);

    /// Streams a run's events after `after` as the response.
    boost::asio::awaitable<void> stream_run(agentio::http::request const& req, agentio::http::any_stream& stream,
        std::string const& thread_id, std::string const& run_id, std::string const& owner, std::int64_t after);

    chat_settings settings_;
    chat_limits limits_;
    std::unique_ptr<agentio::http::client> http_;     // to the model provider
    std::unique_ptr<agentio::http::client> api_http_; // to the REST API, for the tools
    std::unique_ptr<api_client> api_;
    tool_environment tool_env_;
    std::optional<agentio::llm::any_provider> provider_; // AGENT_PROVIDER's
    std::optional<portfolio_agent> agent_;
    std::shared_ptr<agentio::chat_completions::model> openai_model_;
    agentio::threads::thread_store& store_;
    std::unique_ptr<agentio::threads::run_manager<portfolio_agent>> runs_;
    agentio::http::api_keys keys_; // AGENT_API_KEYS: each key names an owner
    agentio::log::logger* log_ = nullptr;
    agentio::agent::telemetry telemetry_;
    std::function<void(std::string_view, unsigned, agentio::llm::error const&)> on_retry_;
    std::atomic<bool> stopping_{false};
    std::atomic<std::size_t> streaming_{0};
};

} // namespace portfolio::agent
