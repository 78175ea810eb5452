#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# The real executable: `serve --port 0` on loopback prints where it listens,
# answers over HTTP, and exits cleanly on SIGTERM.
set -euo pipefail
exe=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
"$exe" init-db "$work/p.db" --initiatives 50 >/dev/null
CHART_OUTPUT_DIR="$work/charts" "$exe" serve --db "$work/p.db" --port 0 --threads 2 >"$work/out.txt" 2>"$work/err.txt" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q 'escuchando en http://' "$work/out.txt" && break
  sleep 0.1
done
url=$(grep -m1 -o 'http://127.0.0.1:[0-9]*' "$work/out.txt")
[ -n "$url" ] || { echo "no listening line"; cat "$work/out.txt" "$work/err.txt"; exit 1; }
# bash's /dev/tcp: no curl needed on a minimal machine.
port=${url##*:}
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' >&3
reply=$(cat <&3)
exec 3>&-
echo "$reply" | head -1 | grep -q '200 OK' || { echo "bad reply: $reply"; exit 1; }
echo "$reply" | grep -q '"status":"ok"' || { echo "bad body: $reply"; exit 1; }
kill -TERM $pid
wait $pid
echo "serve answered on $url and exited cleanly"
