// layout-assignment: when every use of a cheap tile takes a copy in another layout (here t10,
// used only inside the loop, in acc11's layout), the original is not left declared and unread:
// nvcc reports such an array as "set but never used" (#550-D), an error under -Werror. Reduced
// from a kernel of the differential tester (tests/difftest).
// RUN: %tilec --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s
// CHECK-NOT: decl %t10:
// CHECK: decl %t10_acc11:
// CHECK-NOT: decl %t10:
#include <tilec/tl.hpp>

template <int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM), cdiv(N, BN)))
void k(const int32_t *in1, const float *in5, int32_t iters, float *out22, int M, int N) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  auto cols = pid_n * BN + tl::arange<0, BN>();
  auto col_mask = cols < N;
  auto x2 = tl::load(in1 + tl::expand_dims<0>(cols), tl::expand_dims<0>(col_mask), 16);
  auto x6 = tl::load(in5 + cols, col_mask, -1.0f);
  auto t8 = x2 != x6;
  auto t10 = (-0.75f) - (cols / ((cols & 15) + 1));
  auto acc11 = tl::full<float, 32>(1.0f);
  for (int i = 0; i < iters; ++i) {
    acc11 += t10 * (i % 3 + 1);
  }
  auto t12 = tl::expand_dims<0>(acc11);
  tl::store(out22 + pid_m * N + tl::expand_dims<0>(cols), t12, tl::expand_dims<0>(col_mask) & t8);
}
template void k<64, 32>(const int32_t *, const float *, int32_t, float *, int, int);
