// Rank-3 tiles: a reduction along the middle dim, a permute of the batch's matrices (a view of
// the operand in the permuted layout), and the sum of every element, last dim first.
// RUN: %tilec --emit=ir --stop-after=materialize %s -o - | %FileCheck %s
// RUN: %tilec %s -o - | %FileCheck %s --check-prefix=CUDA
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 4)
void batched(const float *in, float *out, float *total) {
  auto b = tl::expand_dims<1>(tl::expand_dims<1>(tl::arange<0, 2>()));
  auto i = tl::expand_dims<0>(tl::expand_dims<1>(tl::arange<0, 16>()));
  auto j = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, 32>()));
  auto x = tl::load(in + b * 512 + i * 32 + j);
  auto jt = tl::expand_dims<0>(tl::expand_dims<1>(tl::arange<0, 32>()));
  auto it = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, 16>()));
  tl::store(out + b * 512 + jt * 16 + it, tl::permute<0, 2, 1>(x) * tl::expand_dims<2>(tl::sum<1>(x)));
  tl::store(total, tl::sum(x));
}

// CHECK: decl %x: tile<2x16x32xf32> = load(
// CHECK: decl %sum_x: tile<2x32xf32> = reduce.sum(%x, axis=1) : tile<2x32xf32>
// CHECK: mul(permute<0,2,1>(%x) : tile<2x32x16xf32>, broadcast(expand_dims(%sum_x, 2) : tile<2x32x1xf32>)
// CHECK: reduce.sum(%x, axis=2) : tile<2x16xf32>
// CHECK-NEXT: reduce.sum(%sum_x.1, axis=1) : tile<2xf32>
// CHECK-NEXT: reduce.sum(%sum_sum_x, axis=0) : f32

// CUDA: using [[L:L[0-9]+]] = tilec::rt::Blocked3<1, 1, X_VEC, 1, 4, 8, 1, NUM_WARPS, 1, 2, 1, 2, 16, 32>;
// CUDA: using {{L[0-9]+}} = tilec::rt::Slice2<
// CUDA: float x[[[L]]::ELEMS0][[[L]]::ELEMS1][[[L]]::ELEMS2];
// CUDA: for (int k = 0; k < [[L]]::ELEMS2; k += X_VEC) {
