#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# The time to pause on a tool call in doubt after a SIGKILL:
#   bench/in_doubt_bench.sh [RUNS]     (default 10)
# Each run is the in-doubt suite (tests/agent/in_doubt_process_test.cpp): a
# durable run's process is SIGKILLed before, during and after its tool's side
# effect, and another process takes the run over on the same SQLite file (lease
# 1 s). For the kills that leave the call in doubt, the time from the takeover's
# start to its approval request; min, median and max over all runs.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build/release}
runs=${1:-10}
cmake --build "$build" --target agentio_in_doubt_tests >/dev/null
times=$(mktemp)
trap 'rm -f "$times"' EXIT
for _ in $(seq "$runs"); do
    "$build/tests/agentio_in_doubt_tests" --log_level=message 2>&1 |
        sed -n 's/.*paused \([0-9]*\) ms after the takeover began.*/\1/p' >>"$times"
done
sort -n "$times" | awk -v runs="$runs" '
    { v[NR] = $1 }
    END {
        if (NR == 0) { print "no pause measured"; exit 1 }
        printf "%d pauses in %d runs (lease 1 s): min %d ms, median %d ms, max %d ms\n",
            NR, runs, v[1], v[int((NR + 1) / 2)], v[NR]
    }'
