#!/usr/bin/env bash
# tilec's tensor-descriptor matmul on a machine with an NVIDIA GPU, nvcc, PyTorch and Triton (not in
# CI). bench/gen must hold tilec's current output (bench/generate.sh). Prints two Markdown tables:
#  1. bench/matmul_descriptor.cu: the descriptor kernel beside tilec's pointer matmul (tutorial 03)
#     at the same configuration and cuBLAS (cublasGemmEx), fp16, then bf16 beside cuBLAS;
#  2. bench/matmul_descriptor.py: the descriptor kernel beside Triton's tutorial-09 descriptor
#     kernel at several of the tutorial's configurations and torch.matmul, fp16 and bf16.
#   bench/matmul_descriptor.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${TILEC_GPU_ARCH:-90a}
build=${1:-$(mktemp -d)}
mkdir -p "$build"
build=$(cd "$build" && pwd)
nvcc -std=c++20 -O3 "-gencode=arch=compute_${arch},code=sm_${arch}" -I "$root/runtime_headers" \
  -o "$build/matmul_descriptor" "$root/bench/matmul_descriptor.cu" -lcublas
nvcc -std=c++20 -O3 "-gencode=arch=compute_${arch},code=sm_${arch}" -Xcompiler -fPIC -shared \
  -I "$root/runtime_headers" -I "$root/bench/gen" "$root/bench/shim/matmul_descriptor_shim.cu" \
  -o "$build/libtilec_matmul_descriptor.so"
"$build/matmul_descriptor"
echo
cd "$root/bench"
PYTHONUNBUFFERED=1 python3 matmul_descriptor.py "$build/libtilec_matmul_descriptor.so"
