#!/usr/bin/env bash
# Builds bench/shim/shapes_shim.cu (with bench/gen/shapes.cu, tilec's current output:
# bench/generate.sh) and runs bench/shapes.py on a machine with an NVIDIA GPU, nvcc, PyTorch and
# Triton (not in CI). Prints Markdown tables.
#   bench/shapes.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${TILEC_GPU_ARCH:-90a}
build=${1:-$(mktemp -d)}
mkdir -p "$build"
build=$(cd "$build" && pwd)
nvcc -std=c++20 -O3 "-gencode=arch=compute_${arch},code=sm_${arch}" -Xcompiler -fPIC -shared \
  -I "$root/runtime_headers" -I "$root/bench/gen" "$root/bench/shim/shapes_shim.cu" \
  -o "$build/libtilec_shapes.so"
cd "$root/bench"
PYTHONUNBUFFERED=1 python3 shapes.py "$build/libtilec_shapes.so"
