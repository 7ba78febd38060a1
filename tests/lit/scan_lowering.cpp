// A scan is lowered in the layout of its variable: a row of a 2-D tile that one warp holds needs
// only the in-warp part; a 1-D tile spread over four warps, repeated twice, adds the warps' totals
// through shared memory ([2 repetitions x 4 warps]); the scan's variable is written in place.
// RUN: %tilec --emit=ir --stop-after=lower-reductions %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int BM, int BN>
TILEC_KERNEL(num_warps = 4)
void row_scans(const float *in, float *out, int M, int N) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto at = tl::expand_dims<1>(rm) * N + tl::expand_dims<0>(rn);
  auto mask = (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N);
  auto x = tl::load(in + at, mask, 0.0f);
  tl::store(out + at, tl::cumsum<1, true>(x), mask);
}
template void row_scans<16, 64>(const float *, float *, int, int);

template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void block_scan(const int *in, int *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto x = tl::load(in + offs, offs < n, 1);
  x = tl::cumprod(x);
  tl::store(out + offs, x, offs < n);
}
template void block_scan<1024>(const int *, int *, int);

// CHECK-LABEL: kernel @row_scans<16, 64>
// CHECK: #blocked0 = #blocked<spt=[1,4], tpw=[2,16], wpb=[4,1], order=[1,0]>
// CHECK: decl %cumsum_x: tile<16x64xf32, #blocked0> = warp_scan.sum(%x, axis=1, reverse)
// CHECK-NOT: shared_write
// CHECK: store(

// CHECK-LABEL: kernel @block_scan<1024>
// CHECK: shared 0 x_totals: i32[8] row_stride=8
// CHECK: #blocked0 = #blocked<spt=[4], tpw=[32], wpb=[4], order=[0]>
// CHECK: %x = warp_scan.prod(%x, axis=0)
// CHECK-NEXT: shared_write_scan_totals 0, %x axis=0
// CHECK-NEXT: barrier
// CHECK-NEXT: %x = scan_carry.prod(%x, totals=0, axis=0)
// CHECK-NEXT: store(
