#pragma once
/// \file The CUDA-spelling kernels of the emulator's unit tests. CudaKernels.cpp holds them and is
/// compiled as an emitted .cu file is for the emulator (TILEC_EMU_COMPILE_OPTIONS); each kernel has
/// a host launcher there, as tilec's output does. CudaTest.cpp, an ordinary translation unit with
/// GoogleTest, allocates device memory, calls the launchers and checks results and reports.
/// (GoogleTest cannot be compiled with the emulator's options: -fsanitize=thread instruments its
/// virtual classes with calls that only ThreadSanitizer's runtime defines.)

#include "Lines.h"

#include <tilec/emu/host.hpp>

#include <cstdint>

namespace emu_test::cuda {

// ---- correct kernels: right values, no reports ------------------------------------------------
/// Every thread writes 12 values at 12 * (its global linear index): threadIdx, blockIdx, blockDim,
/// gridDim (x, y, z each). The global linear index is block-major, x fastest in both.
constexpr int kIndexValues = 12;
cudaError_t launchIndices(dim3 grid, dim3 block, unsigned *out);

/// One block of 64 threads (two warps); out[kShuffleResults * t + r] is result r of thread t, with
/// v = 10 * t + 7 shuffled (see CudaKernels.cpp for each result's call).
constexpr int kShuffleThreads = 64, kShuffleResults = 9;
cudaError_t launchShuffles(int *out);

/// One block of 48 threads (a full warp and a 16-lane one); votes with the mask of existing lanes.
constexpr int kVoteThreads = 48, kVoteResults = 5;
cudaError_t launchVotes(unsigned *out);

/// 32 threads; lanes 16-31 return, lanes 0-15 then shuffle with the full mask:
/// out[t] = v of lane t ^ 1, v = 100 + t.
cudaError_t launchShuffleAfterReturn(int *out);

/// Block reduction as tilec emits it (warp butterflies, per-warp partials in shared memory, a
/// barrier, combine_partials): block b sums and maximizes in[256 b, 256 b + 256), and every thread
/// i writes the block's results to sums[i] and maxes[i].
constexpr int kReduceThreads = 256;
cudaError_t launchBlockReduce(int blocks, const float *in, float *sums, float *maxes);

/// `blocks` blocks of 256 threads; see CudaKernels.cpp for what each output slot counts.
constexpr int kAtomicThreads = 256;
cudaError_t launchAtomics(int blocks, int *counts, float *sums, unsigned *bits, int *picks);

/// Each of `threads` threads copies 4 floats with load_vec<4, true> / store_vec<4, true>.
cudaError_t launchCopyVec4(int threads, const float *in, float *out);
/// Each thread t handles elements [4 t, 4 t + 4) of n with load_vec<4, false> / store_vec<4, false>
/// and a mask (element < n); loaded[4 t + v] is what load_vec produced (-1 where masked off).
cudaError_t launchCopyVec4Masked(int threads, const float *in, float *out, float *loaded, int n);

/// n threads: f16[i] = to_f16(in[i]), bf16[i] = to_bf16(in[i]), and both converted back to float.
cudaError_t launchConvert(int n, const float *in, uint16_t *f16, uint16_t *bf16, float *f16Back,
                          float *bf16Back);

/// tilec's launcher shape (emitters/Emitter.cpp): grid = cdiv(n, 256), and an empty grid returns
/// cudaSuccess before launching. x[i] *= 2 for i < n.
cudaError_t launchScaleLikeTilec(cudaStream_t stream, float *x, int n);

/// A kernel above 48 KB of shared memory launched as tilec launches it: block b reverses
/// in[b words, (b + 1) words) into out through `words` ints of dynamic shared memory (the launch's
/// size; the kernel's attribute allows up to kMaxDynamicShared, the most an H100 block may have).
/// With past >= 0, thread 0 then writes the int `past` words after them (a bug).
constexpr int kReverseDynamicThreads = 256, kMaxDynamicShared = 227 * 1024;
cudaError_t launchReverseDynamic(int blocks, const int *in, int *out, int words, int past = -1);
/// The same code as another kernel, whose attribute only setReverseDynamicUnsetMax sets: one
/// block reverses bytes / 4 ints of in into out through `bytes` of dynamic shared memory.
cudaError_t launchReverseDynamicUnset(const int *in, int *out, int bytes);
cudaError_t setReverseDynamicUnsetMax(int bytes);

// ---- kernels with one bug each ----------------------------------------------------------------
cudaError_t launchReadPastEnd(const float *in, float *out, int n); ///< grid 2, block 32
cudaError_t launchWriteBeforeStart(float *out);                    ///< 1 thread
cudaError_t launchSharedWritePastEnd(float *out);                  ///< 9 threads, float tile[8]
cudaError_t launchSharedReadStraddlingEnd(long long *out);         ///< 64 threads
cudaError_t launchMisalignedWrite(float *p);                       ///< 1 thread
cudaError_t launchMisalignedVectorLoad(const float *in, float *out); ///< 1 thread
cudaError_t launchReadAfterWrite(float *out);                      ///< 2 threads
cudaError_t launchWriteAfterRead(float *out);                      ///< 2 threads
cudaError_t launchWriteAfterWrite(float *out);                     ///< 4 threads
cudaError_t launchRacingWritesToCount(float *out);                 ///< as launchWriteAfterWrite
cudaError_t launchRacingWritesToRepeat(float *out);                ///< as launchWriteAfterWrite
cudaError_t launchAtomicAndPlain(int *out);                        ///< 2 threads
cudaError_t launchGlobalWriteAfterWrite(float *out);               ///< 2 threads, out[1]
cudaError_t launchGlobalOrderedByBarrier(float *out);              ///< 2 threads, no race
cudaError_t launchSeparatedOrOwnAccesses(float *out);              ///< 64 threads, no race
cudaError_t launchUninitializedRead(float *out);                   ///< block (4, 2)
cudaError_t launchUninitializedInSecondBlock(float *out);          ///< grid 2, 1 thread each
cudaError_t launchBarrierNotReached(float *out);                   ///< 64 threads
cudaError_t launchBarrierDivergence(float *out);                   ///< 64 threads
cudaError_t launchWarpOpNotReached(float *out);                    ///< 32 threads
cudaError_t launchWarpOpDivergence(float *out);                    ///< 32 threads
cudaError_t launchLaneNotInOwnMask(unsigned *out);                 ///< 1 thread
cudaError_t launchShuffleOutsideMask(int *out);                    ///< 32 threads
cudaError_t launchShuffleFromMissingLane(int *out);                ///< 48 threads

// ---- review: cases the emulator gets wrong (see the tests in CudaTest.cpp) ------------------------
/// 32 threads: lanes 16-31 run __shfl_xor_sync(0xffff0000, v, 1), then every lane
/// out[t] = __shfl_xor_sync(full, v, 16), v = 100 + lane before the first shuffle.
cudaError_t launchSubsetShuffleThenFull(int *out);
/// 1 thread: addr[0] = the address of the kernel's own __shared__ float[4].
cudaError_t launchExposeShared(unsigned long long *addr);
/// 1 thread writes *p after using its own __shared__ float[4]; a plain or a template kernel.
cudaError_t launchWriteForeignShared(float *p, bool templateKernel);
/// A template kernel, kReverseThreads threads: out[t] = in[kReverseThreads - 1 - t] through a
/// __shared__ array and a barrier.
constexpr int kReverseThreads = 64;
cudaError_t launchReverseTemplate(const int *in, int *out);

/// Host code of the kernels' translation unit (compiled -O0 like an emulated host program):
/// cudaMemcpy of 260 bytes from `host` into the 256-byte device buffer `dev`.
cudaError_t memcpyPastEnd(float *dev, const float *host);

/// The lines the kernels above mark, by statement.
namespace at {
struct ReadPastEnd;
struct WriteBeforeStart;
struct SharedWritePastEnd;
struct SharedReadStraddlingEnd;
struct DynamicSharedWritePastEnd;
struct MisalignedWrite;
struct MisalignedVectorLoad;
struct RawWrite;
struct RawRead;
struct WarRead;
struct WarWrite;
struct WawWrite;
struct GlobalTileWrite;
struct GlobalScalarWrite;
struct AtomicThenRead;
struct ReadAfterAtomic;
struct PlainThenAtomic;
struct AtomicAfterPlain;
struct UninitializedRead;
struct UninitializedInSecondBlock;
struct BarrierNotReached;
struct BarrierDivergenceA;
struct BarrierDivergenceB;
struct WarpOpNotReachedShuffle;
struct WarpOpNotReachedBarrier;
struct WarpOpDivergenceA;
struct WarpOpDivergenceB;
struct LaneNotInOwnMask;
struct ShuffleOutsideMask;
struct ShuffleFromMissingLane;
struct MemcpyPastEnd;
struct WriteForeignShared;
struct WriteForeignSharedTemplate;
} // namespace at

} // namespace emu_test::cuda
