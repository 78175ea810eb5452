#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# The chat page: its pure modules under node's test runner, then the page in
# Debian's Chromium (playwright-core, axe-core) against the real server and the
# fake LLM on loopback (reference_server/portfolio/web/tests/).
#   scripts/web_test.sh [build-dir]     (default build/release; screenshots in <build-dir>/web-test)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build/release}")
bash scripts/setup.sh chromium
bash scripts/web.sh
source scripts/node.sh
[ -x "$build/reference_server/portfolio/agentio-portfolio" ] && [ -x "$build/bench/agentio-fake-llm" ] ||
    cmake --build "$build" --target agentio-portfolio agentio-fake-llm
cd reference_server/portfolio/web
node --test tests/unit.test.mjs
node tests/browser_test.mjs --exe "$build/reference_server/portfolio/agentio-portfolio" --fake "$build/bench/agentio-fake-llm" \
    --web-dir dist --out "$build/web-test"

# The normativa page (plain files, no build step): its unit tests, then the page in Chromium against
# agentio-normativa, its index built from the Estatuto that scripts/data.sh puts in <build-dir>/data.
cd ../../..
bash scripts/data.sh estatuto "$build/data"
cd reference_server/normativa/web
npm ci --no-audit --no-fund --silent
[ -x "$build/reference_server/normativa/agentio-normativa" ] && [ -x "$build/bench/agentio-fake-llm" ] ||
    cmake --build "$build" --target agentio-normativa agentio-fake-llm
node --test tests/unit.test.mjs
node tests/browser_test.mjs --exe "$build/reference_server/normativa/agentio-normativa" --fake "$build/bench/agentio-fake-llm" \
    --data "$build/data" --out "$build/web-test-normativa"
