// Tensor descriptors (Triton's tl.make_tensor_descriptor, docs/language.md): a descriptor has no
// value in the output; its load is a load of the block's pointer tile masked to the tensor's
// bounds (both edges) with zero as the masked-off value, its store a store masked alike. A
// descriptor may be copied and passed to the kernel's functions. On sm_90a the loads of a dot
// loop are TMA copies into the ring (the descriptor's block is the box; its shape and row stride
// the launcher's tensor map); the K loop may step by BLOCK_K. On sm_80 they are cp.async copies,
// 16 bytes a vector: the masks' lower edges hold over whole vectors too (axis analysis).
// RUN: %tilec %s -o - | %FileCheck %s
// RUN: %tilec --arch=sm_80 %s -o - | %FileCheck %s --check-prefix=SM80
// RUN: %tilec --no-aligned-variants %s -o - | %FileCheck %s --check-prefix=GENERAL
#include <tilec/tl.hpp>

template <class D> auto load_block(const D &desc, int row, int col) { return desc.load({row, col}); }

template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, num_stages = 3, grid = (cdiv(M, BM) * cdiv(N, BN)))
void mm(const tl::half *a, const tl::half *b, tl::half *c, int M, int N, int K, int lda, int ldb) {
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {lda, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {ldb, 1});
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c + 0, {M, N}, {N, 1});
  auto b_view = b_desc;
  int pid_m = tl::program_id(0) / tl::cdiv(N, BN);
  int pid_n = tl::program_id(0) % tl::cdiv(N, BN);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto av = load_block(a_desc, pid_m * BM, k);
    auto bv = b_view.load({k, pid_n * BN});
    acc = tl::dot(av, bv, acc);
  }
  auto cv = tl::cast<tl::half>(acc);
  c_desc.store({pid_m * BM, pid_n * BN}, cv);
}
template void mm<64, 64, 32>(const tl::half *, const tl::half *, tl::half *, int, int, int, int, int);

// A part that is not a variable the kernel leaves alone is computed once, where the descriptor is
// made, into a variable named after it.
// GENERAL: __half *const c_desc_base = c;
// The general kernel: the block's pointers, masked at both edges of each dimension.
// GENERAL: row + L{{[0-9]+}}::coord0(i) >= 0 && row + L{{[0-9]+}}::coord0(i) < M && (k + L{{[0-9]+}}::coord0(j + v) >= 0 && k + L{{[0-9]+}}::coord0(j + v) < K)
// GENERAL: a + (row + L{{[0-9]+}}::coord0(i)) * lda + (k + L{{[0-9]+}}::coord0(j))
// GENERAL: c_desc_base + (pid_m * BM + L{{[0-9]+}}::coord0(i)) * N

// The aligned variant on sm_90a: TMA copies at the blocks' coordinates, the ring's prologue at
// k = stage * BK.
// CHECK: tilec::rt::tma_load_2d(av_smem[stage], &av_map, pid_m * BM, stage * BK,
// CHECK: tilec::rt::tma_load_2d(bv_smem[stage], &bv_map, stage * BK, pid_n * BN,
// CHECK: tilec::rt::tma_load_2d(av_smem[copy_stage], &av_map, pid_m * BM, k + 2 * BK,
// The launcher's maps: the descriptors' shapes and row strides.
// CHECK: tilec::rt::make_tensor_map_2d(
// CHECK-NEXT: &av_map, a, M, K, lda,
// CHECK: &bv_map, b, K, N, ldb,

// SM80: tilec::rt::cp_async_16(
// SM80-NOT: tma_load_2d
