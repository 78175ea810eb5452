#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Sets up, builds and runs the reference server on http://127.0.0.1:8080 (the chat
# page at /chat) with the sample database (data/portfolio.db, generated on first run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/web.sh
bash scripts/build.sh release agentio-portfolio
exec ./build/release/reference_server/portfolio/agentio-portfolio serve "$@"
