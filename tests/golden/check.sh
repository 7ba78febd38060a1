#!/usr/bin/env bash
# check.sh TILEC ROOT CASE SOURCE TARGET [once]: tilec's output for SOURCE equals
# golden/CASE/CASE.<ext>, byte for byte, and two runs give the same bytes (one run with `once`: the
# sanitizer build, where the main build has checked determinism).
set -euo pipefail
tilec=$1 root=$2 case=$3 src=$4 target=$5 runs=${6:-twice}
ext=cu; [ "$target" = hip ] && ext=hip
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
here=$(dirname "$0")
"$here/translate.sh" "$tilec" "$root/$src" "$target" "$tmp/a.$ext"
if [ "$runs" != once ]; then
  "$here/translate.sh" "$tilec" "$root/$src" "$target" "$tmp/b.$ext"
  if ! cmp -s "$tmp/a.$ext" "$tmp/b.$ext"; then
    echo "error: two runs of tilec on $src gave different output" >&2
    diff "$tmp/a.$ext" "$tmp/b.$ext" | head -20 >&2
    exit 1
  fi
fi
golden="$root/golden/$case/$case.$ext"
if ! diff -u "$golden" "$tmp/a.$ext"; then
  echo "error: output for $src differs from $golden (run tools/update-goldens.sh and review the diff)" >&2
  exit 1
fi
