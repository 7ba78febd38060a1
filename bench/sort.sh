#!/usr/bin/env bash
# Builds bench/shim/sort_shim.cu (with bench/gen/sort.cu, tilec's current output:
# bench/generate.sh) and runs bench/sort.py on a machine with an NVIDIA GPU, nvcc, PyTorch and
# Triton (not in CI). Prints Markdown tables.
#   bench/sort.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${TILEC_GPU_ARCH:-90a}
build=${1:-$(mktemp -d)}
mkdir -p "$build"
build=$(cd "$build" && pwd)
nvcc -std=c++20 -O3 "-gencode=arch=compute_${arch},code=sm_${arch}" -Xcompiler -fPIC -shared \
  -I "$root/runtime_headers" -I "$root/bench/gen" "$root/bench/shim/sort_shim.cu" \
  -o "$build/libtilec_sort.so"
cd "$root/bench"
PYTHONUNBUFFERED=1 python3 sort.py "$build/libtilec_sort.so"
