#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Sets up, builds and runs the whole test suite through CTest.
#   scripts/test.sh            release build, then the MCP conformance suites, the
#                              TypeScript SDK client, the chat page in Chromium and
#                              agentio-platform under the openai and Vercel AI SDKs, the four
#                              agent applications under the official AG-UI client, the
#                              OTLP exporter's payloads decoded by the OpenTelemetry JS SDK's code,
#                              and the five applications' GET /metrics scraped by a Prometheus server
#   scripts/test.sh asan       AddressSanitizer + UndefinedBehaviorSanitizer build
#   scripts/test.sh tsan       ThreadSanitizer build of the tests that share state across threads
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
extra=(nginx python3 gdb) # the scale-out test: replicas behind nginx, driven from Python; gdb: a hung test's stacks (scripts/watchdog.sh)
[ -n "${AGENTIO_DATA_DIR:-}" ] || extra+=(curl) # scripts/data.sh downloads the sample data (CTest's data.fetch)
bash scripts/setup.sh "${extra[@]}"
bash scripts/build.sh "$preset"
ctest --preset "$preset"
if [ "$preset" = release ]; then
  bash scripts/mcp_conformance.sh build/release
  bash scripts/mcp_clients.sh build/release
  bash scripts/web_test.sh build/release
  bash scripts/platform_clients.sh build/release
  bash scripts/protocol_clients.sh build/release
  bash scripts/otlp_check.sh build/release
  bash scripts/prometheus_check.sh build/release
fi
