#!/usr/bin/env bash
# What one call of the device tool runs (see bench/NOTES.md): the benchmark (arguments go to run.sh),
# then Nsight Compute on tilec's and Triton's kernels at one large size per workload, and the SASS of
# tilec's kernels. Everything lands in $OUT: bench.log, results.tar.gz, ncu.txt, sass.txt; with
# TILEC_BENCH_GPU_CHECK=1, tools/gpu-check.sh runs first (gpu-check.log, build.log, sanitizers.log).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
export TILEC_BENCH_LIB_DIR=$tmp/lib
if [ "${TILEC_BENCH_GPU_CHECK:-0}" = 1 ]; then # the correctness suite first (docs/gpu-checks.md)
  timeout 300 "$root/tools/gpu-check.sh" 2>&1 | tee "$OUT/gpu-check.log"
fi
"$root/bench/run.sh" --out "$tmp/results" "$@" 2>&1 | tee "$OUT/bench.log"
tar czf "$OUT/results.tar.gz" -C "$tmp" results
for so in "$tmp"/lib/*.so; do
  echo "=== $(basename "$so")"
  cuobjdump -sass "$so"
done >"$OUT/sass.txt" 2>&1
cd "$root/bench"
timeout 240 ncu --section SpeedOfLight --section Occupancy --section LaunchStats \
  --section MemoryWorkloadAnalysis --section WarpStateStats \
  -k 'regex:add_kernel|softmax_kernel|layer_norm_fwd|swiglu_kernel|transpose_kernel' \
  python3 profile.py --lib-dir "$tmp/lib" >"$OUT/ncu.txt" 2>&1
echo "ncu exit $?" >>"$OUT/ncu.txt"
grep -E '^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per' \
  "$OUT/ncu.txt" | head -150
