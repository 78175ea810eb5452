#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# The invoice pipeline's own cost per question: one facturas::invoice_agent
# answers N questions one after another (agentio-sqlite-mcp over stdio on the
# Chinook database, the fake LLM answering with no delay), next to the same
# sqlite_run_select call made directly with the MCP client, the two model
# calls alone and the thread store's work of one turn
# (reference_server/facturas/bench/facturas_bench.cpp).
#
#   bench/facturas_bench.sh [questions] [warm-up questions]
#
# Markdown to stdout and build/bench/facturas.md; the servers' per-call log
# lines to build/bench/facturas-servers.log.
set -euo pipefail
cd "$(dirname "$0")/.."
questions=${1:-500}
warmup=${2:-20}
root=$(pwd)
out=$root/build/bench
mkdir -p "$out"

flock /tmp/agentio-build.lock cmake --build --preset release --target facturas_bench agentio-sqlite-mcp \
  agentio-facturas >/dev/null
if pgrep -x cc1plus >/dev/null; then echo "facturas_bench: a compiler is running; the figures will be high" >&2; fi
bin=$root/build/release

# The Chinook database, built from its SQL script (data/chinook/, put there by scripts/data.sh).
db=$out/chinook.db
if ! [ -f "$db" ]; then
  bash scripts/data.sh chinook >&2
  "$bin/reference_server/facturas/agentio-facturas" init-db --sql "$root/data/chinook/Chinook_Sqlite.sql" --db "$db" >/dev/null
fi

: >"$out/facturas-servers.log"
"$bin/reference_server/facturas/bench/facturas_bench" --db "$db" --questions "$questions" --warmup "$warmup" \
  --sqlite-mcp "$bin/reference_server/sqlite_mcp/agentio-sqlite-mcp" --server-log "$out/facturas-servers.log" |
  tee "$out/facturas.md"
echo "$(nproc) cores; $(date -u +%Y-%m-%d)" | tee -a "$out/facturas.md"
