#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# The official MCP conformance suite against agentio's conformance server over
# Streamable HTTP: every active server scenario of the pinned stable suite must
# pass (no expected-failures baseline), then every scored 2026-07-28 scenario of
# the pinned alpha line. Then agentio's MCP client against every client
# scenario that is not about OAuth, on both lines and at both wires
# (handshake 2025-11-25, stateless 2026-07-28): a warning fails too.
# Prints the suite's own summaries.
#   scripts/mcp_conformance.sh [build-dir]     (default build/release; builds the server if needed)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
suite=@modelcontextprotocol/conformance@0.1.16
alpha=@modelcontextprotocol/conformance@0.2.0-alpha.12
source scripts/node.sh # the suite needs Node >= 22
[ -x "$build/tests/agentio_mcp_conformance_server" ] && [ -x "$build/tests/agentio_mcp_conformance_client" ] ||
    cmake --build "$build" --target agentio_mcp_conformance_server agentio_mcp_conformance_client

work=$(mktemp -d)
"$build/tests/agentio_mcp_conformance_server" --host 127.0.0.1 --port 0 --port-file "$work/port" 2>"$work/server.log" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || { echo "mcp_conformance: the server did not start" >&2; cat "$work/server.log" >&2; exit 1; }
url="http://127.0.0.1:$(cat "$work/port")/mcp"

# run LABEL PACKAGE ARGS...: the suite's summary; a failure names the failing scenarios.
run() {
    local label=$1 package=$2; shift 2
    echo "== $label"
    set +e
    npx -y -p "$package" -c "conformance server --url $url $*" 2>&1 | tee "$work/out.txt" |
        sed -n '/=== SUMMARY ===/,$p'
    local status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -ne 0 ]; then
        echo "mcp_conformance: $label failed; rerun one scenario with --scenario NAME for details:" >&2
        grep -E '^✗' "$work/out.txt" >&2 || tail -30 "$work/out.txt" >&2
    fi
    return "$status"
}

# The stable line (handshake revisions): every active scenario.
run "$suite (active scenarios)" "$suite"
# The only line that knows the stateless revision: its scored scenarios decide.
run "$alpha --requirements 2026-07-28" "$alpha" --requirements 2026-07-28

# The client scenarios (OAuth ones aside: the client has no authorization
# flow): each run alone, where the suite fails a warning as well.
client=$(realpath "$build/tests/agentio_mcp_conformance_client")
failed=()
# client_run PACKAGE SCENARIO [--spec-version V]
client_run() {
    local package=$1 scenario=$2; shift 2
    if npx -y -p "$package" -c "conformance client --command '$client' --scenario $scenario $*" >"$work/client.txt" 2>&1; then
        printf '  %-40s %s %s\n' "$scenario" "$*" "$(grep -E '^Passed:' "$work/client.txt" | tail -1)"
    else
        printf '  %-40s %s FAILED\n' "$scenario" "$*"
        grep -E 'FAILURE|WARNING|Stderr|rror' "$work/client.txt" | head -20 >&2
        failed+=("$scenario $*")
    fi
}
echo "== $suite client scenarios"
for scenario in initialize tools_call elicitation-sep1034-client-defaults sse-retry; do
    client_run "$suite" "$scenario"
done
echo "== $alpha client scenarios"
for scenario in initialize tools_call elicitation-sep1034-client-defaults sse-retry json-schema-2020-12-preservation; do
    client_run "$alpha" "$scenario" --spec-version 2025-11-25
done
for scenario in tools_call request-metadata sep-2322-client-request-state http-standard-headers http-custom-headers \
    http-invalid-tool-headers json-schema-ref-no-deref json-schema-2020-12-preservation; do
    client_run "$alpha" "$scenario" --spec-version 2026-07-28
done
if [ ${#failed[@]} -ne 0 ]; then
    echo "mcp_conformance: client scenarios failed: ${failed[*]}" >&2
    exit 1
fi
