#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Sourced by the scripts that run the applications together on loopback
# (prometheus_check.sh, protocol_clients.sh): the applications built if missing
# ($platform_exe, $portfolio_exe, ...), the caller's settings scrubbed, a
# work folder removed at exit with every process started in it, a server
# started and waited for, and the sample data each application reads.
# Needs $build (the build folder) and say() (the caller's messages).

# The applications, built if one is missing.
platform_exe=$build/reference_server/platform/agentio-platform
portfolio_exe=$build/reference_server/portfolio/agentio-portfolio
facturas_exe=$build/reference_server/facturas/agentio-facturas
sqlite_mcp_exe=$build/reference_server/sqlite_mcp/agentio-sqlite-mcp
normativa_exe=$build/reference_server/normativa/agentio-normativa
fake_exe=$build/bench/agentio-fake-llm
[ -x "$platform_exe" ] && [ -x "$portfolio_exe" ] && [ -x "$facturas_exe" ] && [ -x "$sqlite_mcp_exe" ] &&
    [ -x "$normativa_exe" ] && [ -x "$fake_exe" ] ||
    cmake --build "$build" --target agentio-platform agentio-portfolio agentio-facturas agentio-sqlite-mcp \
        agentio-normativa agentio-fake-llm

# No setting of the caller's may change what the applications do (a real key would reach a real provider).
while read -r name; do
    case $name in
    AGENT_* | ANTHROPIC_* | OPENAI_* | PLATFORM_* | PORTFOLIO_* | INVOICE_AGENT_* | RAG_* | OTEL_* | TAVILY_* | \
        WIKIPEDIA_* | OPEN_METEO_* | WEB_SEARCH_* | CHART_* | API_* | AGENTIO_LOG_* | AGENTIO_METRICS_*) unset "$name" ;;
    esac
done < <(compgen -e)

work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

# Starts a server in $work (no .env of the checkout is read); waits for the first URL it prints; sets $url.
start_app() { # out command...
    local out=$1
    shift
    (cd "$work" && exec "$@") >"$out" 2>"$out.err" &
    pids+=($!)
    for _ in $(seq 200); do
        url=$(grep -o 'http://127.0.0.1:[0-9]*' "$out" | head -1 || true)
        [ -n "$url" ] && return 0
        kill -0 "${pids[-1]}" 2>/dev/null || break
        sleep 0.1
    done
    say "'$*' did not start"
    cat "$out" "$out.err" >&2
    exit 1
}

# The data, built afresh in $work: the invoices' database (chinook.db), the labour-law index (normativa.db) and
# the portfolio's database (portfolio.db), from the sample data scripts/data.sh puts in $build/data.
prepare_app_data() {
    bash scripts/data.sh all "$build/data" ||
        { say "no sample data for agentio-facturas and agentio-normativa (above; AGENTIO_DATA_DIR: a local copy)"; exit 1; }
    "$build/reference_server/facturas/agentio-facturas" init-db --sql "$build/data/chinook/Chinook_Sqlite.sql" \
        --db "$work/chinook.db" >/dev/null
    "$build/reference_server/normativa/agentio-normativa" ingest --index "$work/normativa.db" \
        --law "Estatuto de los Trabajadores" "$build/data/normativa/estatuto-trabajadores" >"$work/ingest.txt" 2>&1 ||
        { say "agentio-normativa ingest failed"; cat "$work/ingest.txt" >&2; exit 1; }
    "$build/reference_server/portfolio/agentio-portfolio" init-db "$work/portfolio.db" --initiatives 60 >/dev/null
}
