#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# agentio-platform, in one run (figures in docs/notes/benchmarks.md):
#  1. its own cost: one non-streamed completion at a time (wrk, 1 connection,
#     --latency) through the platform and straight to the fake LLM it calls
#     (zero delay), median and p99 of each and the difference; then 16
#     connections, requests/s. With the keyword router (one model call a
#     request) and with the model router (a classification call first).
#  2. N streaming completions at once at 20 tokens/s (the fake's load-20tps),
#     spread over two platform processes: a stream holds two sockets in the
#     platform, and a process may open 20 000 files here. Completed, failed,
#     and the platforms' RSS per stream.
#  3. The ReAct parser on model-like replies, and the keyword router's accuracy.
#  4. Plain chat against the tool path on the routing set's chat and tools
#     requests: model calls, tokens and latency per message, both routers.
#   bash bench/platform_bench.sh [seconds=10] [streams=10000]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
seconds=${1:-10}
streams=${2:-10000}
bash scripts/setup.sh wrk >/dev/null
flock /tmp/agentio-build.lock cmake --build --preset release \
    --target agentio-platform agentio-fake-llm agentio_chat_load platform_bench platform_chat_path_bench >/dev/null
b=build/release
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

platform() { # fake-port model router [serve options]
    local fake_port=$1 model=$2 router=$3
    shift 3
    start "$work/platform-$RANDOM.txt" env AGENT_PROVIDER=openai OPENAI_BASE_URL="http://127.0.0.1:$fake_port/v1" \
        OPENAI_API_KEY=bench AGENT_MODEL="$model" PLATFORM_ROUTER="$router" PLATFORM_MEMORY=off \
        PLATFORM_STORE="$work/threads-$RANDOM.db" "$b/reference_server/platform/agentio-platform" serve --port 0 "$@"
}

start "$work/fake.txt" "$b/bench/agentio-fake-llm" --scenarios reference_server/platform/tests/scenarios --port 0
fake=$port
platform "$fake" platform-clients keywords
keywords=$port
platform "$fake" platform-clients model
by_model=$port

direct='{"model": "platform-clients", "messages": [{"role": "user", "content": "Di hola"}]}'
through='{"model": "asistente", "messages": [{"role": "user", "content": "Di hola"}]}'

echo "== one completion at a time, ${seconds} s each (ms)"
echo "| path | p50 | p99 | req/s (1 conn) | req/s (16 conns) |"
echo "|---|---:|---:|---:|---:|"
for row in "fake LLM directly|$fake|$direct" "platform, keyword router|$keywords|$through" "platform, model router|$by_model|$through"; do
    IFS='|' read -r name target body <<<"$row"
    read -r p50 p99 rps bad <<<"$(wrk_post_measure "$target" /v1/chat/completions "$body" 1)"
    read -r _ _ rps16 bad16 <<<"$(wrk_post_measure "$target" /v1/chat/completions "$body" 16)"
    [ "$bad" = 0 ] && [ "$bad16" = 0 ] || { echo "platform_bench: $name answered $bad + $bad16 errors" >&2; exit 1; }
    echo "| $name | $p50 | $p99 | $rps | $rps16 |"
done
kill "${pids[@]}" 2>/dev/null || true
wait 2>/dev/null || true
pids=()

echo
echo "== $streams streaming completions at once, 20 tokens/s, over two platform processes"
start "$work/fake-load.txt" "$b/bench/agentio-fake-llm" --scenarios bench/scenarios/load-20tps.json --port 0
fake=$port
platform "$fake" load-20tps keywords --max-connections-per-address 0
first=$port pid_first=$pid
platform "$fake" load-20tps keywords --max-connections-per-address 0
second=$port pid_second=$pid
"$b/bench/agentio_chat_load" 127.0.0.1 "$first,$second" "$streams" "$pid_first,$pid_second" \
    --path /v1/chat/completions --done 'data: [DONE]' --error 'data: {"error"' \
    --body '{"model": "asistente", "stream": true, "messages": [{"role": "user", "content": "Cuéntame algo"}]}' || true

echo
echo "== the ReAct parser and the router"
"$b/reference_server/platform/bench/platform_bench" react reference_server/platform/bench/react_replies.json
"$b/reference_server/platform/bench/platform_bench" routing reference_server/platform/tests/routing.json

echo
echo "== plain chat against the tool path (20 rounds of the routing set's chat and tools requests)"
"$b/reference_server/platform/bench/platform_chat_path_bench" reference_server/platform/tests/routing.json 20 2>/dev/null
