// lower-dots with num_stages = 2: prefetch-loads issues the next K step's loads at the top of each
// iteration, into `_next` registers; lower-dots moves that branch down to just after this step's
// operands are staged in shared memory (before the barrier and the product), so the staged tiles'
// registers are free before the next loads are issued, and those loads are in flight during the
// product. A store between the prefetch and the staging keeps the branch where it is.
// RUN: %tilec --no-aligned-variants --emit=ir --stop-after=lower-dots %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

// CHECK-LABEL: kernel @mm<32>
// CHECK: for %k
// CHECK-NEXT: decl %av: {{.*}} = %av_next
// CHECK-NEXT: decl %bv: {{.*}} = %bv_next
// CHECK-NEXT: shared_write 0, %av
// CHECK-NEXT: shared_write 1, %bv
// CHECK-NEXT: if lt(add(%k, 32:i32{{.*}}), %K) prefetch(next) {
// CHECK: barrier
// CHECK-NEXT: %acc = shared_dot(0, 1, acc=%acc)
template <int B>
TILEC_KERNEL(num_warps = 4, num_stages = 2)
void mm(float *c, const tl::half *a, const tl::half *b, int K) {
  auto r = tl::arange<0, B>();
  auto acc = tl::zeros<float, B, B>();
  for (int k = 0; k < K; k += B) {
    auto av = tl::load(a + tl::expand_dims<1>(r) * K + k + tl::expand_dims<0>(r));
    auto bv = tl::load(b + (k + tl::expand_dims<1>(r)) * B + tl::expand_dims<0>(r));
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r), acc);
}

// CHECK-LABEL: kernel @mm_store<32>
// CHECK: for %k
// CHECK: if lt(add(%k, 32:i32{{.*}}), %K) prefetch(next) {
// CHECK: store(
// CHECK: shared_write 0, %av
// CHECK-NEXT: shared_write 1, %bv
// CHECK-NEXT: barrier
template <int B>
TILEC_KERNEL(num_warps = 4, num_stages = 2)
void mm_store(float *c, const tl::half *a, const tl::half *b, float *trace, int K) {
  auto r = tl::arange<0, B>();
  auto acc = tl::zeros<float, B, B>();
  for (int k = 0; k < K; k += B) {
    auto av = tl::load(a + tl::expand_dims<1>(r) * K + k + tl::expand_dims<0>(r));
    auto bv = tl::load(b + (k + tl::expand_dims<1>(r)) * B + tl::expand_dims<0>(r));
    tl::store(trace + k + r, tl::cast<float>(tl::sum<1>(av)));
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r), acc);
}
template void mm<32>(float *, const tl::half *, const tl::half *, int);
template void mm_store<32>(float *, const tl::half *, const tl::half *, float *, int);
