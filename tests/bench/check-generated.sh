#!/usr/bin/env bash
# check-generated.sh TILEC ROOT: bench/gen/*.cu equal what bench/generate.sh makes now.
set -euo pipefail
tilec=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
TILEC=$tilec "$root/bench/generate.sh" --check "$tmp"
if ! diff -ru "$root/bench/gen" "$tmp"; then
  echo "error: bench/gen is stale: run bench/generate.sh and commit the result" >&2
  exit 1
fi
