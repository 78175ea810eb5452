#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# agentio-platform under the clients people use: the official openai SDK
# (create, stream, include_usage, stop, tool calls with runTools and
# finalChatCompletion, errors, the Files API) and the Vercel AI SDK with
# @ai-sdk/openai-compatible (generateText, streamText, tools), with JWT sessions
# (reference_server/platform/tests/js/openai_clients_test.mjs). The model is the
# fake LLM with reference_server/platform/tests/scenarios/; the web tools ask
# agentio-fake-web with tests/web/world.json.
#   scripts/platform_clients.sh [build-dir]     (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build/release}")
[ -x "$build/reference_server/platform/agentio-platform" ] && [ -x "$build/bench/agentio-fake-llm" ] &&
    [ -x "$build/bench/agentio-fake-web" ] ||
    cmake --build "$build" --target agentio-platform agentio-fake-llm agentio-fake-web
source scripts/node.sh
npm ci --prefix reference_server/platform/tests/js --no-audit --no-fund --silent

work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

# Starts a server; the first URL it prints says where it listens.
start() {
    local out=$1; shift
    "$@" >"$out" 2>"$out.err" &
    pids+=($!)
    for _ in $(seq 200); do
        url=$(grep -o 'http://[0-9.:]*[^ )]*' "$out" | head -1 || true)
        [ -n "$url" ] && return 0
        sleep 0.1
    done
    echo "platform_clients: '$*' did not start" >&2; cat "$out" "$out.err" >&2; exit 1
}

start "$work/fake.txt" "$build/bench/agentio-fake-llm" --scenarios reference_server/platform/tests/scenarios --port 0
fake=$url
start "$work/web.txt" "$build/bench/agentio-fake-web" --world tests/web/world.json --port 0
web=$url
secret=$(head -c 32 /dev/urandom | base64)
start "$work/platform.txt" env AGENT_PROVIDER=openai OPENAI_BASE_URL="$fake/v1" OPENAI_API_KEY=test \
    AGENT_MODEL=platform-clients PLATFORM_JWT_SECRET="$secret" PLATFORM_STORE="$work/threads.db" \
    PLATFORM_UPLOADS="$work/uploads" PLATFORM_DOCUMENTS_INDEX="$work/documents.db" PLATFORM_MAX_UPLOAD_BYTES=100000 \
    TAVILY_API_KEY=tvly-test TAVILY_BASE_URL="$web" WEB_SEARCH_FALLBACK_URL="$web/html/" \
    WIKIPEDIA_API_URL="$web/{lang}/w/api.php" OPEN_METEO_GEOCODING_URL="$web/v1/search" \
    OPEN_METEO_FORECAST_URL="$web/v1/forecast" \
    "$build/reference_server/platform/agentio-platform" serve --port 0
node reference_server/platform/tests/js/openai_clients_test.mjs --base-url "$url" --jwt-secret "$secret"
