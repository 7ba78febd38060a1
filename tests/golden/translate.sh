#!/usr/bin/env bash
# translate.sh TILEC SOURCE TARGET OUT [ARCH]: runs tilec the way the goldens are made: from the
# source's folder with the bare file name, so provenance comments name the file alone; for the
# target's default architecture (sm_90a, gfx90a) unless ARCH names another.
set -euo pipefail
tilec=$1 src=$2 target=$3 out=$4 arch=${5:-}
cd "$(dirname "$src")"
"$tilec" --target="$target" ${arch:+--arch="$arch"} "$(basename "$src")" -o "$out"
