#!/usr/bin/env bash
# translate.sh TILEC SOURCE TARGET OUT: runs tilec the way the goldens are made: from the source's
# folder with the bare file name, so provenance comments name the file alone.
set -euo pipefail
tilec=$1 src=$2 target=$3 out=$4
cd "$(dirname "$src")"
"$tilec" --target="$target" "$(basename "$src")" -o "$out"
