// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "settings.hpp"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace platform {

agentio::tools::web_tools_settings spanish_web_tools()
{
    agentio::tools::web_tools_settings web;
    web.wikipedia.default_language = "es";
    web.weather.language = "es";
    auto& t = web.weather.texts;
    t.weather_0 = "despejado";
    t.weather_1 = "mayormente despejado";
    t.weather_2 = "parcialmente nublado";
    t.weather_3 = "cubierto";
    t.weather_45 = "niebla";
    t.weather_48 = "niebla con escarcha";
    t.weather_51 = "llovizna ligera";
    t.weather_53 = "llovizna moderada";
    t.weather_55 = "llovizna intensa";
    t.weather_56 = "llovizna helada ligera";
    t.weather_57 = "llovizna helada intensa";
    t.weather_61 = "lluvia débil";
    t.weather_63 = "lluvia moderada";
    t.weather_65 = "lluvia fuerte";
    t.weather_66 = "lluvia helada débil";
    t.weather_67 = "lluvia helada fuerte";
    t.weather_71 = "nevada débil";
    t.weather_73 = "nevada moderada";
    t.weather_75 = "nevada fuerte";
    t.weather_77 = "granos de nieve";
    t.weather_80 = "chubascos débiles";
    t.weather_81 = "chubascos moderados";
    t.weather_82 = "chubascos muy fuertes";
    t.weather_85 = "chubascos de nieve débiles";
    t.weather_86 = "chubascos de nieve fuertes";
    t.weather_95 = "tormenta";
    t.weather_96 = "tormenta con granizo débil";
    t.weather_99 = "tormenta con granizo fuerte";
    t.weather_unknown = "desconocido";
    return web;
}

boost::system::result<settings, std::string> settings::from_environment(agentio::environment_lookup const& lookup)
{
    settings s;
    auto model = agentio::llm::model_settings::from_environment(lookup);
    if(!model)
        return agentio::to_string(model.error());
    s.model = std::move(*model);

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
    s.uploads = lookup("PLATFORM_UPLOADS").value_or(s.uploads);
    if(s.uploads.empty())
        return std::string("PLATFORM_UPLOADS: empty; name the folder for uploaded files");
    s.documents_index = lookup("PLATFORM_DOCUMENTS_INDEX").value_or(s.documents_index);
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
    // WEB_SEARCH_FALLBACK_URL set and empty in the process's environment: no fallback (a lookup reads empty
    // as unset, so this asks the environment itself when the lookup is the process's).
    auto const* reads = lookup.target<std::optional<std::string> (*)(char const*)>();
    if(char const* fallback = std::getenv("WEB_SEARCH_FALLBACK_URL");
        reads && *reads == &agentio::process_environment && fallback && !*fallback)
        s.web.web_search.fallback_url.clear();
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
