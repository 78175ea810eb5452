#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Sets up, builds and runs the invoice agent on http://127.0.0.1:7003 over the
# Chinook sample database. data/chinook.db is built on the first run from the
# Chinook SQL script (CHINOOK_SQL, by default data/chinook/Chinook_Sqlite.sql as
# scripts/data.sh provides it: from AGENTIO_DATA_DIR or downloaded); it is data,
# never committed.
#   bash scripts/facturas.sh [serve options]        e.g. --port 7004
#   bash scripts/facturas.sh ask "¿Cuánto se facturó cada año?"
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release agentio-facturas agentio-sqlite-mcp
exe=./build/release/reference_server/facturas/agentio-facturas
if ! [ -f data/chinook.db ]; then
    sql=${CHINOOK_SQL:-}
    if [ -z "$sql" ]; then
        bash scripts/data.sh chinook
        sql=data/chinook/Chinook_Sqlite.sql
    fi
    [ -f "$sql" ] || { echo "facturas: no Chinook SQL script at $sql (set CHINOOK_SQL)" >&2; exit 1; }
    "$exe" init-db --sql "$sql" --db data/chinook.db
fi
if [ "${1:-}" = ask ]; then
    shift
    exec "$exe" ask "$@" --db data/chinook.db
fi
exec "$exe" serve --db data/chinook.db "$@"
