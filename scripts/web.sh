#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Builds the chat page: reference_server/portfolio/web → reference_server/portfolio/web/dist (served by
# agentio-portfolio serve at /chat), with the npm packages pinned in its lock file.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node.sh
npm ci --prefix reference_server/portfolio/web --no-audit --no-fund --silent
npm run build --prefix reference_server/portfolio/web --silent >/dev/null
echo "web: reference_server/portfolio/web/dist built"
