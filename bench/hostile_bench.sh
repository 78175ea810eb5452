#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Hostile clients against agentio-portfolio serve and, in the same run, a Python
# implementation of the same API (FastAPI + uvicorn + SQLite, PEER=path/to/fastapi_portfolio.py):
#   - slow readers: N connections from 127.0.0.2 ask for a 2 MB answer
#     (/api/v1/datos-relevantes?limit=1000) and never read it; the server's
#     peak RSS, and how long a client on 127.0.0.1 waits for the same answer;
#   - one-address flood: M idle connections from 127.0.0.2, then a client on
#     127.0.0.1 asks for /api/v1/health until it gets a 200: how long it waits.
#
#   bench/hostile_bench.sh [slow-readers] [flood-connections]
#
# BEFORE=path/to/an/older/agentio-portfolio adds that binary to the table.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
readers=${1:-2000}
flood=${2:-10200}
root=$(pwd)
peer=${PEER:?set PEER to the peer implementation fastapi_portfolio.py}
out=$root/build/bench
mkdir -p "$out"

bash scripts/setup.sh python3-fastapi python3-uvicorn >/dev/null
bash scripts/build.sh release agentio-portfolio >/dev/null
exe=$root/build/release/reference_server/portfolio/agentio-portfolio
db=$out/portfolio.db
[ -f "$db" ] || "$exe" init-db "$db" >/dev/null
ulimit -n "$(ulimit -Hn)"

run_one() { # name command...
  local name=$1 port=18095
  shift
  "$@" --db "$db" --port $port >"$out/hostile-$name.log" 2>&1 &
  local pid=$!
  wait_for_ports $port
  echo "== $name"
  python3 bench/hostile_clients.py slow-readers $port $pid "$readers" "/api/v1/datos-relevantes?limit=1000"
  sleep 2
  python3 bench/hostile_clients.py flood $port "$flood"
  kill $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  sleep 1
}

echo "hostile clients: $readers slow readers, $flood-connection flood; $(nproc) cores; $(date -u +%Y-%m-%d)"
run_one agentio-portfolio "$exe" serve --threads "$(nproc)"
[ -n "${BEFORE:-}" ] && run_one before "$BEFORE" serve --threads "$(nproc)"
[ -f "$peer" ] && run_one fastapi /usr/bin/python3 "$peer" --workers "$(nproc)"
