// Axis analysis of a pointer tile advanced in a loop (`a_ptrs += BK`, the K loop of a matmul):
// an increment by the same amount in every element keeps the contiguity of the tile's first
// value, so the loads through it are vectorized; its divisibility meets the increment's, so in
// the aligned variant (a 16-byte aligned, stride_am a multiple of 16) they are aligned when the
// step keeps the vectors aligned (STEP = 32 halves: 64 bytes) and not otherwise (33 halves).
// An increment that differs between elements (`b_ptrs += offs`) leaves nothing known.
// RUN: %tilec %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int BM, int BK, int STEP>
TILEC_KERNEL(num_warps = 4)
void k(float *out, const tl::half *a, const tl::half *b, int stride_am, int K) {
  auto rows = tl::arange<0, BM>();
  auto cols = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rows) * stride_am + tl::expand_dims<0>(cols);
  auto b_ptrs = b + tl::expand_dims<1>(rows) * stride_am + tl::expand_dims<0>(cols);
  auto offs = tl::expand_dims<1>(rows) + tl::expand_dims<0>(cols);
  auto acc = tl::zeros<float, BM, BK>();
  for (int k = 0; k < K; k += BK) {
    acc += tl::cast<float>(tl::load(a_ptrs)) + tl::cast<float>(tl::load(b_ptrs));
    a_ptrs += STEP;
    b_ptrs += offs;
  }
  tl::store(out + tl::expand_dims<1>(rows) * BK + tl::expand_dims<0>(cols), acc);
}
template void k<64, 32, 32>(float *, const tl::half *, const tl::half *, int, int);
template void k<64, 32, 33>(float *, const tl::half *, const tl::half *, int, int);

// CHECK-LABEL: namespace k_64_32_32 {
// CHECK: constexpr int A_PTRS_LOAD_VEC = 8;
// CHECK-NOT: B_PTRS_LOAD_VEC
// CHECK: tilec::rt::load_vec<A_PTRS_LOAD_VEC, false>(&a_ptrs_load[i][j], a_ptrs[i][j]);
// CHECK: b_ptrs_load[i][j] = *b_ptrs[i][j];
// CHECK-LABEL: namespace aligned {
// CHECK: tilec::rt::load_vec<A_PTRS_LOAD_VEC, true>(&a_ptrs_load[i][j], a_ptrs[i][j]);
// CHECK-LABEL: namespace k_64_32_33 {
// CHECK: constexpr int A_PTRS_LOAD_VEC = 8;
// CHECK-NOT: load_vec<A_PTRS_LOAD_VEC, true>
// CHECK: } // namespace k_64_32_33
