#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# REST API throughput and tail latency, agentio-portfolio next to a Python
# implementation of the same API (FastAPI + uvicorn + SQLite,
# PEER=path/to/fastapi_portfolio.py) on the same database, same machine, same
# wrk command, in one run.
#
#   bench/rest_bench.sh [seconds-per-run] [connections] [runs]
#
# Each scenario runs `runs` times against each server, alternating; the table
# gives the medians. Printed as Markdown (also written to build/bench/rest.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
duration=${1:-10}
conns=${2:-64}
runs=${3:-3}
root=$(pwd)
peer=${PEER:?set PEER to the peer implementation fastapi_portfolio.py}
out=$root/build/bench
mkdir -p "$out"

bash scripts/setup.sh wrk python3-fastapi python3-uvicorn >/dev/null
bash scripts/build.sh release agentio-portfolio >/dev/null
exe=$root/build/release/reference_server/portfolio/agentio-portfolio
db=$out/portfolio.db
[ -f "$db" ] || "$exe" init-db "$db" >/dev/null

ours_port=18080 peer_port=18090
"$exe" serve --db "$db" --port $ours_port --threads "$(nproc)" >"$out/ours.log" 2>&1 &
ours=$!
/usr/bin/python3 "$peer" --db "$db" --port $peer_port --workers "$(nproc)" >"$out/peer.log" 2>&1 &
peer_pid=$!
trap 'kill $ours $peer_pid 2>/dev/null || true; wait 2>/dev/null || true' EXIT
wait_for_ports $ours_port $peer_port

pid=$(/usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select portfolio_id from datos_relevantes order by id limit 1').fetchone()[0])" "$db")

search_body='{"filters":[{"field":"estado_de_la_iniciativa","operator":"eq","value":"En Ejecución"}],"order_by":"importe_2025","order_dir":"desc","limit":50}'
agg_body='{"group_by":"estado_de_la_iniciativa","metrics":[{"op":"count"}]}'

# scenario-name  method  path  body
scenarios=(
  "list limit=1|GET|/api/v1/datos-relevantes?limit=1|"
  "search 1 filter + order + limit 50|POST|/api/v1/datos-relevantes/search|$search_body"
  "portfolio/{id} (all tables)|GET|/api/v1/portfolio/$pid|"
  "aggregate by estado|POST|/api/v1/datos-relevantes/aggregate|$agg_body"
)

# "req/s p99_ms errors" (errors: answers neither 2xx nor 3xx).
measure() { # port method path body
  local url="http://127.0.0.1:$1$3" text
  if [ "$2" = POST ]; then
    text=$(BODY="$4" wrk -t2 -c"$conns" -d"${duration}s" --latency -s bench/wrk/post.lua "$url")
  else
    text=$(wrk -t2 -c"$conns" -d"${duration}s" --latency "$url")
  fi
  echo "$(wrk_rps <<<"$text") $(wrk_p99_ms <<<"$text") $(wrk_errors <<<"$text")"
}

{
  echo "| scenario | agentio req/s | agentio p99 ms | FastAPI req/s | FastAPI p99 ms | throughput ratio | p99 ratio |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for s in "${scenarios[@]}"; do
    IFS='|' read -r name method path body <<<"$s"
    ours_r=() ours_p=() peer_r=() peer_p=()
    for _ in $(seq "$runs"); do
      read -r rps p99 bad <<<"$(measure $ours_port "$method" "$path" "$body")"
      [ "$bad" = 0 ] || { echo "agentio: $bad non-2xx answers in '$name'" >&2; exit 1; }
      ours_r+=("$rps") ours_p+=("$p99")
      read -r rps p99 bad <<<"$(measure $peer_port "$method" "$path" "$body")"
      [ "$bad" = 0 ] || { echo "FastAPI: $bad non-2xx answers in '$name'" >&2; exit 1; }
      peer_r+=("$rps") peer_p+=("$p99")
    done
    our_rps=$(median "${ours_r[@]}") our_p99=$(median "${ours_p[@]}")
    peer_rps=$(median "${peer_r[@]}") peer_p99=$(median "${peer_p[@]}")
    ratio=$(awk -v a="$our_rps" -v b="$peer_rps" 'BEGIN {printf "%.1f×", a/b}')
    pratio=$(awk -v a="$our_p99" -v b="$peer_p99" 'BEGIN {printf "%.1f× lower", b/a}')
    printf '| %s | %.0f | %.2f | %.0f | %.2f | %s | %s |\n' "$name" "$our_rps" "$our_p99" "$peer_rps" "$peer_p99" "$ratio" "$pratio"
  done
} | tee "$out/rest.md"
echo
echo "median of $runs runs of wrk -t2 -c$conns -d${duration}s --latency per server; $(nproc) cores; agentio --threads $(nproc); uvicorn --workers $(nproc); $(date -u +%Y-%m-%d)"
