// pipeline-dots: with num_stages = 3, a K loop whose dot reads tiles it loads copies them with
// cp.async into rings of 3 shared buffers, two K steps ahead: a prologue fills stages 0 and 1 (the
// index of the copied step computed again for `ka` / `kb`, as `_ahead`), each iteration waits for
// its own step (at most 1 group in flight), refills the stage read last iteration and reads its
// own. Only where every load is a vector of 4, 8 or 16 bytes from aligned addresses: the aligned
// variant (the general kernel, HIP and the kernels below keep one stage).
// RUN: %tilec %s -o - | %FileCheck %s
// RUN: %tilec --target=hip %s -o - | %FileCheck %s --check-prefix=HIP
// RUN: %tilec --emit=ir --stop-after=lower-dots %s -o - | %FileCheck %s --check-prefix=NOPREFETCH
// RUN: %tilec --emit=ir --stop-after=materialize %s -o - | %FileCheck %s --check-prefix=RANGE
#include <tilec/tl.hpp>

// CHECK-LABEL: namespace mm_32 {
// CHECK-NOT: cp_async
// CHECK: namespace aligned {
// CHECK: using AV_SWIZZLE = tilec::rt::XorSwizzle<B, 8, 2, 4>;
// CHECK: __half (*av_smem)[32 * 32] = reinterpret_cast<__half (*)[32 * 32]>(smem + 0);  // 3 stages
// CHECK: for (int stage = 0; stage < 2; ++stage) {
// CHECK-NEXT: // pipeline: copy the tiles of the loop's first iterations into stages of av_smem and bv_smem
// CHECK-NEXT: // (cp.async), one commit group per stage
// CHECK-NEXT: if (stage * B < K) {
// CHECK: ka_ahead[i][j] = stage * B + r[j];
// CHECK: tilec::rt::cp_async_16(
// CHECK-NEXT: &av_smem[stage][AV_SWIZZLE::offset(L{{[0-9]+}}::coord0(i), L{{[0-9]+}}::coord1(j))],
// CHECK: &bv_smem[stage][
// CHECK: tilec::rt::cp_async_commit();
// CHECK: int read_stage = 0;
// CHECK-NEXT: int copy_stage = 2;
// CHECK: for (int k = 0; k < K; k += B) {
// CHECK-NEXT: tilec::rt::cp_async_wait<1>();
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: // pipeline: start copying the tiles of the iteration 2 ahead into the stage read last iteration
// CHECK-NEXT: if (k + 2 * B < K) {
// CHECK: ka_ahead[i][j] = k + 2 * B + r[j];
// CHECK: &av_smem[copy_stage][
// CHECK: tilec::rt::cp_async_commit();
// CHECK: tilec::rt::ldmatrix_x4(
// CHECK-NEXT: av_smem_frag[i],
// CHECK-NEXT: &av_smem[read_stage][AV_SWIZZLE::offset(L{{[0-9]+}}::a_row(i), kk + L{{[0-9]+}}::a_col())]);
// CHECK: read_stage = (read_stage + 1) % 3;
// CHECK-NEXT: copy_stage = (copy_stage + 1) % 3;
// CHECK-NEXT: }
// CHECK-NEXT: tilec::rt::cp_async_wait<0>();
// HIP-NOT: cp_async
// NOPREFETCH-LABEL: kernel @mm<32>
// NOPREFETCH-NOT: _next
template <int B>
TILEC_KERNEL(num_warps = 4, num_stages = 3)
void mm(float *c, const tl::half *a, const tl::half *b, int K) {
  auto r = tl::arange<0, B>();
  auto acc = tl::zeros<float, B, B>();
  for (int k = 0; k < K; k += B) {
    auto ka = tl::expand_dims<0>(k + r);
    auto kb = tl::expand_dims<1>(k + r);
    auto av = tl::load(a + tl::expand_dims<1>(r) * K + ka, ka < K, 0.0f);
    auto bv = tl::load(b + kb * B + tl::expand_dims<0>(r), kb < K, 0.0f);
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r), acc);
}
template void mm<32>(float *, const tl::half *, const tl::half *, int);

// Not pipelined: the loop stores to the matrix it loads (the copies would run ahead of the stores),
// an operand computed from its load (2 * av), or a kernel without num_stages.
// CHECK-LABEL: namespace mm_store_32 {
// CHECK-NOT: cp_async
// CHECK-LABEL: namespace mm_scaled_32 {
// CHECK-NOT: cp_async
// CHECK-LABEL: namespace mm_one_stage_32 {
// CHECK-NOT: cp_async
template <int B>
TILEC_KERNEL(num_warps = 4, num_stages = 3)
void mm_store(float *c, tl::half *a, const tl::half *b, int K) {
  auto r = tl::arange<0, B>();
  auto acc = tl::zeros<float, B, B>();
  for (int k = 0; k < K; k += B) {
    auto ka = tl::expand_dims<0>(k + r);
    auto kb = tl::expand_dims<1>(k + r);
    auto av = tl::load(a + tl::expand_dims<1>(r) * K + ka, ka < K, 0.0f);
    auto bv = tl::load(b + kb * B + tl::expand_dims<0>(r), kb < K, 0.0f);
    acc = tl::dot(av, bv, acc);
    tl::store(a + tl::expand_dims<1>(r) * K + ka, av, ka < K);
  }
  tl::store(c + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r), acc);
}
template void mm_store<32>(float *, tl::half *, const tl::half *, int);

template <int B>
TILEC_KERNEL(num_warps = 4, num_stages = 3)
void mm_scaled(float *c, const tl::half *a, const tl::half *b, int K) {
  auto r = tl::arange<0, B>();
  auto acc = tl::zeros<float, B, B>();
  for (int k = 0; k < K; k += B) {
    auto ka = tl::expand_dims<0>(k + r);
    auto kb = tl::expand_dims<1>(k + r);
    auto av = tl::load(a + tl::expand_dims<1>(r) * K + ka, ka < K, 0.0f);
    auto bv = tl::load(b + kb * B + tl::expand_dims<0>(r), kb < K, 0.0f);
    acc = tl::dot(tl::cast<tl::half>(av * 2.0f), bv, acc);
  }
  tl::store(c + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r), acc);
}
template void mm_scaled<32>(float *, const tl::half *, const tl::half *, int);

template <int B>
TILEC_KERNEL(num_warps = 4)
void mm_one_stage(float *c, const tl::half *a, const tl::half *b, int K) {
  auto r = tl::arange<0, B>();
  auto acc = tl::zeros<float, B, B>();
  for (int k = 0; k < K; k += B) {
    auto ka = tl::expand_dims<0>(k + r);
    auto kb = tl::expand_dims<1>(k + r);
    auto av = tl::load(a + tl::expand_dims<1>(r) * K + ka, ka < K, 0.0f);
    auto bv = tl::load(b + kb * B + tl::expand_dims<0>(r), kb < K, 0.0f);
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r), acc);
}
template void mm_one_stage<32>(float *, const tl::half *, const tl::half *, int);

// The loop's own num_stages, Triton's tl.range(..., num_stages=S): tl::range<3> pipelines the loop
// of a kernel without num_stages; tl::range<1> keeps one stage in a kernel with num_stages = 3.
// RANGE-LABEL: kernel @mm_range<32>
// RANGE: for %k = 0:i32 to %K step 32:i32{B} num_stages=3 {
// CHECK-LABEL: namespace mm_range_32 {
// CHECK: namespace aligned {
// CHECK: for (int k = 0; k < K; k += B) {
// CHECK-NEXT: tilec::rt::cp_async_wait<1>();
// CHECK-LABEL: namespace mm_range_one_32 {
// CHECK-NOT: cp_async
// CHECK-LABEL: launch_mm_range_one_32(
template <int B>
TILEC_KERNEL(num_warps = 4)
void mm_range(float *c, const tl::half *a, const tl::half *b, int K) {
  auto r = tl::arange<0, B>();
  auto acc = tl::zeros<float, B, B>();
  for (int k : tl::range<3>(0, K, B)) {
    auto ka = tl::expand_dims<0>(k + r);
    auto kb = tl::expand_dims<1>(k + r);
    auto av = tl::load(a + tl::expand_dims<1>(r) * K + ka, ka < K, 0.0f);
    auto bv = tl::load(b + kb * B + tl::expand_dims<0>(r), kb < K, 0.0f);
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r), acc);
}
template void mm_range<32>(float *, const tl::half *, const tl::half *, int);

template <int B>
TILEC_KERNEL(num_warps = 4, num_stages = 3)
void mm_range_one(float *c, const tl::half *a, const tl::half *b, int K) {
  auto r = tl::arange<0, B>();
  auto acc = tl::zeros<float, B, B>();
  for (int k : tl::range<1>(0, K, B)) {
    auto ka = tl::expand_dims<0>(k + r);
    auto kb = tl::expand_dims<1>(k + r);
    auto av = tl::load(a + tl::expand_dims<1>(r) * K + ka, ka < K, 0.0f);
    auto bv = tl::load(b + kb * B + tl::expand_dims<0>(r), kb < K, 0.0f);
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r), acc);
}
template void mm_range_one<32>(float *, const tl::half *, const tl::half *, int);
