#!/usr/bin/env bash
# compile.sh COMPILER ROOT FILE ARCH...: compiles a golden file as device code, warnings as errors.
set -euo pipefail
compiler=$1 root=$2 file=$3; shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
case "$file" in
  *.cu)
    for arch in "$@"; do
      "$compiler" -std=c++17 -gencode=arch=compute_${arch},code=sm_${arch} -Werror all-warnings \
        -Xcompiler -Wall,-Wextra -I "$root/runtime_headers" -c "$file" -o "$tmp/out.o"
    done ;;
  *.hip)
    for arch in "$@"; do
      "$compiler" -std=c++17 --offload-arch="$arch" -Wall -Werror -I "$root/runtime_headers" \
        -c "$file" -o "$tmp/out.o"
    done ;;
esac
