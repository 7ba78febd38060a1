// rematerialize: a mask or index tile read after a reduction is computed again there from its
// definition (with the index tiles it reads expanded), not held across the reduction; reads before
// the reduction keep the variable. Not rematerialized: float tiles, tiles assigned again, tiles
// computed from a load, and tiles whose scalars the kernel assigns.
// RUN: %tilec --emit=ir --stop-after=rematerialize %s -o - | %FileCheck %s
// RUN: %tilec --no-aligned-variants %s -o - | %FileCheck --check-prefix=CUDA %s
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 4)
void row(const float *x, float *y, int n) {
  auto cols = tl::arange<0, 512>();
  auto mask = cols < n;
  auto v = tl::load(x + cols, mask, 0.0f);
  float s = tl::sum(v);
  tl::store(y + cols, v / s, mask);
}
// CHECK-LABEL: kernel @row
// CHECK: decl %cols: tile<512xi32> = arange(0, 512)
// CHECK-NEXT: decl %mask: tile<512xi1> = lt(%cols, splat(%n)
// CHECK-NEXT: decl %v: tile<512xf32> = load(add(splat(%x) : tile<512xptr<const f32>>, %cols), mask=%mask
// CHECK: decl %s: f32 = reduce.sum
// CHECK-NEXT: store(add(splat(%y) : tile<512xptr<f32>>, arange(0, 512) : tile<512xi32>), {{.*}}, mask=lt(arange(0, 512) : tile<512xi32>, splat(%n)

// CUDA-LABEL: namespace row_instance {
// CUDA: bits[v_1] = L0::coord0(i + v_1) < n;
// CUDA-NOT: mask[
// CUDA: } // namespace row_instance

TILEC_KERNEL(num_warps = 4)
void kept(const float *x, const int *limits, float *y, int n) {
  auto cols = tl::arange<0, 512>();
  auto lim = tl::load(limits + cols); // a load: held
  auto mask = cols < lim;
  auto weights = tl::cast<float>(cols) * 0.5f; // a float tile: held
  int m = n;
  m = m - 1;
  auto shorter = cols < m; // m is assigned: held
  auto v = tl::load(x + cols, mask, 0.0f);
  float s = tl::sum(v);
  tl::store(y + cols, v / s * weights, mask && shorter);
}
// CHECK-LABEL: kernel @kept
// CHECK: decl %s: f32 = reduce.sum
// CHECK: store({{.*}}, mul(div(%v, splat(%s) {{.*}}), %weights), mask=land(%mask, %shorter))

// A 2-D mask recomputed at the store: its `&` of two comparisons prints as `&&` (clang's
// -Wbitwise-instead-of-logical rejects `&` between them under -Werror once they call L0::coord0).
TILEC_KERNEL(num_warps = 4)
void grid2(const float *x, float *y, int M, int N) {
  auto rows = tl::arange<0, 16>();
  auto cols = tl::arange<0, 32>();
  auto mask = tl::expand_dims<1>(rows < M) & tl::expand_dims<0>(cols < N);
  auto offs = tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols);
  auto v = tl::load(x + offs, mask, 0.0f);
  float s = tl::sum(tl::sum<1>(v));
  tl::store(y + offs, v / s, mask);
}
// CUDA-LABEL: namespace grid2_instance {
// CUDA: __syncthreads();
// CUDA: < M && {{.*}} < N;
