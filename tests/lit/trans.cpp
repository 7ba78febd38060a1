// tl::trans: the translator makes a `trans` view; layout-assignment gives its operand the
// transposed blocked layout of the result (nothing moves: `t[i][j] = x[j][i]`, thread for
// thread); lower-dots stages an mma operand's untransposed tile and marks the product (`^T`: A
// read with ldmatrix .trans, B with plain ldmatrix; on HIP MFMA reads A down columns, B along
// rows), while the portable path (HIP without MFMA: gfx908) stages the view; a trans of an mma
// accumulator converts to a blocked layout first.
// RUN: %tilec --emit=ir --stop-after=materialize %s -o - | %FileCheck %s
// RUN: %tilec --arch=sm_80 --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s --check-prefix=LAYOUT
// RUN: %tilec --arch=sm_80 --emit=ir --stop-after=lower-dots %s -o - | %FileCheck %s --check-prefix=LOWER
// RUN: %tilec --target=hip --emit=ir --stop-after=lower-dots %s -o - | %FileCheck %s --check-prefix=LOWER
// RUN: %tilec --target=hip --arch=gfx908 --emit=ir --stop-after=lower-dots %s -o - | %FileCheck %s --check-prefix=HIP
// RUN: %tilec --arch=sm_80 %s -o - | %FileCheck %s --check-prefix=CUDA
#include <tilec/tl.hpp>

// CHECK-LABEL: kernel @copy_t
// CHECK: decl %t: tile<32x64xf32> = trans(%x) : tile<32x64xf32>
// LAYOUT-LABEL: kernel @copy_t
// LAYOUT: #blocked0 = #blocked<spt=[1,4], tpw=[4,8], wpb=[4,1], order=[1,0]>
// LAYOUT: #blocked2 = #blocked<spt=[4,1], tpw=[8,4], wpb=[1,4], order=[0,1]>
// LAYOUT: decl %x: tile<64x32xf32, #blocked0> = load(
// LAYOUT: decl %t: tile<32x64xf32, #blocked2> = trans(%x) : tile<32x64xf32, #blocked2>
// CUDA-LABEL: namespace copy_t_instance {
// CUDA: t[i][j] = x[j][i];
TILEC_KERNEL(num_warps = 4)
void copy_t(float *out, const float *in) {
  auto r = tl::arange<0, 64>();
  auto c = tl::arange<0, 32>();
  auto x = tl::load(in + tl::expand_dims<1>(r) * 32 + tl::expand_dims<0>(c));
  auto t = tl::trans(x);
  tl::store(out + tl::expand_dims<1>(c) * 64 + tl::expand_dims<0>(r), t);
}

// LOWER-LABEL: kernel @qk
// LOWER: shared 0 q_smem: f16[64x32] row_stride=32 swizzle=8/2/4
// LOWER-NEXT: shared 1 k_t_smem: f16[64x32] row_stride=32 swizzle=8/2/4
// LOWER-NEXT: shared 2 kt_t_smem: f16[32x64] row_stride=64 swizzle=8/1/8
// LOWER-NEXT: shared 3 kt_smem: f16[32x64] row_stride=64 swizzle=8/1/8
// LOWER: shared_write 0, %q
// LOWER-NEXT: shared_write 1, %k
// LOWER-NEXT: barrier
// LOWER-NEXT: decl %s: tile<64x64xf32, #mma{{[0-9]+}}> = shared_dot(0, 1^T)
// LOWER: shared_write 2, %kt
// LOWER-NEXT: shared_write 3, %kt
// LOWER-NEXT: barrier
// LOWER-NEXT: decl %u: tile<64x64xf32, #mma{{[0-9]+}}> = shared_dot(2^T, 3)
// HIP-LABEL: kernel @qk
// HIP: shared 1 k_t_smem: f16[32x64] row_stride=64
// HIP: shared_write 1, trans(%k) : tile<32x64xf16, #blocked{{[0-9]+}}>
// HIP: shared_dot(0, 1) :
// HIP: shared_write 2, trans(%kt) : tile<64x32xf16, #blocked{{[0-9]+}}>
// HIP: shared_dot(2, 3) :
// CUDA-LABEL: namespace qk_instance {
// CUDA: // mma.sync m16n8k16, k by 16: each warp loads its fragments of q_smem (ldmatrix) and k_t_smem
// CUDA-NEXT: // (ldmatrix, [N, K] rows) and adds their products into its accumulators
// CUDA: tilec::rt::ldmatrix_x4(k_t_smem_frag[j],
// CUDA-NEXT: &k_t_smem[K_T_SWIZZLE::offset(L{{[0-9]+}}::bt_row(j), kk + L{{[0-9]+}}::bt_col())]);
// CUDA: tilec::rt::ldmatrix_x4_trans(
// CUDA-NEXT: kt_t_smem_frag[i], &kt_t_smem[KT_T_SWIZZLE::offset(kk + L{{[0-9]+}}::at_row(), L{{[0-9]+}}::at_col(i))]);
TILEC_KERNEL(num_warps = 4)
void qk(float *s_out, float *u_out, const tl::half *qp, const tl::half *kp) {
  auto r = tl::arange<0, 64>();
  auto d = tl::arange<0, 32>();
  auto q = tl::load(qp + tl::expand_dims<1>(r) * 32 + tl::expand_dims<0>(d)); // [64, 32]
  auto k = tl::load(kp + tl::expand_dims<1>(r) * 32 + tl::expand_dims<0>(d)); // [64, 32]
  auto s = tl::dot(q, tl::trans(k));                                          // [64, 64]
  tl::store(s_out + tl::expand_dims<1>(r) * 64 + tl::expand_dims<0>(r), s);
  auto kt = tl::load(kp + tl::expand_dims<1>(d) * 64 + tl::expand_dims<0>(r)); // [32, 64]
  auto u = tl::dot(tl::trans(kt), kt);                                         // [64, 64]
  tl::store(u_out + tl::expand_dims<1>(r) * 64 + tl::expand_dims<0>(r), u);
}
