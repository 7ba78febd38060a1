#!/usr/bin/env bash
# Regenerates bench/gen/<name>.cu for every kernel in bench/kernels.txt with the built tilec
# (TILEC=path/to/tilec to use another). With --check DIR it writes into DIR instead, for CI's
# comparison with the committed files.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=$(realpath "${TILEC:-$root/build/tools/tilec/tilec}")
out=$root/bench/gen
if [ "${1:-}" = --check ]; then out=$2; fi
mkdir -p "$out"
grep -v -e '^#' -e '^$' "$root/bench/kernels.txt" | while read -r name src extra; do
  args=()
  for inst in $extra; do args+=(--instantiate "$inst"); done
  # From the source's folder with the bare file name, as for the goldens: provenance comments
  # name the file alone and no machine path reaches the output.
  (cd "$root/$(dirname "$src")" && "$tilec" "${args[@]}" "$(basename "$src")" -o "$out/$name.cu")
done
