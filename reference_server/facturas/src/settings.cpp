// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "settings.hpp"

#include <agentio/environment.hpp>

#include <agentio/app/telemetry.hpp>

namespace facturas {

namespace {

using agentio::process_environment;

// The variable, what was expected, what it held: in Spanish.
std::string describe(agentio::invalid_variable const& e)
{
    std::string expected;
    for(auto const& v : e.expected)
        if(auto const dots = v.find(".."); dots != std::string::npos) // a range, "1..64"
            expected += "un número entero entre " + v.substr(0, dots) + " y " + v.substr(dots + 2);
        else
            expected += (expected.empty() ? "'" : " o '") + v + "'";
    return e.variable + ": se esperaba " + expected + ", recibido '" + e.value + "'";
}

} // namespace

boost::system::result<settings, std::string> settings::from_environment()
{
    settings s;
    auto model = agentio::llm::model_settings::from_environment();
    if(!model)
        return describe(model.error());
    s.model = std::move(*model);
    // The specification's LOGURU_LEVEL is read after the library's name.
    agentio::log::settings const log_defaults{.program = "agentio-facturas"};
    agentio::log::variable_names log_names;
    log_names.level.push_back("LOGURU_LEVEL");
    auto log = agentio::log::settings_from_environment(agentio::process_environment, log_defaults, log_names);
    if(!log)
        return describe(log.error());
    s.log = std::move(*log);
    agentio::trace::settings trace_defaults;
    trace_defaults.service_name = "agentio-facturas";
    auto trace = agentio::trace::settings_from_environment(agentio::process_environment, trace_defaults);
    if(!trace)
        return describe(trace.error());
    s.trace = std::move(*trace);
    auto metrics = agentio::app::metrics_address_from_environment(agentio::process_environment);
    if(!metrics)
        return describe(metrics.error());
    s.metrics_address = *metrics;
    auto busy = agentio::threads::busy_policy_from_environment();
    if(!busy)
        return describe(busy.error());
    s.busy_policy = *busy;
    s.mcp_command = process_environment("INVOICE_AGENT_MCP_COMMAND").value_or("");
    s.mcp_url = process_environment("INVOICE_AGENT_MCP_URL").value_or("");
    if(!s.mcp_command.empty() && !s.mcp_url.empty())
        return std::string("INVOICE_AGENT_MCP_COMMAND e INVOICE_AGENT_MCP_URL: se admite uno solo de los dos");
    s.store = process_environment("INVOICE_AGENT_STORE").value_or(s.store);
    if(auto tables = process_environment("INVOICE_AGENT_APPROVAL_TABLES"))
        s.approval_tables = agentio::split_list(*tables);
    unsigned mcp_timeout = static_cast<unsigned>(s.mcp_timeout.count());
    unsigned schema_ttl = static_cast<unsigned>(s.schema_ttl.count());
    for(auto read : {agentio::read_unsigned("INVOICE_AGENT_MAX_HISTORY_TURNS", s.max_history_turns, 0, 50),
            agentio::read_unsigned("INVOICE_AGENT_SQL_MAX_ROWS", s.sql_max_rows, 1, 10000),
            agentio::read_unsigned("INVOICE_AGENT_MCP_TIMEOUT", mcp_timeout, 1, 3600),
            agentio::read_unsigned("INVOICE_AGENT_SCHEMA_TTL", schema_ttl, 0, 86400)})
        if(!read)
            return describe(read.error());
    s.mcp_timeout = std::chrono::seconds(mcp_timeout);
    s.schema_ttl = std::chrono::seconds(schema_ttl);
    return s;
}

std::optional<std::string> settings::llm_unavailable_reason() const
{
    if(auto missing = model.missing_variable())
        return "Falta " + *missing + " en la configuración del servidor.";
    return std::nullopt;
}

std::string settings::effective_model() const
{
    return model.effective_model();
}

} // namespace facturas
