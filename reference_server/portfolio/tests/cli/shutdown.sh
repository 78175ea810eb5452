#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# SIGTERM drains `agentio-portfolio serve`: a new chat is refused at once (503)
# while a chat in flight finishes within the grace period (its tools still
# reach the server's own API), then the process exits 0; a chat that outlasts
# a short grace is cut and the process still exits promptly; a second signal
# stops at once, whatever the grace.
set -euo pipefail
exe=$1 fake=$2 scenarios=$3 work=$4
source "$(dirname "$0")/lib.sh"
srv_pid= fake_pid=
trap 'kill $fake_pid $srv_pid 2>/dev/null || true' EXIT
start_fake "$exe" "$fake" "$scenarios" "$work" 60

start_server() { # grace, log name
    ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL=$fake_url AGENT_MODEL=portfolio-two-rounds CHART_OUTPUT_DIR="$work/charts" \
        "$exe" serve --db "$work/p.db" --port 0 --threads 2 --shutdown-grace "$1" >"$work/$2.out" 2>"$work/$2.err" &
    srv_pid=$!
    wait_for "$work/$2.out" 'escuchando en http://'
    url=$(grep -m1 -o 'http://127.0.0.1:[0-9]*' "$work/$2.out")
    port=${url##*:}
}

# 1. A chat in flight finishes (about 3 s at this pace) within a 10 s grace.
start_server 10 grace
"$exe" chat "¿Cuántas iniciativas hay en ejecución?" --url "$url" >"$work/chat1.out" 2>"$work/chat1.err" &
chat_pid=$!
wait_for "$work/chat1.out" 'Voy a contar'
kill -TERM $srv_pid
sleep 0.3
if "$exe" chat "hola" --url "$url" >"$work/late.out" 2>"$work/late.err"; then echo "a new chat was served after SIGTERM"; exit 1; fi
grep -q 'El servidor se está deteniendo' "$work/late.err" || { echo "no stopping message"; cat "$work/late.err"; exit 1; }
wait $chat_pid || { echo "the chat in flight failed"; cat "$work/chat1.out" "$work/chat1.err"; exit 1; }
grep -q '"total_iniciativas":60' "$work/chat1.out" || { echo "the chat in flight was cut"; cat "$work/chat1.out"; exit 1; }
t0=$(date +%s)
wait $srv_pid || { echo "serve exited with an error"; cat "$work/grace.err"; exit 1; }
[ $(( $(date +%s) - t0 )) -le 3 ] || { echo "serve took too long to exit after the last chat"; exit 1; }
srv_pid=

# 2. A 1 s grace cuts a chat that outlasts it; the process exits in time.
start_server 1 short
"$exe" chat "¿Cuántas iniciativas hay en ejecución?" --url "$url" --reconnect-for 2 >"$work/chat2.out" 2>"$work/chat2.err" &
chat_pid=$!
wait_for "$work/chat2.out" 'Voy a contar'
t0=$(date +%s%N)
kill -TERM $srv_pid
wait $srv_pid || { echo "serve exited with an error"; cat "$work/short.err"; exit 1; }
elapsed_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
srv_pid=
[ $elapsed_ms -le 3000 ] || { echo "serve took ${elapsed_ms} ms to exit with a 1 s grace"; exit 1; }
if wait $chat_pid; then echo "the chat survived the end of the grace"; exit 1; fi
grep -q 'chat: cancelada' "$work/short.err" || { echo "no cancellation logged"; cat "$work/short.err"; exit 1; }
# 3. A second signal does not wait for the grace (30 s here).
start_server 30 twice
"$exe" chat "¿Cuántas iniciativas hay en ejecución?" --url "$url" >"$work/chat3.out" 2>"$work/chat3.err" &
chat_pid=$!
wait_for "$work/chat3.out" 'Voy a contar'
t0=$(date +%s%N)
kill -TERM $srv_pid
sleep 0.2
kill -INT $srv_pid
wait $srv_pid || true # stopped at once: what was in flight is cut
twice_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
srv_pid=
[ $twice_ms -le 2000 ] || { echo "serve took ${twice_ms} ms to stop after a second signal"; exit 1; }
kill $chat_pid 2>/dev/null || true

echo "SIGTERM: the chat in flight finished and serve exited 0; with a 1 s grace the chat was cut and serve exited in ${elapsed_ms} ms; a second signal stopped it in ${twice_ms} ms"
