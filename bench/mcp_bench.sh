#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# MCP tools/call throughput and tail latency: agentio next to a server written
# with the official TypeScript SDK (tests/mcp/js/echo_server.mjs), the same
# cheap `echo` tool, the same load generators, in one run; then
# `contar_iniciativas` through agentio-portfolio mcp to a real REST server.
#
#   bench/mcp_bench.sh [seconds-per-run] [connections/window] [runs]
#
# Streamable HTTP: wrk -t1 -cN (one session, N keep-alive connections, each
# tools/call answered as an SSE stream by both servers). stdio:
# agentio_mcp_stdio_load keeps N calls in flight on the server's pipes. Each
# server runs on one thread (node is single-threaded); the load generator takes
# the other core. Medians of `runs`; Markdown to stdout and build/bench/mcp.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
duration=${1:-10}
conns=${2:-32}
runs=${3:-3}
root=$(pwd)
out=$root/build/bench
mkdir -p "$out"

bash scripts/setup.sh wrk >/dev/null
command -v npm >/dev/null || bash scripts/setup.sh nodejs npm >/dev/null
bash scripts/build.sh release agentio_mcp_echo_server agentio_mcp_stdio_load agentio-portfolio >/dev/null
npm ci --prefix tests/mcp/js --no-audit --no-fund --silent
bin=$root/build/release
ours_exe=$bin/bench/agentio_mcp_echo_server
load=$bin/bench/agentio_mcp_stdio_load
portfolio=$bin/reference_server/portfolio/agentio-portfolio
ts_server=$root/tests/mcp/js/echo_server.mjs

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
start() { # logfile command... ; sets $url from the first URL it prints
  local log=$1; shift
  "$@" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 200); do
    url=$(grep -o 'http://[0-9.:]*[^ ]*' "$log" | head -1 || true)
    [ -n "$url" ] && return 0
    sleep 0.05
  done
  echo "mcp_bench: '$*' did not start" >&2; cat "$log" >&2; exit 1
}

# A session: initialize, then notifications/initialized; prints the session id.
session() {
  local sid
  sid=$(curl -s -D - -o /dev/null -X POST "$1" -H 'content-type: application/json' \
    -H 'accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' |
    awk 'tolower($1)=="mcp-session-id:" {print $2}' | tr -d '\r')
  curl -s -o /dev/null -X POST "$1" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \
    -H "mcp-session-id: $sid" -H 'mcp-protocol-version: 2025-11-25' -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  echo "$sid"
}

call_body() { # tool arguments-json
  echo "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"$1\",\"arguments\":$2}}"
}

# "rps p99_ms" over Streamable HTTP.
measure_http() { # url tool arguments
  local sid text rps p99 bad
  sid=$(session "$1")
  text=$(SESSION="$sid" BODY="$(call_body "$2" "$3")" wrk -t1 -c"$conns" -d"${duration}s" --latency -s bench/wrk/mcp.lua "$1")
  rps=$(wrk_rps <<<"$text")
  p99=$(wrk_p99_ms <<<"$text")
  bad=$(awk '/mcp errors/ {print $3}' <<<"$text")
  [ "${bad:-1}" = 0 ] || { echo "mcp_bench: $bad failed calls on $1" >&2; echo "$text" >&2; exit 1; }
  echo "$rps $p99"
}

# "rps p99_ms" over stdio.
measure_stdio() { # tool arguments command...
  local tool=$1 args=$2 text; shift 2
  text=$("$load" --seconds "$duration" --window "$conns" --tool "$tool" --arguments "$args" -- "$@")
  awk '{print $4, $8}' <<<"$text"
}


start "$out/mcp-ours.log" "$ours_exe" --port 0
ours_url=$url
start "$out/mcp-ts.log" node "$ts_server" --port 0
ts_url=$url

echo_args='{"text":"hola"}'
{
  # This block runs in a subshell (it is piped to tee): it stops the servers it starts itself.
  trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
  echo "| echo tool | agentio calls/s | agentio p99 ms | TypeScript SDK calls/s | TypeScript SDK p99 ms | throughput ratio | p99 ratio |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for transport in "Streamable HTTP" stdio; do
    ours_r=() ours_p=() ts_r=() ts_p=()
    for _ in $(seq "$runs"); do
      if [ "$transport" = stdio ]; then
        read -r rps p99 <<<"$(measure_stdio echo "$echo_args" "$ours_exe" --stdio)"
        ours_r+=("$rps") ours_p+=("$p99")
        read -r rps p99 <<<"$(measure_stdio echo "$echo_args" node "$ts_server" --stdio)"
        ts_r+=("$rps") ts_p+=("$p99")
      else
        read -r rps p99 <<<"$(measure_http "$ours_url" echo "$echo_args")"
        ours_r+=("$rps") ours_p+=("$p99")
        read -r rps p99 <<<"$(measure_http "$ts_url" echo "$echo_args")"
        ts_r+=("$rps") ts_p+=("$p99")
      fi
    done
    a=$(median "${ours_r[@]}") ap=$(median "${ours_p[@]}") b=$(median "${ts_r[@]}") bp=$(median "${ts_p[@]}")
    printf '| %s | %.0f | %.2f | %.0f | %.2f | %s | %s |\n' "$transport" "$a" "$ap" "$b" "$bp" \
      "$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.1f×", a/b}')" "$(awk -v a="$ap" -v b="$bp" 'BEGIN {printf "%.1f× lower", b/a}')"
  done

  # contar_iniciativas: MCP server → HTTP client → REST API → SQLite /aggregate, exact counts.
  db=$out/portfolio.db
  [ -f "$db" ] || "$portfolio" init-db "$db" >/dev/null
  start "$out/mcp-rest.log" "$portfolio" serve --db "$db" --port 0 --threads 1
  api=${url%/}; api=${api%/api/v1}/api/v1
  export LOG_LEVEL=WARNING # no line per call on stderr
  start "$out/mcp-portfolio.log" "$portfolio" mcp --transport http --port 0 --api-url "$api"
  portfolio_url=$url
  count_args='{"campo_agrupacion":"estado_de_la_iniciativa"}'
  echo
  echo "| contar_iniciativas (agentio-portfolio mcp → REST → SQLite) | calls/s | p99 ms |"
  echo "|---|---:|---:|"
  h_r=() h_p=() s_r=() s_p=()
  for _ in $(seq "$runs"); do
    read -r rps p99 <<<"$(measure_http "$portfolio_url" contar_iniciativas "$count_args")"
    h_r+=("$rps") h_p+=("$p99")
    read -r rps p99 <<<"$(measure_stdio contar_iniciativas "$count_args" "$portfolio" mcp --api-url "$api")"
    s_r+=("$rps") s_p+=("$p99")
  done
  printf '| Streamable HTTP | %.0f | %.2f |\n' "$(median "${h_r[@]}")" "$(median "${h_p[@]}")"
  printf '| stdio | %.0f | %.2f |\n' "$(median "${s_r[@]}")" "$(median "${s_p[@]}")"
} | tee "$out/mcp.md"
echo
echo "median of $runs runs, ${duration}s each, $conns connections (HTTP, wrk -t1) or calls in flight (stdio); servers on one thread; $(nproc) cores; node $(node --version); @modelcontextprotocol/sdk $(node -p "require('$root/tests/mcp/js/node_modules/@modelcontextprotocol/sdk/package.json').version"); $(date -u +%Y-%m-%d)"
