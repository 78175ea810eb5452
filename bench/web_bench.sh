#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# The chat page as served: agentio-portfolio serve (files in memory, gzipped
# once at start, ETags) next to a Python stack serving the same build
# (FastAPI + uvicorn, StaticFiles behind GZipMiddleware: bench/fastapi_static.py),
# same machine, same commands, in one run.
#
#   bench/web_bench.sh [seconds-per-run] [connections] [runs] [page-loads]
#
# wrk scenarios alternate between the servers `runs` times (medians); then
# Chromium loads the page `page-loads` times cold and warm from each
# (reference_server/portfolio/web/bench/page_load.mjs). Printed as Markdown (also
# written to build/bench/web.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
duration=${1:-10}
conns=${2:-64}
runs=${3:-3}
loads=${4:-20}
root=$(pwd)
out=$root/build/bench
mkdir -p "$out"

bash scripts/setup.sh wrk curl chromium python3-fastapi python3-uvicorn >/dev/null
bash scripts/web.sh >/dev/null
bash scripts/build.sh release agentio-portfolio >/dev/null
exe=$root/build/release/reference_server/portfolio/agentio-portfolio
dist=$root/reference_server/portfolio/web/dist
db=$out/portfolio.db
[ -f "$db" ] || "$exe" init-db "$db" >/dev/null

ours_port=18080 peer_port=18091
"$exe" serve --db "$db" --port $ours_port --threads "$(nproc)" --web-dir "$dist" >"$out/web-ours.log" 2>&1 &
ours=$!
/usr/bin/python3 bench/fastapi_static.py --dir "$dist" --port $peer_port --workers "$(nproc)" >"$out/web-peer.log" 2>&1 &
peer=$!
trap 'kill $ours $peer 2>/dev/null || true; wait 2>/dev/null || true' EXIT
wait_for_ports $ours_port $peer_port

script=$(grep -o '/assets/[^"]*\.js' "$dist/index.html" | head -1)
etag() { curl -sI "$1" | tr -d '\r' | awk 'tolower($1)=="etag:" {print $2}'; }
ours_tag=$(etag "http://127.0.0.1:$ours_port/chat")
peer_tag=$(etag "http://127.0.0.1:$peer_port/")

# name | our path | peer path | extra header (ours) | extra header (peer)
scenarios=(
  "index.html (page route)|/chat|/|Accept-Encoding: gzip|Accept-Encoding: gzip"
  "index.html revalidated (304)|/chat|/|If-None-Match: $ours_tag|If-None-Match: $peer_tag"
  "JS bundle, gzip|$script|$script|Accept-Encoding: gzip|Accept-Encoding: gzip"
  "JS bundle, identity|$script|$script|Accept-Encoding: identity|Accept-Encoding: identity"
)

# "req/s p99_ms errors".
measure() { # url header
  local text
  text=$(wrk -t2 -c"$conns" -d"${duration}s" --latency -H "$2" "$1")
  echo "$(wrk_rps <<<"$text") $(wrk_p99_ms <<<"$text") $(wrk_errors <<<"$text")"
}
size() { curl -s -o /dev/null -w '%{size_download}' -H "$2" "$1"; }

{
  echo "| scenario | bytes (agentio / FastAPI) | agentio req/s | agentio p99 ms | FastAPI req/s | FastAPI p99 ms | throughput ratio | p99 ratio |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  for s in "${scenarios[@]}"; do
    IFS='|' read -r name ours_path peer_path ours_header peer_header <<<"$s"
    ours_url="http://127.0.0.1:$ours_port$ours_path" peer_url="http://127.0.0.1:$peer_port$peer_path"
    ours_r=() ours_p=() peer_r=() peer_p=()
    for _ in $(seq "$runs"); do
      read -r rps p99 bad <<<"$(measure "$ours_url" "$ours_header")"
      [ "$bad" = 0 ] || { echo "agentio: $bad error answers in '$name'" >&2; exit 1; }
      ours_r+=("$rps") ours_p+=("$p99")
      read -r rps p99 bad <<<"$(measure "$peer_url" "$peer_header")"
      [ "$bad" = 0 ] || { echo "FastAPI: $bad error answers in '$name'" >&2; exit 1; }
      peer_r+=("$rps") peer_p+=("$p99")
    done
    our_rps=$(median "${ours_r[@]}") our_p99=$(median "${ours_p[@]}")
    peer_rps=$(median "${peer_r[@]}") peer_p99=$(median "${peer_p[@]}")
    printf '| %s | %s / %s | %.0f | %.2f | %.0f | %.2f | %s | %s |\n' "$name" \
      "$(size "$ours_url" "$ours_header")" "$(size "$peer_url" "$peer_header")" \
      "$our_rps" "$our_p99" "$peer_rps" "$peer_p99" \
      "$(awk -v a="$our_rps" -v b="$peer_rps" 'BEGIN {printf "%.1f×", a/b}')" \
      "$(awk -v a="$our_p99" -v b="$peer_p99" 'BEGIN {printf "%.1f× lower", b/a}')"
  done
  echo
  echo "median of $runs runs of wrk -t2 -c$conns -d${duration}s --latency per server; $(nproc) cores; agentio --threads $(nproc); uvicorn --workers $(nproc)"
  echo
  echo "| page load in Chromium (median of $loads) | agentio | FastAPI |"
  echo "|---|---:|---:|"
  ours_json=$(cd reference_server/portfolio/web && node bench/page_load.mjs --url "http://127.0.0.1:$ours_port/chat" --runs "$loads")
  peer_json=$(cd reference_server/portfolio/web && node bench/page_load.mjs --url "http://127.0.0.1:$peer_port/" --runs "$loads")
  for row in "cold: bytes on the wire|cold.bytes" "cold: first byte, ms|cold.ttfb" "cold: DOMContentLoaded, ms|cold.dcl" \
             "cold: question box on screen, ms|cold.ready" "warm (again, same browser): bytes on the wire|warm.bytes" \
             "warm: question box on screen, ms|warm.ready"; do
    IFS='|' read -r label key <<<"$row"
    get() { node -e "const o=JSON.parse(process.argv[1]); console.log('$key'.split('.').reduce((a,k)=>a[k],o))" "$1"; }
    echo "| $label | $(get "$ours_json") | $(get "$peer_json") |"
  done
  echo
  echo "$(date -u +%Y-%m-%d); JS $(stat -c %s "$dist$script") bytes before compression"
} | tee "$out/web.md"
