#!/usr/bin/env bash
# Builds bench/shim/linear_gelu_shim.cu (with bench/gen/linear_gelu.cu, tilec's current output:
# bench/generate.sh) and runs bench/linear_gelu.py on a machine with an NVIDIA GPU, nvcc and
# PyTorch (not in CI). Prints a Markdown table.
#   bench/linear_gelu.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${TILEC_GPU_ARCH:-90a}
build=${1:-$(mktemp -d)}
mkdir -p "$build"
build=$(cd "$build" && pwd)
nvcc -std=c++20 -O3 "-gencode=arch=compute_${arch},code=sm_${arch}" -Xcompiler -fPIC -shared \
  -I "$root/runtime_headers" -I "$root/bench/gen" "$root/bench/shim/linear_gelu_shim.cu" \
  -o "$build/libtilec_linear_gelu.so"
cd "$root/bench"
PYTHONUNBUFFERED=1 python3 linear_gelu.py "$build/libtilec_linear_gelu.so"
