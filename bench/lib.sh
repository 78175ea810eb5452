# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

# Helpers shared by the bench scripts: `source bench/lib.sh`.

# Waits until something accepts connections on each 127.0.0.1 port given (20 s each at most).
wait_for_ports() {
  local port
  for port in "$@"; do
    for _ in $(seq 100); do
      (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break
      sleep 0.2
    done
  done
}

# From `wrk --latency` output on stdin: requests per second.
wrk_rps() { awk '/Requests\/sec/ {print $2}'; }

# From `wrk --latency` output on stdin: the 99th percentile latency in ms.
wrk_p99_ms() {
  awk '$1=="99%" {v=$2; if (v ~ /us$/) {sub(/us/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v=v*1000}; print v}'
}

# From `wrk --latency` output on stdin: the median latency in ms.
wrk_p50_ms() {
  awk '$1=="50%" {v=$2; if (v ~ /us$/) {sub(/us/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v=v*1000}; print v}'
}

# POSTs BODY to 127.0.0.1:PORT/PATH with wrk for $seconds over CONNECTIONS: "p50_ms p99_ms rps errors".
wrk_post_measure() { # port path body connections
    local text
    text=$(BODY=$3 wrk -t1 -c"$4" -d"${seconds}s" --latency -s bench/wrk/post.lua "http://127.0.0.1:$1$2")
    echo "$(wrk_p50_ms <<<"$text") $(wrk_p99_ms <<<"$text") $(wrk_rps <<<"$text") $(wrk_errors <<<"$text")"
}

# From `wrk` output on stdin: answers that were neither 2xx nor 3xx.
wrk_errors() { awk '/Non-2xx or 3xx/ {n=$5} END {print n+0}'; }

# The median of the numbers given.
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# Starts a server in the background, its output in `out` (and `out.err`); sets `port` to the port of the first URL it
# prints and `pid` to its process, and adds it to the caller's `pids`. Exits naming the command if nothing is
# printed within 10 s.
start() { # out command...
    local out=$1 url
    shift
    "$@" >"$out" 2>"$out.err" &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 100); do
        url=$(grep -o 'http://[0-9.]*:[0-9]*' "$out" | head -1 || true)
        [ -n "$url" ] && { port=${url##*:}; return 0; }
        sleep 0.1
    done
    echo "$(basename "$0"): '$*' did not start" >&2; cat "$out" "$out.err" >&2; exit 1
}
