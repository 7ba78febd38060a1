#!/usr/bin/env bash
# Configures and builds tilec in ./build. Used by quickstart.sh and test.sh.
#   tools/build.sh              tilec and its tests (the tests need nvcc: see README, "Tests")
#   tools/build.sh --tilec-only the tilec command alone: no test is configured, so neither nvcc nor
#                               hipcc is looked for
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${TILEC_JOBS:-$(nproc)}
tests=ON
targets=()
case "${1:-}" in
  "") ;;
  --tilec-only) tests=OFF targets=(tilec) ;;
  *) echo "usage: tools/build.sh [--tilec-only]" >&2; exit 2 ;;
esac
cmake -G Ninja -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DTILEC_BUILD_TESTS=$tests >/dev/null
ninja -C "$root/build" -j "$jobs" "${targets[@]}"
