#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Concurrent chats at 20 tokens/s: agentio-portfolio with its agent pointed at
# agentio-fake-llm (both on 127.0.0.1), loaded by agentio_chat_load.
#   bench/chat_bench.sh [N ...]        (default: 1000 5000 10000)
#   STORE=postgres bench/chat_bench.sh ...   (the threads in a throwaway PostgreSQL; default: SQLite)
# Each chat holds two sockets in the server (the client's and the provider's):
# run as root, the script raises the open-file limit (hard and soft) to the
# kernel's maximum first, and the server raises its soft limit to the hard one.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build/release}
counts=("$@")
[ ${#counts[@]} -eq 0 ] && counts=(1000 5000 10000)
ulimit -Hn "$(cat /proc/sys/fs/nr_open)" 2>/dev/null || true # needs CAP_SYS_RESOURCE; without it the hard limit stays
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; bash scripts/postgres.sh stop "$work/pg" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
store="sqlite:$work/agent.db"
if [ "${STORE:-sqlite}" = postgres ]; then
    store=$(bash scripts/postgres.sh start "$work/pg")
fi
echo "== threads in ${store%%:*}; open files: $(ulimit -n)"

cmake --build "$build" --target agentio_chat_load agentio-portfolio agentio-fake-llm >/dev/null
"$build/reference_server/portfolio/agentio-portfolio" init-db "$work/p.db" > /dev/null
"$build/bench/agentio-fake-llm" --scenarios bench/scenarios/load-20tps.json --port 0 > "$work/fake.out" &
for _ in $(seq 50); do grep -q listening "$work/fake.out" 2>/dev/null && break; sleep 0.1; done
fake_port=$(grep -o '[0-9]*$' "$work/fake.out")

for n in "${counts[@]}"; do
    AGENT_STORE=$store ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL="http://127.0.0.1:$fake_port" AGENT_MODEL=load-20tps \
        "$build/reference_server/portfolio/agentio-portfolio" serve --db "$work/p.db" --port 0 --threads 2 --max-connections-per-address 0 > "$work/srv.out" 2> "$work/srv.err" &
    srv=$!
    for _ in $(seq 50); do grep -q escuchando "$work/srv.out" 2>/dev/null && break; sleep 0.1; done
    port=$(grep -o 'http://[0-9.]*:[0-9]*' "$work/srv.out" | head -1 | grep -o '[0-9]*$')
    echo "== $n concurrent chats (one round: 534 characters in word-sized pieces, 50 ms apart)"
    "$build/bench/agentio_chat_load" 127.0.0.1 "$port" "$n" "$srv" || true
    kill "$srv"; wait "$srv" 2>/dev/null || true
done
