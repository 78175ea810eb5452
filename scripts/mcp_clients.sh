#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# `agentio-portfolio mcp` under the official MCP TypeScript SDK client, over
# stdio, Streamable HTTP and the 2024-11-05 HTTP+SSE transport, against a real REST server on a generated
# database (tests/mcp/js/portfolio_client_test.mjs).
#   scripts/mcp_clients.sh [build-dir]     (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
exe=$build/reference_server/portfolio/agentio-portfolio
[ -x "$exe" ] || cmake --build "$build" --target agentio-portfolio
source scripts/node.sh
npm ci --prefix tests/mcp/js --no-audit --no-fund --silent

work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
export CHART_OUTPUT_DIR=$work/charts

# The first line a server prints names its URL.
start() {
    local out=$1; shift
    "$@" >"$out" 2>"$out.err" &
    pids+=($!)
    for _ in $(seq 200); do
        url=$(grep -o 'http://[0-9.:]*[^ ]*' "$out" | head -1 || true)
        [ -n "$url" ] && return 0
        sleep 0.1
    done
    echo "mcp_clients: '$*' did not start" >&2; cat "$out" "$out.err" >&2; exit 1
}

"$exe" init-db "$work/p.db" >/dev/null
start "$work/rest.txt" "$exe" serve --db "$work/p.db" --port 0 --threads 2
api=${url%/}
api=${api%/api/v1}/api/v1
echo "REST API at $api"

node tests/mcp/js/portfolio_client_test.mjs --api "$api" -- "$exe" mcp --api-url "$api"
start "$work/mcp.txt" "$exe" mcp --transport http --port 0 --api-url "$api"
node tests/mcp/js/portfolio_client_test.mjs --api "$api" --url "$url"
start "$work/sse.txt" "$exe" mcp --transport sse --port 0 --api-url "$api"
node tests/mcp/js/portfolio_client_test.mjs --api "$api" --sse "$url"
