// `tl::max_contiguous(x, n)` with n not a power of two: runs of 3 consecutive addresses (0 1 2 |
// 8 9 10 | 16 ...) hold no run of 2 that starts at an even position (2 3 is 2, 8), so a 2-wide
// vector access would read the wrong elements. Only the largest power of two dividing n (here 1)
// may be used as contiguity.
// RUN: %tilec --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void runs_of_3(const float *x, float *out) {
  auto i = tl::arange<0, B>();
  auto offs = (i / 3) * 8 + i % 3;
  tl::store(out + i, tl::load(tl::max_contiguous(x + offs, 3)));
}
template void runs_of_3<512>(const float *, float *);

// Runs of 12 contain aligned runs of 4: vectors of 4 f32 stay possible.
template <int B>
TILEC_KERNEL(num_warps = 4)
void runs_of_12(const float *x, float *out) {
  auto i = tl::arange<0, B>();
  auto offs = (i / 12) * 16 + i % 12;
  tl::store(out + i, tl::load(tl::max_contiguous(x + offs, 12)));
}
template void runs_of_12<512>(const float *, float *);

// CHECK-LABEL: kernel @runs_of_3<512>
// CHECK: decl %x_load: {{.*}} = load({{.*}}) {vec=1
// CHECK-LABEL: kernel @runs_of_12<512>
// CHECK: decl %x_load: {{.*}} = load({{.*}}) {vec=4
