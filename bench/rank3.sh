#!/usr/bin/env bash
# Builds bench/shim/rank3_shim.cu (with bench/gen/rank3.cu, tilec's current output:
# bench/generate.sh) and runs bench/rank3.py on a machine with an NVIDIA GPU, nvcc, PyTorch and
# Triton (not in CI). Prints Markdown tables.
#   bench/rank3.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${TILEC_GPU_ARCH:-90a}
build=${1:-$(mktemp -d)}
mkdir -p "$build"
build=$(cd "$build" && pwd)
nvcc -std=c++20 -O3 "-gencode=arch=compute_${arch},code=sm_${arch}" -Xcompiler -fPIC -shared \
  -I "$root/runtime_headers" -I "$root/bench/gen" "$root/bench/shim/rank3_shim.cu" \
  -o "$build/libtilec_rank3.so"
cd "$root/bench"
PYTHONUNBUFFERED=1 python3 rank3.py "$build/libtilec_rank3.so"
