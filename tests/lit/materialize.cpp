// materialize binds loads and reductions nested in expressions to their own variables, named after
// what they read, so later passes and the emitter see them as statements.
// RUN: %tilec --emit=ir --stop-after=materialize %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out, int n) {
  auto cols = tl::arange<0, BLOCK>();
  auto y = tl::exp(tl::load(x + cols, cols < n, 0.0f) - tl::max(tl::load(x + cols, cols < n, 0.0f)));
  tl::store(out + cols, y, cols < n);
}
template void k<128>(const float *, float *, int);

// CHECK: decl %[[A:.*]]: tile<128xf32> = load(
// CHECK: decl %[[B:.*]]: tile<128xf32> = load(
// CHECK: decl %[[M:.*]]: f32 = reduce.max(%[[B]], axis=0)
// CHECK: decl %y: tile<128xf32> = exp(sub(%[[A]], splat(%[[M]])
