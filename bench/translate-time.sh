#!/usr/bin/env bash
# Whole-process time of tilec translating each example (its own instantiation, as in golden/), a
# fresh process each time: the median of 5 runs per example. Writes bench/translate-times.json,
# which bench/run.sh puts beside Triton's cold compile times. Run it where tilec is built:
#   tools/build.sh && bench/translate-time.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=$(realpath "${TILEC:-$root/build/tools/tilec/tilec}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names=(vector_add softmax layer_norm swiglu transpose)
{
  cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
  echo "{\"machine\": \"measured on $(nproc) cores of $cpu, $(date +%F)\", \"seconds\": {"
  sep=
  for n in "${names[@]}"; do
    times=()
    for _ in 1 2 3 4 5; do
      t0=$EPOCHREALTIME
      (cd "$root/examples/$n" && "$tilec" "$n.cpp" -o "$tmp/$n.cu")
      t1=$EPOCHREALTIME
      times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
    printf '%s "%s": %s' "$sep" "$n" "$median"
    sep=,
  done
  echo "}}"
} >"$root/bench/translate-times.json"
cat "$root/bench/translate-times.json"
