#!/usr/bin/env bash
# Sets up, builds and runs the reference server on http://127.0.0.1:8080 (the chat
# page at /chat) with the sample database (data/portfolio.db, generated on first run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/web.sh
bash scripts/build.sh release agentio-portfolio
exec ./build/release/reference_server/portfolio/agentio-portfolio serve "$@"
