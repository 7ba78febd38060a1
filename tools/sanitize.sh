#!/usr/bin/env bash
# The sanitizer build (docs/robustness.md): tilec built by clang++-19 under AddressSanitizer and
# UndefinedBehaviorSanitizer in build-san (or $TILEC_SAN_BUILD), and its tests: the translator-facing
# tiers (IR, translator, pass and emitter unit tests, diagnostics, lit, golden translations) and a
# short fuzz run (fuzz.short). tools/test.sh runs it after the main test suite.
#   tools/sanitize.sh               configure, build, run the tests
#   tools/sanitize.sh --build-only  configure and build (for tools/fuzz.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${TILEC_JOBS:-$(nproc)}
build=${TILEC_SAN_BUILD:-$root/build-san}
case "${1:-}" in
  "" | --build-only) ;;
  *) echo "usage: tools/sanitize.sh [--build-only]" >&2; exit 2 ;;
esac
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-19 \
      -DTILEC_SANITIZE=ON >/dev/null
ninja -C "$build" -j "$jobs"
if [ "${1:-}" = --build-only ]; then
  exit 0
fi
cd "$build"
# Leaks that Clang itself makes are not tilec's (tools/lsan.supp says which).
export LSAN_OPTIONS=suppressions=$root/tools/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}
ctest --output-on-failure -j "$jobs"
