// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// POST /api/v1/agent/chat (docs/agent.md): a conversation in, the agent's
// answer out as Server-Sent Events — `chunk`, `clear_streaming`, `tool_call`,
// `done`, `error` — while the orchestrator runs the model and the tools.
#pragma once

#include "agent/api_client.hpp"
#include "agent/settings.hpp"
#include "agent/system_prompt.hpp"
#include "agent/tools.hpp"

#include <agentio/agent/orchestrator.hpp>
#include <agentio/http/any_stream.hpp>
#include <agentio/http/client.hpp>
#include <agentio/http/server.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/llm/any_provider.hpp>
#include <agentio/llm/openai.hpp>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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
    unsigned status = 0; // 0: valid
    std::string detail;
};

/// Validates a request body (exposed for tests).
parsed_chat parse_chat_request(std::string_view body, chat_limits const& limits);

/// The message a user reads for a provider failure; names the setting to fix.
std::string describe_provider_error(agentio::llm::error const& e, chat_settings const& settings);

/// The server log's line for a finished chat: outcome (and why a run was
/// cancelled), time, rounds, tool calls and tokens (exposed for tests).
std::string describe_run(agentio::agent::run_result const& result, std::chrono::milliseconds elapsed, bool client_left);

class chat_service
{
public:
    /// @param charts where generar_grafico saves charts (null: no charts); outlives the service
    chat_service(boost::asio::any_io_executor ex, chat_settings settings, charts::chart_store* charts = nullptr,
        charts::render_options chart_options = {}, chat_limits limits = {});
    ~chat_service();

    /// Builds the provider, the tools and the orchestrator. The tools call
    /// the REST API at `settings.api_base_url`, or at `self` when it is empty:
    /// over https verified with `self_tls` when it is set (the server serves TLS).
    void start(boost::asio::ip::tcp::endpoint self, std::shared_ptr<boost::asio::ssl::context> self_tls = {});

    /// The streaming handler of the endpoint.
    boost::asio::awaitable<std::optional<boost::beast::http::message_generator>> handle(agentio::http::request&& req,
        agentio::http::any_stream& stream);

    chat_settings const& settings() const noexcept { return settings_; }

    /// From now on a new chat is answered 503 (the server is stopping); chats
    /// already running go on. Safe from any thread.
    void stop_accepting() noexcept { stopping_ = true; }

    /// Chats running right now.
    std::size_t running() const noexcept { return running_.load(); }

private:
    using portfolio_agent = agentio::agent::orchestrator<agentio::llm::any_provider, portfolio_tools>;

    chat_settings settings_;
    chat_limits limits_;
    std::unique_ptr<agentio::http::client> http_;     // to the model provider
    std::unique_ptr<agentio::http::client> api_http_; // to the REST API, for the tools
    std::unique_ptr<api_client> api_;
    tool_environment tool_env_;
    std::optional<agentio::llm::any_provider> provider_; // AGENT_PROVIDER's
    std::optional<portfolio_agent> agent_;
    std::atomic<bool> stopping_{false};
    std::atomic<std::size_t> running_{0};
};

} // namespace portfolio::agent
