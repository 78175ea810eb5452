#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# What observability costs, in one run (figures in docs/notes/benchmarks.md):
#  1. A platform completion (asistente, keyword router: one model call) and a
#     portfolio chat completion (the tool loop's model `portfolio`), each against
#     the fake LLM at zero delay, under five settings side by side: everything
#     off (AGENTIO_LOG_LEVEL=off, no OTEL_*), logs only (info, JSON Lines to a
#     file), logs at debug, traces to a live receiver (tests/otlp/receiver.mjs,
#     the OpenTelemetry JS SDK's decoder), and traces to a dead endpoint (a port
#     nobody listens on). Metrics are always recorded (a few atomics a request).
#     wrk: one connection for p50/p99, 16 connections for requests/s.
#  2. GET /metrics on the platform's own metrics port (AGENTIO_METRICS_ADDRESS)
#     while N streaming completions are open: the scrapes' times and the
#     exposition's size.
#   bash bench/observability_bench.sh [seconds=10] [streams=10000]     (seconds=0: part 2 only)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
seconds=${1:-10}
streams=${2:-10000}
bash scripts/setup.sh wrk curl >/dev/null
flock /tmp/agentio-build.lock cmake --build --preset release \
    --target agentio-platform agentio-portfolio agentio-fake-llm agentio_chat_load >/dev/null
b=build/release
ulimit -n "$(ulimit -Hn)"
source scripts/node.sh
npm ci --prefix tests/otlp --no-audit --no-fund --silent
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

start "$work/fake.txt" "$b/bench/agentio-fake-llm" --scenarios reference_server/platform/tests/scenarios --port 0
fake=$port
node tests/otlp/receiver.mjs --out /dev/null >"$work/receiver.txt" 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do
    receiver=$(sed -n 's/^listening \([0-9]*\)$/\1/p' "$work/receiver.txt" | head -1)
    [ -n "$receiver" ] && break
    sleep 0.1
done
dead=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

settings_of() { # name → the environment of that setting
    case $1 in
    off) echo "AGENTIO_LOG_LEVEL=off" ;;
    logs) echo "AGENTIO_LOG_LEVEL=info AGENTIO_LOG_FORMAT=json AGENTIO_LOG_FILE=$work/$RANDOM.log" ;;
    debug) echo "AGENTIO_LOG_LEVEL=debug AGENTIO_LOG_FORMAT=json AGENTIO_LOG_FILE=$work/$RANDOM.log" ;;
    live) echo "AGENTIO_LOG_LEVEL=off OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$receiver OTEL_BSP_SCHEDULE_DELAY=200" ;;
    dead) echo "AGENTIO_LOG_LEVEL=off OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$dead OTEL_BSP_SCHEDULE_DELAY=200" ;;
    esac
}


platform_body='{"model": "asistente", "messages": [{"role": "user", "content": "Di hola"}]}'
portfolio_body='{"model": "portfolio", "messages": [{"role": "user", "content": "Di hola"}]}'
echo "== one completion against the fake LLM (zero delay), ${seconds} s each (ms)"
echo "| application | setting | p50 | p99 | req/s (1 conn) | req/s (16 conns) |"
echo "|---|---|---:|---:|---:|---:|"
apps=(platform portfolio)
[ "$seconds" = 0 ] && apps=()
for app in "${apps[@]}"; do
    for setting in off logs debug live dead; do
        # shellcheck disable=SC2046
        if [ "$app" = platform ]; then
            start "$work/$app-$setting.txt" env $(settings_of "$setting") AGENT_PROVIDER=openai \
                OPENAI_BASE_URL="http://127.0.0.1:$fake/v1" OPENAI_API_KEY=bench AGENT_MODEL=platform-clients \
                PLATFORM_ROUTER=keywords PLATFORM_MEMORY=off PLATFORM_STORE="$work/threads-$setting.db" \
                "$b/reference_server/platform/agentio-platform" serve --port 0
            body=$platform_body
        else
            start "$work/$app-$setting.txt" env $(settings_of "$setting") AGENT_PROVIDER=openai \
                OPENAI_BASE_URL="http://127.0.0.1:$fake/v1" OPENAI_API_KEY=bench AGENT_MODEL=platform-clients \
                "$b/reference_server/portfolio/agentio-portfolio" serve --port 0
            body=$portfolio_body
        fi
        server=$pid
        read -r p50 p99 rps bad <<<"$(wrk_post_measure "$port" /v1/chat/completions "$body" 1)"
        read -r _ _ rps16 bad16 <<<"$(wrk_post_measure "$port" /v1/chat/completions "$body" 16)"
        [ "$bad" = 0 ] && [ "$bad16" = 0 ] || { echo "observability_bench: $app $setting: $bad + $bad16 errors" >&2; exit 1; }
        echo "| $app | $setting | $p50 | $p99 | $rps | $rps16 |"
        kill "$server"
        wait "$server" 2>/dev/null || true
    done
done

echo
echo "== GET /metrics on its own port (AGENTIO_METRICS_ADDRESS) with $streams streaming completions open (20 tokens/s)"
start "$work/fake-load.txt" "$b/bench/agentio-fake-llm" --scenarios bench/scenarios/load-20tps.json --port 0
load=$port
metrics_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start "$work/platform-load.txt" env AGENTIO_LOG_LEVEL=off AGENT_PROVIDER=openai \
    AGENTIO_METRICS_ADDRESS="127.0.0.1:$metrics_port" \
    OPENAI_BASE_URL="http://127.0.0.1:$load/v1" OPENAI_API_KEY=bench AGENT_MODEL=load-20tps PLATFORM_ROUTER=keywords \
    PLATFORM_MEMORY=off PLATFORM_STORE="$work/threads-load.db" \
    "$b/reference_server/platform/agentio-platform" serve --port 0 --max-connections-per-address 0 \
    --max-connections $((streams * 2 + 100))
target=$port
"$b/bench/agentio_chat_load" 127.0.0.1 "$target" "$streams" "$pid" --path /v1/chat/completions \
    --done 'data: [DONE]' --error 'data: {"error"' \
    --body '{"model": "asistente", "stream": true, "messages": [{"role": "user", "content": "Cuéntame algo"}]}' \
    >"$work/load.txt" 2>&1 &
loader=$!
# Scrapes every half second while the streams run; the table takes those made with most of them open.
: >"$work/scrapes.txt"
while kill -0 "$loader" 2>/dev/null; do
    took=$(curl -s -o "$work/metrics.txt" -w '%{http_code} %{time_total}' "http://127.0.0.1:$metrics_port/metrics")
    open=$(awk '$1 == "agentio_sse_streams_open" {print $2 + 0}' "$work/metrics.txt")
    open=${open:-0}
    echo "$open $took $(wc -c <"$work/metrics.txt")" >>"$work/scrapes.txt"
    sleep 0.5
done
busy=$(awk -v n="$streams" '$1 >= n * 0.9 && $2 == 200' "$work/scrapes.txt")
[ -n "$busy" ] || busy=$(sort -g -r "$work/scrapes.txt" | head -5)
echo "| scrapes | streams open | scrape median (ms) | scrape max (ms) | exposition bytes |"
echo "|---:|---:|---:|---:|---:|"
awk '{print $3 * 1000}' <<<"$busy" | sort -g | awk -v most="$(awk '{print $1}' <<<"$busy" | sort -g | tail -1)" \
    -v bytes="$(awk '{print $4}' <<<"$busy" | sort -g | tail -1)" \
    '{v[NR]=$1} END {printf "| %d | %d | %.2f | %.2f | %d |\n", NR, most, (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2, v[NR], bytes}'
wait "$loader" || true
tail -5 "$work/load.txt"
