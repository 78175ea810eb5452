#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# `agentio-portfolio mcp` under the official MCP TypeScript SDK client, over
# stdio, Streamable HTTP and the 2024-11-05 HTTP+SSE transport, against a real REST server on a generated
# database (tests/mcp/js/portfolio_client_test.mjs). Then agentio's own MCP
# client (agentio_mcp_foreign_check, tests/mcp/foreign_servers_check.cpp)
# against the MCP project's reference server, @modelcontextprotocol/server-everything,
# over stdio and Streamable HTTP, and against the same agentio-portfolio servers.
#   scripts/mcp_clients.sh [build-dir]     (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
exe=$build/reference_server/portfolio/agentio-portfolio
[ -x "$exe" ] || cmake --build "$build" --target agentio-portfolio
check=$build/tests/agentio_mcp_foreign_check
[ -x "$check" ] || cmake --build "$build" --target agentio_mcp_foreign_check
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
mcp_url=$url
node tests/mcp/js/portfolio_client_test.mjs --api "$api" --url "$mcp_url"
start "$work/sse.txt" "$exe" mcp --transport sse --port 0 --api-url "$api"
sse_url=$url
node tests/mcp/js/portfolio_client_test.mjs --api "$api" --sse "$sse_url"

# agentio's client against servers it was not written with.
everything=tests/mcp/js/node_modules/@modelcontextprotocol/server-everything/dist/index.js
node=$(command -v node)
"$check" --server everything --log "$work/everything-stdio.err" --stdio "$node" "$everything" stdio

# server-everything over Streamable HTTP at http://HOST:$PORT/mcp; it says
# "listening on port N" on stderr once it listens, and exits when the port is taken.
everything_pid=
for _ in 1 2 3; do
    port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
    PORT=$port "$node" "$everything" streamableHttp >"$work/everything-http.txt" 2>"$work/everything-http.err" &
    everything_pid=$!
    pids+=("$everything_pid")
    for _ in $(seq 100); do
        grep -q "listening on port $port" "$work/everything-http.err" && break 2
        kill -0 "$everything_pid" 2>/dev/null || break
        sleep 0.1
    done
    kill "$everything_pid" 2>/dev/null || true
    everything_pid=
done
if [ -z "$everything_pid" ]; then
    echo "mcp_clients: server-everything streamableHttp did not start" >&2
    cat "$work/everything-http.txt" "$work/everything-http.err" >&2
    exit 1
fi
"$check" --server everything --url "http://127.0.0.1:$port/mcp"
kill "$everything_pid"
wait "$everything_pid" 2>/dev/null || true

"$check" --server portfolio --log "$work/portfolio-stdio.err" --stdio "$exe" mcp --api-url "$api"
"$check" --server portfolio --url "$mcp_url"
"$check" --server portfolio --sse "$sse_url"
