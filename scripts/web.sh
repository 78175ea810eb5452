#!/usr/bin/env bash
# Builds the chat page: reference_server/portfolio/web → reference_server/portfolio/web/dist (served by
# agentio-portfolio serve at /chat), with the npm packages pinned in its lock file.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node.sh
npm ci --prefix reference_server/portfolio/web --no-audit --no-fund --silent
npm run build --prefix reference_server/portfolio/web --silent >/dev/null
echo "web: reference_server/portfolio/web/dist built"
