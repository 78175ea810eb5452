#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Sets up, builds and runs the labour-law agent on http://127.0.0.1:7004 (the
# page at /). data/normativa.db is built on the first run from the BOE text of
# the Estatuto de los Trabajadores (NORMATIVA_CORPUS, by default
# data/normativa/estatuto-trabajadores as scripts/data.sh provides it: from
# AGENTIO_DATA_DIR or downloaded); it is data, never committed.
#   bash scripts/normativa.sh [serve options]        e.g. --port 7005
#   bash scripts/normativa.sh eval                   recall@5 and MRR on the question set
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release agentio-normativa
exe=./build/release/reference_server/normativa/agentio-normativa
if ! [ -f data/normativa.db ]; then
    corpus=${NORMATIVA_CORPUS:-}
    if [ -z "$corpus" ]; then
        bash scripts/data.sh estatuto
        corpus=data/normativa/estatuto-trabajadores
    fi
    [ -d "$corpus" ] || { echo "normativa: no corpus at $corpus (set NORMATIVA_CORPUS)" >&2; exit 1; }
    "$exe" ingest --index data/normativa.db --law "Estatuto de los Trabajadores" "$corpus"
fi
if [ "${1:-}" = eval ]; then
    exec "$exe" eval --index data/normativa.db --questions reference_server/normativa/tests/questions.json
fi
exec "$exe" serve --index data/normativa.db "$@"
