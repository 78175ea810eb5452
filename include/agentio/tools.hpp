//
// agentio/tools.hpp
// ~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Ready-made tools over the public web, each a typed tool any toolset holds:
// `tools::web_search` (Tavily, or DuckDuckGo's page without a key),
// `tools::wikipedia` (MediaWiki's action API) and `tools::weather`
// (Open-Meteo), over `tools::web_service` (retries, a cache, a cap on
// requests in flight, a User-Agent that names its contact). CMake component
// `agentio::tools` (needs libgumbo for web_search's fallback).
//
//   agentio::http::client http(ioc.get_executor());
//   agentio::toolset catalog{agentio::tools::web_search(http, {.tavily_api_key = key}),
//       agentio::tools::wikipedia(http), agentio::tools::weather(http)};
//

#ifndef AGENTIO_TOOLS_HPP
#define AGENTIO_TOOLS_HPP

#include <agentio/tools/environment.hpp>
#include <agentio/tools/weather.hpp>
#include <agentio/tools/web_search.hpp>
#include <agentio/tools/web_service.hpp>
#include <agentio/tools/wikipedia.hpp>

#endif
