#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (not in CI): builds every example's generated CUDA — the checked-in
# goldens, which CI proves equal to tilec's current output — with its host program, runs it on fresh
# random inputs at several sizes (ragged ones included) against the CPU reference of the same kernel
# source, then runs compute-sanitizer memcheck, racecheck and synccheck on the small sizes.
# Prints one table; exits non-zero if anything failed. Logs go to $OUT (or /tmp/tilec-gpu-check).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/tilec-gpu-check}
mkdir -p "$out"
arch=${TILEC_GPU_ARCH:-90a}
examples=(vector_add softmax layer_norm swiglu transpose)
status=0

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/# GPU: /'
nvcc --version | tail -1 | sed 's/^/# nvcc: /'

for ex in "${examples[@]}"; do
  if ! nvcc -std=c++20 -O3 -lineinfo -gencode=arch=compute_${arch},code=sm_${arch} \
      -Werror all-warnings -I "$root/runtime_headers" -I "$root/golden/$ex" -I "$root/examples/$ex" \
      "$root/examples/$ex/main.cu" -o "$out/$ex" >"$out/$ex.build.log" 2>&1; then
    echo "build of $ex failed:"; cat "$out/$ex.build.log"; status=1
  fi
done

echo
echo "| example     | size               | rel. error | tol     | result |"
echo "|-------------|--------------------|------------|---------|--------|"
for ex in "${examples[@]}"; do
  [ -x "$out/$ex" ] || continue
  "$out/$ex" || status=1
done

echo
echo "| example     | memcheck | racecheck | synccheck |"
echo "|-------------|----------|-----------|-----------|"
for ex in "${examples[@]}"; do
  [ -x "$out/$ex" ] || continue
  row="| $(printf '%-11s' "$ex") |"
  for tool in memcheck racecheck synccheck; do
    if compute-sanitizer --tool "$tool" --error-exitcode 9 "$out/$ex" --small \
        >"$out/$ex.$tool.log" 2>&1; then
      summary=$(grep -Eo 'ERROR SUMMARY: [0-9]+ errors|RACECHECK SUMMARY: [0-9]+ hazards? displayed' \
                "$out/$ex.$tool.log" | tail -1)
      row="$row clean $(printf '%-*s' $(( ${#tool} - 5 )) '') |"
      echo "$summary" >>"$out/$ex.$tool.log"
    else
      row="$row FAIL $(printf '%-*s' $(( ${#tool} - 4 )) '') |"
      status=1
    fi
  done
  echo "$row"
done
exit $status
