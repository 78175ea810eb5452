#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# A throwaway PostgreSQL 15 cluster for tests (CTest fixture postgres).
#   scripts/postgres.sh start DIR     creates a cluster in DIR (trust auth, user
#                                     postgres, UTF8) on 127.0.0.1 and a free
#                                     port, starts it, creates the database
#                                     agentio_test; writes its URI to DIR/uri
#                                     and prints it
#   scripts/postgres.sh stop DIR      stops it and removes DIR
#   scripts/postgres.sh restart DIR   stops and starts it again, same port
#                                     (what reconnection tests need)
# PostgreSQL refuses to run as root: as root, the server runs as the system
# user postgres (created by postgresql-common, see scripts/setup.sh).
set -euo pipefail

bin=/usr/lib/postgresql/15/bin
usage() { sed -n '/^# A throwaway/,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -eq 2 ] || usage
command=$1
dir=$2
[ -x "$bin/pg_ctl" ] || { echo "postgres.sh: $bin/pg_ctl not found; install postgresql-15 (scripts/setup.sh)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# The cluster lives in a folder of its own under /tmp, owned by whoever runs the
# server: DIR may sit where the postgres user cannot reach (a clone in /root).
# DIR keeps the URI, the port and the cluster's path.
data_dir() { cat "$dir/datadir" 2>/dev/null || true; }

running() {
  local data
  data=$(data_dir)
  [ -n "$data" ] && [ -f "$data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1
}

stop_server() {
  if running; then
    as_owner "$bin/pg_ctl" -D "$(data_dir)" -m fast -w -t 30 stop >/dev/null
  fi
}

remove_cluster() {
  local data
  data=$(data_dir)
  case "$data" in /tmp/agentio-pg.*/data) rm -rf -- "$(dirname -- "$data")" ;; esac
  rm -rf -- "$dir"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start_server() {
  local port=$1 data
  data=$(data_dir)
  as_owner "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$data -c fsync=off" start >/dev/null
}

case "$command" in
  start)
    dir=$(realpath -m -- "$dir")
    if running && [ -f "$dir/uri" ]; then # already up: reuse it
      cat "$dir/uri"
      exit 0
    fi
    stop_server || true
    remove_cluster # stale leftovers of an earlier run
    mkdir -p -- "$dir"
    data=$(mktemp -d /tmp/agentio-pg.XXXXXX)
    echo "$data" >"$dir/datadir"
    if [ "$(id -u)" -eq 0 ]; then
      chown postgres: "$data"
    fi
    chmod 700 "$data"
    as_owner "$bin/initdb" -D "$data/data" --auth=trust -U postgres --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    echo "$data/data" >"$dir/datadir"
    # A port another process takes between the choice and the start: try again.
    for attempt in 1 2 3 4 5; do
      port=$(free_port)
      if start_server "$port"; then
        break
      fi
      [ "$attempt" -eq 5 ] && { cat "$(data_dir)/server.log" >&2; exit 1; }
    done
    echo "$port" >"$dir/port"
    as_owner "$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c 'CREATE DATABASE agentio_test' >/dev/null
    uri="postgresql://postgres@127.0.0.1:$port/agentio_test"
    echo "$uri" >"$dir/uri"
    echo "$uri"
    ;;
  stop)
    [ -d "$dir" ] || exit 0
    stop_server
    remove_cluster
    ;;
  restart)
    [ -f "$dir/port" ] || { echo "postgres.sh: no cluster in $dir (start it first)" >&2; exit 1; }
    dir=$(realpath -- "$dir")
    stop_server
    start_server "$(cat "$dir/port")" || { cat "$(data_dir)/server.log" >&2; exit 1; }
    ;;
  *) usage ;;
esac
