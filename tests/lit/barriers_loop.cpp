// Barriers inside loops. With one reduction per iteration, the next iteration's write of the
// partials must wait until every thread has read the previous ones: a write-after-read barrier.
// With two reductions (two buffers, live together in one loop body), each one's read-after-write
// barrier already orders the other buffer's read before its next write, so no extra barrier.
// RUN: %tilec --emit=ir --stop-after=insert-barriers %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void stats(const float *x, float *out, int n) {
  float total = 0.0f;
  float biggest = -tl::inf;
  for (int off = 0; off < n; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto v = tl::load(x + cols, cols < n, 0.0f);
    total += tl::sum(v);
    biggest = tl::maximum(biggest, tl::max(v));
  }
  tl::store(out, total);
  tl::store(out + 1, biggest);
}
template void stats<512>(const float *, float *, int);

template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void total(const float *x, float *out, int n) {
  float acc = 0.0f;
  for (int off = 0; off < n; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    acc += tl::sum(tl::load(x + cols, cols < n, 0.0f));
  }
  tl::store(out, acc);
}
template void total<512>(const float *, float *, int);

// CHECK-LABEL: kernel @stats<512>
// CHECK: shared 0 {{.*}} offset=0
// CHECK: shared 1 {{.*}} offset=16
// CHECK: for %off =
// CHECK-NOT: barrier
// CHECK: shared_write_partials 0
// CHECK-NEXT: barrier
// CHECK-NEXT: decl %sum_v: f32 = shared_combine.sum(0, parts=4)
// CHECK-NOT: barrier
// CHECK: shared_write_partials 1
// CHECK-NEXT: barrier
// CHECK-NEXT: decl %max_v: f32 = shared_combine.max(1, parts=4)
// CHECK-NOT: barrier
// CHECK: }

// CHECK-LABEL: kernel @total<512>
// CHECK: for %off =
// CHECK: barrier
// CHECK-NEXT: shared_write_partials 0
// CHECK-NEXT: barrier
// CHECK-NEXT: decl {{.*}} = shared_combine.sum(0, parts=4)
// CHECK-NOT: barrier
// CHECK: }
