// TMA (sm_90): in a pipelined wgmma loop whose product stays in flight, loads that are boxes of a
// 2-D row-major tensor become TMA copies (docs/plan-hopper.md, step 3). A load qualifies when its
// pointer tile is `p + (r0 + i) * s + (c0 + j)` at the loop's entry and is advanced by the same
// amount each iteration, p a pointer parameter the aligned variant assumes 16-byte aligned, s a
// parameter it assumes a multiple of 16, and its mask is exactly `row < R` and `column < C` with
// the tensor's rows and columns expressions of the parameters (the launcher builds the tensor map
// from them). One thread announces each stage's bytes on the stage's full mbarrier and starts the
// copies; every thread waits on the barrier instead of cp.async's wait and barrier; the launcher
// makes the maps and passes them first. Other loads keep cp.async.
// RUN: %tilec %s -o - | %FileCheck %s
// RUN: %tilec --arch=sm_80 %s -o - | %FileCheck %s --check-prefix=SM80
#include <tilec/tl.hpp>

template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, num_stages = 3)
void mm_tma(float *c, const tl::half *a, const tl::half *b, int M, int N, int K, int lda, int ldb,
            int ldc) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto pa = a + tl::expand_dims<1>(rm) * lda + tl::expand_dims<0>(rk);
  auto pb = b + tl::expand_dims<1>(rk) * ldb + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    auto av = tl::load(pa, (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rk) < K - k * BK));
    auto bv = tl::load(pb, (tl::expand_dims<1>(rk) < K - k * BK) & (tl::expand_dims<0>(rn) < N));
    acc = tl::dot(av, bv, acc);
    pa += BK;
    pb += BK * ldb;
  }
  tl::store(c + tl::expand_dims<1>(rm) * ldc + tl::expand_dims<0>(rn), acc,
            (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N));
}
template void mm_tma<64, 128, 64>(float *, const tl::half *, const tl::half *, int, int, int, int,
                                  int, int);

// The box of each operand and the maps, among the tunables; the maps come first among the
// parameters, and a and b go unread (the maps hold them).
// CHECK-LABEL: namespace mm_tma_64_128_64 {
// CHECK: namespace aligned {
// CHECK: // av_smem's stages are filled by TMA (the launcher's tensor map av_map) in boxes of AV_BOX_ROWS x
// CHECK-NEXT: // AV_BOX_COLS elements, laid out with the descriptor's swizzle
// CHECK-NEXT: constexpr int AV_BOX_ROWS = 64;
// CHECK-NEXT: constexpr int AV_BOX_COLS = 64;
// CHECK: // bv_smem's stages are filled by TMA (the launcher's tensor map bv_map) in boxes of BV_BOX_ROWS x
// CHECK-NEXT: // BV_BOX_COLS elements, one per column block, laid out with the descriptor's swizzle
// CHECK-NEXT: constexpr int BV_BOX_ROWS = 64;
// CHECK-NEXT: constexpr int BV_BOX_COLS = 64;
// CHECK: // STAGE_COPIES: the TMA copies into a stage of av_smem and bv_smem (the arrivals each phase of
// CHECK-NEXT: // stage_full[i] waits for)
// CHECK-NEXT: constexpr int STAGE_COPIES = 2;
// CHECK: __global__ void __launch_bounds__(NUM_THREADS) mm_tma(
// CHECK-NEXT: const __grid_constant__ tilec::rt::TensorMap2D av_map,
// CHECK-NEXT: const __grid_constant__ tilec::rt::TensorMap2D bv_map, float *c, const __half * /*a*/,
// One mbarrier a stage, two arrivals (one per copy), before anything else.
// CHECK: // stage_full[i]: completes a phase when the TMA copies into stage i of av_smem and bv_smem have
// CHECK-NEXT: // landed (one arrival per copy, with its bytes)
// CHECK-NEXT: alignas(8) __shared__ uint64_t stage_full[3];
// CHECK-NEXT: if (threadIdx.x == 0) {
// CHECK-NEXT: TILEC_UNROLL
// CHECK-NEXT: for (int i = 0; i < 3; ++i)
// CHECK-NEXT: tilec::rt::mbarrier_init(&stage_full[i], STAGE_COPIES);
// CHECK-NEXT: tilec::rt::mbarrier_init_fence();
// CHECK-NEXT: }
// CHECK-NEXT: __syncthreads();
// The prologue: the first two stages, the boxes' coordinates from the pointers' forms.
// CHECK: // pipeline: copy the tiles of the loop's first iterations into stages of av_smem and bv_smem
// CHECK-NEXT: // (TMA: one thread starts the copies, each stage's full barrier counts their bytes)
// CHECK: if (threadIdx.x == 0) {
// CHECK-NEXT: tilec::rt::mbarrier_arrive_expect_tx(&stage_full[stage], sizeof(av_smem[0]));
// CHECK-NEXT: tilec::rt::tma_load_2d(av_smem[stage], &av_map, static_cast<int>(blockIdx.x) * BM,
// CHECK-NEXT: stage * BK, &stage_full[stage]);
// CHECK-NEXT: }
// CHECK: if (threadIdx.x == 0) {
// CHECK-NEXT: tilec::rt::mbarrier_arrive_expect_tx(&stage_full[stage], sizeof(bv_smem[0]));
// CHECK-NEXT: TILEC_UNROLL
// CHECK-NEXT: for (int blk = 0; blk < BN; blk += BV_BOX_COLS)
// CHECK-NEXT: tilec::rt::tma_load_2d(&bv_smem[stage][BV_SWIZZLE::offset(0, blk)], &bv_map, stage * BK,
// CHECK-NEXT: static_cast<int>(blockIdx.y) * BN + blk, &stage_full[stage]);
// The loop: the wait on the stage's barrier replaces cp.async's wait and barrier; the barrier
// after the product's wait frees the stage the copies refill (no proxy fence: nothing in the
// loop writes shared memory through the generic proxy); the phase flips as read_stage wraps.
// CHECK: int read_phase = 0;
// CHECK: for (int k = 0; k < tilec::rt::cdiv(K, BK); ++k) {
// CHECK-NEXT: tilec::rt::mbarrier_wait(&stage_full[read_stage], read_phase);
// CHECK: tilec::rt::wgmma_wait<1>();
// CHECK-NOT: fence_proxy_async_shared
// CHECK: __syncthreads();
// CHECK-NEXT: // pipeline: start copying the tiles of the iteration 2 ahead into the stage read last iteration
// CHECK: tilec::rt::tma_load_2d(av_smem[copy_stage], &av_map, static_cast<int>(blockIdx.x) * BM,
// CHECK-NEXT: (k + 2) * BK, &stage_full[copy_stage]);
// CHECK: if (read_stage == 2) {
// CHECK-NEXT: read_phase = 1 - read_phase;
// CHECK-NEXT: }
// CHECK-NEXT: read_stage = (read_stage + 1) % 3;
// The products in flight read their stages until the wait after the loop: a barrier before the
// epilogue writes shared memory again; no cp.async wait (each stage was waited for).
// CHECK: tilec::rt::wgmma_wait<0>();
// CHECK-NOT: cp_async_wait
// CHECK: __syncthreads();
// CHECK: } // namespace aligned
// The launcher: the maps from the arguments (the tensor's rows, columns and row stride), the
// general kernel where they cannot be made.
// CHECK: if (aligned) {
// CHECK: tilec::rt::TensorMap2D av_map, bv_map;
// CHECK-NEXT: const cudaError_t av_map_made = tilec::rt::make_tensor_map_2d(
// CHECK-NEXT: &av_map, a, M, K, lda, mm_tma_64_128_64::aligned::AV_BOX_ROWS,
// CHECK-NEXT: mm_tma_64_128_64::aligned::AV_BOX_COLS, mm_tma_64_128_64::aligned::AV_DESC_SWIZZLE);
// CHECK-NEXT: const cudaError_t bv_map_made = tilec::rt::make_tensor_map_2d(
// CHECK-NEXT: &bv_map, b, K, N, ldb, mm_tma_64_128_64::aligned::BV_BOX_ROWS,
// CHECK-NEXT: mm_tma_64_128_64::aligned::BV_BOX_COLS, mm_tma_64_128_64::aligned::BV_DESC_SWIZZLE);
// CHECK-NEXT: if (av_map_made == cudaSuccess && bv_map_made == cudaSuccess)
// CHECK-NEXT: return cudaLaunchKernelEx(&config, mm_tma_64_128_64::aligned::mm_tma, av_map, bv_map, c, a, b,
// CHECK: return cudaLaunchKernelEx(&config, mm_tma_64_128_64::mm_tma, c, a, b,

// Not boxes of a tensor, so the ring keeps cp.async (TMA takes both operands or neither): A's rows
// unmasked (the tensor's rows are unknown) in mm_rows_unmasked, and B's column bound read from the
// program id (not an expression of the parameters alone) in mm_block_bound.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, num_stages = 3)
void mm_rows_unmasked(float *c, const tl::half *a, const tl::half *b, int N, int K, int lda,
                      int ldb) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto pa = a + tl::expand_dims<1>(rm) * lda + tl::expand_dims<0>(rk);
  auto pb = b + tl::expand_dims<1>(rk) * ldb + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    auto av = tl::load(pa, tl::expand_dims<0>(rk) < K - k * BK);
    auto bv = tl::load(pb, (tl::expand_dims<1>(rk) < K - k * BK) & (tl::expand_dims<0>(rn) < N));
    acc = tl::dot(av, bv, acc);
    pa += BK;
    pb += BK * ldb;
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}
template void mm_rows_unmasked<64, 64, 64>(float *, const tl::half *, const tl::half *, int, int,
                                           int, int);
// CHECK-LABEL: namespace mm_rows_unmasked_64_64_64 {
// CHECK: namespace aligned {
// CHECK-NOT: tma_load_2d
// CHECK: tilec::rt::cp_async_16(
// CHECK-NOT: tma_load_2d
// CHECK: } // namespace mm_rows_unmasked_64_64_64

template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, num_stages = 3)
void mm_block_bound(float *c, const tl::half *a, const tl::half *b, int M, int N, int K, int lda,
                    int ldb) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto pa = a + tl::expand_dims<1>(rm) * lda + tl::expand_dims<0>(rk);
  auto pb = b + tl::expand_dims<1>(rk) * ldb + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    auto av = tl::load(pa, (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rk) < K - k * BK));
    auto bv = tl::load(pb, (tl::expand_dims<1>(rk) < K - k * BK) &
                               (tl::expand_dims<0>(rn) < N - BN * tl::program_id(0)));
    acc = tl::dot(av, bv, acc);
    pa += BK;
    pb += BK * ldb;
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}
template void mm_block_bound<64, 64, 64>(float *, const tl::half *, const tl::half *, int, int, int,
                                         int, int);
// CHECK-LABEL: namespace mm_block_bound_64_64_64 {
// CHECK: namespace aligned {
// CHECK-NOT: tma_load_2d
// CHECK: tilec::rt::cp_async_16(
// CHECK-NOT: tma_load_2d
// CHECK: } // namespace mm_block_bound_64_64_64

// sm_80 has no TMA: the same loop keeps cp.async.
// SM80-LABEL: namespace mm_tma_64_128_64 {
// SM80-NOT: tma_load_2d
// SM80: tilec::rt::cp_async_16(
// SM80-NOT: tma_load_2d
// SM80: } // namespace mm_tma_64_128_64
