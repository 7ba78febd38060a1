/// \file The HIP-spelling kernels of the emulator's unit tests (see HipKernels.h), written as
/// tilec's HIP output is: <tilec/hip/runtime.hpp>, 64-lane wavefronts, hipLaunchKernelGGL
/// launchers. Compiled with TILEC_EMU_COMPILE_OPTIONS.

#include "HipKernels.h"

#include <tilec/hip/runtime.hpp>

namespace emu_test::hip {
namespace {

/// hipLaunchKernelGGL then hipGetLastError, as tilec's HIP launchers do.
template <class... P, class... A>
hipError_t launch(dim3 grid, dim3 block, void (*kernel)(P...), A... args) {
  hipLaunchKernelGGL(kernel, grid, block, 0, hipStream_t{}, args...);
  return hipGetLastError();
}

} // namespace

// =================================================================================================
// Correct kernels
// =================================================================================================

__global__ void indices(unsigned *out) {
  const unsigned threadsPerBlock = blockDim.x * blockDim.y * blockDim.z;
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned *o = out + 12 * (b * threadsPerBlock + t);
  const unsigned values[12] = {threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z,
                               blockDim.x,  blockDim.y,  blockDim.z,  gridDim.x,  gridDim.y,  gridDim.z};
  for (int i = 0; i < 12; ++i)
    o[i] = values[i];
}
hipError_t launchIndices(dim3 grid, dim3 block, unsigned *out) { return launch(grid, block, indices, out); }

__global__ void shuffles(int *out) {
  const int t = threadIdx.x;
  const int v = 10 * t + 7;
  int *o = out + kShuffleResults * t;
  o[0] = __shfl_xor(v, 32);     // between the two halves of the wavefront
  o[1] = __shfl_xor(v, 5, 16);  // stays inside each group of 16 lanes
  o[2] = __shfl_xor(v, 24, 16); // leaves the group: a later group gives the own value
  o[3] = __shfl(v, 63);         // lane 63 of the lane's own wavefront
  o[4] = __shfl(v, 3, 16);      // lane 3 of the lane's group of 16
  o[5] = __shfl_up(v, 33);      // lanes 0-32 keep their own value
  o[6] = __shfl_down(v, 7, 32); // lanes 25-31 of each group of 32 keep theirs
  o[7] = static_cast<int>(2.0f * __shfl_down(v + 0.5f, 1));                      // a float
  o[8] = static_cast<int>(__shfl_xor(static_cast<long long>(v) << 32, 40) >> 32); // 64 bits
}
hipError_t launchShuffles(int *out) { return launch(dim3(1), dim3(kShuffleThreads), shuffles, out); }

__global__ void votes(unsigned long long *out) {
  const unsigned t = threadIdx.x, lane = t % warpSize;
  unsigned long long *o = out + kVoteResults * t;
  o[0] = __ballot(lane % 3 == 0);
  o[1] = __any(t == 70);
  o[2] = __all(t != 70);
  o[3] = __all(1);
}
hipError_t launchVotes(unsigned long long *out) { return launch(dim3(1), dim3(kVoteThreads), votes, out); }

__global__ void blockReduce(const float *in, float *sums) {
  constexpr int kWarps = kReduceThreads / TILEC_WARP_SIZE;
  alignas(16) __shared__ unsigned char smem[kWarps * sizeof(float)];
  float *parts = reinterpret_cast<float *>(smem);
  const int t = threadIdx.x, lane = t % TILEC_WARP_SIZE, warp = t / TILEC_WARP_SIZE;
  const int i = blockIdx.x * kReduceThreads + t;
  const float s = tilec::rt::warp_allreduce<tilec::rt::Sum>(in[i], 32, 16, 8, 4, 2, 1);
  if (lane == 0)
    parts[warp] = s;
  __syncthreads();
  sums[i] = tilec::rt::combine_partials<tilec::rt::Sum, kWarps>(parts, 1);
}
hipError_t launchBlockReduce(int blocks, const float *in, float *sums) {
  return launch(dim3(blocks), dim3(kReduceThreads), blockReduce, in, sums);
}

__global__ void convert(const float *in, tilec::rt::f16_t *f16, tilec::rt::bf16_t *bf16, float *f16Back,
                        float *bf16Back, int n) {
  const int i = threadIdx.x;
  if (i >= n)
    return;
  f16[i] = tilec::rt::to_f16(in[i]);
  bf16[i] = tilec::rt::to_bf16(in[i]);
  f16Back[i] = tilec::rt::to_float(f16[i]);
  bf16Back[i] = tilec::rt::to_float(bf16[i]);
}
hipError_t launchConvert(int n, const float *in, uint16_t *f16, uint16_t *bf16, float *f16Back,
                         float *bf16Back) {
  return launch(dim3(1), dim3(n), convert, in, reinterpret_cast<tilec::rt::f16_t *>(f16),
                reinterpret_cast<tilec::rt::bf16_t *>(bf16), f16Back, bf16Back, n);
}

// A kernel above 48 KB of shared memory and its launcher as tilec prints them: the launch's dynamic
// shared memory, with the attribute set once per process as for CUDA.
namespace reverse_dynamic {
constexpr int NUM_THREADS = 256;
__global__ void __launch_bounds__(NUM_THREADS) reverse(const int *in, int *out, int words) {
  unsigned char *const smem = tilec::rt::dynamic_shared_memory();
  int *buf = reinterpret_cast<int *>(smem + 0);
  for (int i = static_cast<int>(threadIdx.x); i < words; i += NUM_THREADS)
    buf[i] = in[i];
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < words; i += NUM_THREADS)
    out[i] = buf[words - 1 - i];
}
} // namespace reverse_dynamic
hipError_t launchReverseDynamic(const int *in, int *out, int bytes) {
  static const hipError_t smem_opt_in =
      hipFuncSetAttribute(reinterpret_cast<const void *>(reverse_dynamic::reverse),
                          hipFuncAttributeMaxDynamicSharedMemorySize, kMaxDynamicShared);
  if (smem_opt_in != hipSuccess)
    return smem_opt_in;
  hipLaunchKernelGGL(reverse_dynamic::reverse, dim3(1), dim3(reverse_dynamic::NUM_THREADS), bytes,
                     hipStream_t{}, in, out, bytes / 4);
  return hipGetLastError();
}
hipError_t setReverseDynamicMax(int bytes) {
  return hipFuncSetAttribute(reinterpret_cast<const void *>(reverse_dynamic::reverse),
                             hipFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

// =================================================================================================
// Kernels with one bug each
// =================================================================================================

__global__ void partialsPer32Lanes(const float *in, float *out) {
  __shared__ float partials[128 / 32];
  const float s = tilec::rt::warp_allreduce<tilec::rt::Sum>(in[threadIdx.x], 16, 8, 4, 2, 1);
  if (threadIdx.x % 32 == 0) {
    partials[threadIdx.x / warpSize] = s; EMU_TEST_LINE(at::PartialWrite); // lanes 0 and 32: same slot
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (unsigned w = 0; w < blockDim.x / warpSize; ++w)
      total += partials[w];
    out[0] = total;
  }
}
hipError_t launchPartialsPer32Lanes(const float *in, float *out) {
  return launch(dim3(1), dim3(128), partialsPer32Lanes, in, out);
}

__global__ void readPastEnd(const float *in, float *out, int n) {
  if (blockIdx.x == 1 && threadIdx.x == 40) {
    out[0] = in[n]; EMU_TEST_LINE(at::ReadPastEnd);
  }
}
hipError_t launchReadPastEnd(const float *in, float *out, int n) {
  return launch(dim3(2), dim3(64), readPastEnd, in, out, n);
}

__global__ void warpOpNotReached(float *out) {
  if (threadIdx.x < 32) {
    out[threadIdx.x] = __shfl_xor(1.0f, 1); EMU_TEST_LINE(at::WarpOpNotReachedShuffle);
  } else {
    __syncthreads(); EMU_TEST_LINE(at::WarpOpNotReachedBarrier);
  }
}
hipError_t launchWarpOpNotReached(float *out) { return launch(dim3(1), dim3(64), warpOpNotReached, out); }

} // namespace emu_test::hip
