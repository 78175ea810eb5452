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
# runs an agent and checks the tree the receiver saw.
#   scripts/otlp_check.sh [build-dir]     (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build/release}")
[ -x "$build/tests/agentio_otlp_export_check" ] || cmake --build "$build" --target agentio_otlp_export_check
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
