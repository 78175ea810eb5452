#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Installs what agentio needs on Debian 12 (as root), or says what to install.
#   scripts/setup.sh [extra-package ...]
set -euo pipefail

packages=(
  g++ cmake ninja-build git ca-certificates ccache
  libboost1.81-all-dev libboost-json1.81-dev libboost-url1.81-dev
  libsqlite3-dev libstemmer-dev libmuparser-dev postgresql-15 libpq-dev liblodepng-dev libdeflate-dev libssl-dev libfreetype-dev fonts-dejavu-core
  bubblewrap libseccomp-dev python3-sympy python3-numpy poppler-utils libgumbo-dev libspdlog-dev
  prometheus  # promtool (CTest metrics.promtool_check) and the server scripts/prometheus_check.sh starts; not left running (below)
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: run as root, or install them with:"
  echo "    sudo apt-get install -y ${missing[*]}"
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
# The prometheus package starts its server on a systemd host: the tests need only promtool, and start their own
# Prometheus on loopback when they scrape.
if printf '%s\n' "${missing[@]}" | grep -qx prometheus && command -v systemctl >/dev/null; then
  systemctl disable --now prometheus >/dev/null 2>&1 || true
fi
