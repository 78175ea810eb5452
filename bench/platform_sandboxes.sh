#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# agentio-platform's memory while N sandboxes run at once (figures in
# docs/notes/benchmarks.md): N chat completions at once, each calling
# python_code with a snippet that sleeps a second (the fake LLM's
# platform-clients scenario, "duerme"), PLATFORM_SANDBOX_MAX_RUNNING=N. The
# platform's RSS before and at most while they run (sampled every 20 ms), and
# the sandboxes' own (every process below the platform), apart.
#   bash bench/platform_sandboxes.sh [runs=32]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
runs=${1:-32}
flock /tmp/agentio-build.lock cmake --build --preset release --target agentio-platform agentio-fake-llm >/dev/null
b=build/release
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

start "$work/fake.txt" "$b/bench/agentio-fake-llm" --scenarios reference_server/platform/tests/scenarios --port 0
fake=$port
start "$work/platform.txt" env AGENT_PROVIDER=openai OPENAI_BASE_URL="http://127.0.0.1:$fake/v1" OPENAI_API_KEY=bench \
    AGENT_MODEL=platform-clients PLATFORM_MEMORY=off PLATFORM_STORE="$work/threads.db" \
    PLATFORM_UPLOADS="$work/uploads" PLATFORM_SANDBOX_MAX_RUNNING="$runs" \
    "$b/reference_server/platform/agentio-platform" serve --port 0
platform=$pid

rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
# KiB of resident memory of every process below $1 (the sandboxes: setpriv, bwrap, python3).
below() {
    ps -eo pid=,ppid=,rss= | awk -v root="$1" '{parent[$1]=$2; rss[$1]=$3}
        END {for (p in parent) {q = parent[p]; while (q != "" && q != root && q > 1) q = parent[q]; if (q == root) s += rss[p]}; print s + 0}'
}
ask='{"model": "asistente", "agent_type": "tools", "messages": [{"role": "user", "content": "duerme un segundo"}]}'
# One call first: the page cache and the platform's first allocations.
curl -sf "http://127.0.0.1:$port/v1/chat/completions" -H 'content-type: application/json' -d "$ask" >/dev/null
before=$(rss "$platform")
peak=$before peak_below=0
began=$(date +%s.%N)
for i in $(seq "$runs"); do
    curl -sf "http://127.0.0.1:$port/v1/chat/completions" -H 'content-type: application/json' -d "$ask" \
        -o "$work/answer-$i.json" &
    asked[$i]=$!
done
while :; do
    now=$(rss "$platform"); [ "$now" -gt "$peak" ] && peak=$now
    now=$(below "$platform"); [ "$now" -gt "$peak_below" ] && peak_below=$now
    running=0
    for i in $(seq "$runs"); do kill -0 "${asked[$i]}" 2>/dev/null && running=$((running + 1)); done
    [ "$running" = 0 ] && break
    sleep 0.02
done
took=$(awk -v a="$began" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')
done_ok=$(grep -l 'despierto' "$work"/answer-*.json 2>/dev/null | wc -l)
echo "== $runs python_code calls at once, each sleeping 1 s in its sandbox"
echo "| answered | wall s | platform RSS before | at most | added per sandbox | sandboxes' own RSS at most |"
echo "|---:|---:|---:|---:|---:|---:|"
printf '| %d/%d | %.2f | %d KiB | %d KiB | %.1f KiB | %d KiB (%.1f MiB each) |\n' "$done_ok" "$runs" "$took" \
    "$before" "$peak" "$(awk -v a="$before" -v b="$peak" -v n="$runs" 'BEGIN {print (b - a) / n}')" "$peak_below" \
    "$(awk -v s="$peak_below" -v n="$runs" 'BEGIN {print s / 1024 / n}')"
[ "$done_ok" = "$runs" ] || { echo "platform_sandboxes: $((runs - done_ok)) calls did not answer" >&2; exit 1; }
