// pipeline-dots: with num_stages = 3, a K loop whose dot reads tiles it loads copies them with
// cp.async into rings of 3 shared buffers, two K steps ahead: a prologue fills stages 0 and 1 (the
// index of the copied step computed again for `ka` / `kb`, as `_ahead`), each iteration waits for
// its own step (at most 1 group in flight), refills the stage read last iteration and reads its
// own. Only where every load is a vector of 4, 8 or 16 bytes from aligned addresses: the aligned
// variant (the general kernel and the kernels below keep one stage).
// HIP (no cp.async): two stages written from registers, any load. The next iteration's tiles are
// loaded into `_next` variables at the top of an iteration, after its one barrier, and written at
// its end into the stage the next iteration reads (`1 - read_stage`); the barrier pass needs no
// barrier between this iteration's reads of one stage and its writes of the other.
// RUN: %tilec %s -o - | %FileCheck %s
// RUN: %tilec --target=hip %s -o - | %FileCheck %s --check-prefix=HIP
// RUN: %tilec --target=hip --emit=ir --stop-after=insert-barriers %s -o - | %FileCheck %s --check-prefix=HIP-IR
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
// HIP-LABEL: namespace mm_32 {
// HIP: __half (*av_smem)[32 * 32] = reinterpret_cast<__half (*)[32 * 32]>(smem + 0);  // 2 stages
// HIP: // prefetch: the loop's first loads into av_next and bv_next; each iteration then loads the next one's while it computes
// HIP-NEXT: if (0 < K) {
// HIP: av_smem[0][AV_SWIZZLE::offset(
// HIP: int read_stage = 0;
// HIP: for (int k = 0; k < K; k += B) {
// HIP-NEXT: __syncthreads();
// HIP-NEXT: // prefetch: the next iteration's loads into av_next and bv_next, before this iteration's arithmetic
// HIP-NEXT: if (k + B < K) {
// HIP: tilec::rt::mfma_16x16x16_f16(
// HIP: // double buffering: the next iteration's tiles, loaded above, into the stage of av_smem and
// HIP-NEXT: // bv_smem it reads (the other one)
// HIP-NEXT: if (k + B < K) {
// HIP-NOT: __syncthreads();
// HIP: &av_smem[1 - read_stage][AV_SWIZZLE::offset(
// HIP-NOT: __syncthreads();
// HIP: read_stage = 1 - read_stage;
// HIP-NEXT: }
// HIP-IR-LABEL: kernel @mm<32>
// HIP-IR: shared 0 av_smem: f16[32x32] row_stride=32 stages=2 swizzle=8/2/4
// HIP-IR: if lt(0:i32, %K) prefetch(first) {
// HIP-IR: shared_write 0[0:i32], %av_next
// HIP-IR: for %k = 0:i32 to %K step 32:i32{B} {
// HIP-IR-NEXT: barrier
// HIP-IR-NEXT: if lt(add(%k, 32:i32{B}), %K) prefetch(next) {
// HIP-IR-NOT: barrier
// HIP-IR: %acc = shared_dot(0, 1, stage=%read_stage, acc=%acc)
// HIP-IR-NEXT: if lt(add(%k, 32:i32{B}), %K) pipeline(stage) {
// HIP-IR-NEXT: shared_write 0[sub(1:i32, %read_stage)], %av_next
// HIP-IR-NEXT: shared_write 1[sub(1:i32, %read_stage)], %bv_next
// HIP-IR-NEXT: }
// HIP-IR-NEXT: %read_stage = sub(1:i32, %read_stage)
// HIP-IR-NEXT: }
// HIP-IR-LABEL: kernel @mm_store<32>
// HIP-IR-NOT: stages=2
// HIP-IR-LABEL: kernel @mm_scaled<32>
// HIP-IR-NOT: stages=2
// HIP-IR-LABEL: kernel @mm_one_stage<32>
// HIP-IR-NOT: stages=2
// HIP-IR-LABEL: kernel @mm_range<32>
// HIP-IR: shared 0 av_smem: f16[32x32] row_stride=32 stages=2
// HIP-IR-LABEL: kernel @mm_range_one<32>
// HIP-IR-NOT: stages=2
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
