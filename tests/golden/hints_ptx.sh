#!/usr/bin/env bash
# hints_ptx.sh NVCC ROOT: compiles golden/hints/hints.cu to PTX (sm_90a) and checks that each cache
# hint of tests/kernels/hints.cpp reached its instructions: the cache operators, the L1 eviction
# priorities with their L2 cache policy, ld.volatile, for accesses of 1, 2, 4, 8 and 16 bytes.
set -euo pipefail
nvcc=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$nvcc" -std=c++17 -arch=sm_90a -I "$root/runtime_headers" -ptx "$root/golden/hints/hints.cu" \
  -o "$tmp/hints.ptx"
missing=0
expect() { # a fixed string the PTX must contain
  if ! grep -qF -- "$1" "$tmp/hints.ptx"; then
    echo "missing from the PTX: $1"
    missing=1
  fi
}
# hinted_add<float>: 16-byte vectors, .cg and evict-first loads, .cs and evict-last stores.
expect "ld.global.cg.v4.u32"
expect "ld.global.L1::evict_first.L2::cache_hint.v4.u32"
expect "st.global.cs.v4.u32"
expect "st.global.L1::evict_last.L2::cache_hint.v4.u32"
expect "createpolicy.fractional.L2::evict_first.b64"
expect "createpolicy.fractional.L2::evict_last.b64"
# hinted_add<int8_t, int64_t>: the element paths of 1- and 8-byte values.
expect "ld.global.cg.u8"
expect "st.global.cs.u8"
expect "ld.global.cg.u64"
# hinted_gather: a cache operator with an eviction policy (the L2 policy only), .cv element loads,
# a volatile scalar, .wt stores, a .wb scalar store with an eviction policy.
expect "ld.global.ca.L2::cache_hint"
expect "ld.global.cv.u32"
expect "ld.volatile.global.u32"
expect "st.global.wt."
expect "st.global.wb.L2::cache_hint.u32"
# hinted_row_sums: the sum stored with .cg.
expect "st.global.cg.u32"
exit $missing
