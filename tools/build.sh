#!/usr/bin/env bash
# Configures and builds tilec (and its tests) in ./build. Used by quickstart.sh and test.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${TILEC_JOBS:-$(nproc)}
cmake -G Ninja -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$root/build" -j "$jobs"
