#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# AG-UI and A2A beside agentio-portfolio's own doors, in one run (figures in
# docs/notes/benchmarks.md, "AG-UI"). The same agent, the same process, the same
# answer from the fake LLM (534 characters in word-sized pieces):
#  1. CONCURRENT streams at once through each door, the fake answering at once:
#     the portfolio chat's own SSE (POST /api/v1/agent/chat, a durable run),
#     OpenAI's stream (POST /v1/chat/completions) and AG-UI (POST /ag-ui, a run
#     holding its thread, journaled) and A2A (POST /a2a SendStreamingMessage, a
#     task over the same runs). Events received per second, each stream's
#     first event and end (p50, p99). Three rounds, the doors in turn.
#  2. MANY streams at once at 20 pieces a second (the fake's load-20tps), through
#     AG-UI, A2A and the chat's own SSE: completed, failed, RSS per stream.
#   bash bench/ag_ui_bench.sh [concurrent=100] [many=10000]
set -euo pipefail
cd "$(dirname "$0")/.."
concurrent=${1:-100}
many=${2:-10000}
build=${BUILD:-build/release}
ulimit -Hn "$(cat /proc/sys/fs/nr_open)" 2>/dev/null || true
ulimit -n "$(ulimit -Hn)"
flock /tmp/agentio-build.lock cmake --build "$build" --target agentio_chat_load agentio-portfolio agentio-fake-llm \
    >/dev/null
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

"$build/reference_server/portfolio/agentio-portfolio" init-db "$work/p.db" >/dev/null
mkdir "$work/scenarios"
cp bench/scenarios/load-20tps.json "$work/scenarios/"
sed -e 's/"load-20tps"/"load-fast"/' -e 's/"token_interval_ms": 50/"token_interval_ms": 0/' \
    bench/scenarios/load-20tps.json >"$work/scenarios/load-fast.json"
"$build/bench/agentio-fake-llm" --scenarios "$work/scenarios" --port 0 >"$work/fake.out" &
for _ in $(seq 50); do grep -q listening "$work/fake.out" 2>/dev/null && break; sleep 0.1; done
fake_port=$(grep -o '[0-9]*$' "$work/fake.out")

portfolio() { # model: starts agentio-portfolio on a fresh store; sets $srv and $port
    rm -f "$work/threads.db"*
    AGENT_STORE="sqlite:$work/threads.db" ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL="http://127.0.0.1:$fake_port" \
        AGENT_MODEL="$1" "$build/reference_server/portfolio/agentio-portfolio" serve --db "$work/p.db" --port 0 \
        --threads 2 --max-connections-per-address 0 >"$work/srv.out" 2>"$work/srv.err" &
    srv=$!
    for _ in $(seq 50); do grep -q escuchando "$work/srv.out" 2>/dev/null && break; sleep 0.1; done
    port=$(grep -o 'http://[0-9.]*:[0-9]*' "$work/srv.out" | head -1 | grep -o '[0-9]*$')
}
question='¿Cuántas iniciativas hay en ejecución?'
door() { # name n round
    local name=$1 n=$2 round=$3
    case $name in
    chat-sse) "$build/bench/agentio_chat_load" 127.0.0.1 "$port" "$n" "$srv" ;;
    openai) "$build/bench/agentio_chat_load" 127.0.0.1 "$port" "$n" "$srv" --path /v1/chat/completions \
        --body '{"model": "portfolio", "stream": true, "messages": [{"role": "user", "content": "'"$question"'"}]}' \
        --done 'data: [DONE]' --error '"error"' ;;
    ag-ui) "$build/bench/agentio_chat_load" 127.0.0.1 "$port" "$n" "$srv" --path /ag-ui \
        --body '{"threadId": "t-'"$round"'-{n}", "runId": "r-'"$round"'-{n}", "messages": [{"id": "m-1", "role": "user", "content": "'"$question"'"}]}' \
        --done '"RUN_FINISHED"' --error '"RUN_ERROR"' ;;
    a2a) "$build/bench/agentio_chat_load" 127.0.0.1 "$port" "$n" "$srv" --path /a2a --header 'A2A-Version: 1.0' \
        --body '{"jsonrpc": "2.0", "id": {n}, "method": "SendStreamingMessage", "params": {"message": {"messageId": "m-'"$round"'-{n}", "role": "ROLE_USER", "parts": [{"text": "'"$question"'"}]}}}' \
        --done '"TASK_STATE_COMPLETED"' --error '"error":{' ;;
    esac
}

echo "== 1. $concurrent streams at once per door, the fake answering at once ($(date -u +%F))"
portfolio load-fast
door ag-ui 20 warm >/dev/null || true
door a2a 20 warm >/dev/null || true
door chat-sse 20 warm >/dev/null || true
for round in 1 2 3; do
    for name in chat-sse openai ag-ui a2a; do
        echo "-- round $round, $name"
        door "$name" "$concurrent" "$round" | grep -v '^server RSS' || true
    done
done
kill "$srv"; wait "$srv" 2>/dev/null || true

echo "== 2. $many streams at once at 20 pieces a second"
for name in ag-ui a2a chat-sse; do
    portfolio load-20tps
    echo "-- $name"
    door "$name" "$many" many || true
    kill "$srv"; wait "$srv" 2>/dev/null || true
done
