#!/usr/bin/env bash
# README command 2: install what is missing, build, run the whole test suite (what CI runs), then
# the sanitizer build's tests and a short fuzz run (tools/sanitize.sh, docs/robustness.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install-deps.sh"
"$root/tools/build.sh"
cd "$root/build"
ctest --output-on-failure -j "${TILEC_JOBS:-$(nproc)}"
"$root/tools/sanitize.sh"
