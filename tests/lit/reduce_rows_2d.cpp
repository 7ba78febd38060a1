// A 2-D reduction along axis 1 gives a tile in the slice layout; when the layout keeps a row inside
// one warp, no shared memory is needed.
// RUN: %tilec --emit=ir --stop-after=lower-reductions %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int BM, int BN>
TILEC_KERNEL(num_warps = 4)
void row_sums(const float *in, float *out, int M, int N) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N);
  auto x = tl::load(in + tl::expand_dims<1>(rm) * N + tl::expand_dims<0>(rn), mask);
  auto s = tl::sum<1>(x);
  tl::store(out + rm, s, rm < M);
}
template void row_sums<16, 64>(const float *, float *, int, int);

// CHECK: #blocked0 = #blocked<spt=[1,4], tpw=[2,16], wpb=[4,1], order=[1,0]>
// CHECK: decl %s: tile<16xf32, #slice<dim=1, #blocked0>> = thread_reduce.sum(%x, axis=1)
// CHECK-NEXT: %s = warp_reduce.sum(%s, lanes=[8,4,2,1], warp_size=32)
// CHECK-NOT: shared_write
// CHECK: store(
