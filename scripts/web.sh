#!/usr/bin/env bash
# Builds the chat page: reference_server/portfolio/web → reference_server/portfolio/web/dist (served by
# agentio-portfolio serve at /chat), with the npm packages pinned in its lock file.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v npm >/dev/null || bash scripts/setup.sh nodejs npm
npm ci --prefix reference_server/portfolio/web --no-audit --no-fund --silent
npm run build --prefix reference_server/portfolio/web --silent >/dev/null
echo "web: reference_server/portfolio/web/dist built"
