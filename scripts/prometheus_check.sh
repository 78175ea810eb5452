#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# GET /metrics scraped by a real Prometheus server (Debian's prometheus
# package). The five applications on loopback, each on a port of its own,
# against the fake LLM (no key, no network): agentio-platform, agentio-portfolio,
# agentio-facturas (its SQL through agentio-sqlite-mcp over HTTP, itself the
# fifth target) and agentio-normativa, over the sample data that scripts/data.sh
# puts in <build-dir>/data. Each is asked one question, so that its agent, model
# and request metrics exist; each exposition then goes through `promtool check
# metrics` (CTest's metrics.promtool_check reads one made up), and Prometheus
# scrapes the five every second. The check waits for each target to be up with
# no error, then asks Prometheus's query API, job by job, for what only a parsed
# exposition gives: up, scrape_samples_scraped, the process's memory, the
# requests by route and status (a counter with labels), their latency (a
# histogram), the model calls and tokens, the tool calls; and Prometheus must
# not have warned about a scrape. The platform serves its metrics on a port of
# their own (AGENTIO_METRICS_ADDRESS), and not on its API's.
#   scripts/prometheus_check.sh [build-dir]     (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build/release}")
bash scripts/setup.sh python3 curl # prometheus is among setup.sh's own packages
say() { echo "prometheus_check: $*" >&2; }
# The caller's settings scrubbed, $work, start_app; the invoices' database, the labour-law index and the
# portfolio's database built afresh from the sample data (scripts/data.sh).
source scripts/apps.sh
prepare_app_data
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The fake LLM: the platform's and the portfolio's scenarios, and one each for facturas (the SQL, then the answer)
# and normativa (a search, then the answer from what it found).
mkdir "$work/scenarios"
cp reference_server/platform/tests/scenarios/platform-clients.json tests/fixtures/scenarios/portfolio-two-rounds.json \
    "$work/scenarios/"
cat >"$work/scenarios/prometheus-check.json" <<'EOF'
[
  {
    "name": "check-facturas",
    "turns": [[
      {"when_user_message_contains": "Resultados de la consulta", "text": "Hay 412 facturas en total."},
      {"text": "SELECT COUNT(*) AS facturas FROM Invoice"}
    ]]
  },
  {
    "name": "check-normativa",
    "turns": [
      {"tool_calls": [{"name": "search_normativa", "input": {"query": "vacaciones anuales"}}]},
      [
        {"when_last_tool_result_contains": "Artículo 38", "text": "Según el artículo 38 del Estatuto, treinta días naturales."},
        {"text": "No encontré el artículo en los fragmentos."}
      ]
    ]
  }
]
EOF
start_app "$work/fake.txt" "$fake_exe" --scenarios "$work/scenarios" --port 0
fake=$url

# The five applications; the platform's metrics on a port of their own (AGENTIO_METRICS_ADDRESS).
platform_metrics=http://127.0.0.1:$(free_port)
start_app "$work/platform.txt" env AGENTIO_METRICS_ADDRESS="${platform_metrics#http://}" \
    AGENT_PROVIDER=openai OPENAI_BASE_URL="$fake/v1" OPENAI_API_KEY=k \
    AGENT_MODEL=platform-clients PLATFORM_ROUTER=keywords PLATFORM_MEMORY=off PLATFORM_STORE="$work/platform-threads.db" \
    PLATFORM_UPLOADS="$work/uploads" PLATFORM_DOCUMENTS_INDEX=off WEB_SEARCH_FALLBACK_URL=off \
    "$platform_exe" serve --port 0
platform=$url
start_app "$work/portfolio.txt" env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL="$fake" AGENT_MODEL=portfolio-two-rounds \
    AGENT_STORE="sqlite:$work/portfolio-threads.db" CHART_OUTPUT_DIR="$work/charts" \
    "$portfolio_exe" serve --db "$work/portfolio.db" --port 0
portfolio=$url
start_app "$work/sqlite-mcp.txt" "$sqlite_mcp_exe" --db "$work/chinook.db" --transport http --port 0
sqlite_mcp=$url
start_app "$work/facturas.txt" env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL="$fake" AGENT_MODEL=check-facturas \
    INVOICE_AGENT_MCP_URL="$sqlite_mcp/mcp" INVOICE_AGENT_STORE="$work/facturas-threads.db" \
    "$facturas_exe" serve --db "$work/chinook.db" --port 0
facturas=$url
start_app "$work/normativa.txt" env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL="$fake" AGENT_MODEL=check-normativa \
    RAG_INDEX="$work/normativa.db" RAG_STORE="$work/normativa-threads.db" \
    "$normativa_exe" serve --port 0
normativa=$url

# One question to each, its answer checked (facturas' SQL runs through agentio-sqlite-mcp).
ask() { # name expected-text curl-arguments...: POSTs JSON, fails unless the answer holds the text
    local name=$1 expected=$2 answer
    shift 2
    answer=$(curl -sS -f --max-time 20 -H 'Content-Type: application/json' "$@" 2>&1) &&
        grep -qF -- "$expected" <<<"$answer" && return 0
    say "agentio-$name did not answer as expected ('$expected'): $answer"
    cat "$work/$name.txt.err" >&2
    exit 1
}
ask platform '"choices"' -d '{"model": "asistente", "messages": [{"role": "user", "content": "Di hola"}]}' \
    "$platform/v1/chat/completions"
ask portfolio '← contar_iniciativas' \
    -d '{"model": "portfolio", "messages": [{"role": "user", "content": "¿Cuántas iniciativas hay en ejecución?"}]}' \
    "$portfolio/v1/chat/completions"
ask facturas '"row_count":1' -d '{"session_id": "prometheus-check", "question": "¿Cuántas facturas hay?"}' \
    "$facturas/ask"
ask normativa 'event: done' -N -d '{"message": "¿Cuántos días de vacaciones me tocan?"}' "$normativa/api/rag-agent"

# Each exposition as it is now, through promtool's checks and lint (CTest's metrics.promtool_check reads one made up).
jobs=(platform portfolio facturas sqlite-mcp normativa)
portfolio_metrics=$portfolio facturas_metrics=$facturas sqlite_mcp_metrics=$sqlite_mcp normativa_metrics=$normativa
status=$(curl -s -o /dev/null -w '%{http_code}' "$platform/metrics")
[ "$status" = 404 ] || { say "agentio-platform: GET /metrics on its API's port answered $status, not 404"; exit 1; }
for job in "${jobs[@]}"; do
    var=${job//-/_}_metrics
    curl -sS -f --max-time 10 -o "$work/$job.metrics" "${!var}/metrics" || { say "agentio-$job: no GET /metrics"; exit 1; }
    promtool check metrics <"$work/$job.metrics" >"$work/$job.promtool" 2>&1 ||
        { say "agentio-$job: promtool check metrics:"; cat "$work/$job.promtool" >&2; exit 1; }
done

# Prometheus, one job per application, every second.
{
    echo "global: {scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s}"
    echo "scrape_configs:"
    for job in "${jobs[@]}"; do
        var=${job//-/_}_metrics
        echo "  - {job_name: agentio-$job, static_configs: [{targets: ['${!var#http://}']}]}"
    done
} >"$work/prometheus.yml"
promtool check config "$work/prometheus.yml" >/dev/null
prom_port=$(free_port)
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --web.listen-address="127.0.0.1:$prom_port" >"$work/prometheus.log" 2>&1 &
pids+=($!)
prom=http://127.0.0.1:$prom_port
for _ in $(seq 100); do
    curl -s -f -o /dev/null "$prom/-/ready" && break
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 0.2
done
curl -s -f -o /dev/null "$prom/-/ready" || { say "Prometheus did not start"; cat "$work/prometheus.log" >&2; exit 1; }

# The targets up, then what the scrapes stored.
python3 - "$prom" "${jobs[@]/#/agentio-}" <<'EOF' || { grep -E 'level=(warn|error)' "$work/prometheus.log" >&2; exit 1; }
import json, sys, time, urllib.parse, urllib.request

prom, jobs = sys.argv[1], sys.argv[2:]
agents = {"agentio-platform", "agentio-portfolio", "agentio-facturas", "agentio-normativa"}


def get(path, **query):
    with urllib.request.urlopen(f"{prom}{path}?{urllib.parse.urlencode(query)}", timeout=5) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise RuntimeError(f"{path} {query}: {body}")
    return body["data"]


# Every target up, its last scrape without error (30 s at most).
deadline = time.monotonic() + 30
while True:
    targets = {t["labels"]["job"]: t for t in get("/api/v1/targets")["activeTargets"]}
    down = {j: targets.get(j) for j in jobs if not targets.get(j) or targets[j]["health"] != "up" or targets[j]["lastError"]}
    if not down:
        break
    if time.monotonic() > deadline:
        for job, t in down.items():
            print(f"prometheus_check: {job}: " + (f"{t['scrapeUrl']} is {t['health']}, last error: {t['lastError'] or '(none)'}"
                                                  if t else "no such target"), file=sys.stderr)
        sys.exit(1)
    time.sleep(0.2)
for job in jobs:
    t = targets[job]
    print(f"prometheus_check: {job}: {t['scrapeUrl']} up, scraped in {t['lastScrapeDuration'] * 1000:.1f} ms")

# What each job must have: (PromQL by job, the jobs, what it proves). Each value must be > 0 (`up`: 1).
checks = [
    ("up", jobs, "the target was scraped"),
    ("scrape_samples_scraped", jobs, "samples were parsed"),
    ("sum by (job) (process_resident_memory_bytes)", jobs, "the process's gauge"),
    ("sum by (job) (agentio_http_requests_total)", jobs, "the requests' counter"),
    ("sum by (job) (agentio_http_request_duration_seconds_count)", jobs, "the requests' histogram"),
    ('sum by (job) (agentio_http_requests_total{route="/v1/chat/completions", status="200"})',
     ["agentio-platform", "agentio-portfolio"], "the question's request, by its route and status"),
    ('sum by (job) (agentio_http_requests_total{route="/ask", status="200"})', ["agentio-facturas"],
     "the question's request, by its route and status"),
    ('sum by (job) (agentio_http_requests_total{route="/api/rag-agent", status="200"})', ["agentio-normativa"],
     "the question's request, by its route and status"),
    ('sum by (job) (agentio_http_requests_total{route="/mcp"})', ["agentio-sqlite-mcp"],
     "facturas' MCP requests, by their route"),
    ('sum by (job) (agentio_model_calls_total{outcome="ok"})', sorted(agents), "the agent's model calls"),
    ("sum by (job) (agentio_model_tokens_total)", sorted(agents), "the model's tokens"),
    ('sum by (job) (agentio_tool_calls_total{outcome="ok"})', ["agentio-portfolio", "agentio-facturas", "agentio-normativa"],
     "the agent's tool calls"),
    ("sum by (job) (agentio_chat_completions_total)", ["agentio-platform"], "the completions answered"),
]
deadline = time.monotonic() + 10
while True:
    missing = []
    for query, wanted, what in checks:
        values = {r["metric"].get("job"): float(r["value"][1]) for r in get("/api/v1/query", query=query)["result"]}
        for job in wanted:
            if values.get(job, 0) <= 0 or (query == "up" and values[job] != 1):
                missing.append(f"{job}: {query} is {values.get(job, 'absent')} ({what})")
    if not missing or time.monotonic() > deadline:
        break
    time.sleep(0.5)
for m in missing:
    print(f"prometheus_check: {m}", file=sys.stderr)
if missing:
    sys.exit(1)
series = get("/api/v1/query", query="sum(scrape_samples_scraped)")["result"][0]["value"][1]
print(f"prometheus_check: {len(checks)} queries hold for {len(jobs)} jobs ({series} samples a scrape)")
EOF

# Prometheus said nothing against our expositions (a duplicate series, a sample out of order...).
if grep -E 'level=(warn|error)' "$work/prometheus.log" | grep -F 'scrape' >&2; then
    say "Prometheus warned about a scrape (above)"
    exit 1
fi
echo "prometheus_check: $(prometheus --version 2>&1 | head -1) scraped the five applications"
