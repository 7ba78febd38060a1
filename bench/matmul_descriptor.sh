#!/usr/bin/env bash
# Builds and runs bench/matmul_descriptor.cu (tilec's tensor-descriptor matmul beside its pointer
# matmul and cuBLAS) on a machine with an NVIDIA GPU and nvcc (not in CI). bench/gen must hold
# tilec's current output (bench/generate.sh). Prints a Markdown table.
#   bench/matmul_descriptor.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${TILEC_GPU_ARCH:-90a}
build=${1:-$(mktemp -d)}
mkdir -p "$build"
nvcc -std=c++20 -O3 -gencode=arch=compute_$arch,code=sm_$arch -I "$root/runtime_headers" \
  -o "$build/matmul_descriptor" "$root/bench/matmul_descriptor.cu" -lcublas
"$build/matmul_descriptor"
