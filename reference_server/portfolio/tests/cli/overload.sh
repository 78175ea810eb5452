#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Out of file descriptors, a chat says the server is overloaded (not
# "Cancelado") and the server lives on: the server runs under a small
# RLIMIT_NOFILE (prlimit), the fake LLM paces its answer, and many chats at
# once exhaust the descriptors.
set -euo pipefail
exe=$1 fake=$2 scenarios=$3 work=$4
source "$(dirname "$0")/lib.sh"
srv_pid= fake_pid=
trap 'kill $fake_pid $srv_pid 2>/dev/null || true' EXIT
start_fake "$exe" "$fake" "$scenarios" "$work" 20
# The hard limit too: the server raises its soft limit to the hard one at start.
ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL=$fake_url AGENT_MODEL=portfolio-two-rounds CHART_OUTPUT_DIR="$work/charts" \
    prlimit --nofile=100:100 "$exe" serve --db "$work/p.db" --port 0 --threads 2 >"$work/srv.txt" 2>"$work/srv.err" &
srv_pid=$!
wait_for "$work/srv.txt" 'escuchando en http://'
url=$(grep -m1 -o 'http://127.0.0.1:[0-9]*' "$work/srv.txt")
pids=()
for i in $(seq 90); do
    "$exe" chat "hola" --url "$url" >"$work/chat.$i" 2>&1 &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
kill -0 $srv_pid || { echo "the server died"; cat "$work/srv.err"; exit 1; }
if grep -l '^agentio-portfolio: Cancelado' "$work"/chat.* >/dev/null 2>&1; then
    echo "a chat ended with 'Cancelado':"; grep -h 'agentio-portfolio:' "$work"/chat.* | sort | uniq -c; exit 1
fi
grep -q 'El servidor está sobrecargado' "$work"/chat.* "$work/srv.err" ||
    { echo "no chat ran out of descriptors (the test did not reach its point)"; exit 1; }
# Once the crowd is gone, everything works again.
"$exe" chat "¿Cuántas iniciativas hay en ejecución?" --url "$url" >"$work/out.txt" 2>"$work/err.txt"
grep -q '"total_iniciativas":60' "$work/out.txt" || { cat "$work/out.txt" "$work/err.txt"; exit 1; }
echo "out of descriptors: $(grep -l 'sobrecargado' "$work"/chat.* | wc -l) of 90 chats told the server is overloaded; the server lives on"
