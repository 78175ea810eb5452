#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Concurrent chats at 20 tokens/s through the scale-out deployment: nginx (two
# workers), two agentio-portfolio replicas and PostgreSQL (scripts/replicas.sh),
# the agents pointed at agentio-fake-llm, loaded by agentio_chat_load.
#   bench/scaleout_bench.sh [N ...]        (default: 1000 10000)
# Every chat holds four sockets on this machine (client-nginx and nginx-replica
# at both ends, plus the replica's and the fake LLM's ends of the model's
# stream): spread over five processes, 10 000 chats stay within the hard
# open-file limit of each, which one process alone could not.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build/release}
counts=("$@")
[ ${#counts[@]} -eq 0 ] && counts=(1000 10000)
ulimit -Hn "$(cat /proc/sys/fs/nr_open)" 2>/dev/null || true # needs CAP_SYS_RESOURCE; without it the hard limit stays
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; bash scripts/replicas.sh stop "$work/deploy" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
echo "== open files per process: $(ulimit -n)"
cmake --build "$build" --target agentio_chat_load agentio-portfolio agentio-fake-llm >/dev/null

"$build/bench/agentio-fake-llm" --scenarios bench/scenarios/load-20tps.json --port 0 > "$work/fake.out" &
for _ in $(seq 50); do grep -q listening "$work/fake.out" 2>/dev/null && break; sleep 0.1; done
fake_port=$(grep -o '[0-9]*$' "$work/fake.out")

for n in "${counts[@]}"; do
    per_worker=$(( n + 2048 )) # each nginx worker: its share of clients and their upstreams, with room for imbalance
    ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL="http://127.0.0.1:$fake_port" AGENT_MODEL=load-20tps \
        bash scripts/replicas.sh start "$work/deploy" --exe "$build/reference_server/portfolio/agentio-portfolio" \
        --serve-arg --max-connections-per-address --serve-arg 0 \
        --nginx-workers 2 --nginx-connections "$per_worker" > "$work/env.out"
    # shellcheck disable=SC1091
    source "$work/deploy/env"
    port=${NGINX_URL##*:}
    echo "== $n concurrent chats through nginx to 2 replicas, threads in PostgreSQL (one round: 534 characters in word-sized pieces, 50 ms apart)"
    "$build/bench/agentio_chat_load" 127.0.0.1 "$port" "$n" "$(echo "$REPLICA_PIDS" | tr ' ' ',')" || true
    for r in $(seq 2); do
        echo "   replica $r: $(grep -c 'chat: completada' "$work/deploy/replica-$r.err" || true) chats completed," \
            "$(grep 'chat: ' "$work/deploy/replica-$r.err" | grep -vc 'chat: completada' || true) otherwise"
        grep -v 'chat: completada' "$work/deploy/replica-$r.err" | sed 's/[0-9]\+/N/g' | sort | uniq -c | sort -rn | head -3 || true
    done
    bash scripts/replicas.sh stop "$work/deploy" > /dev/null
done
