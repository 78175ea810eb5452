//
// agentio/llm/environment.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The model a program talks to, named by the environment the way the
// official SDKs and our applications name it — AGENT_PROVIDER (anthropic |
// openai), ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_VERSION,
// OPENAI_API_KEY, OPENAI_BASE_URL, AGENT_MODEL — and the provider built
// from it. Errors are data (the variable, what it held, what it may hold),
// so each application words them in its users' language.
//
//   auto model = llm::model_settings::from_environment();
//   if(!model) fail(model.error().variable);
//   llm::any_provider provider = llm::make_provider(*model, http);
//

#ifndef AGENTIO_LLM_ENVIRONMENT_HPP
#define AGENTIO_LLM_ENVIRONMENT_HPP

#include <agentio/environment.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/llm/any_provider.hpp>
#include <agentio/llm/context.hpp>
#include <agentio/llm/openai.hpp>

#include <boost/system/result.hpp>

#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::llm {

/// Which wire the model speaks.
enum class provider_kind
{
    anthropic,
    openai
};

using agentio::environment_lookup;
using agentio::invalid_variable;
using agentio::process_environment;

/// The model's settings, as the environment gives them.
struct model_settings
{
    provider_kind provider = provider_kind::anthropic;            ///< AGENT_PROVIDER
    std::string anthropic_api_key = {};                           ///< ANTHROPIC_API_KEY
    std::string anthropic_base_url = "https://api.anthropic.com"; ///< ANTHROPIC_BASE_URL
    std::string anthropic_version = "2023-06-01";                 ///< ANTHROPIC_VERSION
    std::string openai_api_key = {};                              ///< OPENAI_API_KEY
    std::string openai_base_url = "https://api.openai.com/v1";    ///< OPENAI_BASE_URL
    std::string model = {};                                       ///< AGENT_MODEL
    /** AGENT_CONTEXT_WINDOW: the model's context window in tokens, for a
        model the library's table does not know (or knows wrong). */
    std::optional<std::uint64_t> context_window = {};
    /** AGENT_CONTEXT_POLICY (`trim` or `compact`): what happens to the older
        turns of a conversation that outgrows the window. */
    llm::context_policy context_policy = llm::context_policy::compact;
    /** AGENT_COUNT_TOKENS (`on` or `off`, the default): ask an Anthropic
        provider for its exact count of a request near the window's edge. */
    bool count_tokens = false;

    /// Reads the variables; the first malformed one is the error.
    static boost::system::result<model_settings, invalid_variable>
    from_environment(environment_lookup const& lookup = process_environment)
    {
        model_settings s;
        if(auto p = lookup("AGENT_PROVIDER"))
        {
            if(*p == "anthropic")
                s.provider = provider_kind::anthropic;
            else if(*p == "openai")
                s.provider = provider_kind::openai;
            else
                return invalid_variable{"AGENT_PROVIDER", *p, {"anthropic", "openai"}};
        }
        s.anthropic_api_key = lookup("ANTHROPIC_API_KEY").value_or("");
        s.anthropic_base_url = lookup("ANTHROPIC_BASE_URL").value_or(s.anthropic_base_url);
        s.anthropic_version = lookup("ANTHROPIC_VERSION").value_or(s.anthropic_version);
        if(!anthropic::parse_api_version(s.anthropic_version))
            return invalid_variable{"ANTHROPIC_VERSION", s.anthropic_version, {"2023-06-01", "2026-10-21"}};
        s.openai_api_key = lookup("OPENAI_API_KEY").value_or("");
        s.openai_base_url = lookup("OPENAI_BASE_URL").value_or(s.openai_base_url);
        s.model = lookup("AGENT_MODEL").value_or("");
        if(auto w = lookup("AGENT_CONTEXT_WINDOW"))
        {
            auto const tokens = parse_unsigned(*w, 1024, 100000000);
            if(!tokens)
                return invalid_variable{"AGENT_CONTEXT_WINDOW", *w, {"1024..100000000"}};
            s.context_window = *tokens;
        }
        if(auto p = lookup("AGENT_CONTEXT_POLICY"))
        {
            auto const policy = parse_context_policy(*p);
            if(!policy)
                return invalid_variable{"AGENT_CONTEXT_POLICY", *p, {"trim", "compact"}};
            s.context_policy = *policy;
        }
        if(auto c = lookup("AGENT_COUNT_TOKENS"))
        {
            if(*c != "on" && *c != "off")
                return invalid_variable{"AGENT_COUNT_TOKENS", *c, {"on", "off"}};
            s.count_tokens = *c == "on";
        }
        return s;
    }

    /** The variable that must be set before a call can succeed, if any: a
        provider's key, except for an OpenAI-compatible server of one's own
        (Ollama, vLLM, llama.cpp), which needs none. */
    std::optional<std::string> missing_variable() const
    {
        if(provider == provider_kind::anthropic && anthropic_api_key.empty())
            return "ANTHROPIC_API_KEY";
        if(provider == provider_kind::openai && openai_api_key.empty() &&
            openai_base_url.starts_with("https://api.openai.com"))
            return "OPENAI_API_KEY";
        return std::nullopt;
    }

    /** The window a model's requests of `max_tokens` must fit: AGENT_CONTEXT_WINDOW,
        else the window the library knows for the model (@ref llm::context_window_for). */
    llm::context_window window(std::string_view model_id, unsigned max_tokens) const noexcept
    {
        return llm::context_window_for(model_id, max_tokens, context_window);
    }

    /// AGENT_MODEL, else the given default for the provider.
    std::string effective_model(std::string_view anthropic_default = "claude-sonnet-4-5",
        std::string_view openai_default = "gpt-4.1") const
    {
        if(!model.empty())
            return model;
        return std::string(provider == provider_kind::anthropic ? anthropic_default : openai_default);
    }
};

/** The options of the HTTP client that carries a server's model calls.

    @li No cap on connections per origin that a server would meet: one
    provider origin carries every request's stream at once, and the client's
    default of 8 queues the ninth behind the first (10 000 streams through
    the platform failed that way).
    @li Idle pooled connections watched, so none lingers in CLOSE_WAIT.
    @li Proxies from the usual variables (@ref http::proxy_settings::from_environment).
*/
inline http::client_options provider_client_options()
{
    http::client_options o;
    o.max_connections_per_origin = 100000;
    o.watch_idle_connections = true;
    o.proxy = http::proxy_settings::from_environment();
    return o;
}

/** The provider of `settings`, on `http`. `base` gives what the environment
    does not (retries, timeouts); its key and URL are replaced. */
inline any_provider make_provider(model_settings const& settings, http::client& http, provider_options base = {})
{
    if(settings.provider == provider_kind::anthropic)
    {
        base.api_key = settings.anthropic_api_key;
        base.base_url = settings.anthropic_base_url;
        anthropic_wire::options wire;
        wire.version = *anthropic::parse_api_version(settings.anthropic_version);
        return any_provider(anthropic_provider(http, std::move(base), wire));
    }
    base.api_key = settings.openai_api_key;
    base.base_url = settings.openai_base_url;
    return any_provider(openai_provider(http, std::move(base)));
}

} // namespace agentio::llm

#endif
