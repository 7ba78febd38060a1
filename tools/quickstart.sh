#!/usr/bin/env bash
# README command 1: install what is missing, build tilec, translate every example to CUDA and HIP,
# and show where the files are with a short excerpt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install-deps.sh"
"$root/tools/build.sh" >/dev/null
tilec="$root/build/tools/tilec/tilec"
outdir="$root/out/examples"
mkdir -p "$outdir"

echo
echo "tilec $("$tilec" --version | head -1 | awk '{print $NF}') translated the examples:"
for src in "$root"/examples/*/*.cpp; do
  name=$(basename "$src" .cpp)
  (cd "$(dirname "$src")" &&
    "$tilec" --target=cuda "$name.cpp" -o "$outdir/$name.cu" &&
    "$tilec" --target=hip "$name.cpp" -o "$outdir/$name.hip")
  printf '  %-40s -> out/examples/%s.cu, out/examples/%s.hip\n' "examples/$name/$name.cpp" "$name" "$name"
done

echo
echo "Excerpt of out/examples/vector_add.cu (the kernel of add_kernel<1024>):"
echo "------------------------------------------------------------------------"
awk '/__global__/{p=1} p{print; n++} n>=28{exit}' "$outdir/vector_add.cu"
echo "------------------------------------------------------------------------"
echo "Compile one with: nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I runtime_headers -c out/examples/vector_add.cu"
