// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The agent's configuration (model, limits, API URL, charts, provider), read from
// the environment (and .env, loaded earlier), checked once at start-up.
#pragma once

#include <agentio/llm/context.hpp>
#include <agentio/threads.hpp>

#include <boost/system/result.hpp>

#include <chrono>
#include <optional>
#include <vector>
#include <string>

namespace portfolio::agent {

enum class provider_kind
{
    anthropic,
    openai
};

struct chat_settings
{
    provider_kind provider = provider_kind::anthropic;            // AGENT_PROVIDER
    std::string anthropic_api_key;                                // ANTHROPIC_API_KEY
    std::string anthropic_base_url = "https://api.anthropic.com"; // ANTHROPIC_BASE_URL (no /v1, as the SDKs)
    std::string anthropic_version = "2023-06-01";                 // ANTHROPIC_VERSION
    std::string openai_api_key;                                   // OPENAI_API_KEY
    std::string openai_base_url = "https://api.openai.com/v1";    // OPENAI_BASE_URL (with /v1, as the SDKs)
    std::string model;                                            // AGENT_MODEL
    unsigned max_tokens = 4096;                                   // AGENT_MAX_TOKENS
    unsigned context_window = 0; // AGENT_CONTEXT_WINDOW (tokens); 0: the model's, as the library knows it
    agentio::llm::context_policy context_policy = agentio::llm::context_policy::compact; // AGENT_CONTEXT_POLICY
    bool count_tokens = false; // AGENT_COUNT_TOKENS: the provider counts requests near the window's edge
    // AGENT_BUSY_POLICY: a second message while the thread answers is refused (409), queued, or interrupts.
    agentio::threads::busy_policy busy_policy = agentio::threads::busy_policy::reject;
    double temperature = 0.3;                   // AGENT_TEMPERATURE
    unsigned max_tool_rounds = 10;              // AGENT_MAX_TOOL_ROUNDS
    std::string api_base_url;                   // AGENT_API_BASE_URL; empty: this server
    std::string store = "sqlite:data/agent.db"; // AGENT_STORE: sqlite:PATH or postgresql://...
    std::chrono::seconds detach_grace{30};      // AGENT_DETACH_GRACE: a run nobody reads lives on
    std::vector<std::string> api_keys;          // AGENT_API_KEYS: comma-separated; empty: one user
    std::vector<std::string> approval_tools;    // AGENT_APPROVAL_TOOLS: their calls wait for a person

    /// Reads the variables; a malformed value is an error naming it.
    static boost::system::result<chat_settings, std::string> from_environment();

    /// Why the chat cannot run (answered with 503), or nothing.
    std::optional<std::string> unavailable_reason() const;

    /// The model in use: AGENT_MODEL, else the provider's default.
    std::string effective_model() const;
};

/// The charts of generar_grafico (CHART_* variables), read from the environment.
struct chart_settings
{
    unsigned dpi = 150;                       // CHART_DPI
    double width_in = 10;                     // CHART_DEFAULT_WIDTH, inches
    double height_in = 6;                     // CHART_DEFAULT_HEIGHT, inches
    unsigned max_categories = 15;             // CHART_MAX_CATEGORIES: beyond, the smallest become "Otros"
    std::string locale = "es_ES";             // CHART_LOCALE: Spanish formatting is the one built in
    std::string output_dir = "charts_output"; // CHART_OUTPUT_DIR
    unsigned max_age_hours = 24;              // CHART_MAX_AGE_HOURS: older files are removed

    /// Reads the variables; a malformed value is an error naming it.
    static boost::system::result<chart_settings, std::string> from_environment();
};

/// A current model of each provider, used when AGENT_MODEL is not set.
inline constexpr char const* default_anthropic_model = "claude-sonnet-4-5";
inline constexpr char const* default_openai_model = "gpt-4.1";

} // namespace portfolio::agent
