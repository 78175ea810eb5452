# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

# Shared by the command-line tests: `source reference_server/portfolio/tests/cli/lib.sh`.

# Waits until FILE contains TEXT (10 s at most); prints FILE and fails otherwise.
wait_for() { for _ in $(seq 100); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; cat "$1"; return 1; }

# A fresh WORK folder with a 60-initiative database, and the fake LLM started
# on an ephemeral port with the given token interval: sets fake_pid, fake_url.
start_fake() { # exe fake scenarios work token-interval-ms
    rm -rf "$4" && mkdir -p "$4"
    export AGENT_STORE="sqlite:$4/agent.db" # each test's conversations, apart from the others'
    "$1" init-db "$4/p.db" --initiatives 60 >/dev/null
    "$2" --scenarios "$3" --port 0 --token-interval-ms "$5" >"$4/fake.txt" 2>&1 &
    fake_pid=$!
    wait_for "$4/fake.txt" 'listening on'
    fake_url=$(grep -o 'http://127.0.0.1:[0-9]*' "$4/fake.txt")
}
