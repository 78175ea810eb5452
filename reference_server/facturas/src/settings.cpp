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
    auto model = agentio::llm::model_settings::from_environment();
    if(!model)
    {
        std::string expected;
        for(auto const& e : model.error().expected)
            expected += (expected.empty() ? "'" : "' o '") + e;
        return model.error().variable + ": se esperaba " + expected + "', recibido '" + model.error().value + "'";
    }
    s.model = std::move(*model);
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
    if(auto missing = model.missing_variable())
        return "falta " + *missing + " en la configuración del servidor";
    return std::nullopt;
}

std::string settings::effective_model() const
{
    return model.effective_model();
}

} // namespace facturas
