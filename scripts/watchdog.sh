#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Runs a test program; one still running after LIMIT seconds has the stacks of
# all its threads printed (gdb, when installed) and is then killed. A hang that
# happens once in many CI runs says where it hung, and costs LIMIT seconds
# instead of CTest's whole timeout.
#   scripts/watchdog.sh LIMIT program [arguments...]
set -uo pipefail
limit=$1
shift
"$@" &
test_pid=$!
# The sleeper's output goes nowhere: CTest waits for every holder of the test's
# output pipe, and a sleeper left behind must not be one.
sleep "$limit" >/dev/null 2>&1 &
sleeper=$!
ended=
wait -n -p ended "$test_pid" "$sleeper"
rc=$?
if [ "$ended" = "$test_pid" ]; then
  kill "$sleeper" 2>/dev/null
  wait "$sleeper" 2>/dev/null
  exit "$rc"
fi
echo "watchdog: '$*' still running after ${limit} s"
if command -v gdb >/dev/null; then
  echo "watchdog: the stacks of its threads:"
  gdb -batch -nx -p "$test_pid" -ex "set pagination off" -ex "thread apply all bt 30" 2>&1 |
    grep -v '^\[New LWP\|^warning: \|^Reading symbols\|^Downloading' | head -600
fi
pkill -KILL -P "$test_pid" 2>/dev/null # its children (servers it started) do not outlive it
kill -KILL "$test_pid" 2>/dev/null
wait "$test_pid" 2>/dev/null
exit 124
