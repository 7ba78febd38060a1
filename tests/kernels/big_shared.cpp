// Shared memory above 48 KB. A 128 x 128 float transpose stages its tile through 128 rows of 129
// floats (one of padding against bank conflicts): 66048 bytes. A static __shared__ array may hold
// 48 KB at most (nvcc refuses more), so tilec's CUDA takes the launch's dynamic shared memory, and
// the launcher sets the attribute that allows the size (cudaFuncAttributeMaxDynamicSharedMemorySize)
// before the first launch, for the general kernel and the aligned variant each. HIP cannot run it:
// a gfx90a workgroup has 64 KB of LDS, and tilec says so (tests/diagnostics,
// shared_memory_exceeded_hip). tests/gpu/big_shared.cu runs the CUDA output on ragged and aligned
// shapes; the CPU emulator, like the GPU, refuses the launch without the attribute.
#include <tilec/tl.hpp>

template <int BM, int BN>
TILEC_KERNEL(num_warps = 8, grid = (cdiv(M, BM), cdiv(N, BN)))
void transpose_big(const float *in, float *out, int M, int N, int in_stride, int out_stride) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  auto rm = pid_m * BM + tl::arange<0, BM>();
  auto rn = pid_n * BN + tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N);
  auto tile = tl::load(in + tl::expand_dims<1>(rm) * in_stride + tl::expand_dims<0>(rn), mask);
  tl::store(out + tl::expand_dims<0>(rn) * out_stride + tl::expand_dims<1>(rm), tile, mask);
}

template void transpose_big<128, 128>(const float *, float *, int, int, int, int);
