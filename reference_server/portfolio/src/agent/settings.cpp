// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "agent/settings.hpp"

#include "app/config.hpp"

#include <agentio/environment.hpp>

#include <charconv>

namespace portfolio::agent {

namespace {

template<class Number>
bool read_number(char const* name, Number& out, Number lo, Number hi, std::string& error)
{
    auto const text = env(name);
    if(!text)
        return true;
    Number v{};
    auto const [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
    if(ec != std::errc() || ptr != text->data() + text->size() || v < lo || v > hi)
    {
        auto text_of = [](Number n) {
            std::string t = std::to_string(n);
            if(t.find('.') != std::string::npos)
                t.erase(t.find_last_not_of('0') + 1), t.erase(t.find_last_not_of('.') + 1);
            return t;
        };
        error = std::string(name) + ": se esperaba un número entre " + text_of(lo) + " y " + text_of(hi) +
            ", recibido '" + *text + "'";
        return false;
    }
    out = v;
    return true;
}

} // namespace

boost::system::result<chat_settings, std::string> chat_settings::from_environment()
{
    chat_settings s;
    if(auto p = env("AGENT_PROVIDER"))
    {
        if(*p == "anthropic")
            s.provider = provider_kind::anthropic;
        else if(*p == "openai")
            s.provider = provider_kind::openai;
        else
            return "AGENT_PROVIDER: se esperaba 'anthropic' u 'openai', recibido '" + *p + "'";
    }
    s.anthropic_api_key = env("ANTHROPIC_API_KEY").value_or("");
    s.anthropic_base_url = env("ANTHROPIC_BASE_URL").value_or(s.anthropic_base_url);
    s.anthropic_version = env("ANTHROPIC_VERSION").value_or(s.anthropic_version);
    if(s.anthropic_version != "2023-06-01" && s.anthropic_version != "2026-10-21")
        return "ANTHROPIC_VERSION: se esperaba '2023-06-01' o '2026-10-21', recibido '" + s.anthropic_version + "'";
    s.openai_api_key = env("OPENAI_API_KEY").value_or("");
    s.openai_base_url = env("OPENAI_BASE_URL").value_or(s.openai_base_url);
    s.model = env("AGENT_MODEL").value_or("");
    s.api_base_url = env("AGENT_API_BASE_URL").value_or("");
    std::string error;
    unsigned grace = static_cast<unsigned>(s.detach_grace.count());
    if(!read_number("AGENT_MAX_TOKENS", s.max_tokens, 1u, 200000u, error) ||
        !read_number("AGENT_MAX_TOOL_ROUNDS", s.max_tool_rounds, 1u, 100u, error) ||
        !read_number("AGENT_DETACH_GRACE", grace, 0u, 86400u, error) ||
        !read_number("AGENT_CONTEXT_WINDOW", s.context_window, 1024u, 100000000u, error))
        return error;
    s.detach_grace = std::chrono::seconds(grace);
    if(auto count = env("AGENT_COUNT_TOKENS"))
    {
        if(*count != "on" && *count != "off")
            return "AGENT_COUNT_TOKENS: se esperaba 'on' u 'off', recibido '" + *count + "'";
        s.count_tokens = *count == "on";
    }
    if(auto busy = env("AGENT_BUSY_POLICY"))
    {
        auto const parsed = agentio::threads::parse_busy_policy(*busy);
        if(!parsed)
            return "AGENT_BUSY_POLICY: se esperaba 'reject', 'enqueue' o 'interrupt', recibido '" + *busy + "'";
        s.busy_policy = *parsed;
    }
    if(auto policy = env("AGENT_CONTEXT_POLICY"))
    {
        auto const parsed = agentio::llm::parse_context_policy(*policy);
        if(!parsed)
            return "AGENT_CONTEXT_POLICY: se esperaba 'trim' o 'compact', recibido '" + *policy + "'";
        s.context_policy = *parsed;
    }
    if(auto store = env("AGENT_STORE"))
    {
        if(!store->starts_with("sqlite:") && !store->starts_with("postgresql://") && !store->starts_with("postgres://"))
            return "AGENT_STORE: se esperaba 'sqlite:RUTA' o una URI 'postgresql://...', recibido '" + *store + "'";
        if(*store == "sqlite:")
            return std::string("AGENT_STORE: falta la ruta del fichero tras 'sqlite:'");
        s.store = *store;
    }
    if(auto tools = env("AGENT_APPROVAL_TOOLS"))
        s.approval_tools = agentio::split_list(*tools);
    if(auto keys = env("AGENT_API_KEYS"))
    {
        s.api_keys = agentio::split_list(*keys);
        if(s.api_keys.empty())
            return std::string("AGENT_API_KEYS: ninguna clave (se esperaban claves separadas por comas)");
    }
    if(auto t = env("AGENT_TEMPERATURE"))
    {
        double v = 0;
        auto const [ptr, ec] = std::from_chars(t->data(), t->data() + t->size(), v);
        if(ec != std::errc() || ptr != t->data() + t->size() || v < 0 || v > 2)
            return "AGENT_TEMPERATURE: se esperaba un número entre 0 y 2, recibido '" + *t + "'";
        s.temperature = v;
    }
    return s;
}

boost::system::result<chart_settings, std::string> chart_settings::from_environment()
{
    chart_settings s;
    std::string error;
    if(!read_number("CHART_DPI", s.dpi, 50u, 600u, error) ||
        !read_number("CHART_DEFAULT_WIDTH", s.width_in, 2.0, 40.0, error) ||
        !read_number("CHART_DEFAULT_HEIGHT", s.height_in, 2.0, 40.0, error) ||
        !read_number("CHART_MAX_CATEGORIES", s.max_categories, 2u, 100u, error) ||
        !read_number("CHART_MAX_AGE_HOURS", s.max_age_hours, 1u, 24u * 365u, error))
        return error;
    if(s.width_in * s.dpi > 10000 || s.height_in * s.dpi > 10000)
        return std::string(
            "CHART_DPI, CHART_DEFAULT_WIDTH, CHART_DEFAULT_HEIGHT: el gráfico superaría 10000 píxeles de lado");
    s.locale = env("CHART_LOCALE").value_or(s.locale);
    if(s.locale != "es_ES" && s.locale != "es_ES.UTF-8" && s.locale != "es")
        return "CHART_LOCALE: solo se admite es_ES (formato 1.234.567,89 €), recibido '" + s.locale + "'";
    s.output_dir = env("CHART_OUTPUT_DIR").value_or(s.output_dir);
    return s;
}

std::optional<std::string> chat_settings::unavailable_reason() const
{
    if(provider == provider_kind::anthropic && anthropic_api_key.empty())
        return "El asistente no está disponible: falta ANTHROPIC_API_KEY en la configuración del servidor";
    // Local OpenAI-compatible servers (Ollama, vLLM, llama.cpp) need no key; OpenAI itself does.
    if(provider == provider_kind::openai && openai_api_key.empty() &&
        openai_base_url.find("api.openai.com") != std::string::npos)
        return "El asistente no está disponible: falta OPENAI_API_KEY en la configuración del servidor";
    return std::nullopt;
}

std::string chat_settings::effective_model() const
{
    if(!model.empty())
        return model;
    return provider == provider_kind::anthropic ? default_anthropic_model : default_openai_model;
}

} // namespace portfolio::agent
