// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "settings.hpp"

#include <charconv>
#include <cstdlib>

namespace facturas {

namespace {

std::optional<std::string> variable(char const* name)
{
    char const* v = std::getenv(name);
    if(!v || !*v)
        return std::nullopt;
    return std::string(v);
}

// A whole number in [lo, hi], or the error that names the variable.
std::optional<std::string> read_unsigned(char const* name, unsigned& out, unsigned lo, unsigned hi)
{
    auto const text = variable(name);
    if(!text)
        return std::nullopt;
    unsigned v = 0;
    auto const [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
    if(ec != std::errc() || end != text->data() + text->size() || v < lo || v > hi)
        return std::string(name) + ": se esperaba un número entero entre " + std::to_string(lo) + " y " +
            std::to_string(hi) + ", recibido '" + *text + "'";
    out = v;
    return std::nullopt;
}

} // namespace

boost::system::result<settings, std::string> settings::from_environment()
{
    settings s;
    if(auto p = variable("AGENT_PROVIDER"))
    {
        if(*p == "anthropic")
            s.provider = provider_kind::anthropic;
        else if(*p == "openai")
            s.provider = provider_kind::openai;
        else
            return "AGENT_PROVIDER: se esperaba 'anthropic' u 'openai', recibido '" + *p + "'";
    }
    s.anthropic_api_key = variable("ANTHROPIC_API_KEY").value_or("");
    s.anthropic_base_url = variable("ANTHROPIC_BASE_URL").value_or(s.anthropic_base_url);
    s.anthropic_version = variable("ANTHROPIC_VERSION").value_or(s.anthropic_version);
    if(s.anthropic_version != "2023-06-01" && s.anthropic_version != "2026-10-21")
        return "ANTHROPIC_VERSION: se esperaba '2023-06-01' o '2026-10-21', recibido '" + s.anthropic_version + "'";
    s.openai_api_key = variable("OPENAI_API_KEY").value_or("");
    s.openai_base_url = variable("OPENAI_BASE_URL").value_or(s.openai_base_url);
    s.model = variable("AGENT_MODEL").value_or("");
    s.mcp_command = variable("INVOICE_AGENT_MCP_COMMAND").value_or("");
    s.mcp_url = variable("INVOICE_AGENT_MCP_URL").value_or("");
    if(!s.mcp_command.empty() && !s.mcp_url.empty())
        return std::string("INVOICE_AGENT_MCP_COMMAND e INVOICE_AGENT_MCP_URL: se admite uno solo de los dos");
    s.store = variable("INVOICE_AGENT_STORE").value_or(s.store);
    unsigned mcp_timeout = static_cast<unsigned>(s.mcp_timeout.count());
    unsigned schema_ttl = static_cast<unsigned>(s.schema_ttl.count());
    for(auto error : {read_unsigned("INVOICE_AGENT_MAX_HISTORY_TURNS", s.max_history_turns, 0, 50),
            read_unsigned("INVOICE_AGENT_SQL_MAX_ROWS", s.sql_max_rows, 1, 10000),
            read_unsigned("INVOICE_AGENT_MCP_TIMEOUT", mcp_timeout, 1, 3600),
            read_unsigned("INVOICE_AGENT_SCHEMA_TTL", schema_ttl, 0, 86400)})
        if(error)
            return *error;
    s.mcp_timeout = std::chrono::seconds(mcp_timeout);
    s.schema_ttl = std::chrono::seconds(schema_ttl);
    return s;
}

std::optional<std::string> settings::llm_unavailable_reason() const
{
    if(provider == provider_kind::anthropic && anthropic_api_key.empty())
        return "falta ANTHROPIC_API_KEY en la configuración del servidor";
    if(provider == provider_kind::openai && openai_api_key.empty() &&
        openai_base_url.starts_with("https://api.openai.com"))
        return "falta OPENAI_API_KEY en la configuración del servidor";
    return std::nullopt;
}

std::string settings::effective_model() const
{
    if(!model.empty())
        return model;
    return provider == provider_kind::anthropic ? "claude-sonnet-4-5" : "gpt-4.1";
}

} // namespace facturas
