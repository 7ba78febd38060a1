#!/usr/bin/env bash
# README command 1: install what is missing, build tilec, translate every example kernel to CUDA and
# HIP, and show where the files are with a short excerpt. Needs neither nvcc nor hipcc.
#
# The example kernels are the golden cases whose source is under examples/ (golden/cases.txt): the
# list of kernel sources that CI checks, so host programs (main.cu, main.cpp) are never in it, and a
# new example kernel that is not listed fails the test `examples.kernels-listed`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install-deps.sh"
echo "tilec: building (the first build takes a few minutes)"
"$root/tools/build.sh" --tilec-only >/dev/null
tilec="$root/build/tools/tilec/tilec"
outdir="$root/out/examples"
mkdir -p "$outdir"

echo
echo "tilec $("$tilec" --version | head -1 | awk '{print $NF}') translated the examples:"
while read -r name src; do
  case "$src" in examples/*) ;; *) continue ;; esac
  # From the source's folder, as the goldens are made: provenance comments name the file alone.
  (cd "$root/$(dirname "$src")" &&
    "$tilec" --target=cuda "$(basename "$src")" -o "$outdir/$name.cu" &&
    "$tilec" --target=hip "$(basename "$src")" -o "$outdir/$name.hip")
  printf '  %-40s -> out/examples/%s.cu, out/examples/%s.hip\n' "$src" "$name" "$name"
done < <(grep -v -e '^#' -e '^$' "$root/golden/cases.txt")

echo
echo "Excerpt of out/examples/vector_add.cu (the kernel of add_kernel<1024>):"
echo "------------------------------------------------------------------------"
awk '/__global__/{p=1} p{print; n++} n>=28{exit}' "$outdir/vector_add.cu"
echo "------------------------------------------------------------------------"
echo "Compile one with: nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I runtime_headers -c out/examples/vector_add.cu"
