#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Native charts next to a matplotlib renderer of the same charts (matplotlib_chart.py, kept
# outside the repository): the same four charts on the same data, same machine, in one run.
#
#   bench/chart_compare.sh [repeat]         (default 20 for matplotlib, 10× that for ours)
#
# PEERS_DIR names the folder of matplotlib_chart.py; OUT_DIR=dir also keeps each renderer's PNGs
# (<type>.png ours, matplotlib-<type>.png theirs); CHART_BENCH=path uses that
# agentio_chart_bench instead of building the release preset's. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=${1:-20}
root=$(pwd)
peers=${PEERS_DIR:?set PEERS_DIR to the folder of the peer renderer matplotlib_chart.py}
peer=$peers/matplotlib_chart.py
[ -f "$peer" ] || { echo "chart_compare: $peer not found (set PEERS_DIR)" >&2; exit 1; }

# python3-matplotlib, with fonttools' lighter alternatives: its default pulls scipy → pythran →
# libboost1.74-dev, which conflicts with the Boost 1.81 that agentio builds with.
bash scripts/setup.sh python3-matplotlib python3-munkres python3-ufolib2 >/dev/null
bench=${CHART_BENCH:-}
if [ -z "$bench" ]; then
    bash scripts/build.sh release agentio_chart_bench >/dev/null
    bench=$root/build/release/reference_server/portfolio/bench/agentio_chart_bench
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=${OUT_DIR:-$work}
mkdir -p "$out"

echo "| chart | agentio (median ms) | render + encode | PNG bytes | matplotlib (median ms) | PNG bytes | speed-up |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for type in bar pie line stacked_bar; do
    # bar: median 3.41 ms p90 3.80 ms (render 0.71, encode 2.66) PNG 81651 bytes
    ours=$("$bench" --type "$type" --repeat $((repeat * 10)) --out "$out")
    ours_ms=$(sed -E 's/.*median ([0-9.]+) ms.*/\1/' <<<"$ours")
    ours_split=$(sed -E 's/.*\(render ([0-9.]+), encode ([0-9.]+)\).*/\1 + \2/' <<<"$ours")
    ours_bytes=$(sed -E 's/.*PNG ([0-9]+) bytes.*/\1/' <<<"$ours")
    # bar: median 101.3 ms per chart over 20, PNG 93552 bytes
    theirs=$(/usr/bin/python3 "$peer" --type "$type" --repeat "$repeat" --out "$out/matplotlib-$type.png")
    theirs_ms=$(sed -E 's/.*median ([0-9.]+) ms.*/\1/' <<<"$theirs")
    theirs_bytes=$(sed -E 's/.*PNG ([0-9]+) bytes.*/\1/' <<<"$theirs")
    ratio=$(awk -v a="$theirs_ms" -v b="$ours_ms" 'BEGIN { printf "%.0f×", a / b }')
    echo "| $type | $ours_ms | $ours_split | $ours_bytes | $theirs_ms | $theirs_bytes | $ratio |"
done
