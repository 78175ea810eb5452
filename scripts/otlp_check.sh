#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# The OTLP exporter's payloads read by a real consumer: tests/otlp/receiver.mjs
# decodes them with the protobuf code the OpenTelemetry JS SDK generated from
# opentelemetry-proto (@opentelemetry/otlp-transformer), refusing what a
# collector would refuse, and writes each span it accepted;
# agentio_otlp_export_check (tests/otlp/export_check.cpp) traces a request that
# runs an agent and checks the tree the receiver saw. Then one question to
# agentio-platform for its sibling's model (agentio-portfolio, whose agent calls
# a tool), both exporting to the same receiver: one trace from the platform's
# server span through its chat call to the sibling's server span, agent, model
# call and tool call (the example trace of docs/guide/15-observability.md).
#   scripts/otlp_check.sh [build-dir]     (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build/release}")
[ -x "$build/tests/agentio_otlp_export_check" ] && [ -x "$build/reference_server/platform/agentio-platform" ] &&
    [ -x "$build/reference_server/portfolio/agentio-portfolio" ] && [ -x "$build/bench/agentio-fake-llm" ] ||
    cmake --build "$build" --target agentio_otlp_export_check agentio-platform agentio-portfolio agentio-fake-llm
source scripts/node.sh
npm ci --prefix tests/otlp --no-audit --no-fund --silent
node --test --test-reporter=dot tests/otlp/selftest.mjs

work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

# Starts a receiver writing to $1; sets $port.
receiver() {
    local out=$1; shift
    node tests/otlp/receiver.mjs --out "$out" "$@" >"$out.stdout" 2>"$out.stderr" &
    pids+=($!)
    for _ in $(seq 100); do
        port=$(sed -n 's/^listening \([0-9]*\)$/\1/p' "$out.stdout" | head -1)
        [ -n "$port" ] && return 0
        sleep 0.1
    done
    echo "otlp_check: the receiver did not start" >&2; cat "$out.stderr" >&2; exit 1
}

receiver "$work/spans.jsonl"
OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$port" OTEL_SERVICE_NAME=agentio-otlp-check \
    OTEL_BSP_SCHEDULE_DELAY=100 "$build/tests/agentio_otlp_export_check" "$work/spans.jsonl" ||
    { echo "otlp_check: the receiver said:" >&2; cat "$work/spans.jsonl.stderr" >&2; exit 1; }

# One question through two applications.
receiver "$work/apps.jsonl"
collector="http://127.0.0.1:$port"
"$build/bench/agentio-fake-llm" --scenarios tests/fixtures/scenarios --port 0 >"$work/fake.txt" 2>&1 &
pids+=($!)
start_app() { # out command...: waits for the first URL it prints; sets $url
    local out=$1; shift
    "$@" >"$out" 2>"$out.err" &
    pids+=($!)
    for _ in $(seq 200); do
        url=$(grep -o 'http://127.0.0.1:[0-9]*' "$out" | head -1 || true)
        [ -n "$url" ] && return 0
        sleep 0.1
    done
    echo "otlp_check: '$*' did not start" >&2; cat "$out" "$out.err" >&2; exit 1
}
for _ in $(seq 100); do fake=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/fake.txt" | head -1 || true); [ -n "$fake" ] && break; sleep 0.1; done
"$build/reference_server/portfolio/agentio-portfolio" init-db "$work/portfolio.db" --initiatives 60 >/dev/null
start_app "$work/portfolio.txt" env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL="$fake" AGENT_MODEL=portfolio-two-rounds \
    AGENT_STORE="sqlite:$work/portfolio-threads.db" CHART_OUTPUT_DIR="$work/charts" \
    OTEL_EXPORTER_OTLP_ENDPOINT="$collector" OTEL_BSP_SCHEDULE_DELAY=100 \
    "$build/reference_server/portfolio/agentio-portfolio" serve --db "$work/portfolio.db" --port 0
portfolio=$url
start_app "$work/platform.txt" env AGENT_PROVIDER=openai OPENAI_BASE_URL="$fake/v1" OPENAI_API_KEY=k \
    AGENT_MODEL=platform-clients PLATFORM_STORE="$work/platform-threads.db" PLATFORM_UPLOADS="$work/uploads" \
    PLATFORM_DOCUMENTS_INDEX=off PLATFORM_AGENT_PORTFOLIO="$portfolio/v1" \
    OTEL_EXPORTER_OTLP_ENDPOINT="$collector" OTEL_BSP_SCHEDULE_DELAY=100 \
    "$build/reference_server/platform/agentio-platform" serve --port 0
platform=$url
answer=$(curl -s -f -H 'Content-Type: application/json' -H 'traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' \
    -d '{"model": "portfolio", "messages": [{"role": "user", "content": "¿Cuántas iniciativas hay en ejecución?"}]}' \
    "$platform/v1/chat/completions") || { echo "otlp_check: the platform did not answer" >&2; cat "$work/platform.txt.err" >&2; exit 1; }
python3 scripts/otlp_trace_check.py "$work/apps.jsonl" 0af7651916cd43dd8448eb211c80319c "$answer" ||
    { echo "otlp_check: the receiver said:" >&2; cat "$work/apps.jsonl.stderr" >&2; exit 1; }
