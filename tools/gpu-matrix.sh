#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (not in CI): the operator matrix's cells on the GPU. DIR holds what
# `tests/matrix/run.py --build build --emit-gpu DIR` wrote on a machine with tilec (each cell's
# kernel source, its CUDA and its host program); each host program is built with nvcc for the GPU
# (sm_90a unless TILEC_GPU_ARCH says otherwise) and run: every kernel against the CPU reference and
# the float64 oracle, exact operations bit for bit. Prints one row per cell, then the total.
#   tools/gpu-matrix.sh DIR
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: tools/gpu-matrix.sh DIR (from tests/matrix/run.py --emit-gpu DIR)}
arch=${TILEC_GPU_ARCH:-90a}
cells=()
for d in "$dir"/*/; do cells+=("$(basename "$d")"); done
build() {
  nvcc -std=c++20 -O2 -x cu -gencode=arch=compute_${arch},code=sm_${arch} -Werror all-warnings \
    -I "$root/runtime_headers" -I "$root/tests/difftest" -I "$root/tests/matrix" -I "$dir/$1" \
    "$dir/$1/main.cpp" -o "$dir/$1/main_gpu" >"$dir/$1/build.log" 2>&1
}
pids=()
for c in "${cells[@]}"; do build "$c" & pids+=($!); done
for p in "${pids[@]}"; do wait "$p"; done
status=0 total=0 failed=0
printf '| %-9s | %7s | %7s | %s\n' cell kernels failed result
for c in "${cells[@]}"; do
  if [ ! -x "$dir/$c/main_gpu" ]; then
    printf '| %-9s | %7s | %7s | %s\n' "$c" - - "BUILD FAILED"
    tail -20 "$dir/$c/build.log"
    status=1
    continue
  fi
  "$dir/$c/main_gpu" >"$dir/$c/run.log" 2>&1
  rc=$?
  line=$(grep '^difftest: ' "$dir/$c/run.log" | tail -1)
  n=$(echo "$line" | sed -n 's/^difftest: \([0-9]*\) kernels, \([0-9]*\) failed.*/\1/p')
  f=$(echo "$line" | sed -n 's/^difftest: \([0-9]*\) kernels, \([0-9]*\) failed.*/\2/p')
  total=$((total + ${n:-0})) failed=$((failed + ${f:-0}))
  [ "$rc" -eq 0 ] || status=1
  printf '| %-9s | %7s | %7s | %s\n' "$c" "${n:-?}" "${f:-?}" "$([ "$rc" -eq 0 ] && echo ok || echo "FAIL (exit $rc)")"
  [ "$rc" -eq 0 ] || grep '^MISMATCH' "$dir/$c/run.log" | head -12
done
echo "gpu-matrix: $total kernels (cells on CUDA), $failed failed"
exit $status
