// Axis analysis of `a + b` where both operands are contiguous: the sum steps by 2 and has contiguity
// 1, so every element is a run start and only what divides every element may be claimed. Here the
// row offsets `r + r` are 0, 2, 4, 6 (even, nothing more): rows 1 and 3 start 8 bytes past a 16-byte
// boundary of the 16-byte aligned `xp`, so the 4-wide vectors of the load must not be `aligned`.
// RUN: %tilec --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 1)
void rows_step2(const float *x, float *out) {
  auto r = tl::arange<0, 4>();
  auto rr = r + r;
  auto c = tl::arange<0, BLOCK>();
  auto xp = tl::multiple_of(x, 16);
  auto v = tl::load(xp + (tl::expand_dims<1>(rr) + tl::expand_dims<0>(c)));
  tl::store(out + tl::expand_dims<1>(r) * BLOCK + tl::expand_dims<0>(c), v);
}
template void rows_step2<64>(const float *, float *);

// A tile known only to be a multiple of 16, plus an arange: the elements are arbitrary.
template <int BLOCK>
TILEC_KERNEL(num_warps = 1)
void rows_unknown(const float *x, const int *idx, float *out) {
  auto r = tl::arange<0, 4>();
  auto base = tl::multiple_of(tl::load(idx + r), 16);
  auto rows = base + r;
  auto c = tl::arange<0, BLOCK>();
  auto xp = tl::multiple_of(x, 16);
  auto v = tl::load(xp + (tl::expand_dims<1>(rows) + tl::expand_dims<0>(c)));
  tl::store(out + tl::expand_dims<1>(r) * BLOCK + tl::expand_dims<0>(c), v);
}
template void rows_unknown<64>(const float *, const int *, float *);

// CHECK-LABEL: kernel @rows_step2<64>
// CHECK: decl %v: {{.*}} = load({{.*}}) {vec=4} :
// CHECK-LABEL: kernel @rows_unknown<64>
// CHECK: decl %v: {{.*}} = load({{.*}}) {vec=4} :
