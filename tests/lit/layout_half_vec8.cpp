// A 16-byte access holds 8 halves; the hint makes the access provably aligned, so no run-time check.
// RUN: %tilec --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void scale(const tl::half *x, tl::half *out, int n) {
  int start = tl::multiple_of(tl::program_id(0) * BLOCK, BLOCK);
  auto offs = start + tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n);
  tl::store(out + offs, v * 2.0f, offs < n);
}
template void scale<2048>(const tl::half *, tl::half *, int);

// CHECK: #blocked0 = #blocked<spt=[8], tpw=[32], wpb=[4], order=[0]>
// CHECK: decl %v: tile<2048xf16, #blocked0> = load({{.*}}) {vec=8, mask_at_last}
// CHECK: store({{.*}}) {vec=8, mask_at_last}
