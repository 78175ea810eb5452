#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# agentio-sqlite-mcp next to a SQLite MCP server from npm
# (mcp-server-sqlite-npx, the TypeScript port of the MCP project's Python
# reference server: @modelcontextprotocol/sdk + node-sqlite3), on the same
# Chinook data, in one run:
#   1. throughput and tail latency of the read tool over stdio — ours
#      `sqlite_run_select {sql}`, the peer's `read_query {query}` — with a
#      cheap query and an aggregate with joins, one call at a time and 16 in
#      flight, both driven by the same load generator (agentio_mcp_client_bench);
#   2. which attacks each server refuses, each sent once through the read tool
#      with a client timeout; the peer runs on a throwaway copy of the database
#      (a fresh one per attack), whose bytes are compared with the original
#      afterwards (ours too).
#
#   bench/sqlite_mcp_bench.sh [seconds-per-run] [runs] [attack-timeout-s]
#
# The peer is installed by npm into build/bench/peer (exact version below);
# node-sqlite3 builds from source there against the pinned Node's headers
# (its prebuilt binary is not reachable), under the build lock. Markdown to
# stdout and build/bench/sqlite_mcp.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
duration=${1:-2}
runs=${2:-3}
attack_timeout=${3:-15}
root=$(pwd)
out=$root/build/bench
mkdir -p "$out"
peer_pkg=mcp-server-sqlite-npx
peer_version=0.8.0

source scripts/node.sh # Node 22, pinned by the project
flock /tmp/agentio-build.lock cmake --build --preset release --target agentio_mcp_client_bench agentio-sqlite-mcp \
  agentio-facturas >/dev/null
bin=$root/build/release
load=$bin/bench/agentio_mcp_client_bench
sqlite_mcp=$bin/reference_server/sqlite_mcp/agentio-sqlite-mcp

# The peer, pinned, out of the repository.
peer_dir=$out/peer
peer_js=$peer_dir/node_modules/$peer_pkg/dist/index.js
installed=$(node -p "try { require('$peer_dir/node_modules/$peer_pkg/package.json').version } catch { '' }")
if [ "$installed" != "$peer_version" ] || ! (cd "$peer_dir" && node -e "require('sqlite3')" 2>/dev/null); then
  mkdir -p "$peer_dir"
  [ -f "$peer_dir/package.json" ] || echo '{"private": true, "description": "bench/sqlite_mcp_bench.sh: the peer"}' \
    >"$peer_dir/package.json"
  # The headers of the Node that runs it (the npm `node` package ships them).
  gypi=$(find "$(dirname "$(command -v node)")/.." -path '*/include/node/common.gypi' | head -1)
  [ -n "$gypi" ] || { echo "sqlite_mcp_bench: no Node headers next to $(command -v node)" >&2; exit 1; }
  nodedir=$(cd "$(dirname "$gypi")/../.." && pwd)
  npm_config_nodedir=$nodedir flock /tmp/agentio-build.lock \
    npm install --prefix "$peer_dir" --save-exact --no-audit --no-fund --silent "$peer_pkg@$peer_version" >&2
fi
if pgrep -x cc1plus >/dev/null; then echo "sqlite_mcp_bench: a compiler is running; the figures will be low" >&2; fi

# The Chinook database, built from its SQL script (data/chinook/, put there by scripts/data.sh).
db=$out/chinook.db
if ! [ -f "$db" ]; then
  bash scripts/data.sh chinook >&2
  "$bin/reference_server/facturas/agentio-facturas" init-db --sql "$root/data/chinook/Chinook_Sqlite.sql" --db "$db" >/dev/null
fi
work=$(mktemp -d /tmp/sqlite_mcp_bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
peer_db=$work/peer.db # the peer opens its file read-write: never the original
cp "$db" "$peer_db"

# Each server's tool names, as it lists them.
ours_tools=$("$load" --list-tools -- "$sqlite_mcp" --db "$db" | tr '\n' ' ')
peer_tools=$("$load" --list-tools -- node "$peer_js" "$peer_db" | tr '\n' ' ')
[[ " $peer_tools " == *" read_query "* ]] || { echo "sqlite_mcp_bench: the peer has no read_query: $peer_tools" >&2; exit 1; }

cheap='SELECT COUNT(*) FROM Invoice'
heavy='SELECT g.Name AS genre, ROUND(SUM(il.UnitPrice * il.Quantity), 2) AS revenue FROM InvoiceLine il JOIN Track t ON t.TrackId = il.TrackId JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.GenreId ORDER BY revenue DESC'
json_string() { python3 -c 'import json, sys; print(json.dumps(sys.argv[1]))' "$1"; }

# "rps p50 p99": server (ours|peer) sql concurrency
measure() {
  local server=$1 sql=$2 conc=$3 text
  if [ "$server" = ours ]; then
    text=$("$load" --seconds "$duration" --concurrency "$conc" --tool sqlite_run_select \
      --arguments "{\"sql\":$(json_string "$sql")}" -- "$sqlite_mcp" --db "$db")
  else
    text=$("$load" --seconds "$duration" --concurrency "$conc" --tool read_query \
      --arguments "{\"query\":$(json_string "$sql")}" -- node "$peer_js" "$peer_db")
  fi
  awk '$1=="calls" && $10==0 {print $4, $6, $8}' <<<"$text" | grep . || {
    echo "sqlite_mcp_bench: failed calls ($server, $conc, $sql): $text" >&2; exit 1; }
}

{
  echo "| query | in flight | agentio-sqlite-mcp calls/s | p50 / p99 ms | $peer_pkg calls/s | p50 / p99 ms | calls/s ours/peer | p99 peer/ours |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  for q in cheap heavy; do
    if [ "$q" = cheap ]; then sql=$cheap name='`SELECT COUNT(*) FROM Invoice`'; else sql=$heavy name='revenue per genre (InvoiceLine ⋈ Track ⋈ Genre, GROUP BY)'; fi
    for conc in 1 16; do
      o_r=() o_a=() o_p=() p_r=() p_a=() p_p=()
      for _ in $(seq "$runs"); do
        res=$(measure ours "$sql" "$conc")
        read -r r a p <<<"$res"
        o_r+=("$r") o_a+=("$a") o_p+=("$p")
        res=$(measure peer "$sql" "$conc")
        read -r r a p <<<"$res"
        p_r+=("$r") p_a+=("$a") p_p+=("$p")
      done
      or=$(median "${o_r[@]}") oa=$(median "${o_a[@]}") op=$(median "${o_p[@]}")
      pr=$(median "${p_r[@]}") pa=$(median "${p_a[@]}") pp=$(median "${p_p[@]}")
      printf '| %s | %s | %.0f | %.3f / %.3f | %.0f | %.3f / %.3f | %s | %s |\n' "$name" "$conc" \
        "$or" "$oa" "$op" "$pr" "$pa" "$pp" \
        "$(awk -v a="$or" -v b="$pr" 'BEGIN {printf "%.1f×", a/b}')" \
        "$(awk -v a="$op" -v b="$pp" 'BEGIN {printf "%.1f×", b/a}')"
    done
  done
  cmp -s "$db" "$peer_db" && peer_same=unchanged || peer_same=CHANGED
  echo
  echo "The peer's copy after the load: $peer_same."

  # ---- Attacks -------------------------------------------------------------
  # name<TAB>sql (the 10 MB query is made below)
  attacks=(
    $'`DELETE FROM Invoice`\tDELETE FROM Invoice'
    $'`UPDATE Invoice SET Total = 0`\tUPDATE Invoice SET Total = 0'
    $'`INSERT INTO Genre(Name) VALUES(\'x\')`\tINSERT INTO Genre(Name) VALUES(\'x\')'
    $'writable CTE `WITH x AS (SELECT 1) DELETE FROM Invoice`\tWITH x AS (SELECT 1) DELETE FROM Invoice'
    $'`ATTACH DATABASE \'…/other.db\' AS other`\tATTACH DATABASE \'WORK/other.db\' AS other'
    $'`PRAGMA writable_schema=1`\tPRAGMA writable_schema=1'
    $'`SELECT load_extension(\'/lib/x86_64-linux-gnu/libc.so.6\')`\tSELECT load_extension(\'/lib/x86_64-linux-gnu/libc.so.6\')'
    $'stacked `SELECT 1; DELETE FROM Invoice`\tSELECT 1; DELETE FROM Invoice'
    $'hidden after a comment `SELECT 1 /* ; */; DROP TABLE Invoice`\tSELECT 1 /* ; */; DROP TABLE Invoice'
    $'never-ending recursive CTE `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n`\tWITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n'
    $'the same inside a SELECT `SELECT * FROM (WITH RECURSIVE … SELECT count(*) FROM n)`\tSELECT * FROM (WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n)'
    $'cartesian product `SELECT count(*) FROM InvoiceLine a, InvoiceLine b, InvoiceLine c`\tSELECT count(*) FROM InvoiceLine a, InvoiceLine b, InvoiceLine c'
    $'`SELECT randomblob(1000000000)`\tSELECT randomblob(1000000000)'
    $'a 10 MB query `SELECT \'xxx…\'`\tBIG'
  )
  python3 -c "import json; print(json.dumps({'sql': \"SELECT '\" + 'x' * (10 << 20) + \"'\"}))" >"$work/big-ours.json"
  python3 -c "import json; print(json.dumps({'query': \"SELECT '\" + 'x' * (10 << 20) + \"'\"}))" >"$work/big-peer.json"

  # What became of one call: ours (the code) or the peer (refused / executed / hung / crashed).
  attack() { # server sql-or-BIG
    local server=$1 sql=$2 args text outcome
    if [ "$server" = ours ]; then
      if [ "$sql" = BIG ]; then args=@$work/big-ours.json; else args="{\"sql\":$(json_string "$sql")}"; fi
      text=$("$load" --once --timeout-ms "$((attack_timeout * 1000))" --tool sqlite_run_select --arguments "$args" \
        -- "$sqlite_mcp" --db "$ours_db")
    else
      if [ "$sql" = BIG ]; then args=@$work/big-peer.json; else args="{\"query\":$(json_string "$sql")}"; fi
      text=$("$load" --once --timeout-ms "$((attack_timeout * 1000))" --tool "${3:-read_query}" --arguments "$args" \
        -- node "$peer_js" "$peer_db")
    fi
    echo "$text" >>"$out/sqlite_mcp-attacks.log"
    python3 -c '
import json, sys
r = json.loads(sys.argv[1]); server = sys.argv[2]; o = r["outcome"]
text = r["text"].replace("|", "\\|").replace("\n", " ")
text = text[:70] + ("…" if len(text) > 70 else "")
ms = ("%.1f" % r["ms"] if r["ms"] < 10 else str(round(r["ms"]))) + " ms"
if server == "ours" and o == "tool_error" and r["code"]:
    print("`" + r["code"] + "` (" + ms + ")")
elif server == "ours" and o == "rpc_error":
    print("JSON-RPC error " + str(r["code"]) + " (" + ms + "): " + text)
else:
    word = {"ok": "executed", "tool_error": "refused", "rpc_error": "refused", "timeout": "hung", "closed": "crashed",
            "failed": "crashed"}[o]
    print(word + " (" + ms + "): " + text)
' "$text" "$server"
  }

  echo
  echo "| attack (through the read tool, client timeout ${attack_timeout} s) | agentio-sqlite-mcp | $peer_pkg | peer's file changed? |"
  echo "|---|---|---|---|"
  : >"$out/sqlite_mcp-attacks.log"
  ours_db=$work/ours.db
  for entry in "${attacks[@]}"; do
    name=${entry%%$'\t'*} sql=${entry#*$'\t'}
    sql=${sql//WORK/$work}
    cp "$db" "$ours_db"
    cp "$db" "$peer_db"
    rm -f "$work/other.db"
    o=$(attack ours "$sql")
    cmp -s "$db" "$ours_db" || o="$o — FILE CHANGED"
    p=$(attack peer "$sql")
    if cmp -s "$db" "$peer_db"; then changed=no; else changed=**yes**; fi
    [ -e "$work/other.db" ] && changed="$changed (other.db created)"
    echo "| $name | $o | $p | $changed |"
  done
  # The peer's other tool: writes by design (ours has no such tool).
  cp "$db" "$peer_db"
  p=$(attack peer 'DELETE FROM Invoice' write_query)
  if cmp -s "$db" "$peer_db"; then changed=no; else changed=**yes**; fi
  echo "| \`DELETE FROM Invoice\` through the peer's \`write_query\` (ours has no write tool) | – | $p | $changed |"
} | tee "$out/sqlite_mcp.md"
echo
echo "stdio, driven by agentio_mcp_client_bench (the initialize handshake, one thread); median of $runs runs," \
  "${duration}s each after 0.5 s of warm-up; $(nproc) cores; node $(node --version);" \
  "$peer_pkg $(node -p "require('$peer_dir/node_modules/$peer_pkg/package.json').version")" \
  "(@modelcontextprotocol/sdk $(node -p "require('$peer_dir/node_modules/@modelcontextprotocol/sdk/package.json').version")," \
  "sqlite3 $(node -p "require('$peer_dir/node_modules/sqlite3/package.json').version"));" \
  "tools: ours [${ours_tools% }], peer [${peer_tools% }]; $(date -u +%Y-%m-%d)" | tee -a "$out/sqlite_mcp.md"
