/// \file The CUDA-spelling kernels of the emulator's unit tests (see CudaKernels.h), written as
/// tilec's CUDA output is: <tilec/cuda/runtime.cuh>, __global__ functions, __shared__ arrays,
/// tilec::rt helpers, cudaLaunchKernelEx launchers. Compiled with TILEC_EMU_COMPILE_OPTIONS.
/// A statement that a report must name ends its line with EMU_TEST_LINE(at::Tag).

#include "CudaKernels.h"

#include <tilec/cuda/runtime.cuh>

#include <cstring>

namespace emu_test::cuda {
namespace {

constexpr unsigned kFull = 0xffffffffu;

/// cudaLaunchKernelEx as tilec's CUDA launchers call it.
template <class... P, class... A>
cudaError_t launch(dim3 grid, dim3 block, void (*kernel)(P...), A... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  return cudaLaunchKernelEx(&config, kernel, args...);
}

} // namespace

// =================================================================================================
// Correct kernels
// =================================================================================================

__global__ void indices(unsigned *out) {
  const unsigned threadsPerBlock = blockDim.x * blockDim.y * blockDim.z;
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned *o = out + kIndexValues * (b * threadsPerBlock + t);
  o[0] = threadIdx.x;
  o[1] = threadIdx.y;
  o[2] = threadIdx.z;
  o[3] = blockIdx.x;
  o[4] = blockIdx.y;
  o[5] = blockIdx.z;
  o[6] = blockDim.x;
  o[7] = blockDim.y;
  o[8] = blockDim.z;
  o[9] = gridDim.x;
  o[10] = gridDim.y;
  o[11] = gridDim.z;
}
cudaError_t launchIndices(dim3 grid, dim3 block, unsigned *out) { return launch(grid, block, indices, out); }

__global__ void shuffles(int *out) {
  const int t = threadIdx.x;
  const int v = 10 * t + 7;
  int *o = out + kShuffleResults * t;
  o[0] = __shfl_xor_sync(kFull, v, 5, 8);   // stays inside each group of 8 lanes
  o[1] = __shfl_xor_sync(kFull, v, 12, 8);  // leaves the group: a later group gives the own value
  o[2] = __shfl_sync(kFull, v, 11, 8);      // source lane 11 % 8 = 3 of the lane's group
  o[3] = __shfl_up_sync(kFull, v, 2, 8);    // lanes 0-1 of each group keep their own value
  o[4] = __shfl_down_sync(kFull, v, 3, 16); // lanes 13-15 of each group keep their own value
  o[5] = __shfl_xor_sync(kFull, v, 16);     // the whole warp
  o[6] = __shfl_sync(kFull, v, 31);         // lane 31 of the lane's own warp
  o[7] = static_cast<int>(2.0f * __shfl_down_sync(kFull, v + 0.5f, 1)); // a float, bit-exact
  o[8] = static_cast<int>(__shfl_xor_sync(kFull, static_cast<long long>(v) << 32, 3) >> 32); // 64 bits
}
cudaError_t launchShuffles(int *out) { return launch(dim3(1), dim3(kShuffleThreads), shuffles, out); }

__global__ void votes(unsigned *out) {
  const unsigned t = threadIdx.x, lane = t % warpSize;
  const unsigned mask = t < 32 ? kFull : 0x0000ffffu; // the lanes that exist in a 48-thread block
  unsigned *o = out + kVoteResults * t;
  o[0] = __ballot_sync(mask, lane % 3 == 0);
  o[1] = __any_sync(mask, t == 7);
  o[2] = __all_sync(mask, t != 40);
  o[3] = __all_sync(mask, 1);
  o[4] = __any_sync(mask, 0);
}
cudaError_t launchVotes(unsigned *out) { return launch(dim3(1), dim3(kVoteThreads), votes, out); }

__global__ void shuffleAfterReturn(int *out) {
  if (threadIdx.x >= 16)
    return; // lanes that have exited are not waited for ("non-exited threads named in mask")
  out[threadIdx.x] = __shfl_xor_sync(kFull, 100 + static_cast<int>(threadIdx.x), 1);
}
cudaError_t launchShuffleAfterReturn(int *out) { return launch(dim3(1), dim3(32), shuffleAfterReturn, out); }

__global__ void blockReduce(const float *in, float *sums, float *maxes) {
  constexpr int kWarps = kReduceThreads / 32;
  alignas(16) __shared__ unsigned char smem[2 * kWarps * sizeof(float)];
  float *sumParts = reinterpret_cast<float *>(smem);
  float *maxParts = sumParts + kWarps;
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int i = blockIdx.x * kReduceThreads + t;
  const float v = in[i];
  const float s = tilec::rt::warp_allreduce<tilec::rt::Sum>(v, 16, 8, 4, 2, 1);
  const float m = tilec::rt::warp_allreduce<tilec::rt::Max>(v, 16, 8, 4, 2, 1);
  if (lane == 0) {
    sumParts[warp] = s;
    maxParts[warp] = m;
  }
  __syncthreads();
  sums[i] = tilec::rt::combine_partials<tilec::rt::Sum, kWarps>(sumParts, 1);
  maxes[i] = tilec::rt::combine_partials<tilec::rt::Max, kWarps>(maxParts, 1);
}
cudaError_t launchBlockReduce(int blocks, const float *in, float *sums, float *maxes) {
  return launch(dim3(blocks), dim3(kReduceThreads), blockReduce, in, sums, maxes);
}

/// counts[0]: atomicAdd(1) by every thread; counts[1 + b]: block b's count in shared memory.
/// sums[0]: atomicAdd(1.0f) by every thread; sums[1 + b]: block b's shared sum of 0.5f per thread.
/// bits[0]: atomicOr of 1 << lane; bits[1]: atomicAnd of ~(1 << lane); bits[2]: atomicXor of
/// 1 << lane by the odd lanes of the grid's first warp. picks[0] / picks[1]: atomicMax / atomicMin
/// of the global thread index; picks[2]: atomicCAS(-1 -> index) by every thread; picks[3]: how many
/// of those CASes found -1.
__global__ void atomics(int *counts, float *sums, unsigned *bits, int *picks) {
  __shared__ int blockCount;
  __shared__ float blockSum;
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    blockCount = 0;
    blockSum = 0.0f;
  }
  __syncthreads();
  atomicAdd(&blockCount, 1);
  atomicAdd(&blockSum, 0.5f);
  __syncthreads();
  if (threadIdx.x == 0) {
    counts[1 + blockIdx.x] = blockCount;
    sums[1 + blockIdx.x] = blockSum;
  }
  atomicAdd(&counts[0], 1);
  atomicAdd(&sums[0], 1.0f);
  atomicOr(&bits[0], 1u << lane);
  atomicAnd(&bits[1], ~(1u << lane));
  if (id < 32 && lane % 2 == 1)
    atomicXor(&bits[2], 1u << lane);
  atomicMax(&picks[0], id);
  atomicMin(&picks[1], id);
  if (atomicCAS(&picks[2], -1, id) == -1)
    atomicAdd(&picks[3], 1);
}
cudaError_t launchAtomics(int blocks, int *counts, float *sums, unsigned *bits, int *picks) {
  return launch(dim3(blocks), dim3(kAtomicThreads), atomics, counts, sums, bits, picks);
}

__global__ void copyVec4(const float *in, float *out) {
  const int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  float r[4];
  tilec::rt::load_vec<4, true>(r, in + i);
  tilec::rt::store_vec<4, true>(out + i, r);
}
cudaError_t launchCopyVec4(int threads, const float *in, float *out) {
  return launch(dim3(1), dim3(threads), copyVec4, in, out);
}

__global__ void copyVec4Masked(const float *in, float *out, float *loaded, int n) {
  const int i = 4 * threadIdx.x;
  bool mask[4];
  for (int v = 0; v < 4; ++v)
    mask[v] = i + v < n;
  float r[4];
  tilec::rt::load_vec<4, false>(r, in + i, mask, -1.0f);
  tilec::rt::store_vec<4, false>(out + i, r, mask);
  for (int v = 0; v < 4; ++v)
    loaded[i + v] = r[v];
}
cudaError_t launchCopyVec4Masked(int threads, const float *in, float *out, float *loaded, int n) {
  return launch(dim3(1), dim3(threads), copyVec4Masked, in, out, loaded, n);
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
cudaError_t launchConvert(int n, const float *in, uint16_t *f16, uint16_t *bf16, float *f16Back,
                          float *bf16Back) {
  return launch(dim3(1), dim3(n), convert, in, reinterpret_cast<tilec::rt::f16_t *>(f16),
                reinterpret_cast<tilec::rt::bf16_t *>(bf16), f16Back, bf16Back, n);
}

// A kernel and its launchers as tilec prints them.
namespace scale_256 {
constexpr int BLOCK = 256;
constexpr int NUM_THREADS = 256;
__global__ void __launch_bounds__(NUM_THREADS) scale(float *x, int n) {
  const int i = static_cast<int>(blockIdx.x) * BLOCK + static_cast<int>(threadIdx.x);
  if (i < n)
    x[i] *= 2.0f;
}
} // namespace scale_256
cudaError_t launchScaleLikeTilec(dim3 grid, cudaStream_t stream, float *x, int n) {
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    return cudaSuccess; // nothing to run
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = dim3(scale_256::NUM_THREADS);
  config.stream = stream;
  return cudaLaunchKernelEx(&config, scale_256::scale, x, n);
}
cudaError_t launchScaleLikeTilec(cudaStream_t stream, float *x, int n) {
  const dim3 grid(tilec::rt::cdiv(n, scale_256::BLOCK));
  return launchScaleLikeTilec(grid, stream, x, n);
}

// A kernel above 48 KB of shared memory and its launcher as tilec prints them: the kernel takes the
// launch's dynamic shared memory, which its attribute allows (set once per process). TAG makes
// another kernel of the same code, whose attribute the tests set themselves.
namespace reverse_dynamic {
constexpr int NUM_THREADS = kReverseDynamicThreads;
template <int TAG>
__global__ void __launch_bounds__(NUM_THREADS) reverse(const int *in, int *out, int words, int past) {
  unsigned char *const smem = tilec::rt::dynamic_shared_memory();
  int *buf = reinterpret_cast<int *>(smem + 0);
  const int base = static_cast<int>(blockIdx.x) * words;
  for (int i = static_cast<int>(threadIdx.x); i < words; i += NUM_THREADS)
    buf[i] = in[base + i];
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < words; i += NUM_THREADS)
    out[base + i] = buf[words - 1 - i];
  if (past >= 0 && threadIdx.x == 0) {
    buf[words + past] = 0; EMU_TEST_LINE(at::DynamicSharedWritePastEnd);
  }
}
} // namespace reverse_dynamic
cudaError_t launchReverseDynamic(int blocks, const int *in, int *out, int words, int past) {
  static const cudaError_t smem_opt_in = cudaFuncSetAttribute(
      reverse_dynamic::reverse<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxDynamicShared);
  if (smem_opt_in != cudaSuccess)
    return smem_opt_in;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(reverse_dynamic::NUM_THREADS);
  config.dynamicSmemBytes = words * sizeof(int);
  return cudaLaunchKernelEx(&config, reverse_dynamic::reverse<0>, in, out, words, past);
}
cudaError_t launchReverseDynamicUnset(const int *in, int *out, int bytes) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(reverse_dynamic::NUM_THREADS);
  config.dynamicSmemBytes = bytes;
  return cudaLaunchKernelEx(&config, reverse_dynamic::reverse<1>, in, out, bytes / 4, -1);
}
cudaError_t setReverseDynamicUnsetMax(int bytes) {
  return cudaFuncSetAttribute(reverse_dynamic::reverse<1>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              bytes);
}

// =================================================================================================
// Kernels with one bug each
// =================================================================================================

__global__ void readPastEnd(const float *in, float *out, int n) {
  if (blockIdx.x == 1 && threadIdx.x == 5) {
    out[0] = in[n + 3]; EMU_TEST_LINE(at::ReadPastEnd);
  }
}
cudaError_t launchReadPastEnd(const float *in, float *out, int n) {
  return launch(dim3(2), dim3(32), readPastEnd, in, out, n);
}

__global__ void writeBeforeStart(float *out) {
  out[-1] = 1.0f; EMU_TEST_LINE(at::WriteBeforeStart);
}
cudaError_t launchWriteBeforeStart(float *out) { return launch(dim3(1), dim3(1), writeBeforeStart, out); }

// The first __shared__ array of this file: others follow it in the emulator's shared section.
__global__ void sharedWritePastEnd(float *out) {
  alignas(16) __shared__ float tile[8];
  tile[threadIdx.x] = 1.0f; EMU_TEST_LINE(at::SharedWritePastEnd); // thread 8 writes tile[8]
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}
cudaError_t launchSharedWritePastEnd(float *out) {
  return launch(dim3(1), dim3(9), sharedWritePastEnd, out);
}

__global__ void sharedReadStraddlingEnd(long long *out, int offset) {
  alignas(16) __shared__ unsigned char bytes[64];
  bytes[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long v;
    std::memcpy(&v, bytes + offset, sizeof v); EMU_TEST_LINE(at::SharedReadStraddlingEnd); // 60: bytes 60-67
    out[0] = v;
  }
}
cudaError_t launchSharedReadStraddlingEnd(long long *out) {
  return launch(dim3(1), dim3(64), sharedReadStraddlingEnd, out, 60);
}

__global__ void misalignedWrite(float *p) {
  int *q = reinterpret_cast<int *>(reinterpret_cast<char *>(p) + 1);
  *q = 7; EMU_TEST_LINE(at::MisalignedWrite);
}
cudaError_t launchMisalignedWrite(float *p) { return launch(dim3(1), dim3(1), misalignedWrite, p); }

__global__ void misalignedVectorLoad(const float *in, float *out) {
  float r[4];
  tilec::rt::load_vec<4, true>(r, in + 1); EMU_TEST_LINE(at::MisalignedVectorLoad); // "aligned": wrong
  out[0] = r[0];
}
cudaError_t launchMisalignedVectorLoad(const float *in, float *out) {
  return launch(dim3(1), dim3(1), misalignedVectorLoad, in, out);
}

__global__ void readAfterWrite(float *out) {
  __shared__ float cell[1];
  if (threadIdx.x == 0) {
    cell[0] = 1.0f; EMU_TEST_LINE(at::RawWrite);
  }
  if (threadIdx.x == 1) {
    out[0] = cell[0]; EMU_TEST_LINE(at::RawRead);
  }
}
cudaError_t launchReadAfterWrite(float *out) { return launch(dim3(1), dim3(2), readAfterWrite, out); }

__global__ void writeAfterRead(float *out) {
  __shared__ float cell[2];
  cell[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    out[0] = cell[1]; EMU_TEST_LINE(at::WarRead);
  }
  if (threadIdx.x == 1) {
    cell[1] = 5.0f; EMU_TEST_LINE(at::WarWrite);
  }
}
cudaError_t launchWriteAfterRead(float *out) { return launch(dim3(1), dim3(2), writeAfterRead, out); }

__global__ void writeAfterWrite(float *out) {
  [[maybe_unused]] __shared__ float cell[1];
  cell[0] = static_cast<float>(threadIdx.x); EMU_TEST_LINE(at::WawWrite); // every thread
  out[threadIdx.x] = 0.0f;
}
cudaError_t launchWriteAfterWrite(float *out) { return launch(dim3(1), dim3(4), writeAfterWrite, out); }

// Global memory: each thread stores its element of a tile, then thread 0 stores a scalar into
// thread 1's element with no barrier in between (a tile store followed by a scalar store into one
// tensor, as tilec emits them without the barrier that keeps program order). Thread 0 runs first:
// thread 1's tile store comes after its scalar store.
__global__ void globalWriteAfterWrite(float *out) {
  out[threadIdx.x] = 1.0f; EMU_TEST_LINE(at::GlobalTileWrite);
  if (threadIdx.x == 0) {
    out[1] = 2.0f; EMU_TEST_LINE(at::GlobalScalarWrite);
  }
}
cudaError_t launchGlobalWriteAfterWrite(float *out) {
  return launch(dim3(1), dim3(2), globalWriteAfterWrite, out);
}
// The same with the barrier: ordered, nothing to report.
__global__ void globalOrderedByBarrier(float *out) {
  out[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0)
    out[1] = 2.0f;
}
cudaError_t launchGlobalOrderedByBarrier(float *out) {
  return launch(dim3(1), dim3(2), globalOrderedByBarrier, out);
}

// Two more kernels like writeAfterWrite, each used by one test only: identical reports (same kind,
// same lines) are merged over the whole program, so tests of the counting need their own lines.
__global__ void racingWritesToCount(float *out) {
  [[maybe_unused]] __shared__ float cell[1];
  cell[0] = static_cast<float>(threadIdx.x); // every thread
  out[threadIdx.x] = 0.0f;
}
cudaError_t launchRacingWritesToCount(float *out) {
  return launch(dim3(1), dim3(4), racingWritesToCount, out);
}
__global__ void racingWritesToRepeat(float *out) {
  [[maybe_unused]] __shared__ float cell[1];
  cell[0] = static_cast<float>(threadIdx.x); // every thread
  out[threadIdx.x] = 0.0f;
}
cudaError_t launchRacingWritesToRepeat(float *out) {
  return launch(dim3(1), dim3(4), racingWritesToRepeat, out);
}

__global__ void atomicAndPlain(int *out) {
  __shared__ int cell[1];
  if (threadIdx.x == 0)
    cell[0] = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(&cell[0], 1); EMU_TEST_LINE(at::AtomicThenRead);
  }
  if (threadIdx.x == 1) {
    out[0] = cell[0]; EMU_TEST_LINE(at::ReadAfterAtomic);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    cell[0] = 2; EMU_TEST_LINE(at::PlainThenAtomic);
  }
  if (threadIdx.x == 1) {
    atomicAdd(&cell[0], 1); EMU_TEST_LINE(at::AtomicAfterPlain);
  }
}
cudaError_t launchAtomicAndPlain(int *out) { return launch(dim3(1), dim3(2), atomicAndPlain, out); }

/// out[t] = 4 (own cell 2 + cell 0 2), out[64 + t] = 64 (the atomic count).
__global__ void separatedOrOwnAccesses(float *out) {
  __shared__ float cells[64];
  __shared__ int counter;
  const int t = threadIdx.x;
  cells[t] = 1.0f;
  cells[t] = cells[t] + 1.0f; // one thread writes and reads its own cell: no race
  if (t == 0)
    counter = 0;
  __syncthreads();
  out[t] = cells[(t + 1) % 64] + cells[0]; // others' cells after a barrier; reads do not race with reads
  atomicAdd(&counter, 1);                  // atomics do not race with each other
  __syncthreads();
  cells[t] = 0.0f; // read by thread t - 1 before the barrier: no race
  out[64 + t] = static_cast<float>(counter);
}
cudaError_t launchSeparatedOrOwnAccesses(float *out) {
  return launch(dim3(1), dim3(64), separatedOrOwnAccesses, out);
}

__global__ void uninitializedRead(float *out) {
  __shared__ float cell[8];
  const int t = threadIdx.x + 4 * threadIdx.y;
  if (t != 5)
    cell[t] = 1.0f; // every cell but cell 5
  __syncthreads();
  if (t == 5) {
    out[0] = cell[5]; EMU_TEST_LINE(at::UninitializedRead);
  }
}
cudaError_t launchUninitializedRead(float *out) {
  return launch(dim3(1), dim3(4, 2), uninitializedRead, out);
}

__global__ void uninitializedInSecondBlock(float *out) {
  __shared__ float cell[1];
  if (blockIdx.x == 0)
    cell[0] = 3.0f; // only the first block writes it
  out[blockIdx.x] = cell[0]; EMU_TEST_LINE(at::UninitializedInSecondBlock);
}
cudaError_t launchUninitializedInSecondBlock(float *out) {
  return launch(dim3(2), dim3(1), uninitializedInSecondBlock, out);
}

__global__ void barrierNotReached(float *out) {
  if (threadIdx.x >= 32)
    return; // warp 1 leaves before the barrier
  __syncthreads(); EMU_TEST_LINE(at::BarrierNotReached);
  out[threadIdx.x] = 1.0f;
}
cudaError_t launchBarrierNotReached(float *out) { return launch(dim3(1), dim3(64), barrierNotReached, out); }

__global__ void barrierDivergence(float *out) {
  if (threadIdx.x < 32) {
    __syncthreads(); EMU_TEST_LINE(at::BarrierDivergenceA);
  } else {
    __syncthreads(); EMU_TEST_LINE(at::BarrierDivergenceB);
  }
  out[threadIdx.x] = 1.0f;
}
cudaError_t launchBarrierDivergence(float *out) { return launch(dim3(1), dim3(64), barrierDivergence, out); }

__global__ void warpOpNotReached(float *out) {
  if (threadIdx.x < 16) {
    out[threadIdx.x] = __shfl_xor_sync(kFull, 1.0f, 1); EMU_TEST_LINE(at::WarpOpNotReachedShuffle);
  } else {
    __syncthreads(); EMU_TEST_LINE(at::WarpOpNotReachedBarrier);
  }
}
cudaError_t launchWarpOpNotReached(float *out) { return launch(dim3(1), dim3(32), warpOpNotReached, out); }

__global__ void warpOpDivergence(float *out) {
  const float v = static_cast<float>(threadIdx.x);
  if (threadIdx.x < 16) {
    out[threadIdx.x] = __shfl_xor_sync(kFull, v, 1); EMU_TEST_LINE(at::WarpOpDivergenceA);
  } else {
    out[threadIdx.x] = __shfl_xor_sync(kFull, v, 1); EMU_TEST_LINE(at::WarpOpDivergenceB);
  }
}
cudaError_t launchWarpOpDivergence(float *out) { return launch(dim3(1), dim3(32), warpOpDivergence, out); }

__global__ void laneNotInOwnMask(unsigned *out) {
  out[0] = __ballot_sync(0x2u, 1); EMU_TEST_LINE(at::LaneNotInOwnMask); // lane 0 names only lane 1
}
cudaError_t launchLaneNotInOwnMask(unsigned *out) { return launch(dim3(1), dim3(1), laneNotInOwnMask, out); }

__global__ void shuffleOutsideMask(int *out) {
  if (threadIdx.x < 16) {
    out[threadIdx.x] = __shfl_sync(0x0000ffffu, static_cast<int>(threadIdx.x), 20); EMU_TEST_LINE(at::ShuffleOutsideMask);
  }
}
cudaError_t launchShuffleOutsideMask(int *out) { return launch(dim3(1), dim3(32), shuffleOutsideMask, out); }

__global__ void shuffleFromMissingLane(int *out) {
  const unsigned mask = threadIdx.x < 32 ? kFull : 0x0000ffffu; // warp 1 has lanes 0-15 only
  out[threadIdx.x] = __shfl_xor_sync(mask, static_cast<int>(threadIdx.x), 16); EMU_TEST_LINE(at::ShuffleFromMissingLane);
}
cudaError_t launchShuffleFromMissingLane(int *out) {
  return launch(dim3(1), dim3(48), shuffleFromMissingLane, out);
}

// ---- review: scheduler and ownership cases --------------------------------------------------------

/// Lanes 16-31 first shuffle among themselves (mask 0xffff0000), then the whole warp shuffles with
/// the full mask. Lane 0 reaches the full-mask shuffle while lanes 16-31 still wait in the first one.
__global__ void subsetShuffleThenFull(int *out) {
  const unsigned lane = threadIdx.x % 32;
  int v = 100 + static_cast<int>(lane);
  if (lane >= 16)
    v = __shfl_xor_sync(0xffff0000u, v, 1);
  out[threadIdx.x] = __shfl_xor_sync(kFull, v, 16);
}
cudaError_t launchSubsetShuffleThenFull(int *out) {
  return launch(dim3(1), dim3(32), subsetShuffleThenFull, out);
}

/// Writes the address of its own __shared__ array (no access to it).
__global__ void exposeShared(unsigned long long *addr) {
  __shared__ float hidden[4];
  addr[0] = static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(&hidden[0]));
}
cudaError_t launchExposeShared(unsigned long long *addr) {
  return launch(dim3(1), dim3(1), exposeShared, addr);
}

/// Writes through p (another kernel's __shared__ variable): the same code, once as a plain kernel,
/// once as a template kernel.
__global__ void writeForeignShared(float *p) {
  __shared__ float own[4];
  own[threadIdx.x] = 1.0f;
  *p = own[threadIdx.x]; EMU_TEST_LINE(at::WriteForeignShared);
}
template <int N> __global__ void writeForeignSharedTemplate(float *p) {
  __shared__ float own[N];
  own[threadIdx.x] = 1.0f;
  *p = own[threadIdx.x]; EMU_TEST_LINE(at::WriteForeignSharedTemplate);
}
cudaError_t launchWriteForeignShared(float *p, bool templateKernel) {
  return templateKernel ? launch(dim3(1), dim3(1), writeForeignSharedTemplate<4>, p)
                        : launch(dim3(1), dim3(1), writeForeignShared, p);
}

/// A correct template kernel with a __shared__ array: out[t] = in[N - 1 - t] through shared memory.
template <int N> __global__ void reverseTemplate(const int *in, int *out) {
  __shared__ int tile[N];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[N - 1 - threadIdx.x];
}
cudaError_t launchReverseTemplate(const int *in, int *out) {
  return launch(dim3(1), dim3(kReverseThreads), reverseTemplate<kReverseThreads>, in, out);
}

cudaError_t memcpyPastEnd(float *dev, const float *host) {
  const cudaError_t e = cudaMemcpy(dev, host, 260, cudaMemcpyHostToDevice); EMU_TEST_LINE(at::MemcpyPastEnd);
  return e;
}

} // namespace emu_test::cuda
