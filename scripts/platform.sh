#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Sets up, builds and runs agentio-platform on http://127.0.0.1:7002/v1.
# sql_query reads data/chinook.db and rag_retrieval searches data/normativa.db
# when they exist (scripts/facturas.sh and scripts/normativa.sh build them).
# Without ANTHROPIC_API_KEY or OPENAI_API_KEY the model is the fake LLM with the
# platform's test scenarios, so that the API can be tried without a provider;
# without TAVILY_API_KEY and the web tools' URLs, web_search, wikipedia and
# weather ask agentio-fake-web (the world of tests/web/world.json).
#   bash scripts/platform.sh [serve options]        e.g. --port 7005
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release agentio-platform agentio-sqlite-mcp agentio-fake-llm agentio-fake-web
build=build/release
[ -f data/chinook.db ] && export PLATFORM_SQL_DB=${PLATFORM_SQL_DB:-data/chinook.db}
[ -f data/normativa.db ] && export PLATFORM_RAG_INDEX=${PLATFORM_RAG_INDEX:-data/normativa.db}
fakes=()
trap 'kill "${fakes[@]}" 2>/dev/null || true' EXIT
# Starts a fake; `url` is the first URL it prints.
start_fake() {
    local out
    out=$(mktemp)
    "$@" >"$out" &
    fakes+=($!)
    for _ in $(seq 100); do grep -q listening "$out" && break; sleep 0.1; done
    url=$(grep -o 'http://[0-9.:]*' "$out" | head -1)
    rm -f "$out"
}
if [ -z "${ANTHROPIC_API_KEY:-}${OPENAI_API_KEY:-}" ]; then
    start_fake "$build/bench/agentio-fake-llm" --scenarios reference_server/platform/tests/scenarios --port 0
    echo "platform: no provider key set: the model is the fake LLM at $url (scenario platform-clients)"
    export AGENT_PROVIDER=openai OPENAI_BASE_URL=$url/v1 OPENAI_API_KEY=fake AGENT_MODEL=platform-clients
fi
if [ -z "${TAVILY_API_KEY:-}${WIKIPEDIA_API_URL:-}${OPEN_METEO_FORECAST_URL:-}" ]; then
    start_fake "$build/bench/agentio-fake-web" --world tests/web/world.json --port 0
    echo "platform: no web tool is configured: web_search, wikipedia and weather ask the fake services at $url"
    export TAVILY_API_KEY=tvly-test TAVILY_BASE_URL=$url WEB_SEARCH_FALLBACK_URL=$url/html/ \
        WIKIPEDIA_API_URL="$url/{lang}/w/api.php" OPEN_METEO_GEOCODING_URL=$url/v1/search \
        OPEN_METEO_FORECAST_URL=$url/v1/forecast
fi
"$build/reference_server/platform/agentio-platform" serve "$@"
