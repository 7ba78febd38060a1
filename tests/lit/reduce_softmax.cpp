// Reduction lowering: in-thread, xor shuffles over the lanes of the reduced dim, then per-warp
// partials through shared memory. Warp size 32 on CUDA, 64 on HIP (one more shuffle, fewer parts).
// RUN: %tilec --emit=ir --stop-after=lower-reductions %s -o - | %FileCheck %s --check-prefix=CUDA
// RUN: %tilec --target=hip --emit=ir --stop-after=lower-reductions %s -o - | %FileCheck %s --check-prefix=HIP
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 8)
void row_max(const float *in, float *out, int n) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto x = tl::load(in + row * n + cols, cols < n, -tl::inf);
  float m = tl::max(x);
  tl::store(out + row, m);
}
template void row_max<4096>(const float *, float *, int);

// CUDA: decl %m_part: f32 = thread_reduce.max(%x, axis=0)
// CUDA-NEXT: %m_part = warp_reduce.max(%m_part, lanes=[16,8,4,2,1], warp_size=32)
// CUDA-NEXT: shared_write_partials 0, %m_part axis=0 of [4096]
// CUDA-NEXT: barrier
// CUDA-NEXT: decl %m: f32 = shared_combine.max(0, parts=8)
// HIP: %m_part = warp_reduce.max(%m_part, lanes=[32,16,8,4,2,1], warp_size=64)
// HIP: decl %m: f32 = shared_combine.max(0, parts=8)
