#!/usr/bin/env bash
# The production-kernel benchmark on a GPU machine (nvcc, PyTorch, Triton; not in CI):
#   bench/production/run.sh LIGER_DEST [--quick] [--only NAME...]
# LIGER_DEST is what originals.sh wrote. Builds bench/gen/liger.cu with its shim (nvcc -O3, sm_90a
# unless TILEC_GPU_ARCH says otherwise; ptxas's register report to $OUT/liger-build.log when OUT is
# set), then runs bench_liger.py, which prints one line per row and the table last. GEN_DIR names
# another folder holding liger.cu (an A/B of two tilec builds; default bench/gen).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
src=$(cd "${1:?usage: run.sh LIGER_DEST [--quick] [--only NAME...]}/src" && pwd)
shift
arch=${TILEC_GPU_ARCH:-90a}
gen=$(cd "${GEN_DIR:-$root/bench/gen}" && pwd)
lib=$(mktemp -d)
nvcc -std=c++20 -O3 -lineinfo "-gencode=arch=compute_${arch},code=sm_${arch}" -Xptxas -v -Xcompiler -fPIC \
  -shared -I "$root/runtime_headers" -I "$gen" "$root/bench/shim/liger_shim.cu" \
  -o "$lib/libtilec_liger.so" >"$lib/build.log" 2>&1 || { cat "$lib/build.log"; exit 1; }
[ -n "${OUT:-}" ] && cp "$lib/build.log" "$OUT/liger-build.log"
# awk reads to the end (head would close the pipe early: grep's SIGPIPE fails the script under pipefail).
grep -E "Function properties|registers|spill" "$lib/build.log" | sed 's/^ptxas info *: //' | awk 'NR <= 20'
cd "$root/bench"
python3 production/bench_liger.py --lib-dir "$lib" --liger-src "$src" "$@"
