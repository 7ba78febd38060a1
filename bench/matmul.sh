#!/usr/bin/env bash
# The matmul benchmark, on a machine with an NVIDIA GPU, nvcc, PyTorch and Triton (not in CI):
#   bench/matmul.sh [--out DIR] [bench/matmul.py's options: --shapes MxNxK,... --no-check-only]
# Builds bench/shim/matmul_shim.cu with bench/gen/matmul.cu (tilec's output for examples/matmul, see
# bench/generate.sh and bench/kernels.txt) into a shared library (nvcc -O3, sm_90a unless
# TILEC_GPU_ARCH says otherwise), saves ptxas's register and spill report as DIR/build.log, then runs
# bench/matmul.py (tilec vs Triton's tutorial-03 kernel vs cuBLAS), which writes DIR/results.json and
# DIR/table.md (default DIR: bench/results/<date>-matmul). GEN_DIR names another folder of generated
# files; the library goes to $TILEC_BENCH_LIB_DIR when set (kept), else to a temporary folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${TILEC_GPU_ARCH:-90a}
out= pass=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) [ $# -ge 2 ] || { echo "--out needs a folder" >&2; exit 2; }; out=$2; shift 2 ;;
    *) pass+=("$1"); shift ;;
  esac
done
[ -n "$out" ] || out=$root/bench/results/$(date +%F)-matmul
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "${TILEC_BENCH_LIB_DIR:-}" ]; then
  lib=$TILEC_BENCH_LIB_DIR
  mkdir -p "$lib"
else
  lib=$(mktemp -d)
  trap 'rm -rf "$lib"' EXIT
fi

echo "building bench/shim/matmul_shim.cu (sm_$arch)"
if ! nvcc -std=c++20 -O3 -lineinfo "-gencode=arch=compute_${arch},code=sm_${arch}" -Xptxas -v \
     -Xcompiler -fPIC -shared -I "$root/runtime_headers" -I "${GEN_DIR:-$root/bench/gen}" \
     "$root/bench/shim/matmul_shim.cu" -o "$lib/libtilec_matmul.so" >"$out/build.log" 2>&1; then
  cat "$out/build.log"
  echo "nvcc failed on bench/shim/matmul_shim.cu" >&2
  exit 1
fi
# One line per kernel: the instantiation (the namespace, read from the mangled name's length
# prefix), registers, spills, shared memory.
awk '
  /Compiling entry function/ {
    s = $0; sub(/.*_ZN/, "", s); n = s + 0; name = substr(s, length(n "") + 1, n); spill = ""
  }
  /bytes spill stores/ { spill = $0; sub(/^[ \t]+/, "", spill) }
  /Used [0-9]+ registers/ && name ~ /matmul/ {
    r = $0; sub(/.*Used /, "", r); printf "  %-32s %s; %s\n", name, r, spill
  }' "$out/build.log"
if grep -qi warning "$out/build.log"; then
  echo "nvcc warnings (see $out/build.log):"
  grep -i warning "$out/build.log" | head -20
fi

cd "$root/bench"
status=0
PYTHONUNBUFFERED=1 python3 matmul.py "$lib/libtilec_matmul.so" --out "$out" \
  --nvcc-version "$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')" \
  ${pass[@]+"${pass[@]}"} || status=$?
echo "results in $out"
exit $status
