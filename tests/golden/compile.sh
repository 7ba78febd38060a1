#!/usr/bin/env bash
# compile.sh COMPILER ROOT FILE ARCH...: compiles a golden file as device code, warnings as errors.
set -euo pipefail
compiler=$1 root=$2 file=$3; shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
case "$file" in
  *.cu)
    # One nvcc run for every architecture: each gets its own device compilation (cicc, ptxas, with
    # the same warnings as errors), and the host side, the same for all, is compiled once.
    gencode=()
    for arch in "$@"; do
      gencode+=("-gencode=arch=compute_${arch},code=sm_${arch}")
    done
    "$compiler" -std=c++17 "${gencode[@]}" -Werror all-warnings \
      -Xcompiler -Wall,-Wextra -I "$root/runtime_headers" -c "$file" -o "$tmp/out.o" ;;
  *.hip)
    for arch in "$@"; do
      "$compiler" -std=c++17 --offload-arch="$arch" -Wall -Werror -I "$root/runtime_headers" \
        -c "$file" -o "$tmp/out.o"
    done ;;
esac
