// wgmma (sm_90a): an fp16 or bf16 dot with an fp32 result whose tile whole warpgroups stacked along
// M cover (M a multiple of 16 num_warps and of 64, N 16 to 256, K a multiple of 16, each operand in
// a shared layout the instruction reads) computes in the #mma layout with warps [num_warps, 1]
// (`#mma<wgmma, wpb=[W,1]>`, the accumulator registers of mma.sync's m16n8 per warp). lower-dots
// stages both operands in wgmma's swizzle modes (rows of 32, 64 or 128 bytes), aligned to the
// swizzle's 8-row atom (`align=`), and rows wider than 128 bytes in column blocks of 128 bytes
// (`col_block=64`); the emitter reads them through descriptors, with a proxy fence before each
// barrier. sm_80 and tiles that do not fit keep mma.sync.
// RUN: %tilec --emit=ir --stop-after=lower-dots %s -o - | %FileCheck %s
// RUN: %tilec %s -o - | %FileCheck %s --check-prefix=CUDA
// RUN: %tilec --arch=sm_80 --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s --check-prefix=SM80
// RUN: %tilec %s -o - | %FileCheck %s --check-prefix=RING
#include <tilec/tl.hpp>

// CHECK-LABEL: kernel @mm<128, 128, 32, 4>
// CHECK: shared 0 av_smem: f16[128x32] row_stride=32 swizzle=8/2/4 align=512 bytes=8192
// CHECK-NEXT: shared 1 bv_smem: f16[32x128] row_stride=128 swizzle=8/1/8 col_block=64 align=1024 bytes=8192
// CHECK: #mma{{[0-9]+}} = #mma<wgmma, wpb=[4,1]>
// CHECK-LABEL: kernel @mm<128, 64, 64, 8>
// CHECK: shared 0 av_smem: f16[128x64] row_stride=64 swizzle=8/1/8 align=1024 bytes=16384
// CHECK-NEXT: shared 1 bv_smem: f16[64x64] row_stride=64 swizzle=8/1/8 align=1024 bytes=8192
// CHECK: #mma{{[0-9]+}} = #mma<wgmma, wpb=[8,1]>
// A tile of 64 rows has no m64 block for a second warpgroup: mma.sync.
// CHECK-LABEL: kernel @mm<64, 64, 32, 8>
// CHECK-NOT: align=
// CHECK: #mma{{[0-9]+}} = #mma<m16n8k16, wpb=[4,2]>
// CHECK-LABEL: kernel @mm_bt<128, 64, 16>
// CHECK: shared 0 av_smem: bf16[128x16] row_stride=16 swizzle=8/4/2 align=256 bytes=4096
// CHECK-NEXT: shared 1 bv_t_smem: bf16[64x16] row_stride=16 swizzle=8/4/2 align=256 bytes=2048
// CHECK: #mma{{[0-9]+}} = #mma<wgmma, wpb=[4,1]>

// CUDA-LABEL: namespace mm_128_128_32_4 {
// CUDA: using BV_SWIZZLE = tilec::rt::XorSwizzleColumnBlocks<BK, 64, 8, 1, 8>;
// CUDA: constexpr tilec::rt::SmemSwizzle BV_DESC_SWIZZLE = tilec::rt::SmemSwizzle::Bytes128;
// CUDA-NEXT: constexpr uint32_t BV_DESC_LBO = 4096;
// CUDA-NEXT: constexpr uint32_t BV_DESC_SBO = 1024;
// CUDA: tilec::rt::fence_proxy_async_shared();
// CUDA-NEXT: __syncthreads();
// CUDA: float c_frag[L{{[0-9]+}}::REP0][L{{[0-9]+}}::COLS / 2];
// The descriptors of a stage's first k16 slice are made once; each wgmma moves them on to its own.
// CUDA: const uint64_t b_desc = tilec::rt::make_smem_desc(
// CUDA-NEXT: &bv_smem[BV_SWIZZLE::offset(0, 0)], BV_DESC_SWIZZLE, BV_DESC_LBO, BV_DESC_SBO);
// CUDA-NEXT: uint64_t a_desc[L{{[0-9]+}}::REP0];
// CUDA: a_desc[i] = tilec::rt::make_smem_desc(&av_smem[AV_SWIZZLE::offset(L{{[0-9]+}}::warpgroup_row(i), 0)],
// CUDA-NEXT: AV_DESC_SWIZZLE, AV_DESC_LBO, AV_DESC_SBO);
// CUDA: tilec::rt::wgmma_fence();
// CUDA: for (int kk = 0; kk < BK; kk += 16) {
// CUDA: tilec::rt::wgmma_m64nNk16_f32_f16<L{{[0-9]+}}::COLS, tilec::rt::WgmmaMajor::K, tilec::rt::WgmmaMajor::MN>(
// CUDA-NEXT: c_frag[i],
// CUDA-NEXT: tilec::rt::smem_desc_moved(a_desc[i], AV_SWIZZLE::offset(0, kk) * sizeof(__half)),
// CUDA-NEXT: tilec::rt::smem_desc_moved(b_desc, BV_SWIZZLE::offset(kk, 0) * sizeof(__half)), true);
// CUDA: tilec::rt::wgmma_commit_group();
// CUDA-NEXT: tilec::rt::wgmma_wait<0>();
// CUDA-LABEL: namespace mm_bt_128_64_16 {
// CUDA: alignas(256) __shared__ unsigned char smem[SMEM_BYTES];
// CUDA: tilec::rt::wgmma_m64nNk16_f32_bf16<L{{[0-9]+}}::COLS, tilec::rt::WgmmaMajor::K, tilec::rt::WgmmaMajor::K>(

// SM80-LABEL: kernel @mm<128, 128, 32, 4>
// SM80: #mma{{[0-9]+}} = #mma<m16n8k16, wpb=[2,2]>
template <int BM, int BN, int BK, int W>
TILEC_KERNEL(num_warps = W)
void mm(float *c, const tl::half *a, const tl::half *b, int K) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto av = tl::load(a + tl::expand_dims<1>(rm) * K + k + tl::expand_dims<0>(rk));
    auto bv = tl::load(b + (k + tl::expand_dims<1>(rk)) * BN + tl::expand_dims<0>(rn));
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}
template void mm<128, 128, 32, 4>(float *, const tl::half *, const tl::half *, int);
template void mm<128, 64, 64, 8>(float *, const tl::half *, const tl::half *, int);
template void mm<64, 64, 32, 8>(float *, const tl::half *, const tl::half *, int);

// B held as [N, K] rows (tl::trans): K-contiguous, as A.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4)
void mm_bt(float *c, const tl::bfloat16 *a, const tl::bfloat16 *b, int K) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto av = tl::load(a + tl::expand_dims<1>(rm) * K + k + tl::expand_dims<0>(rk));
    auto bv = tl::load(b + tl::expand_dims<1>(rn) * K + k + tl::expand_dims<0>(rk));
    acc = tl::dot(av, tl::trans(bv), acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}
template void mm_bt<128, 64, 16>(float *, const tl::bfloat16 *, const tl::bfloat16 *, int);

// A ring of small operands (the aligned variant pipelines the loads, num_stages = 3): each buffer,
// and each stage, starts on its swizzle's 8-row atom, 256 bytes for rows of 32 bytes. (B's
// 512-byte stages once stopped the verifier after pipeline-dots: every wgmma operand asked for
// 1024.)
// CUDA-LABEL: namespace mm_ring_64_16_16 {
// CUDA: namespace aligned {
// CUDA: alignas(256) __shared__ unsigned char smem[SMEM_BYTES];
// CUDA: tilec::rt::cp_async_16(
// CUDA: tilec::rt::wgmma_m64nNk16_f32_f16<L{{[0-9]+}}::COLS, tilec::rt::WgmmaMajor::K, tilec::rt::WgmmaMajor::MN>(
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, num_stages = 3)
void mm_ring(float *c, const tl::half *a, const tl::half *b, int K) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto av = tl::load(a + tl::expand_dims<1>(rm) * K + k + tl::expand_dims<0>(rk));
    auto bv = tl::load(b + (k + tl::expand_dims<1>(rk)) * BN + tl::expand_dims<0>(rn));
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}
template void mm_ring<64, 16, 16>(float *, const tl::half *, const tl::half *, int);

// In a pipelined loop that touches its accumulator only through the dot, the product stays in
// flight while the next iteration starts (`wgmma_wait<1>`): the accumulator lives in wgmma's
// registers across the loop (`acc_wgmma`, filled before it and handed back after the last wait),
// and each iteration issues its copies after the product's wait and a second barrier, into the
// stage the last iteration's product read.
// RING-LABEL: namespace mm_ring_64_16_16 {
// RING: namespace aligned {
// RING: __half (*av_smem)[64 * 16] = reinterpret_cast<__half (*)[64 * 16]>(smem + 0);  // 3 stages
// RING: int copy_stage = 2;
// RING-NEXT: // acc_wgmma[i]: the m64 block i of acc that this warpgroup holds, in wgmma's register
// RING: float acc_wgmma[L{{[0-9]+}}::REP0][L{{[0-9]+}}::COLS / 2];
// RING: acc_wgmma[i][4 * j + 0] = acc[2 * i][2 * j];
// RING: tilec::rt::wgmma_fence_accumulators(acc_wgmma[i]);
// RING: TILEC_NO_UNROLL
// RING-NEXT: for (int k = 0; k < K; k += BK) {
// RING-NEXT: tilec::rt::cp_async_wait<1>();
// RING-NEXT: tilec::rt::fence_proxy_async_shared();
// RING-NEXT: __syncthreads();
// RING: tilec::rt::wgmma_fence();
// RING: acc_wgmma[i],
// RING-NEXT: tilec::rt::smem_desc_moved(a_desc[i], AV_SWIZZLE::offset(0, kk) * sizeof(__half)),
// RING: tilec::rt::wgmma_commit_group();
// RING-NEXT: // leave this product in flight: wait for the last iteration's, which ends its reading of the
// RING-NEXT: // stage the copies below refill
// RING-NEXT: tilec::rt::wgmma_wait<1>();
// No shared-memory writes since the last proxy fence: the second barrier needs none.
// RING: tilec::rt::wgmma_fence_accumulators(acc_wgmma[i]);
// RING-NEXT: }
// RING-NEXT: // {{.*}}wgmma.cpp:{{[0-9]+}}: for (int k = 0; k < K; k += BK) {
// RING-NEXT: __syncthreads();
// RING-NEXT: // pipeline: start copying the tiles of the iteration 2 ahead into the stage read last iteration
// RING-NEXT: // (the wait above retired its product in this warpgroup, the barrier in all)
// RING: tilec::rt::cp_async_commit();
// RING: read_stage = (read_stage + 1) % 3;
// RING-NEXT: copy_stage = (copy_stage + 1) % 3;
// RING-NEXT: }
// RING-NEXT: // the loop's last product lands in acc_wgmma, which goes back to acc
// RING-NEXT: tilec::rt::wgmma_wait<0>();
// RING: tilec::rt::wgmma_take_accumulators(acc_wgmma[i]);
// RING: acc[2 * i][2 * j] = acc_wgmma[i][4 * j + 0];
// RING: tilec::rt::cp_async_wait<0>();
// A loop that reads the accumulator beside the dot waits for each product: num_stages stages.
// RING-LABEL: namespace mm_ring_scaled_64_16_16 {
// RING: namespace aligned {
// RING: // 3 stages
// RING: float c_frag[
// RING: tilec::rt::wgmma_wait<0>();
// RING-NOT: wgmma_take_accumulators
// RING: } // namespace mm_ring_scaled_64_16_16
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, num_stages = 3)
void mm_ring_scaled(float *c, const tl::half *a, const tl::half *b, int K) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto av = tl::load(a + tl::expand_dims<1>(rm) * K + k + tl::expand_dims<0>(rk));
    auto bv = tl::load(b + (k + tl::expand_dims<1>(rk)) * BN + tl::expand_dims<0>(rn));
    acc = tl::dot(av, bv, acc);
    acc = acc * 0.5f;
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}
template void mm_ring_scaled<64, 16, 16>(float *, const tl::half *, const tl::half *, int);
