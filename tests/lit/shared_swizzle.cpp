// Shared-memory swizzle (lower-dots, lower-layout-conversions): the operands of a dot on mma.sync
// are staged unpadded, their rows XOR-swizzled in 16-byte chunks (`swizzle=vec/perPhase/maxPhase`,
// Triton's #shared): rows of 32 halves (64 bytes) change phase every 2 rows over 4 phases, rows of
// 64 or more every row over 8, rows of 16 (32 bytes) every 4 rows over 2. The epilogue's
// conversion from the accumulator (#mma) to the store's layout is swizzled alike (fp32: 4 elements
// a chunk). HIP's MFMA operands are swizzled alike (a lane's four k stay in one chunk). The CUDA
// output names each swizzle
// among the tunables and addresses every access of a swizzled buffer through it; the epilogue
// reads the conversion buffer in vectors of a chunk (the XOR would keep the compiler from merging
// element reads).
// RUN: %tilec --arch=sm_80 --emit=ir --stop-after=lower-layout-conversions %s -o - | %FileCheck %s
// RUN: %tilec --target=hip --emit=ir --stop-after=lower-layout-conversions %s -o - | %FileCheck %s --check-prefix=HIP
// RUN: %tilec --arch=sm_80 %s -o - | %FileCheck %s --check-prefix=CUDA
#include <tilec/tl.hpp>

// CHECK-LABEL: kernel @mm<64, 32>
// CHECK: shared 0 av_smem: f16[64x32] row_stride=32 swizzle=8/2/4 bytes=4096
// CHECK-NEXT: shared 1 bv_smem: f16[32x64] row_stride=64 swizzle=8/1/8 bytes=4096
// CHECK-NEXT: shared 2 store_cvt_smem: f32[64x64] row_stride=64 swizzle=4/1/8 bytes=16384
// CHECK-LABEL: kernel @mm<64, 16>
// CHECK: shared 0 av_smem: f16[64x16] row_stride=16 swizzle=8/4/2 bytes=2048
// CHECK-NEXT: shared 1 bv_smem: f16[16x64] row_stride=64 swizzle=8/1/8 bytes=2048
// HIP-LABEL: kernel @mm<64, 32>
// HIP: shared 0 av_smem: f16[64x32] row_stride=32 swizzle=8/2/4 bytes=4096
// HIP-NEXT: shared 1 bv_smem: f16[32x64] row_stride=64 swizzle=8/1/8 bytes=4096
// HIP-NEXT: shared 2 store_cvt_smem: f32[64x64] row_stride=64 swizzle=4/1/8 bytes=16384
// HIP: #mma0 = #mma<mfma32x32x8, wpb=[2,2]>
// CUDA-LABEL: namespace mm_64_32 {
// CUDA: // av_smem: rows of 32 elements, unpadded, in 16-byte chunks; chunk c of row r is stored at
// CUDA: using AV_SWIZZLE = tilec::rt::XorSwizzle<BK, 8, 2, 4>;
// CUDA: using BV_SWIZZLE = tilec::rt::XorSwizzle<BM, 8, 1, 8>;
// CUDA: using STORE_CVT_SWIZZLE = tilec::rt::XorSwizzle<BM, 4, 1, 8>;
// CUDA: &av_smem[AV_SWIZZLE::offset(L{{[0-9]+}}::coord0(i), L{{[0-9]+}}::coord1(j))], &av[i][j]);
// CUDA: &av_smem[AV_SWIZZLE::offset(L{{[0-9]+}}::a_row(i), kk + L{{[0-9]+}}::a_col())]);
// CUDA: &bv_smem[BV_SWIZZLE::offset(kk + L{{[0-9]+}}::b_row(), L{{[0-9]+}}::b_col(j))]);
// CUDA: store_cvt_smem[STORE_CVT_SWIZZLE::offset(L{{[0-9]+}}::coord0(i), L{{[0-9]+}}::coord1(j))] = acc[i][j];
// CUDA: for (int j = 0; j < L{{[0-9]+}}::ELEMS1; j += C_STORE_VEC) {
// CUDA-NEXT: tilec::rt::load_vec<C_STORE_VEC, true>(
// CUDA-NEXT: &store_cvt[i][j],
// CUDA-NEXT: &store_cvt_smem[STORE_CVT_SWIZZLE::offset(L{{[0-9]+}}::coord0(i), L{{[0-9]+}}::coord1(j))]);
template <int BM, int BK>
TILEC_KERNEL(num_warps = 4)
void mm(float *c, const tl::half *a, const tl::half *b, int K) {
  auto rm = tl::arange<0, BM>();
  auto rk = tl::arange<0, BK>();
  auto acc = tl::zeros<float, BM, 64>();
  for (int k = 0; k < K; k += BK) {
    auto av = tl::load(a + tl::expand_dims<1>(rm) * K + k + tl::expand_dims<0>(rk));
    auto bv = tl::load(b + (k + tl::expand_dims<1>(rk)) * 64 + tl::expand_dims<0>(rm));
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * 64 + tl::expand_dims<0>(rm), acc);
}
template void mm<64, 32>(float *, const tl::half *, const tl::half *, int);
template void mm<64, 16>(float *, const tl::half *, const tl::half *, int);
