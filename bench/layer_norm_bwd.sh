#!/usr/bin/env bash
# Builds bench/shim/layer_norm_bwd_shim.cu (with bench/gen/layer_norm_bwd.cu, tilec's current
# output: bench/generate.sh) and runs bench/layer_norm_bwd.py on a machine with an NVIDIA GPU,
# nvcc, PyTorch and Triton (not in CI). Prints a Markdown table.
#   bench/layer_norm_bwd.sh [BUILD_DIR [layer_norm_bwd.py options]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${TILEC_GPU_ARCH:-90a}
build=${1:-$(mktemp -d)}
mkdir -p "$build"
build=$(cd "$build" && pwd)
nvcc -std=c++20 -O3 "-gencode=arch=compute_${arch},code=sm_${arch}" -Xcompiler -fPIC -shared \
  -I "$root/runtime_headers" -I "$root/bench/gen" "$root/bench/shim/layer_norm_bwd_shim.cu" \
  -o "$build/libtilec_layer_norm_bwd.so"
cd "$root/bench"
PYTHONUNBUFFERED=1 python3 layer_norm_bwd.py "$build/libtilec_layer_norm_bwd.so" "${@:2}"
