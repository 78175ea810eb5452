#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# agentio-normativa's retrieval and agent, side by side with a Python peer on
# the same chunks (reference_server/normativa/bench/normativa_bench.cpp and
# bench/normativa_peer.py):
#   - ingest of the Estatuto (93 files) and of a synthetic corpus;
#   - search latency, median and p99, sparse / dense / hybrid, over the
#     Estatuto and over N synthetic chunks (default 100 000);
#   - recall@5 and MRR on the question set, with and without stemming;
#   - the agent's own cost per round with a zero-delay fake LLM;
#   - the peer: stdlib sqlite3 FTS5 BM25 + scikit-learn TF-IDF / TruncatedSVD +
#     numpy, the same fusion, on the very chunks of the C++ index.
#
#   bench/normativa_bench.sh [synthetic chunks] [repeats]
#
# Output to stdout and build/bench/normativa.txt. scikit-learn comes from
# Debian's packages; on a machine whose python3-sklearn cannot be installed
# next to Boost 1.81 (its scipy depends on pythran, which depends on Boost
# 1.74's headers), the packages are unpacked into build/bench/python instead.
set -euo pipefail
cd "$(dirname "$0")/.."
synthetic=${1:-100000}
repeat=${2:-20}
root=$(pwd)
out=$root/build/bench
mkdir -p "$out"
bash scripts/data.sh estatuto >&2 # the Estatuto's text in data/normativa/estatuto-trabajadores
corpus=$root/data/normativa/estatuto-trabajadores

flock /tmp/agentio-build.lock cmake --build --preset release --target normativa_bench >/dev/null
if pgrep -x cc1plus >/dev/null; then echo "normativa_bench: a compiler is running; the figures will be high" >&2; fi

# The peer's interpreter: Debian's python3 with numpy and scikit-learn.
python=/usr/bin/python3
pythonpath=""
if ! "$python" -c 'from sklearn.decomposition import TruncatedSVD; import numpy' 2>/dev/null; then
  if ! apt-get install -y -q python3-sklearn python3-numpy >/dev/null 2>&1; then
    apt-get install -y -q --no-install-recommends python3-numpy python3-joblib python3-threadpoolctl \
      python3-decorator liblbfgsb0 libgfortran5 >/dev/null
    mkdir -p "$out/python/debs"
    (cd "$out/python/debs" && apt-get download python3-scipy python3-sklearn python3-sklearn-lib >/dev/null)
    for deb in "$out"/python/debs/*.deb; do dpkg -x "$deb" "$out/python/root"; done
    pythonpath=$out/python/root/usr/lib/python3/dist-packages
  fi
fi

index=$out/normativa-estatuto.db
{
  echo "# agentio-normativa, $(date -u +%Y-%m-%d), $(nproc) cores"
  echo
  echo "## agentio (C++)"
  "$root/build/release/reference_server/normativa/bench/normativa_bench" --corpus "$corpus" \
    --questions "$root/reference_server/normativa/tests/questions.json" --synthetic "$synthetic" --repeat "$repeat" \
    --keep-index "$index"
  echo
  echo "## Python peer (sqlite3 FTS5 + scikit-learn), same chunks"
  PYTHONPATH=$pythonpath "$python" "$root/bench/normativa_peer.py" --index "$index" --repeat "$repeat"
} | tee "$out/normativa.txt"
