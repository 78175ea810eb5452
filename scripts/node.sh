#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# The Node.js the JavaScript steps run on, pinned and provided by the project
# itself (from the npm registry's `node` package, kept in build/tools/), so they
# do not depend on the machine's Node: Debian 12's is 18, which playwright-core
# and the MCP conformance suite refuse.
#   source scripts/node.sh            puts the pinned Node first on PATH
#   bash scripts/node.sh VERSION      installs that version and prints its bin folder
agentio_node_install() {
    local version=$1 root
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    local dir=$root/build/tools/node-$version
    command -v npm >/dev/null || bash "$root/scripts/setup.sh" nodejs npm
    if ! [ -x "$dir/node_modules/.bin/node" ] || [ "$("$dir/node_modules/.bin/node" --version)" != "v$version" ]; then
        mkdir -p "$dir"
        npm install --prefix "$dir" --no-audit --no-fund --silent "node@$version" >&2
    fi
    echo "$dir/node_modules/.bin"
}

agentio_node_version=22.23.3

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    agentio_node_install "${1:-$agentio_node_version}"
else
    PATH="$(agentio_node_install "$agentio_node_version"):$PATH"
    export PATH
fi
