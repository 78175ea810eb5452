// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "settings.hpp"

#include <agentio/app/telemetry.hpp>
#include <agentio/environment.hpp>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace platform {

std::vector<variable_doc> const& documented_variables()
{
    static std::vector<variable_doc> const all = {
        {"AGENTIO_LOG_LEVEL", "info", "the log's level: trace, debug, info, warn, error or off"},
        {"AGENTIO_LOG_FORMAT", "text", "the log's lines: text (key=value) or json (JSON Lines)"},
        {"AGENTIO_LOG_FILE", "", "a log file rotated at 10 MiB (5 kept); unset: stderr"},
        {"AGENTIO_METRICS_ADDRESS", "",
            "GET /metrics on a listener of its own (127.0.0.1:9464, :9464); unset: on "
            "the API's port"},
        {"OTEL_EXPORTER_OTLP_ENDPOINT", "", "an OTLP/HTTP collector (http/json): traces on; unset: no traces"},
        {"OTEL_SERVICE_NAME", "agentio-platform", "the service's name on its spans"},
        {"OTEL_TRACES_SAMPLER", "parentbased_always_on", "which traces are recorded (OTEL_TRACES_SAMPLER_ARG)"},
        {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "false", "prompts and answers on the spans"},
        {"AGENT_PROVIDER", "anthropic", "the model's provider: anthropic or openai (any OpenAI-compatible server)"},
        {"ANTHROPIC_API_KEY", "", "Anthropic's key (AGENT_PROVIDER=anthropic)"},
        {"ANTHROPIC_BASE_URL", "https://api.anthropic.com", "Anthropic's API"},
        {"ANTHROPIC_VERSION", "2023-06-01", "the anthropic-version header"},
        {"OPENAI_API_KEY", "", "the OpenAI-compatible server's key (AGENT_PROVIDER=openai)"},
        {"OPENAI_BASE_URL", "https://api.openai.com/v1", "the OpenAI-compatible API (Ollama, vLLM, ...: their /v1)"},
        {"AGENT_MODEL", "", "the model asistente runs on; empty: claude-sonnet-4-5 (anthropic) or gpt-4.1 (openai)"},
        {"AGENT_CONTEXT_WINDOW", "", "the model's window in tokens; empty: the library's table of models"},
        {"AGENT_CONTEXT_POLICY", "compact", "a conversation beyond the window: compact (summarize) or trim"},
        {"AGENT_COUNT_TOKENS", "off", "ask the provider to count a request near the window's edge (on/off)"},
        {"AGENT_BUSY_POLICY", "reject",
            "a message while its session answers another: reject (409), enqueue or interrupt"},
        {"PLATFORM_JWT_SECRET", "", "HS256 secret of the users' JWTs; unset with no public key: no authentication"},
        {"PLATFORM_JWT_PUBLIC_KEY", "", "RS256/ES256 public key of the users' JWTs (PEM text or a file)"},
        {"PLATFORM_JWT_ISSUER", "", "the iss a JWT must have, if set"},
        {"PLATFORM_JWT_AUDIENCE", "", "the aud a JWT must have, if set"},
        {"PLATFORM_STORE", "data/platform_threads.db", "sessions, files' records: a SQLite file or postgresql://..."},
        {"PLATFORM_MEMORY", "on", "a session's earlier messages go with each request (on/off)"},
        {"PLATFORM_MEMORY_MESSAGES", "40", "how many of them, at most"},
        {"PLATFORM_SQL_DB", "", "the SQLite database sql_query reads (read-only); empty: sql_query says none"},
        {"PLATFORM_SQLITE_MCP", "", "the agentio-sqlite-mcp program; empty: next to this one"},
        {"PLATFORM_SQL_MAX_ROWS", "200", "rows a query may return"},
        {"PLATFORM_RAG_INDEX", "", "the shared retrieval index rag_retrieval searches (agentio-normativa ingest)"},
        {"PLATFORM_AGENT_PORTFOLIO", "", "agentio-portfolio's /v1 URL: served as the model portfolio"},
        {"PLATFORM_AGENT_FACTURAS", "", "agentio-facturas' /v1 URL: served as the model facturas"},
        {"PLATFORM_AGENT_NORMATIVA", "", "agentio-normativa's /v1 URL: served as the model normativa"},
        {"PLATFORM_A2A_AGENTS", "",
            "remote A2A agents, name=url,... (the agent's base URL): each a model and a tool of the asistente"},
        {"PLATFORM_A2A_TOKEN", "", "sent to the A2A agents as Authorization: Bearer, if set"},
        {"PLATFORM_ROUTER", "model", "how a strategy is chosen: model (a classifying call) or keywords"},
        {"PLATFORM_ROUTER_MODEL", "", "the model that classifies; empty: AGENT_MODEL"},
        {"PLATFORM_UPLOADS", "data/uploads", "where uploaded files' bytes are kept"},
        {"PLATFORM_MAX_UPLOAD_BYTES", "20971520", "the largest upload (a larger one is a 413)"},
        {"PLATFORM_DOCUMENTS_INDEX", "data/platform_documents.db",
            "the uploaded documents' index: a SQLite file, postgresql://..., or off"},
        {"PLATFORM_SANDBOX", "on",
            "python_code, symbolic math_calc, data_analysis and documents run sandboxed (on/off)"},
        {"PLATFORM_SANDBOX_SECONDS", "10", "the wall clock of one python_code run"},
        {"PLATFORM_SANDBOX_MEMORY_MB", "1024", "the address space of each sandboxed process"},
        {"PLATFORM_SANDBOX_MAX_RUNNING", "4", "sandboxes at once (the others wait)"},
        {"PLATFORM_MAX_ROUNDS", "8", "model calls of one tool loop"},
        {"PLATFORM_APPROVAL_TOOLS", "",
            "the asistente's tools whose calls wait for a person's approval, comma-separated (AG-UI interrupts)"},
        {"PLATFORM_MAX_ITERATIONS", "5", "ReAct steps"},
        {"TAVILY_API_KEY", "", "Tavily's key for web_search; unset: the keyless fallback only"},
        {"TAVILY_BASE_URL", "https://api.tavily.com", "Tavily's API"},
        {"WEB_SEARCH_FALLBACK_URL", "https://html.duckduckgo.com/html/",
            "web_search without Tavily: a DuckDuckGo HTML page; empty or off: none"},
        {"WIKIPEDIA_API_URL", "https://{lang}.wikipedia.org/w/api.php", "the MediaWiki action API ({lang} replaced)"},
        {"PLATFORM_WIKIPEDIA_LANGUAGE", "es", "the Wikipedia read when the model names none"},
        {"OPEN_METEO_GEOCODING_URL", "https://geocoding-api.open-meteo.com/v1/search", "weather: places"},
        {"OPEN_METEO_FORECAST_URL", "https://api.open-meteo.com/v1/forecast", "weather: forecasts"},
    };
    return all;
}

std::string env_template()
{
    std::string out = "# agentio-platform's variables, each with its default (read from the environment or a .env in\n"
                      "# the working folder; a variable set in the environment wins).\n";
    for(auto const& v : documented_variables())
    {
        out += "\n# ";
        out += v.explanation;
        out += '\n';
        if(v.default_value.empty())
            out += "# ";
        out += v.name;
        out += '=';
        out += v.default_value;
        out += '\n';
    }
    return out;
}

agentio::tools::web_tools_settings spanish_web_tools()
{
    agentio::tools::web_tools_settings web;
    web.wikipedia.default_language = "es";
    web.weather.language = "es";
    web.weather.texts = agentio::spanish_messages; // the sky in Spanish words
    return web;
}

boost::system::result<settings, std::string> settings::from_environment(agentio::environment_lookup const& lookup)
{
    settings s;
    auto model = agentio::llm::model_settings::from_environment(lookup);
    if(!model)
        return agentio::to_string(model.error());
    s.model = std::move(*model);
    agentio::log::settings const log_defaults{.program = "agentio-platform"};
    auto log = agentio::log::settings_from_environment(lookup, log_defaults);
    if(!log)
        return agentio::to_string(log.error());
    s.log = std::move(*log);
    agentio::trace::settings trace_defaults;
    trace_defaults.service_name = "agentio-platform";
    auto trace = agentio::trace::settings_from_environment(lookup, trace_defaults);
    if(!trace)
        return agentio::to_string(trace.error());
    s.trace = std::move(*trace);
    auto metrics = agentio::app::metrics_address_from_environment(lookup);
    if(!metrics)
        return agentio::to_string(metrics.error());
    s.metrics_address = *metrics;

    auto busy = agentio::threads::busy_policy_from_environment(lookup);
    if(!busy)
        return agentio::to_string(busy.error());
    s.busy_policy = *busy;
    s.jwt_secret = lookup("PLATFORM_JWT_SECRET").value_or("");
    s.jwt_public_key = lookup("PLATFORM_JWT_PUBLIC_KEY").value_or("");
    if(!s.jwt_secret.empty() && !s.jwt_public_key.empty())
        return std::string("PLATFORM_JWT_SECRET and PLATFORM_JWT_PUBLIC_KEY: set one of them, not both");
    if(!s.jwt_public_key.empty() && !s.jwt_public_key.starts_with("-----BEGIN"))
    {
        std::ifstream in(s.jwt_public_key);
        if(!in)
            return "PLATFORM_JWT_PUBLIC_KEY: neither a PEM key nor a readable file: '" + s.jwt_public_key + "'";
        std::stringstream text;
        text << in.rdbuf();
        s.jwt_public_key = text.str();
    }
    s.jwt_issuer = lookup("PLATFORM_JWT_ISSUER").value_or("");
    s.jwt_audience = lookup("PLATFORM_JWT_AUDIENCE").value_or("");

    s.store = lookup("PLATFORM_STORE").value_or(s.store);
    if(auto m = lookup("PLATFORM_MEMORY"))
    {
        if(*m == "on" || *m == "true" || *m == "1")
            s.memory = true;
        else if(*m == "off" || *m == "false" || *m == "0")
            s.memory = false;
        else
            return agentio::to_string({"PLATFORM_MEMORY", *m, {"on", "off"}});
    }
    if(auto router = lookup("PLATFORM_ROUTER"))
    {
        if(*router != "model" && *router != "keywords")
            return agentio::to_string({"PLATFORM_ROUTER", *router, {"model", "keywords"}});
        s.route_by_model = *router == "model";
    }
    s.router_model = lookup("PLATFORM_ROUTER_MODEL").value_or("");
    s.sql_db = lookup("PLATFORM_SQL_DB").value_or("");
    if(!s.sql_db.empty() && !std::filesystem::exists(s.sql_db))
        return "PLATFORM_SQL_DB: no database at '" + s.sql_db + "'";
    s.sqlite_mcp = lookup("PLATFORM_SQLITE_MCP").value_or("");
    s.rag_index = lookup("PLATFORM_RAG_INDEX").value_or("");
    for(auto const& [variable, name] : {std::pair{"PLATFORM_AGENT_PORTFOLIO", "portfolio"},
            std::pair{"PLATFORM_AGENT_FACTURAS", "facturas"}, std::pair{"PLATFORM_AGENT_NORMATIVA", "normativa"}})
        if(auto url = lookup(variable))
        {
            if(!url->starts_with("http://") && !url->starts_with("https://"))
                return std::string(variable) + ": expected an http:// or https:// URL, got '" + *url + "'";
            s.upstreams[name] = *url;
        }
    if(auto agents = lookup("PLATFORM_A2A_AGENTS"))
        for(auto const& item : agentio::split_list(*agents))
        {
            auto const equals = item.find('=');
            std::string const name(item.substr(0, equals));
            std::string const url = equals == std::string_view::npos ? std::string()
                                                                     : std::string(item.substr(equals + 1));
            bool const named = !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
                return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
            });
            if(!named)
                return "PLATFORM_A2A_AGENTS: expected name=url with a name of a-z, 0-9, _ and -, got '" +
                    std::string(item) + "'";
            if(!url.starts_with("http://") && !url.starts_with("https://"))
                return "PLATFORM_A2A_AGENTS: expected an http:// or https:// URL for '" + name + "', got '" + url + "'";
            bool const taken = name == "asistente" || s.upstreams.contains(name) ||
                std::any_of(s.a2a_agents.begin(), s.a2a_agents.end(), [&](auto const& a) { return a.first == name; });
            if(taken)
                return "PLATFORM_A2A_AGENTS: the model name '" + name + "' is taken";
            s.a2a_agents.emplace_back(name, url);
        }
    s.a2a_token = lookup("PLATFORM_A2A_TOKEN").value_or("");
    s.uploads = lookup("PLATFORM_UPLOADS").value_or(s.uploads);
    if(s.uploads.empty())
        return std::string("PLATFORM_UPLOADS: empty; name the folder for uploaded files");
    s.documents_index = lookup("PLATFORM_DOCUMENTS_INDEX").value_or(s.documents_index);
    if(auto tools = lookup("PLATFORM_APPROVAL_TOOLS"))
        for(auto const& item : agentio::split_list(*tools))
            s.approval_tools.emplace_back(item);
    if(auto v = lookup("PLATFORM_MAX_UPLOAD_BYTES"))
    {
        std::uint64_t n = 0;
        auto const [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
        if(ec != std::errc() || end != v->data() + v->size() || n < 1 || n > (std::uint64_t(1) << 32))
            return "PLATFORM_MAX_UPLOAD_BYTES: expected a whole number of bytes from 1 to 4294967296, got '" + *v + "'";
        s.max_upload_bytes = n;
    }
    if(auto m = lookup("PLATFORM_SANDBOX"))
    {
        if(*m == "on" || *m == "true" || *m == "1")
            s.sandbox = true;
        else if(*m == "off" || *m == "false" || *m == "0")
            s.sandbox = false;
        else
            return agentio::to_string({"PLATFORM_SANDBOX", *m, {"on", "off"}});
    }
    for(auto read : {agentio::read_unsigned("PLATFORM_SANDBOX_SECONDS", s.sandbox_seconds, 1, 600, lookup),
            agentio::read_unsigned("PLATFORM_SANDBOX_MEMORY_MB", s.sandbox_memory_mb, 64, 65536, lookup),
            agentio::read_unsigned("PLATFORM_SANDBOX_MAX_RUNNING", s.sandbox_max_running, 1, 256, lookup)})
        if(!read)
            return agentio::to_string(read.error());
    auto web = agentio::tools::web_tools_from_environment(lookup, s.web);
    if(!web)
        return agentio::to_string(web.error());
    s.web = std::move(*web);
    if(auto language = lookup("PLATFORM_WIKIPEDIA_LANGUAGE"))
        s.web.wikipedia.default_language = *language;
    for(auto read : {agentio::read_unsigned("PLATFORM_MEMORY_MESSAGES", s.memory_messages, 2, 1000, lookup),
            agentio::read_unsigned("PLATFORM_SQL_MAX_ROWS", s.sql_max_rows, 1, 10000, lookup),
            agentio::read_unsigned("PLATFORM_MAX_ROUNDS", s.max_rounds, 1, 50, lookup),
            agentio::read_unsigned("PLATFORM_MAX_ITERATIONS", s.max_iterations, 1, 50, lookup)})
        if(!read)
            return agentio::to_string(read.error());
    return s;
}

} // namespace platform
