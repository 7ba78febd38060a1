#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (not in CI): builds every example's generated CUDA — the checked-in
# goldens, which CI proves equal to tilec's current output — with its host program, runs it on fresh
# random inputs at several sizes (ragged ones included) against the CPU reference of the same kernel
# source and an exact float64 computation, then runs compute-sanitizer memcheck, racecheck and
# synccheck on the small sizes. The feature kernels of tests/kernels are run the same way by their
# host programs in tests/gpu. Prints the tables; exits non-zero if anything failed.
# Logs: $OUT/build.log, $OUT/sanitizers.log (OUT defaults to /tmp/tilec-gpu-check).
# TILEC_GPU_GOLDEN_DIR=DIR builds DIR/<name>/<name>.cu in place of the goldens: other translations
# of the same kernels, e.g. the sm_80 ones (the mma.sync path; `tools/update-goldens.sh --arch sm_80
# --out DIR` makes them where tilec is built), which run on Hopper too.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
goldens=${TILEC_GPU_GOLDEN_DIR:-$root/golden}
out=${OUT:-/tmp/tilec-gpu-check}
bin=$(mktemp -d)
mkdir -p "$out"
: >"$out/build.log"
: >"$out/sanitizers.log"
arch=${TILEC_GPU_ARCH:-90a}
examples=(vector_add softmax layer_norm swiglu transpose rms_norm gelu_and_mul cross_entropy matmul batched_matmul matmul_descriptor linear_gelu dropout cumsum embedding layer_norm_bwd quantize) # examples/<name>/main.cu
tests=(row_sum col_reduce row_argmax convert int_ops nested_reduce plain_scale math_ops names loops functions math_more program_order early_return generic aligned streamed dot trans tensor_core random atomics scan gather hints asserts prints jumps inline_asm fp8 shapes sort rank3) # tests/gpu/<name>.cu
# Hopper's wgmma exists only on sm_90a: tests/gpu/wgmma.cu is built for that target alone, and
# tests/gpu/tma.cu (TMA and mbarriers, sm_90) beside it.
if [ "$arch" = 90a ]; then tests+=(wgmma tma); fi
# TILEC_GPU_CHECK_ONLY="matmul dot" runs those programs alone (a quick check of one change).
if [ -n "${TILEC_GPU_CHECK_ONLY:-}" ]; then
  keep() { local n; for n in $TILEC_GPU_CHECK_ONLY; do [ "$n" = "$1" ] && return 0; done; return 1; }
  sel=(); for e in "${examples[@]}"; do keep "$e" && sel+=("$e"); done; examples=(${sel[@]+"${sel[@]}"})
  sel=(); for t in "${tests[@]}"; do keep "$t" && sel+=("$t"); done; tests=(${sel[@]+"${sel[@]}"})
fi
programs=(${examples[@]+"${examples[@]}"} ${tests[@]+"${tests[@]}"})
status=0

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/# GPU: /'
nvcc --version | tail -1 | sed 's/^/# nvcc: /'

build() { # NAME SOURCE INCLUDE_DIR...: the goldens' NAME dir is added
  local name=$1 src=$2 incs=()
  shift 2
  for dir in "$@"; do incs+=(-I "$dir"); done
  nvcc -std=c++20 -O3 -lineinfo -gencode=arch=compute_${arch},code=sm_${arch} \
    -Werror all-warnings -I "$root/runtime_headers" -I "$goldens/$name" "${incs[@]}" \
    "$src" -o "$bin/$name" >"$bin/$name.build.log" 2>&1
}
pids=()
for ex in ${examples[@]+"${examples[@]}"}; do
  build "$ex" "$root/examples/$ex/main.cu" "$root/examples/$ex" & pids+=($!)
done
for t in ${tests[@]+"${tests[@]}"}; do
  build "$t" "$root/tests/gpu/$t.cu" "$root/tests/kernels" "$root/examples/common" & pids+=($!)
done
for i in "${!programs[@]}"; do
  ex=${programs[$i]}
  wait "${pids[$i]}" || { echo "build of $ex failed (see build.log)"; status=1; }
  { echo "== $ex"; cat "$bin/$ex.build.log"; } >>"$out/build.log"
done

echo
echo "Errors are ||a - b|| / ||b||: the GPU against the CPU reference (tl.hpp) and against float64,"
echo "and the CPU reference's own error against float64. The GPU passes when it is within tol of"
echo "float64 and within tol + (CPU vs f64) of the CPU reference; unwritten outputs (poisoned NaN) or"
echo "writes into padding fail. Rows with tol 0 (tests/gpu: integers, bools, indices, bit-exact floats)"
echo "give instead the fractions of mismatching elements. The tests/gpu programs launch every kernel"
echo "twice, under two poison patterns, and fail if the runs differ or a guard element past the end changed."
echo
echo "| example     | size             | vs CPU ref | vs fp64    | CPU vs f64 | tol     | result |"
echo "|-------------|------------------|------------|------------|------------|---------|--------|"
for ex in "${programs[@]}"; do
  [ -x "$bin/$ex" ] || continue
  "$bin/$ex" || status=1
done

# A sanitizer run is clean when its summary reports no errors or hazards (the program's own exit
# code, which reflects the numeric checks above, is judged there and not here).
echo
echo "| program        | memcheck | racecheck | synccheck |"
echo "|----------------|----------|-----------|-----------|"
for ex in "${programs[@]}"; do
  [ -x "$bin/$ex" ] || continue
  row="| $(printf '%-14s' "$ex") |"
  for tool in memcheck racecheck synccheck; do
    log="$bin/$ex.$tool.log"
    compute-sanitizer --tool "$tool" "$bin/$ex" --small >"$log" 2>&1
    if grep -Eq 'ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards displayed \(0 errors, 0 warnings\)' "$log"; then
      verdict=clean
    else
      verdict=FAIL
      status=1
    fi
    row="$row $(printf '%-*s' ${#tool} "$verdict") |"
    { echo "== $ex $tool"; cat "$log"; } >>"$out/sanitizers.log"
  done
  echo "$row"
done
rm -rf "$bin"
exit $status
