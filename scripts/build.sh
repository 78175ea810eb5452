#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Configures and builds a CMake preset (release by default): scripts/build.sh [preset] [target ...]
# Compiles through ccache when it is installed (CMakeLists.txt, AGENTIO_CCACHE), and says what the cache saved.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
shift || true
hits() { ccache --print-stats 2>/dev/null | awk '$1 ~ /^(direct|preprocessed)_cache_hit$/ {h += $2} $1 == "cache_miss" {m = $2} END {print h + 0, m + 0}'; }
if command -v ccache >/dev/null; then
  # Room for the release, sanitizer and fuzz builds at once; a setting of this machine's cache, not of the tree.
  [ "$(ccache --get-config max_size)" = "20.0G" ] || ccache --max-size 20G >/dev/null
  read -r hits0 misses0 < <(hits)
fi
cmake --preset "$preset" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build --preset "$preset" --target "$@"
else
  cmake --build --preset "$preset"
fi
if command -v ccache >/dev/null; then
  read -r hits1 misses1 < <(hits)
  echo "build.sh: $preset: ccache $((hits1 - hits0)) hits, $((misses1 - misses0)) compiled"
fi
