#!/usr/bin/env bash
# compile.sh COMPILER ROOT FILE ARCH... [--source TILEC SOURCE]: compiles a golden file as device
# code, warnings as errors, for each ARCH. The golden is tilec's output for the target's default
# architecture (the first ARCH: sm_90a, gfx90a); with --source, the others are compiled from
# SOURCE's translation for them (tilec --arch), which differs where tilec chooses instructions by
# architecture (wgmma on sm_90a, mma.sync on sm_80), and is the golden itself where it does not.
# TILEC_GOLDEN_DEFINES adds definitions (-DNDEBUG: as a release build compiles it).
set -euo pipefail
compiler=$1 root=$2 file=$3; shift 3
archs=() tilec="" src=""
while [ $# -gt 0 ]; do
  case "$1" in
    --source) tilec=$2 src=$3; shift 3 ;;
    *) archs+=("$1"); shift ;;
  esac
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
here=$(dirname "$0")
case "$file" in
  *.cu)
    # One nvcc run for every architecture whose translation is the golden: each gets its own device
    # compilation (cicc, ptxas, with the same warnings as errors), and the host side, the same for
    # all, is compiled once. Another translation gets an nvcc run of its own.
    gencode=() others=()
    for arch in "${archs[@]}"; do
      if [ -n "$src" ] && [ "$arch" != "${archs[0]}" ]; then
        "$here/translate.sh" "$tilec" "$root/$src" cuda "$tmp/sm_$arch.cu" "sm_$arch"
        # The first line names the architecture.
        if ! cmp -s <(tail -n +2 "$file") <(tail -n +2 "$tmp/sm_$arch.cu"); then
          others+=("$arch")
          continue
        fi
      fi
      gencode+=("-gencode=arch=compute_${arch},code=sm_${arch}")
    done
    "$compiler" -std=c++17 "${gencode[@]}" -Werror all-warnings ${TILEC_GOLDEN_DEFINES:-} \
      -Xcompiler -Wall,-Wextra -I "$root/runtime_headers" -c "$file" -o "$tmp/out.o"
    for arch in "${others[@]}"; do
      "$compiler" -std=c++17 "-gencode=arch=compute_${arch},code=sm_${arch}" -Werror all-warnings \
        -Xcompiler -Wall,-Wextra -I "$root/runtime_headers" -c "$tmp/sm_$arch.cu" -o "$tmp/out_$arch.o"
    done ;;
  *.hip)
    for arch in "${archs[@]}"; do
      "$compiler" -std=c++17 --offload-arch="$arch" -Wall -Werror ${TILEC_GOLDEN_DEFINES:-} \
        -I "$root/runtime_headers" \
        -c "$file" -o "$tmp/out.o"
    done ;;
esac
