#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Builds the libFuzzer targets (clang 14 + ASan/UBSan) and runs each for a while.
#   scripts/fuzz.sh [seconds-per-target] [target ...]     (default: every target)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(sse_parser_fuzz query_fuzz tool_validator_fuzz http_server_fuzz multipart_fuzz)
bash scripts/setup.sh clang-14 libclang-rt-14-dev
bash scripts/build.sh fuzz "${targets[@]}"
out=build/fuzz/corpus
mkdir -p "$out/sse" "$out/query" "$out/validator" "$out/http" "$out/multipart"
cp tests/fixtures/llm-wire/*.sse "$out/sse/"   # seeds: real provider streams
printf '%s' '{"filters":[{"field":"nombre","operator":"eq","value":"x"}],"order_by":"anio","limit":5}' > "$out/query/search.json"
printf '%s' '{"group_by":"nombre","metrics":[{"op":"sum","field":"importe_2025"}]}' > "$out/query/aggregate.json"
printf '\x00%s' '{"limite":5,"filtros":[{"campo":"a","operator":"eq","valor":1}],"etiquetas":["x"]}' > "$out/validator/args.json"
printf '\x01%s' '{"type":"object","properties":{"a":{"type":"integer","minimum":0}},"required":["a"],"anyOf":[{"type":"object"}]}' > "$out/validator/schema.json"
printf '\x01%s' '{"$id":"https://e.example/s","$defs":{"a":{"$anchor":"A","type":"object","properties":{"n":{"$ref":"#"}}}},"properties":{"x":{"$ref":"#A"},"y":{"$ref":"#/$defs/a"}},"if":{"required":["x"]},"then":{"not":{"required":["y"]}},"else":{"minProperties":1}}' > "$out/validator/refs.json"
# Requests a server meets, and the shapes that attack one.
printf 'GET /a HTTP/1.1\r\nHost: x\r\n\r\nHEAD /b HTTP/1.1\r\nHost: x\r\n\r\n' > "$out/http/pipelined"
printf 'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;e=1\r\nhello\r\n0\r\nT: 1\r\n\r\n' > "$out/http/chunked"
printf 'POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\nhello' > "$out/http/length"
printf 'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n' > "$out/http/smuggle"
printf 'GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.0\r\n\r\n' > "$out/http/http10"
printf '\x05--frontera\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nuser_data\r\n--frontera\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\na,b\r\n1,2\r\n--frontera--\r\n' > "$out/multipart/form"
printf '\x02pre\r\n--frontera  \r\n\r\n\r\n--frontera\r\ncontent-disposition: form-data; name=x; filename*=UTF-8%s%%C3%%B3.pdf\r\n\r\n%%PDF\r\n--frontera--epi' "''" > "$out/multipart/odd"
run_target() {
  case $1 in
    sse_parser_fuzz) ./build/fuzz/fuzz/sse_parser_fuzz -artifact_prefix=build/fuzz/ -max_total_time="$seconds" -max_len=4096 "$out/sse" ;;
    query_fuzz) ./build/fuzz/fuzz/query_fuzz -artifact_prefix=build/fuzz/ -max_total_time="$seconds" -max_len=2048 "$out/query" ;;
    tool_validator_fuzz) ./build/fuzz/fuzz/tool_validator_fuzz -artifact_prefix=build/fuzz/ -max_total_time="$seconds" -max_len=2048 "$out/validator" ;;
    http_server_fuzz) ./build/fuzz/fuzz/http_server_fuzz -artifact_prefix=build/fuzz/ -max_total_time="$seconds" -max_len=8192 "$out/http" ;;
    multipart_fuzz) ./build/fuzz/fuzz/multipart_fuzz -artifact_prefix=build/fuzz/ -max_total_time="$seconds" -max_len=4096 "$out/multipart" ;;
    *) echo "fuzz.sh: unknown target $1"; return 2 ;;
  esac
}
# One fuzzer a core (each is one process): every target still gets its whole time, in half the wall time on two cores.
cores=$(nproc)
pids=() names=()
failed=0
wait_one() {
  local pid=${pids[0]} name=${names[0]}
  pids=("${pids[@]:1}") names=("${names[@]:1}")
  if wait "$pid"; then
    tail -n 2 "build/fuzz/$name.log"
  else
    cat "build/fuzz/$name.log"
    echo "fuzz.sh: $name failed"
    failed=1
  fi
}
for t in "${targets[@]}"; do
  [ ${#pids[@]} -lt "$cores" ] || wait_one
  echo "fuzz.sh: $t for $seconds s"
  run_target "$t" > "build/fuzz/$t.log" 2>&1 &
  pids+=($!) names+=("$t")
done
while [ ${#pids[@]} -gt 0 ]; do wait_one; done
exit $failed
