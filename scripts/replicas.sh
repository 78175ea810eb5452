#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Scale-out on loopback: a PostgreSQL (scripts/postgres.sh), N replicas of
# agentio-portfolio sharing it (AGENT_STORE), and Debian's nginx in front with
# deploy/nginx/agentio-portfolio.conf (its ports rewritten to ephemeral ones).
#
#   scripts/replicas.sh start DIR --exe PATH/agentio-portfolio [--replicas 2] [--db PATH]
#                       [--serve-arg ARG]... [--nginx-workers 1] [--nginx-connections 4096]
#   scripts/replicas.sh stop DIR
#
# --serve-arg adds an argument to each replica's `serve` command line (as
# `--serve-arg --max-connections-per-address --serve-arg 0`). With several
# nginx workers the listening socket is shared with `reuseport`, so the kernel
# spreads connections evenly; --nginx-connections is per worker, a client's
# connection and its upstream one counting twice.
#
# The replicas inherit the caller's environment (ANTHROPIC_BASE_URL, AGENT_MODEL,
# ...). DIR/env then holds, as shell assignments: NGINX_URL, PG_URI, PG_DIR,
# REPLICA_URLS and REPLICA_PIDS (space-separated, in the same order). Each
# replica's output is in DIR/replica-N.out and .err, nginx's in DIR/nginx/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
usage() { sed -n '/^# Scale-out/,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
command=$1 dir=$2
shift 2

wait_for() { # file text seconds
    for _ in $(seq $(( $3 * 10 ))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
    echo "replicas.sh: '$2' did not appear in $1" >&2; cat "$1" >&2; return 1
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

stop_all() {
    [ -f "$dir/env" ] || return 0
    # shellcheck disable=SC1091
    source "$dir/env"
    for pid in ${REPLICA_PIDS:-}; do kill -TERM "$pid" 2>/dev/null || true; done
    [ -f "$dir/nginx/nginx.pid" ] && kill -QUIT "$(cat "$dir/nginx/nginx.pid")" 2>/dev/null || true
    for pid in ${REPLICA_PIDS:-}; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    done
    bash "$here/postgres.sh" stop "$dir/pg" || true
}

case "$command" in
start)
    exe= replicas=2 db= workers=1 connections=4096
    serve_args=()
    while [ $# -gt 0 ]; do
        case "$1" in
        --exe) exe=$2; shift 2 ;;
        --replicas) replicas=$2; shift 2 ;;
        --db) db=$2; shift 2 ;;
        --serve-arg) serve_args+=("$2"); shift 2 ;;
        --nginx-workers) workers=$2; shift 2 ;;
        --nginx-connections) connections=$2; shift 2 ;;
        *) usage ;;
        esac
    done
    [ -x "$exe" ] || { echo "replicas.sh: --exe must name agentio-portfolio" >&2; exit 2; }
    nginx=$(command -v nginx || echo /usr/sbin/nginx)
    [ -x "$nginx" ] || { echo "replicas.sh: nginx not found; install it (scripts/setup.sh nginx)" >&2; exit 1; }
    stop_all
    rm -rf "$dir" && mkdir -p "$dir/nginx"
    dir=$(realpath "$dir")
    pg_uri=$(bash "$here/postgres.sh" start "$dir/pg")
    if [ -z "$db" ]; then
        db=$dir/portfolio.db
        "$exe" init-db "$db" --initiatives 60 >/dev/null
    fi

    urls= pids=
    for n in $(seq "$replicas"); do
        AGENT_STORE=$pg_uri CHART_OUTPUT_DIR="$dir/charts" \
            "$exe" serve --db "$db" --host 127.0.0.1 --port 0 --threads 2 ${serve_args[@]+"${serve_args[@]}"} \
            >"$dir/replica-$n.out" 2>"$dir/replica-$n.err" &
        pids="$pids $!"
    done
    n=0
    for pid in $pids; do
        n=$((n + 1))
        wait_for "$dir/replica-$n.out" 'escuchando en http://' 30
        urls="$urls $(grep -m1 -o 'http://127.0.0.1:[0-9]*' "$dir/replica-$n.out")"
    done

    # The deployed configuration, with this run's ports.
    port=$(free_port)
    servers=
    for url in $urls; do servers="$servers    server ${url#http://} max_fails=1 fail_timeout=2s;\n"; done
    chmod 755 "$dir" "$dir/nginx"
    sed -e "/^    server 127.0.0.1:808[12] /d" \
        -e "s|^    keepalive 32;|$servers    keepalive 32;|" \
        -e "s|listen 127.0.0.1:8080;|listen 127.0.0.1:$port$( [ "$workers" -gt 1 ] && echo ' reuseport');|" \
        "$root/deploy/nginx/agentio-portfolio.conf" >"$dir/nginx/site.conf"
    cat >"$dir/nginx/nginx.conf" <<CONF
worker_processes $workers;
worker_rlimit_nofile $((connections + 1024));
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log warn;
$( [ "$(id -u)" -eq 0 ] && echo "user root;" )
events { worker_connections $connections; }
http {
    access_log $dir/nginx/access.log;
    client_body_temp_path $dir/nginx/body;
    proxy_temp_path $dir/nginx/proxy;
    fastcgi_temp_path $dir/nginx/fastcgi;
    uwsgi_temp_path $dir/nginx/uwsgi;
    scgi_temp_path $dir/nginx/scgi;
    include $dir/nginx/site.conf;
}
CONF
    "$nginx" -t -q -p "$dir/nginx" -c "$dir/nginx/nginx.conf" 2>"$dir/nginx/check.err" ||
        { cat "$dir/nginx/check.err" >&2; exit 1; }
    "$nginx" -p "$dir/nginx" -c "$dir/nginx/nginx.conf"
    for _ in $(seq 50); do [ -s "$dir/nginx/nginx.pid" ] && break; sleep 0.1; done
    cat >"$dir/env" <<ENV
NGINX_URL=http://127.0.0.1:$port
PG_URI=$pg_uri
PG_DIR=$dir/pg
REPLICA_URLS="${urls# }"
REPLICA_PIDS="${pids# }"
ENV
    cat "$dir/env"
    ;;
stop)
    stop_all
    ;;
*) usage ;;
esac
