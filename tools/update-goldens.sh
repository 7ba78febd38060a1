#!/usr/bin/env bash
# Regenerates every golden file (golden/cases.txt) with the built tilec. Review the diff afterwards
# (git diff golden/) as the reviewer who receives the CUDA would.
#   tools/update-goldens.sh [--arch ARCH --out DIR]
# With --arch and --out it writes the translations for that architecture (e.g. sm_80: the mma.sync
# path where the goldens' sm_90a uses wgmma) into DIR/<case>/ instead, CUDA only, for
# TILEC_GPU_GOLDEN_DIR of tools/gpu-check.sh; the goldens stay as they are.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/tools/tilec/tilec}
tilec=$(realpath "$tilec") # translate.sh changes directory: a relative TILEC would break
arch= out=
while [ $# -gt 0 ]; do
  case $1 in
    --arch) [ $# -ge 2 ] || { echo "--arch needs an architecture (sm_80)" >&2; exit 2; }; arch=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || { echo "--out needs a folder" >&2; exit 2; }; out=$2; shift 2 ;;
    *) echo "update-goldens.sh: unknown argument '$1' (see the comment at the top)" >&2; exit 2 ;;
  esac
done
if { [ -n "$arch" ] && [ -z "$out" ]; } || { [ -z "$arch" ] && [ -n "$out" ]; }; then
  echo "update-goldens.sh: --arch and --out go together" >&2
  exit 2
fi
grep -v -e '^#' -e '^$' "$root/golden/cases.txt" | while read -r case src; do
  if [ -n "$out" ]; then
    mkdir -p "$out/$case"
    "$root/tests/golden/translate.sh" "$tilec" "$root/$src" cuda "$(realpath "$out")/$case/$case.cu" "$arch"
    echo "$out/$case: $case.cu ($arch)"
    continue
  fi
  mkdir -p "$root/golden/$case"
  "$root/tests/golden/translate.sh" "$tilec" "$root/$src" cuda "$root/golden/$case/$case.cu"
  "$root/tests/golden/translate.sh" "$tilec" "$root/$src" hip "$root/golden/$case/$case.hip"
  echo "golden/$case: $case.cu $case.hip"
done
