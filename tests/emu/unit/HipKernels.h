#pragma once
/// \file The HIP-spelling kernels of the emulator's unit tests (64-lane wavefronts). HipKernels.cpp
/// holds them, compiled as an emitted .hip file is for the emulator (TILEC_EMU_COMPILE_OPTIONS),
/// with a hipLaunchKernelGGL launcher per kernel; HipTest.cpp checks them (see CudaKernels.h).

#include "Lines.h"

#include <tilec/emu/host.hpp>

#include <cstdint>

namespace emu_test::hip {

// ---- correct kernels: right values, no reports ------------------------------------------------
/// As emu_test::cuda::launchIndices: 12 coordinates per thread.
hipError_t launchIndices(dim3 grid, dim3 block, unsigned *out);

/// One block of 128 threads (two wavefronts); out[kShuffleResults * t + r] is result r of thread t,
/// with v = 10 * t + 7 shuffled (see HipKernels.cpp for each result's call).
constexpr int kShuffleThreads = 128, kShuffleResults = 9;
hipError_t launchShuffles(int *out);

/// One block of 96 threads (a full wavefront and a 32-lane one): __ballot (64 bits), __any, __all.
constexpr int kVoteThreads = 96, kVoteResults = 4;
hipError_t launchVotes(unsigned long long *out);

/// tilec's block reduction with 64-lane wavefronts (butterflies over lane bits 32..1, 4 partials):
/// every thread i of block b writes the sum of in[256 b, 256 b + 256) to sums[i].
constexpr int kReduceThreads = 256;
hipError_t launchBlockReduce(int blocks, const float *in, float *sums);

/// n threads: f16[i] = to_f16(in[i]), bf16[i] = to_bf16(in[i]) (hip_bfloat16), and back to float.
hipError_t launchConvert(int n, const float *in, uint16_t *f16, uint16_t *bf16, float *f16Back,
                         float *bf16Back);

/// A kernel above 48 KB of shared memory launched as tilec launches it: one block reverses
/// bytes / 4 ints of in into out through `bytes` of dynamic shared memory, which the kernel's
/// attribute allows up to kMaxDynamicShared (a gfx90a workgroup's LDS); setReverseDynamicMax sets
/// the attribute again.
constexpr int kMaxDynamicShared = 64 * 1024;
hipError_t launchReverseDynamic(const int *in, int *out, int bytes);
hipError_t setReverseDynamicMax(int bytes);

// ---- kernels with one bug each ----------------------------------------------------------------
/// A block sum written for 32-lane warps: 128 threads; the per-warp partial is written by the lanes
/// with threadIdx.x % 32 == 0 into partials[threadIdx.x / warpSize]. out[0] = the block's "sum".
hipError_t launchPartialsPer32Lanes(const float *in, float *out);
hipError_t launchReadPastEnd(const float *in, float *out, int n); ///< grid 2, block 64
hipError_t launchWarpOpNotReached(float *out);                    ///< 64 threads

/// The lines the kernels above mark, by statement.
namespace at {
struct PartialWrite;
struct ReadPastEnd;
struct WarpOpNotReachedShuffle;
struct WarpOpNotReachedBarrier;
} // namespace at

} // namespace emu_test::hip
