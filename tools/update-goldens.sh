#!/usr/bin/env bash
# Regenerates every golden file (golden/cases.txt) with the built tilec. Review the diff afterwards
# (git diff golden/) as the reviewer who receives the CUDA would.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/tools/tilec/tilec}
tilec=$(realpath "$tilec") # translate.sh changes directory: a relative TILEC would break
grep -v -e '^#' -e '^$' "$root/golden/cases.txt" | while read -r case src; do
  mkdir -p "$root/golden/$case"
  "$root/tests/golden/translate.sh" "$tilec" "$root/$src" cuda "$root/golden/$case/$case.cu"
  "$root/tests/golden/translate.sh" "$tilec" "$root/$src" hip "$root/golden/$case/$case.hip"
  echo "golden/$case: $case.cu $case.hip"
done
