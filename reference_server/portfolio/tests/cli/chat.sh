#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# `agentio-portfolio chat` end to end: the fake LLM and the server as real
# processes on loopback; the answer streams to stdout, tool activity to stderr;
# a failure is a message and exit status 1. The server's GET /metrics counts
# the requests by route, and its log (AGENTIO_LOG_FILE, JSON Lines) has each
# request and each chat's end.
set -euo pipefail
exe=$1 fake=$2 scenarios=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
export AGENT_STORE="sqlite:$work/agent.db"
"$exe" init-db "$work/p.db" --initiatives 60 >/dev/null
"$fake" --scenarios "$scenarios" --port 0 >"$work/fake.txt" 2>&1 &
fake_pid=$!
trap 'kill $fake_pid $srv_pid 2>/dev/null || true' EXIT
srv_pid=
wait_for() { for _ in $(seq 100); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; cat "$1"; return 1; }
wait_for "$work/fake.txt" 'listening on'
fake_url=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/fake.txt")
ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL=$fake_url AGENT_MODEL=portfolio-two-rounds \
    AGENTIO_LOG_FILE="$work/srv.log" AGENTIO_LOG_FORMAT=json AGENTIO_LOG_LEVEL=info \
    CHART_OUTPUT_DIR="$work/charts" "$exe" serve --db "$work/p.db" --port 0 --threads 2 >"$work/srv.txt" 2>&1 &
srv_pid=$!
wait_for "$work/srv.txt" 'escuchando en http://'
url=$(grep -m1 -o 'http://127.0.0.1:[0-9]*' "$work/srv.txt")

"$exe" chat "¿Cuántas iniciativas hay en ejecución?" --url "$url" >"$work/out.txt" 2>"$work/err.txt"
grep -q '^Voy a contar las iniciativas de la cartera agrupadas por estado.$' "$work/out.txt" || { cat "$work/out.txt"; exit 1; }
grep -q '"total_iniciativas":60' "$work/out.txt" || { echo "no answer from the tool result"; cat "$work/out.txt"; exit 1; }
grep -q 'contar_iniciativas(campo_agrupacion=estado_de_la_iniciativa) → .* grupos, 60 iniciativas' "$work/err.txt" \
    || { echo "no tool line"; cat "$work/err.txt"; exit 1; }

# The conversation is stored: --thread continues it, and the server prepends it.
thread=$(grep -o 'conversación [0-9a-f-]\{36\}' "$work/err.txt" | cut -d' ' -f2)
[ -n "$thread" ] || { echo "no conversation id"; cat "$work/err.txt"; exit 1; }
"$exe" chat "¿Y cuántas planificadas?" --url "$url" --thread "$thread" >"$work/out3.txt" 2>"$work/err3.txt" \
    || { cat "$work/out3.txt" "$work/err3.txt"; exit 1; }
grep -q "conversación $thread" "$work/err3.txt" || { echo "not the same conversation"; cat "$work/err3.txt"; exit 1; }
count=$(python3 -c 'import json, sys, urllib.request
print(len(json.load(urllib.request.urlopen(sys.argv[1]))["messages"]))' "$url/api/v1/threads/$thread")
[ "$count" = 8 ] || { echo "the thread holds $count messages, not 8"; exit 1; }
if "$exe" chat "hola" --url "$url" --thread 0b3c7d1e-7a52-4d8e-9f10-2a6b5c4d3e2f >"$work/out4.txt" 2>"$work/err4.txt"; then
    echo "chat continued an unknown thread"; exit 1
fi
grep -q '404: thread_id: la conversación no existe' "$work/err4.txt" || { cat "$work/err4.txt"; exit 1; }

# GET /metrics: the requests by route pattern, never a thread's id. The thread's GET above was answered before it
# was written, so it is counted by now (a stream is counted when it ends, which may be after its client has read it).
python3 - "$url" "$thread" <<'PY'
import sys, urllib.request
url, thread = sys.argv[1], sys.argv[2]
with urllib.request.urlopen(url + "/metrics", timeout=10) as r:
    assert r.status == 200, r.status
    assert r.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8", r.headers["Content-Type"]
    text = r.read().decode()
assert 'agentio_http_requests_total{method="GET",route="/api/v1/threads/{thread_id}",status="200"} 1\n' in text, text
assert thread not in text, "a thread's id as a label"
assert "\nprocess_resident_memory_bytes " in text, text
PY

# The log, once the server has stopped (SIGTERM: it drains, writes `stop`, and flushes): one JSON line per
# request and per chat's end, and neither the questions nor the answers.
kill $srv_pid; wait $srv_pid 2>/dev/null || true
python3 - "$work/srv.log" "$thread" <<'PY'
import json, sys
path, thread = sys.argv[1], sys.argv[2]
lines = [json.loads(line) for line in open(path, encoding="utf-8")]
events = [line["event"] for line in lines]
assert events[0] == "start" and events[-1] == "stop", events
assert all(line["program"] == "agentio-portfolio" for line in lines), lines
runs = [line for line in lines if line["event"] == "chat.run"]
assert len(runs) == 2, runs
for run in runs:
    assert run["level"] == "info" and run["thread"] == thread and run["run"], run
    assert run["model"] == "portfolio-two-rounds" and run["outcome"] == "completed", run
    assert run["rounds"] == 2 and run["tool_calls"] == 1, run
    assert run["input_tokens"] > 0 and run["output_tokens"] > 0 and run["duration_ms"] >= 0, run
    assert run["summary"].startswith("chat: completada en "), run
chats = sorted((r["method"], r["status"], r["streamed"]) for r in lines
               if r["event"] == "http.request" and r["route"] == "/api/v1/agent/chat")
assert chats == [("POST", 200, True), ("POST", 200, True), ("POST", 404, False)], chats
assert any(r["event"] == "http.request" and r["route"] == "/api/v1/threads/{thread_id}" and r["status"] == 200
           for r in lines), lines
text = open(path, encoding="utf-8").read()
assert "iniciativas hay en" not in text and "planificadas" not in text, "a question in the log"
PY

# A model the provider does not know: exit status 1 and the setting to change.
ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL=$fake_url AGENT_MODEL=no-existe \
    CHART_OUTPUT_DIR="$work/charts" "$exe" serve --db "$work/p.db" --port 0 --threads 2 >"$work/srv2.txt" 2>&1 &
srv_pid=$!
wait_for "$work/srv2.txt" 'escuchando en http://'
url=$(grep -m1 -o 'http://127.0.0.1:[0-9]*' "$work/srv2.txt")
if "$exe" chat "hola" --url "$url" >"$work/out2.txt" 2>"$work/err2.txt"; then
    echo "chat succeeded with an unknown model"; exit 1
fi
grep -q 'cambie AGENT_MODEL' "$work/err2.txt" || { cat "$work/err2.txt"; exit 1; }
echo "chat streamed the answer, continued the stored conversation with --thread, and reported the unknown model"
