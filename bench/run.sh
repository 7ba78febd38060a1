#!/usr/bin/env bash
# The benchmark, on a machine with an NVIDIA GPU, nvcc, PyTorch and Triton (not in CI):
#   bench/run.sh [--quick] [--out DIR] [--only NAME...]
# Builds bench/gen/*.cu (tilec's output for the examples, see bench/generate.sh) with their shims into
# shared libraries (nvcc -O3, sm_90a unless TILEC_GPU_ARCH says otherwise), times nvcc on each example's
# golden file, then runs bench/bench.py, which writes results.json, table.md and one PNG per workload
# into DIR (default: bench/results/<date>-<gpu>). GEN_DIR names another folder of generated files
# (an A/B of two tilec builds; default bench/gen).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${TILEC_GPU_ARCH:-90a}
out= pass=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    *) pass+=("$1"); shift ;;
  esac
done
if [ -z "$out" ]; then
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr -cs 'A-Za-z0-9' '-' |
        sed 's/-$//' | tr 'A-Z' 'a-z')
  out=$root/bench/results/$(date +%F)-$gpu
fi
mkdir -p "$out"
# The shared libraries go to a temporary folder, or to $TILEC_BENCH_LIB_DIR (kept) when it is set.
if [ -n "${TILEC_BENCH_LIB_DIR:-}" ]; then
  lib=$TILEC_BENCH_LIB_DIR
  mkdir -p "$lib"
else
  lib=$(mktemp -d)
  trap 'rm -rf "$lib"' EXIT
fi
flags=(-std=c++20 -O3 -lineinfo "-gencode=arch=compute_${arch},code=sm_${arch}"
       -I "$root/runtime_headers")

# The shims, in parallel; ptxas's register and spill report goes to build.log.
names=(vector_add softmax layer_norm rms_norm swiglu transpose cross_entropy)
pids=()
for n in "${names[@]}"; do
  nvcc "${flags[@]}" -Xptxas -v -Xcompiler -fPIC -shared -I "${GEN_DIR:-$root/bench/gen}" \
    "$root/bench/shim/${n}_shim.cu" -o "$lib/libtilec_$n.so" >"$lib/$n.log" 2>&1 & pids+=($!)
done
status=0
for i in "${!names[@]}"; do
  wait "${pids[$i]}" || { echo "nvcc failed on bench/shim/${names[$i]}_shim.cu:"; status=1; }
  { echo "== ${names[$i]}"; cat "$lib/${names[$i]}.log"; } >>"$lib/build.log"
done
cp "$lib/build.log" "$out/build.log"
[ $status = 0 ] || { cat "$out/build.log"; exit 1; }

# nvcc on each example's own output (one instantiation, as Triton compiles one configuration), one
# at a time: the other half of tilec's compile time.
echo "{" >"$lib/nvcc.json"
sep=
for n in "${names[@]}"; do
  t0=$EPOCHREALTIME
  nvcc "${flags[@]}" -c "$root/golden/$n/$n.cu" -o "$lib/$n.o"
  t1=$EPOCHREALTIME
  awk -v s="$sep" -v n="$n" -v a="$t0" -v b="$t1" 'BEGIN { printf "%s \"%s\": %.3f\n", s, n, b - a }' \
    >>"$lib/nvcc.json"
  sep=,
done
echo "}" >>"$lib/nvcc.json"

tt=()
[ -f "$root/bench/translate-times.json" ] && tt=(--translate-times "$root/bench/translate-times.json")
cd "$root/bench"
PYTHONUNBUFFERED=1 python3 bench.py --lib-dir "$lib" --out "$out" --nvcc-times "$lib/nvcc.json" \
  --nvcc-version "$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')" "${tt[@]}" \
  ${pass[@]+"${pass[@]}"}
echo "results in $out"
