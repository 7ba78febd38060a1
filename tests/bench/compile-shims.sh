#!/usr/bin/env bash
# compile-shims.sh NVCC ROOT: every bench/shim/*_shim.cu (with its bench/gen file) compiles for
# sm_90a as bench/run.sh builds it, warnings as errors, as far as PTX: ptxas, which turns PTX into
# sm_90a code (a third of the time here), runs where the benchmark is built, on the GPU machine; the
# goldens (golden.<case>.nvcc) run it on the same runtime helpers.
set -euo pipefail
nvcc=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for shim in "$root"/bench/shim/*_shim.cu; do
  "$nvcc" -std=c++20 -O3 -gencode=arch=compute_90a,code=compute_90a -Werror all-warnings \
    -Xcompiler -Wall,-Wextra,-fPIC -I "$root/runtime_headers" -I "$root/bench/gen" -c "$shim" \
    -o "$tmp/$(basename "$shim" .cu).o"
done
