#!/usr/bin/env bash
# Builds the libFuzzer targets (clang 14 + ASan/UBSan) and runs each for a while.
#   scripts/fuzz.sh [seconds-per-target]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
bash scripts/setup.sh clang-14 libclang-rt-14-dev
bash scripts/build.sh fuzz
out=build/fuzz/corpus
mkdir -p "$out/sse" "$out/query" "$out/validator"
cp tests/fixtures/llm-wire/*.sse "$out/sse/"   # seeds: real provider streams
printf '%s' '{"filters":[{"field":"nombre","operator":"eq","value":"x"}],"order_by":"anio","limit":5}' > "$out/query/search.json"
printf '%s' '{"group_by":"nombre","metrics":[{"op":"sum","field":"importe_2025"}]}' > "$out/query/aggregate.json"
printf '\x00%s' '{"limite":5,"filtros":[{"campo":"a","operator":"eq","valor":1}],"etiquetas":["x"]}' > "$out/validator/args.json"
printf '\x01%s' '{"type":"object","properties":{"a":{"type":"integer","minimum":0}},"required":["a"],"anyOf":[{"type":"object"}]}' > "$out/validator/schema.json"
printf '\x01%s' '{"$id":"https://e.example/s","$defs":{"a":{"$anchor":"A","type":"object","properties":{"n":{"$ref":"#"}}}},"properties":{"x":{"$ref":"#A"},"y":{"$ref":"#/$defs/a"}},"if":{"required":["x"]},"then":{"not":{"required":["y"]}},"else":{"minProperties":1}}' > "$out/validator/refs.json"
./build/fuzz/fuzz/sse_parser_fuzz -max_total_time="$seconds" -max_len=4096 "$out/sse"
./build/fuzz/fuzz/query_fuzz -max_total_time="$seconds" -max_len=2048 "$out/query"
./build/fuzz/fuzz/tool_validator_fuzz -max_total_time="$seconds" -max_len=2048 "$out/validator"
