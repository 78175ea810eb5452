// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "settings.hpp"
#include "tools.hpp"

#include <agentio/environment.hpp>

#include <charconv>
#include <cmath>

namespace normativa {

namespace {

using agentio::llm::process_environment;

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

// "a=1,b=0.5" → {a: 1, b: 0.5}; weights in [0, 100].
std::optional<std::string> read_weights(char const* name, std::map<std::string, double, std::less<>>& out)
{
    auto const text = process_environment(name);
    if(!text)
        return std::nullopt;
    std::map<std::string, double, std::less<>> weights;
    std::string_view rest = *text;
    while(!rest.empty())
    {
        auto const comma = rest.find(',');
        auto item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        auto const eq = item.find('=');
        double w = -1;
        if(eq != std::string_view::npos)
        {
            auto const value = item.substr(eq + 1);
            auto const [end, ec] = std::from_chars(value.data(), value.data() + value.size(), w);
            if(ec != std::errc() || end != value.data() + value.size())
                w = -1;
        }
        if(eq == std::string_view::npos || eq == 0 || !std::isfinite(w) || w < 0 || w > 100)
            return std::string(name) +
                ": se esperaba una lista nombre=peso (peso entre 0 y 100) separada por comas, "
                "recibido '" +
                *text + "'";
        weights[std::string(item.substr(0, eq))] = w;
    }
    out = std::move(weights);
    return std::nullopt;
}

} // namespace

boost::system::result<settings, std::string> settings::from_environment()
{
    settings s;
    auto model = agentio::llm::model_settings::from_environment();
    if(!model)
        return describe(model.error());
    s.model = std::move(*model);
    auto busy = agentio::threads::busy_policy_from_environment();
    if(!busy)
        return describe(busy.error());
    s.busy_policy = *busy;
    agentio::log::settings const log_defaults{.program = "agentio-normativa"};
    auto log = agentio::log::settings_from_environment(process_environment, log_defaults);
    if(!log)
        return describe(log.error());
    s.log = std::move(*log);
    s.index = process_environment("RAG_INDEX").value_or(s.index);
    s.store = process_environment("RAG_STORE").value_or(s.store);
    if(auto keys = process_environment("RAG_API_KEYS"))
        s.api_keys = agentio::split_list(*keys);
    if(auto tools = process_environment("RAG_APPROVAL_TOOLS"))
        for(auto& name : agentio::split_list(*tools))
        {
            if(!normativa_tools::index_of(name).has_value())
                return "RAG_APPROVAL_TOOLS: el agente no tiene la herramienta '" + name +
                    "' (search_normativa, search_sentencias, get_article, get_related_chunks)";
            s.approval_tools.push_back(std::move(name));
        }
    s.host = process_environment("RAG_HOST").value_or(s.host);
    s.web_dir = process_environment("RAG_WEB_DIR").value_or("");
    if(auto e = process_environment("RAG_EMBEDDER"))
    {
        if(*e == "lsa")
            s.embedder = embedder_kind::lsa;
        else if(*e == "openai")
            s.embedder = embedder_kind::openai;
        else
            return "RAG_EMBEDDER: se esperaba 'lsa' u 'openai', recibido '" + *e + "'";
    }
    s.embedding_model = process_environment("RAG_EMBEDDING_MODEL").value_or(s.embedding_model);
    s.embedding_base_url = process_environment("RAG_EMBEDDING_BASE_URL").value_or(s.model.openai_base_url);
    s.embedding_api_key = process_environment("RAG_EMBEDDING_API_KEY").value_or(s.model.openai_api_key);
    unsigned port = s.port;
    unsigned dimensions = 0;
    for(auto read : {agentio::read_unsigned("RAG_PORT", port, 0, 65535),
            agentio::read_unsigned("AGENT_MAX_TOKENS", s.max_tokens, 256, 64000),
            agentio::read_unsigned("RAG_MAX_MESSAGE_CHARS", s.max_message_chars, 1, 100000),
            agentio::read_unsigned("RAG_MAX_TOOL_ROUNDS", s.max_tool_rounds, 1, 20),
            agentio::read_unsigned("RAG_EMBEDDING_DIMENSIONS", dimensions, 1, 8192)})
        if(!read)
            return describe(read.error());
    s.port = static_cast<unsigned short>(port);
    if(dimensions)
        s.embedding_dimensions = dimensions;
    std::map<std::string, double, std::less<>> fusion{{"sparse", 1.0}, {"dense", 1.0}};
    if(auto error = read_weights("RAG_FUSION_WEIGHTS", fusion))
        return *error;
    for(auto const& [name, w] : fusion)
        if(name != "sparse" && name != "dense")
            return "RAG_FUSION_WEIGHTS: se admiten sparse y dense, recibido '" + name + "'";
    s.sparse_weight = fusion.contains("sparse") ? fusion["sparse"] : 1.0;
    s.dense_weight = fusion.contains("dense") ? fusion["dense"] : 1.0;
    if(auto error = read_weights("RAG_COLLECTION_WEIGHTS", s.collection_weights))
        return *error;
    return s;
}

std::optional<std::string> settings::llm_unavailable_reason() const
{
    if(auto missing = model.missing_variable())
        return "falta " + *missing + " en la configuración del servidor";
    return std::nullopt;
}

} // namespace normativa
