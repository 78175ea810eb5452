#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# MCP clients side by side: agentio::mcp::client (bench/mcp_client_bench.cpp)
# and the official TypeScript SDK's Client (tests/mcp/js/client_bench.mjs),
# tools/call round trips against the very same servers, in one run:
#   (a) agentio-sqlite-mcp on the Chinook database, sqlite_run_select with a
#       cheap query (SELECT COUNT(*) FROM Invoice);
#   (b) @modelcontextprotocol/server-everything (the MCP project's reference
#       server, TypeScript SDK), its `echo` tool;
# each over stdio (every client run spawns its own server child, same command)
# and over Streamable HTTP (one server process per server, both clients in
# turn), one call at a time and with 16 calls in flight.
#
#   bench/mcp_client_bench.sh [seconds-per-run] [runs]
#
# Both clients run on one thread (node has one), negotiate the same revision
# (the initialize handshake, 2025-11-25), count a call when it completes inside
# the measured window (after a 0.5 s warm-up) and take its latency from its own
# start. Each also reports its own CPU time (user + system, every thread of
# its process, not the server's) per call: over stdio the server is the
# bottleneck, and what a client costs shows there. Medians of `runs`, the
# clients alternating; Markdown to stdout and build/bench/mcp_client.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
duration=${1:-2}
runs=${2:-3}
root=$(pwd)
out=$root/build/bench
mkdir -p "$out"

source scripts/node.sh # Node 22, pinned by the project
js=$root/tests/mcp/js
sdk_version=$(node -p "require('$js/package.json').dependencies['@modelcontextprotocol/sdk']")
if [ "$(node -p "try { require('$js/node_modules/@modelcontextprotocol/sdk/package.json').version } catch { '' }")" != "$sdk_version" ] ||
  ! [ -f "$js/node_modules/@modelcontextprotocol/server-everything/dist/index.js" ]; then
  npm ci --prefix "$js" --no-audit --no-fund --silent
fi
flock /tmp/agentio-build.lock cmake --build --preset release --target agentio_mcp_client_bench agentio-sqlite-mcp \
  agentio-facturas >/dev/null
if pgrep -x cc1plus >/dev/null; then echo "mcp_client_bench: a compiler is running; the figures will be low" >&2; fi
bin=$root/build/release
ours=$bin/bench/agentio_mcp_client_bench
ts=$js/client_bench.mjs
sqlite_mcp=$bin/reference_server/sqlite_mcp/agentio-sqlite-mcp
everything=$js/node_modules/@modelcontextprotocol/server-everything/dist/index.js

# The Chinook database, built from its SQL script (data/chinook/, put there by scripts/data.sh).
db=$out/chinook.db
if ! [ -f "$db" ]; then
  bash scripts/data.sh chinook >&2
  "$bin/reference_server/facturas/agentio-facturas" init-db --sql "$root/data/chinook/Chinook_Sqlite.sql" --db "$db" >/dev/null
fi

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { # logfile pattern: until the pattern shows up (10 s at most)
  for _ in $(seq 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  echo "mcp_client_bench: '$2' never appeared in $1" >&2; cat "$1" >&2; exit 1
}

# Streamable HTTP servers, started once; every client run opens (and deletes) its own session.
"$sqlite_mcp" --db "$db" --transport http --port 0 >"$out/mcp_client-sqlite-http.log" 2>/dev/null &
pids+=($!)
wait_for "$out/mcp_client-sqlite-http.log" 'http://'
sqlite_url=$(grep -o 'http://[0-9.:]*/mcp' "$out/mcp_client-sqlite-http.log" | head -1)
everything_port=$(free_port)
PORT=$everything_port node "$everything" streamableHttp >/dev/null 2>"$out/mcp_client-everything-http.log" &
pids+=($!)
wait_for "$out/mcp_client-everything-http.log" 'listening on port'
everything_url=http://127.0.0.1:$everything_port/mcp

count_args='{"sql":"SELECT COUNT(*) FROM Invoice"}'
echo_args='{"message":"hola"}'

# "rps p50 p99 cpu-µs-per-call" of one run. client: ours|ts; the rest: transport server concurrency
measure() {
  local client=$1 transport=$2 server=$3 conc=$4 tool args target text
  if [ "$server" = sqlite ]; then tool=sqlite_run_select args=$count_args; else tool=echo args=$echo_args; fi
  if [ "$transport" = http ]; then
    if [ "$server" = sqlite ]; then target=(--url "$sqlite_url"); else target=(--url "$everything_url"); fi
  elif [ "$server" = sqlite ]; then
    target=(-- "$sqlite_mcp" --db "$db")
  else
    target=(-- node "$everything" stdio)
  fi
  local common=(--seconds "$duration" --concurrency "$conc" --tool "$tool" --arguments "$args" "${target[@]}")
  if [ "$client" = ours ]; then text=$("$ours" --mode handshake "${common[@]}"); else text=$(node "$ts" "${common[@]}"); fi
  awk '$1=="calls" && $10==0 {print $4, $6, $8, $12}' <<<"$text" | grep . || {
    echo "mcp_client_bench: failed calls ($client, $transport, $server, $conc): $text" >&2; exit 1; }
}

{
  # This block runs in a subshell (it is piped to tee).
  echo "| server | transport | in flight | agentio calls/s | p50 / p99 ms | CPU µs/call | TypeScript SDK calls/s | p50 / p99 ms | CPU µs/call | calls/s ours/TS | p99 TS/ours | CPU/call TS/ours |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for server in sqlite everything; do
    for transport in stdio http; do
      for conc in 1 16; do
        o_r=() o_a=() o_p=() o_c=() t_r=() t_a=() t_p=() t_c=()
        for _ in $(seq "$runs"); do
          res=$(measure ours "$transport" "$server" "$conc")
          read -r r a p c <<<"$res"
          o_r+=("$r") o_a+=("$a") o_p+=("$p") o_c+=("$c")
          res=$(measure ts "$transport" "$server" "$conc")
          read -r r a p c <<<"$res"
          t_r+=("$r") t_a+=("$a") t_p+=("$p") t_c+=("$c")
        done
        or=$(median "${o_r[@]}") oa=$(median "${o_a[@]}") op=$(median "${o_p[@]}") oc=$(median "${o_c[@]}")
        tr=$(median "${t_r[@]}") ta=$(median "${t_a[@]}") tp=$(median "${t_p[@]}") tc=$(median "${t_c[@]}")
        if [ "$server" = sqlite ]; then name='agentio-sqlite-mcp `sqlite_run_select`'; else name='server-everything `echo`'; fi
        if [ "$transport" = http ]; then tname='Streamable HTTP'; else tname=stdio; fi
        printf '| %s | %s | %s | %.0f | %.3f / %.3f | %.1f | %.0f | %.3f / %.3f | %.1f | %s | %s | %s |\n' \
          "$name" "$tname" "$conc" "$or" "$oa" "$op" "$oc" "$tr" "$ta" "$tp" "$tc" \
          "$(awk -v a="$or" -v b="$tr" 'BEGIN {printf "%.2f×", a/b}')" \
          "$(awk -v a="$op" -v b="$tp" 'BEGIN {printf "%.2f×", b/a}')" \
          "$(awk -v a="$oc" -v b="$tc" 'BEGIN {printf "%.1f×", b/a}')"
      done
    done
  done
} | tee "$out/mcp_client.md"
echo
echo "median of $runs runs, ${duration}s each after 0.5 s of warm-up; clients on one thread; $(nproc) cores;" \
  "node $(node --version); @modelcontextprotocol/sdk $(node -p "require('$js/node_modules/@modelcontextprotocol/sdk/package.json').version");" \
  "server-everything $(node -p "require('$js/node_modules/@modelcontextprotocol/server-everything/package.json').version");" \
  "$(date -u +%Y-%m-%d)" | tee -a "$out/mcp_client.md"
