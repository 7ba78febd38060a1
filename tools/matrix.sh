#!/usr/bin/env bash
# The operator matrix over every cell (tests/matrix/run.py; docs/robustness.md "The operator matrix"):
# translate, nvcc and hipcc with warnings as errors, emulator against the CPU reference and a float64
# oracle. Prints one line per element type and rank, then the closing figure (cells tried, passing).
#   tools/matrix.sh [run.py options, e.g. --cells fp16:1,fp16:2 --work DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILEC_BUILD:-$root/build}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
exec python3 "$root/tests/matrix/run.py" --build "$build" --nvcc --nvcc-path "$nvcc" --hipcc \
  --jobs "${TILEC_JOBS:-$(nproc)}" "$@"
