#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite through CTest.
#   scripts/test.sh            release build
#   scripts/test.sh asan       AddressSanitizer + UndefinedBehaviorSanitizer build
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
bash scripts/setup.sh
bash scripts/build.sh "$preset"
ctest --preset "$preset"
