#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# The thread stores side by side, and failover between replicas:
#   bench/store_bench.sh [KILLS]     (default 10)
# 1. agentio_store_bench: store latency (SQLite, PostgreSQL) and the cost of
#    durable runs to a chat, against a throwaway PostgreSQL (scripts/postgres.sh);
# 2. failover: PostgreSQL, two replicas and nginx (scripts/replicas.sh); the
#    replica running a chat is SIGKILLed KILLS times; time from the kill to the
#    first event of the replica that takes over.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build/release}
kills=${1:-10}
work=$(mktemp -d)
trap 'bash scripts/postgres.sh stop "$work/pg" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
uri=$(bash scripts/postgres.sh start "$work/pg")
cmake --build "$build" --target agentio_store_bench agentio-portfolio agentio-fake-llm >/dev/null
"$build/bench/agentio_store_bench" "$uri"
bash scripts/postgres.sh stop "$work/pg" >/dev/null
echo
echo "Failover (SIGKILL of the replica running a chat, behind nginx)"
python3 reference_server/portfolio/tests/cli/failover.py "$build/reference_server/portfolio/agentio-portfolio" \
    "$build/bench/agentio-fake-llm" tests/fixtures/scenarios "$work/failover" --runs "$kills"
