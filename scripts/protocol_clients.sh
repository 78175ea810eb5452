#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# The four agent applications under the official clients of the protocols
# agents speak to interfaces and to each other: @ag-ui/client's HttpAgent
# (its event verification and state building) drives POST /ag-ui, and
# @a2a-js/sdk's client (A2A 1.0) the agent card and POST /a2a, of
# agentio-portfolio, agentio-platform, agentio-facturas (its SQL through
# agentio-sqlite-mcp) and agentio-normativa (over the Estatuto that
# scripts/data.sh puts in <build-dir>/data), each with its own authentication
# (API keys, a JWT, none), against the fake LLM with tests/ag-ui/scenarios.json.
# AG-UI (tests/ag-ui/flows.mjs): a streamed answer, the agent's own tool call,
# a frontend tool (the portfolio and the platform, whose agents take the
# client's tools), a call that waits for a person's approval (all four: tools
# named to need it; facturas' queries of personal data, normativa's
# get_article), a plan's steps and state (the platform), a cancellation, a client that leaves and follows the run
# again, bad input. A2A (tests/a2a/flows.mjs): the card, a streamed answer with
# GetTask and ListTasks, a tool call, an approval (INPUT_REQUIRED) resumed on
# the same task, a cancellation, a client that leaves and subscribes again, the
# version rule.
#   scripts/protocol_clients.sh [build-dir]     (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build/release}")
bash scripts/setup.sh python3
say() { echo "protocol_clients: $*" >&2; }
source scripts/node.sh
npm ci --prefix tests/ag-ui --no-audit --no-fund --silent
npm ci --prefix tests/a2a --no-audit --no-fund --silent

# The caller's settings scrubbed, $work, start_app; the applications' data built afresh.
source scripts/apps.sh
prepare_app_data

mkdir "$work/scenarios"
cp tests/ag-ui/scenarios.json "$work/scenarios/"
start_app "$work/fake.txt" "$fake_exe" --scenarios "$work/scenarios" --port 0
fake=$url

secret=$(head -c 32 /dev/urandom | base64)
# A JWT for the platform (HS256, subject "ana", an hour).
token=$(SECRET=$secret python3 - <<'PY'
import base64, hashlib, hmac, json, os, time
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
body = b64(json.dumps({"sub": "ana", "exp": int(time.time()) + 3600}).encode())
sig = hmac.new(os.environ["SECRET"].encode(), f"{head}.{body}".encode(), hashlib.sha256).digest()
print(f"{head}.{body}.{b64(sig)}")
PY
)
start_app "$work/platform.txt" env AGENT_PROVIDER=openai OPENAI_BASE_URL="$fake/v1" OPENAI_API_KEY=k \
    AGENT_MODEL=ag-ui-platform PLATFORM_ROUTER=keywords PLATFORM_JWT_SECRET="$secret" PLATFORM_APPROVAL_TOOLS=sql_query \
    PLATFORM_STORE="$work/platform-threads.db" PLATFORM_UPLOADS="$work/uploads" PLATFORM_DOCUMENTS_INDEX=off \
    WEB_SEARCH_FALLBACK_URL=off "$platform_exe" serve --port 0
platform=$url
start_app "$work/portfolio.txt" env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL="$fake" AGENT_MODEL=ag-ui-portfolio \
    AGENT_API_KEYS=clave-portfolio AGENT_APPROVAL_TOOLS=totalizar_importes AGENT_STORE="sqlite:$work/portfolio-threads.db" CHART_OUTPUT_DIR="$work/charts" \
    "$portfolio_exe" serve --db "$work/portfolio.db" --port 0
portfolio=$url
start_app "$work/sqlite-mcp.txt" "$sqlite_mcp_exe" --db "$work/chinook.db" --transport http --port 0
sqlite_mcp=$url
start_app "$work/facturas.txt" env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL="$fake" AGENT_MODEL=ag-ui-facturas \
    INVOICE_AGENT_MCP_URL="$sqlite_mcp/mcp" INVOICE_AGENT_STORE="$work/facturas-threads.db" \
    INVOICE_AGENT_APPROVAL_TABLES=Customer,Employee \
    "$facturas_exe" serve --db "$work/chinook.db" --port 0
facturas=$url
start_app "$work/normativa.txt" env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL="$fake" AGENT_MODEL=ag-ui-normativa \
    RAG_API_KEYS=clave-normativa RAG_INDEX="$work/normativa.db" RAG_STORE="$work/normativa-threads.db" \
    RAG_APPROVAL_TOOLS=get_article \
    "$normativa_exe" serve --port 0
normativa=$url

flows() { # name config-json
    local name=$1
    node tests/ag-ui/flows.mjs "$2" || {
        say "agentio-$name failed the AG-UI flows (its log below)"
        cat "$work/$name.txt.err" >&2
        exit 1
    }
}
a2a_flows() { # name config-json
    local name=$1
    node tests/a2a/flows.mjs "$2" || {
        say "agentio-$name failed the A2A flows (its log below)"
        cat "$work/$name.txt.err" >&2
        exit 1
    }
}
flows portfolio '{"name": "portfolio", "url": "'"$portfolio"'/ag-ui", "keyed": true,
  "headers": {"Authorization": "Bearer clave-portfolio"},
  "answer": {"question": "Hola", "match": "asistente de la cartera"},
  "tool": {"question": "¿Cuántas iniciativas hay? cuenta", "name": "contar_iniciativas", "match": "Según la herramienta"},
  "clientTool": {"question": "confirma antes de contar", "match": "Confirmado por la persona"},
  "approval": {"question": "Totaliza el presupuesto por estado", "tool": "totalizar_importes", "match": "Según la herramienta"},
  "slow": {"question": "Escribe un ensayo", "match": "antes de que acabe"}}'
flows platform '{"name": "platform", "url": "'"$platform"'/ag-ui", "keyed": true,
  "headers": {"Authorization": "Bearer '"$token"'"},
  "answer": {"question": "Hola", "match": "plataforma de agentes"},
  "tool": {"question": "calcula 6*7", "name": "math_calc", "match": "Resultado: .*42"},
  "clientTool": {"question": "confirma antes de seguir", "match": "Confirmado por la persona"},
  "approval": {"question": "calcula con SQL el producto", "tool": "sql_query", "match": "Resultado"},
  "plan": {"question": "planifica cómo multiplicar seis por siete", "steps": 2, "match": "Plan cumplido"},
  "slow": {"question": "Escribe un ensayo", "match": "antes de que acabe"}}'
flows facturas '{"name": "facturas", "url": "'"$facturas"'/ag-ui", "keyed": false, "headers": {},
  "answer": {"question": "¿Cuántas facturas hay?", "match": "412 facturas"},
  "tool": {"question": "¿Cuántas facturas hay en total?", "name": "sqlite_run_select", "match": "412 facturas"},
  "approval": {"question": "¿Qué clientes gastaron más?", "tool": "sqlite_run_select", "match": "Los clientes que más gastaron"},
  "slow": {"question": "Cuéntame despacio cuántas facturas hay", "match": "antes de que acabe"}}'
flows normativa '{"name": "normativa", "url": "'"$normativa"'/ag-ui", "keyed": true,
  "headers": {"x-api-key": "clave-normativa"},
  "answer": {"question": "¿Cuántos días de vacaciones tengo?", "match": "treinta días"},
  "tool": {"question": "¿Cuántos días de vacaciones anuales?", "name": "search_normativa", "match": "artículo 38"},
  "approval": {"question": "Léeme el artículo 38 entero", "tool": "get_article", "match": "artículo 38"},
  "slow": {"question": "Explícame despacio las vacaciones", "match": "antes de que acabe"}}'
say "the four applications passed under @ag-ui/client"

a2a_flows portfolio '{"name": "portfolio", "base": "'"$portfolio"'", "keyed": true,
  "headers": {"Authorization": "Bearer clave-portfolio"},
  "answer": {"question": "Hola", "match": "asistente de la cartera"},
  "tool": {"question": "¿Cuántas iniciativas hay? cuenta", "name": "contar_iniciativas"},
  "approval": {"question": "Totaliza el presupuesto por estado", "tool": "totalizar_importes", "match": "Según la herramienta"},
  "slow": {"question": "Escribe un ensayo", "match": "antes de que acabe"}}'
a2a_flows platform '{"name": "platform", "base": "'"$platform"'", "keyed": true,
  "headers": {"Authorization": "Bearer '"$token"'"},
  "answer": {"question": "Hola", "match": "plataforma de agentes"},
  "tool": {"question": "calcula 6*7", "name": "math_calc"},
  "approval": {"question": "calcula con SQL el producto", "tool": "sql_query", "match": "Resultado"},
  "slow": {"question": "Escribe un ensayo", "match": "antes de que acabe"}}'
a2a_flows facturas '{"name": "facturas", "base": "'"$facturas"'", "keyed": false, "headers": {},
  "answer": {"question": "¿Cuántas facturas hay?", "match": "412 facturas"},
  "tool": {"question": "¿Cuántas facturas hay en total?", "name": "sqlite_run_select"},
  "approval": {"question": "¿Qué clientes gastaron más?", "tool": "sqlite_run_select", "match": "Los clientes que más gastaron"},
  "slow": {"question": "Cuéntame despacio cuántas facturas hay", "match": "antes de que acabe"}}'
a2a_flows normativa '{"name": "normativa", "base": "'"$normativa"'", "keyed": true,
  "headers": {"x-api-key": "clave-normativa"},
  "answer": {"question": "¿Cuántos días de vacaciones tengo?", "match": "treinta días"},
  "tool": {"question": "¿Cuántos días de vacaciones anuales?", "name": "search_normativa"},
  "approval": {"question": "Léeme el artículo 38 entero", "tool": "get_article", "match": "artículo 38"},
  "slow": {"question": "Explícame despacio las vacaciones", "match": "antes de que acabe"}}'
say "the four applications passed under @a2a-js/sdk"
