//
// agentio/tools/environment.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The web tools configured the same way in every program, by the variables
//   TAVILY_API_KEY            Tavily's key; unset: the keyless fallback only
//   TAVILY_BASE_URL           https://api.tavily.com
//   WEB_SEARCH_FALLBACK_URL   https://html.duckduckgo.com/html/; empty or "off": no fallback
//   WIKIPEDIA_API_URL         https://{lang}.wikipedia.org/w/api.php ({lang} replaced)
//   OPEN_METEO_GEOCODING_URL  https://geocoding-api.open-meteo.com/v1/search
//   OPEN_METEO_FORECAST_URL   https://api.open-meteo.com/v1/forecast
// so that a self-hosted or proxied service, or the fakes of agentio::testing,
// stand in for the public ones.
//

#ifndef AGENTIO_TOOLS_ENVIRONMENT_HPP
#define AGENTIO_TOOLS_ENVIRONMENT_HPP

#include <agentio/config.hpp>
#include <agentio/environment.hpp>
#include <agentio/tools/weather.hpp>
#include <agentio/tools/web_search.hpp>
#include <agentio/tools/wikipedia.hpp>

#include <boost/system/result.hpp>

#include <cstdlib>
#include <string>

namespace agentio::tools {

/// The options of the three web tools.
struct web_tools_settings
{
    web_search_options web_search;
    wikipedia_options wikipedia;
    weather_options weather;
};

/** Reads the variables above through `lookup` into `defaults` (which keeps
    what they do not name: languages, words, service options). A URL that is
    not `http://` or `https://` is an error naming its variable. "off" turns
    the fallback off; so does `WEB_SEARCH_FALLBACK_URL=` (set, empty) when
    `lookup` is `process_environment` (another lookup reads empty as unset). */
inline boost::system::result<web_tools_settings, invalid_variable>
web_tools_from_environment(environment_lookup const& lookup, web_tools_settings const& defaults)
{
    auto url = [&](char const* name, std::string& into) -> boost::system::result<void, invalid_variable> {
        auto const v = lookup(name);
        if(!v)
            return {};
        if(!v->starts_with("http://") && !v->starts_with("https://"))
            return invalid_variable{name, *v, {"http://…", "https://…"}};
        into = *v;
        return {};
    };
    web_tools_settings s = defaults;
    if(auto key = lookup("TAVILY_API_KEY"))
        s.web_search.tavily_api_key = *key;
    if(auto fallback = lookup("WEB_SEARCH_FALLBACK_URL"); fallback && (*fallback == "off" || *fallback == "none"))
        s.web_search.fallback_url.clear();
    else if(auto done = url("WEB_SEARCH_FALLBACK_URL", s.web_search.fallback_url); !done)
        return done.error();
    for(auto done : {url("TAVILY_BASE_URL", s.web_search.tavily_base_url),
            url("WIKIPEDIA_API_URL", s.wikipedia.api_url), url("OPEN_METEO_GEOCODING_URL", s.weather.geocoding_url),
            url("OPEN_METEO_FORECAST_URL", s.weather.forecast_url)})
        if(!done)
            return done.error();
    if(auto const* reads = lookup.target<std::optional<std::string> (*)(char const*)>();
        reads && *reads == &process_environment)
        if(char const* fallback = std::getenv("WEB_SEARCH_FALLBACK_URL"); fallback && !*fallback)
            s.web_search.fallback_url.clear();
    return s;
}

/// The same over the tools' own defaults.
inline boost::system::result<web_tools_settings, invalid_variable>
web_tools_from_environment(environment_lookup const& lookup)
{
    web_tools_settings const defaults;
    return web_tools_from_environment(lookup, defaults);
}

/// From the process's environment.
inline boost::system::result<web_tools_settings, invalid_variable> web_tools_from_environment()
{
    return web_tools_from_environment(process_environment);
}

} // namespace agentio::tools

#endif
