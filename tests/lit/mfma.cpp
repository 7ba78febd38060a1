// MFMA (HIP, gfx90a): fp16 and bf16 dots with an fp32 result compute in the accumulator layout of
// v_mfma_f32_32x32x8 where the tile holds a 32 x 32 block for every wavefront, else of 16x16x16 (`#mma<mfma32x32x8, wpb=[WM,WN]>`, Triton's warpsPerTile with an N x N unit per
// wavefront). Each wavefront reads its fragments from the swizzled operand buffers, four
// consecutive k of a row in one read (A's [M, K] rows, B's [N, K] ones under tl::trans) or four
// down a column, and adds their products with tilec::rt::mfma_*. fp32 dots and other
// architectures keep the portable path (blocked result, per-thread products).
// RUN: %tilec --target=hip --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s
// RUN: %tilec --target=hip %s -o - | %FileCheck %s --check-prefix=HIP
// RUN: %tilec --target=hip --arch=gfx908 --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s --check-prefix=GFX908
#include <tilec/tl.hpp>

// CHECK-LABEL: kernel @mm<64, 64, 32, tl::half>
// CHECK: #mma{{[0-9]+}} = #mma<mfma32x32x8, wpb=[2,2]>
// CHECK-LABEL: kernel @mm<32, 32, 16, tl::bfloat16>
// CHECK: #mma{{[0-9]+}} = #mma<mfma16x16x16, wpb=[2,2]>
// CHECK-LABEL: kernel @mm<128, 32, 32, tl::half>
// CHECK: #mma{{[0-9]+}} = #mma<mfma32x32x8, wpb=[4,1]>
// CHECK-LABEL: kernel @mm<32, 32, 16, float>
// CHECK-NOT: #mma
// CHECK-LABEL: kernel @mm_bt<64, 64, 32>
// CHECK: #mma{{[0-9]+}} = #mma<mfma32x32x8, wpb=[2,2]>
// GFX908-NOT: #mma<

// HIP-LABEL: namespace mm_64_64_32_f16 {
// HIP: // tile 64x64: the accumulator of MFMA 32x32x8, 2x2 wavefronts, each 32x32 of every 64x64; 16x1
// HIP: using L{{[0-9]+}} = tilec::rt::MfmaAcc<32, 2, 2, 64, 64>;
// HIP: // MFMA 32x32x8, k by 8: each wavefront reads its fragments of av_smem (four consecutive k of a
// HIP: for (int kk = 0; kk < BK; kk += 8) {
// HIP: uint32_t av_smem_frag[L{{[0-9]+}}::REP0][2];  // A: row block i, k kk .. kk + 7
// HIP: tilec::rt::read_fragment(av_smem_frag[i],
// HIP-NEXT: &av_smem[AV_SWIZZLE::offset(L{{[0-9]+}}::a_row(i), kk + L{{[0-9]+}}::a_col())]);
// HIP: tilec::rt::gather_fragment(bv_smem_frag[j],
// HIP-NEXT: bv_smem[BV_SWIZZLE::offset(kk + L{{[0-9]+}}::b_row(), L{{[0-9]+}}::b_col(j))],
// HIP-NEXT: bv_smem[BV_SWIZZLE::offset(kk + L{{[0-9]+}}::b_row() + 1, L{{[0-9]+}}::b_col(j))],
// HIP: tilec::rt::mfma_32x32x8_f16(c_frag, av_smem_frag[i], bv_smem_frag[j], c_frag);
// HIP-LABEL: namespace mm_32_32_16_bf16 {
// HIP: tilec::rt::mfma_16x16x16_bf16(c_frag, av_smem_frag[i], bv_smem_frag[j], c_frag);
// HIP-LABEL: namespace mm_bt_64_64_32 {
// HIP: tilec::rt::read_fragment(bv_t_smem_frag[j],
// HIP-NEXT: &bv_t_smem[BV_T_SWIZZLE::offset(L{{[0-9]+}}::b_col(j), kk + L{{[0-9]+}}::b_row())]);
template <int BM, int BN, int BK, class T>
TILEC_KERNEL(num_warps = 4)
void mm(float *c, const T *a, const T *b) {
  auto m = tl::arange<0, BM>();
  auto n = tl::arange<0, BN>();
  auto k = tl::arange<0, BK>();
  auto av = tl::load(a + tl::expand_dims<1>(m) * BK + tl::expand_dims<0>(k));
  auto bv = tl::load(b + tl::expand_dims<1>(k) * BN + tl::expand_dims<0>(n));
  tl::store(c + tl::expand_dims<1>(m) * BN + tl::expand_dims<0>(n), tl::dot(av, bv));
}
template void mm<64, 64, 32, tl::half>(float *, const tl::half *, const tl::half *);
template void mm<32, 32, 16, tl::bfloat16>(float *, const tl::bfloat16 *, const tl::bfloat16 *);
template void mm<128, 32, 32, tl::half>(float *, const tl::half *, const tl::half *);
template void mm<32, 32, 16, float>(float *, const float *, const float *);

// B given as [N, K] rows: its fragments are four consecutive k of a row too.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4)
void mm_bt(float *c, const tl::half *a, const tl::half *bt) {
  auto m = tl::arange<0, BM>();
  auto n = tl::arange<0, BN>();
  auto k = tl::arange<0, BK>();
  auto av = tl::load(a + tl::expand_dims<1>(m) * BK + tl::expand_dims<0>(k));
  auto bv = tl::load(bt + tl::expand_dims<1>(n) * BK + tl::expand_dims<0>(k));
  tl::store(c + tl::expand_dims<1>(m) * BN + tl::expand_dims<0>(n), tl::dot(av, tl::trans(bv)));
}
template void mm_bt<64, 64, 32>(float *, const tl::half *, const tl::half *);
