// prefetch-loads and pointers a loop advances (the K loop of a matmul): a pointer tile advanced
// once per iteration by a loop-invariant amount, after its load, holds at the top of an iteration
// that iteration's pointers; the next iteration's load reads one advance further. Advanced before
// its load, the pointer at the top is the previous iteration's, and the load is not prefetched.
// RUN: %tilec --no-aligned-variants --emit=ir --stop-after=prefetch-loads %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

// CHECK-LABEL: kernel @after<64>
// CHECK: %p_load_next = load(%p)
// CHECK: if lt(add(%k, 1:i32), %n) prefetch(next) {
// CHECK-NEXT: %p_load_next = load(add(%p, splat(%step) : tile<64xi32>))
// CHECK: %p = add(%p, splat(%step) : tile<64xi32>)
template <int B>
TILEC_KERNEL(num_warps = 2, num_stages = 2)
void after(float *out, const float *x, int n, int step) {
  auto p = x + tl::arange<0, B>();
  auto acc = tl::zeros<float, B>();
  for (int k = 0; k < n; ++k) {
    acc += tl::load(p);
    p += step;
  }
  tl::store(out + tl::arange<0, B>(), acc);
}

// CHECK-LABEL: kernel @before<64>
// CHECK-NOT: _next
// CHECK: %p = add(%p, splat(%step) : tile<64xi32>)
// CHECK-NOT: _next
template <int B>
TILEC_KERNEL(num_warps = 2, num_stages = 2)
void before(float *out, const float *x, int n, int step) {
  auto p = x + tl::arange<0, B>();
  auto acc = tl::zeros<float, B>();
  for (int k = 0; k < n; ++k) {
    p += step;
    acc += tl::load(p);
  }
  tl::store(out + tl::arange<0, B>(), acc);
}
template void after<64>(float *, const float *, int, int);
template void before<64>(float *, const float *, int, int);
