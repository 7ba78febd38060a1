/// \file The emulator run on CUDA-spelling kernels (CudaKernels.cpp, 32-lane warps): correct kernels
/// give the right values and no report; each kind of bug gives its report, with the kernel's line.
/// Launches that fault run in a child process (CudaFaultDeathTest): their error is sticky.

#include "CudaKernels.h"
#include "TestSupport.h"

#include <cmath>
#include <cstring>

namespace emu_test::cuda {
namespace {

using CudaCorrect = EmuTest;
using CudaLaunch = EmuTest;
using CudaReport = EmuTest;
using CudaFaultDeathTest = EmuTest;

/// Where reports must place the statement marked EMU_TEST_LINE(Tag) in CudaKernels.cpp.
template <class Tag> std::string at() { return lineIn<Tag>("CudaKernels.cpp"); }

// =================================================================================================
// Correct kernels: the right values and no report (EmuTest's TearDown checks that none is left)
// =================================================================================================

// Every thread sees its own threadIdx and blockIdx and the launch's blockDim and gridDim; 48-thread
// blocks end in a partial warp.
TEST_F(CudaCorrect, IndicesOf1DGridAnd1DBlocksNotAMultipleOfTheWarp) {
  expectIndices(dim3(3), dim3(48), launchIndices);
}
TEST_F(CudaCorrect, IndicesOf2DGridAnd2DBlocks) { expectIndices(dim3(2, 3), dim3(8, 5), launchIndices); }
TEST_F(CudaCorrect, IndicesOf3DGridAnd3DBlocks) {
  expectIndices(dim3(2, 2, 3), dim3(3, 4, 5), launchIndices);
}

// __shfl_xor_sync / __shfl_sync / __shfl_up_sync / __shfl_down_sync with widths 8, 16 and 32, for
// int, float and 64-bit values, in two warps (lanes are per warp).
TEST_F(CudaCorrect, ShufflesWithWidthsBelowTheWarpSize) {
  DeviceBuffer<int> out(kShuffleThreads * kShuffleResults, 0xFF);
  ASSERT_EQ(launchShuffles(out.get()), cudaSuccess);
  const std::vector<int> got = out.toHost();
  for (int t = 0; t < kShuffleThreads; ++t) {
    const int warp = t / 32, l = t % 32;
    auto v = [&](int lane) { return 10 * (32 * warp + lane) + 7; };
    const int expected[kShuffleResults] = {
        v(xorSource(l, 5, 8)),  v(xorSource(l, 12, 8)),         v(idxSource(l, 11, 8)),
        v(upSource(l, 2, 8)),   v(downSource(l, 3, 16)),        v(xorSource(l, 16, 32)),
        v(idxSource(l, 31, 32)), 2 * v(downSource(l, 1, 32)) + 1, v(xorSource(l, 3, 32))};
    for (int r = 0; r < kShuffleResults; ++r)
      EXPECT_EQ(got[kShuffleResults * t + r], expected[r]) << "thread " << t << ", result " << r;
  }
  // Spelled out: xor 12 in groups of 8 reaches back from lane 8 to lane 4, but lane 0 keeps its own.
  EXPECT_EQ(got[kShuffleResults * 8 + 1], 47);
  EXPECT_EQ(got[kShuffleResults * 0 + 1], 7);
  EXPECT_EQ(got[kShuffleResults * 33 + 6], 10 * 63 + 7); // thread 33 reads lane 31 of warp 1
}

// __ballot_sync / __any_sync / __all_sync over a full warp and a 16-lane partial one.
TEST_F(CudaCorrect, VotesOverAFullAndAPartialWarp) {
  DeviceBuffer<unsigned> out(kVoteThreads * kVoteResults, 0xFF);
  ASSERT_EQ(launchVotes(out.get()), cudaSuccess);
  const std::vector<unsigned> got = out.toHost();
  for (int t = 0; t < kVoteThreads; ++t) {
    const bool warp0 = t < 32;
    const unsigned expected[kVoteResults] = {warp0 ? 0x49249249u : 0x9249u, warp0 ? 1u : 0u,
                                             warp0 ? 1u : 0u, 1u, 0u};
    for (int r = 0; r < kVoteResults; ++r)
      EXPECT_EQ(got[kVoteResults * t + r], expected[r]) << "thread " << t << ", vote " << r;
  }
}

// Lanes that have returned are not waited for: the other half of the warp shuffles among itself.
TEST_F(CudaCorrect, LanesThatReturnedAreNotWaitedFor) {
  DeviceBuffer<int> out(32, 0xFF);
  ASSERT_EQ(launchShuffleAfterReturn(out.get()), cudaSuccess);
  const std::vector<int> got = out.toHost();
  for (int t = 0; t < 16; ++t)
    EXPECT_EQ(got[t], 100 + (t ^ 1)) << "thread " << t;
  for (int t = 16; t < 32; ++t)
    EXPECT_EQ(got[t], -1) << "thread " << t << " returned before writing";
}

// tilec's block reduction: warp_allreduce butterflies, per-warp partials in shared memory,
// __syncthreads, combine_partials read by every thread. Sum and max of 4 blocks, exact in float.
TEST_F(CudaCorrect, BlockReductionThroughSharedMemory) {
  const int blocks = 4, n = blocks * kReduceThreads;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = static_cast<float>((i * 37) % 101 - 50);
  DeviceBuffer<float> dIn(in), sums(n, 0xFF), maxes(n, 0xFF);
  ASSERT_EQ(launchBlockReduce(blocks, dIn.get(), sums.get(), maxes.get()), cudaSuccess);
  const std::vector<float> gotSums = sums.toHost(), gotMaxes = maxes.toHost();
  for (int b = 0; b < blocks; ++b) {
    float sum = 0, max = -1e30f;
    for (int t = 0; t < kReduceThreads; ++t) {
      sum += in[b * kReduceThreads + t];
      max = std::fmax(max, in[b * kReduceThreads + t]);
    }
    for (int t = 0; t < kReduceThreads; ++t) {
      EXPECT_EQ(gotSums[b * kReduceThreads + t], sum) << "block " << b << ", thread " << t;
      EXPECT_EQ(gotMaxes[b * kReduceThreads + t], max) << "block " << b << ", thread " << t;
    }
  }
}

// atomicAdd (int and float) on shared and global memory from every thread of 3 blocks, and the
// other atomics on global memory: atomics do not race with each other, none is lost.
TEST_F(CudaCorrect, AtomicsFromManyThreadsOnSharedAndGlobalMemory) {
  const int blocks = 3, threads = blocks * kAtomicThreads;
  DeviceBuffer<int> counts(1 + blocks), picks(std::vector<int>{-1, 1 << 30, -1, 0});
  DeviceBuffer<float> sums(1 + blocks);
  DeviceBuffer<unsigned> bits(std::vector<unsigned>{0u, ~0u, 0u});
  ASSERT_EQ(launchAtomics(blocks, counts.get(), sums.get(), bits.get(), picks.get()), cudaSuccess);
  const std::vector<int> gotCounts = counts.toHost(), gotPicks = picks.toHost();
  const std::vector<float> gotSums = sums.toHost();
  const std::vector<unsigned> gotBits = bits.toHost();
  EXPECT_EQ(gotCounts[0], threads);
  EXPECT_EQ(gotSums[0], static_cast<float>(threads));
  for (int b = 0; b < blocks; ++b) {
    EXPECT_EQ(gotCounts[1 + b], kAtomicThreads) << "block " << b;
    EXPECT_EQ(gotSums[1 + b], 0.5f * kAtomicThreads) << "block " << b;
  }
  EXPECT_EQ(gotBits[0], 0xffffffffu);
  EXPECT_EQ(gotBits[1], 0u);
  EXPECT_EQ(gotBits[2], 0xaaaaaaaau);
  EXPECT_EQ(gotPicks[0], threads - 1);
  EXPECT_EQ(gotPicks[1], 0);
  EXPECT_GE(gotPicks[2], 0);
  EXPECT_LT(gotPicks[2], threads);
  EXPECT_EQ(gotPicks[3], 1) << "exactly one atomicCAS finds -1";
}

// load_vec / store_vec<4, true>: one 16-byte access per thread on aligned buffers.
TEST_F(CudaCorrect, VectorLoadAndStoreOnAlignedPointers) {
  std::vector<float> in(32);
  for (int i = 0; i < 32; ++i)
    in[i] = 0.25f * static_cast<float>(i);
  DeviceBuffer<float> dIn(in), out(32, 0xFF);
  ASSERT_EQ(launchCopyVec4(8, dIn.get(), out.get()), cudaSuccess);
  EXPECT_EQ(out.toHost(), in);
}

// load_vec / store_vec<4, false> with a mask: on misaligned pointers (element by element) and on
// aligned ones (whole vectors, except the partial last one). Masked-off elements never touch
// memory: the buffers end exactly at element n - 1, so touching one would be out of bounds.
TEST_F(CudaCorrect, MaskedVectorAccessesOnMisalignedAndAlignedPointers) {
  const int n = 18, threads = 5; // thread 4 has elements 16-19, of which 18 and 19 are masked off
  for (int shift : {1, 0}) {
    SCOPED_TRACE(shift ? "misaligned" : "aligned");
    std::vector<float> in(shift + n);
    for (int i = 0; i < shift + n; ++i)
      in[i] = static_cast<float>(i);
    DeviceBuffer<float> dIn(in), out(shift + n, 0xFF), loaded(4 * threads, 0xFF);
    ASSERT_EQ(launchCopyVec4Masked(threads, dIn.get() + shift, out.get() + shift, loaded.get(), n),
              cudaSuccess);
    const std::vector<float> gotOut = out.toHost(), gotLoaded = loaded.toHost();
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(gotOut[shift + i], in[shift + i]) << "element " << i;
      EXPECT_EQ(gotLoaded[i], in[shift + i]) << "element " << i;
    }
    EXPECT_EQ(gotLoaded[18], -1.0f) << "masked off: `other`";
    EXPECT_EQ(gotLoaded[19], -1.0f) << "masked off: `other`";
  }
}

// tilec::rt::to_f16 / to_bf16 / to_float on device: the bit patterns and values round to nearest
// even, as the GPU's __float2half_rn / __float2bfloat16_rn.
TEST_F(CudaCorrect, HalfAndBfloat16Conversions) {
  const int n = static_cast<int>(kConversions.size());
  std::vector<float> in;
  for (const Conversion &c : kConversions)
    in.push_back(c.in);
  DeviceBuffer<float> dIn(in), f16Back(n, 0xFF), bf16Back(n, 0xFF);
  DeviceBuffer<uint16_t> f16(n, 0xFF), bf16(n, 0xFF);
  ASSERT_EQ(launchConvert(n, dIn.get(), f16.get(), bf16.get(), f16Back.get(), bf16Back.get()), cudaSuccess);
  const std::vector<uint16_t> gotF16 = f16.toHost(), gotBf16 = bf16.toHost();
  const std::vector<float> gotF16Back = f16Back.toHost(), gotBf16Back = bf16Back.toHost();
  for (int i = 0; i < n; ++i) {
    const Conversion &c = kConversions[i];
    SCOPED_TRACE("input " + std::to_string(c.in));
    EXPECT_EQ(gotF16[i], c.f16);
    EXPECT_EQ(gotF16Back[i], c.f16Value);
    EXPECT_EQ(gotBf16[i], c.bf16);
    EXPECT_EQ(gotBf16Back[i], c.bf16Value);
  }
}

// Shared memory that one thread writes and reads, that others read only after a barrier, that
// several threads read, or that they update atomically: no report.
TEST_F(CudaCorrect, SharedAccessesSeparatedByABarrierOrByOneThreadDoNotRace) {
  DeviceBuffer<float> out(128, 0xFF);
  ASSERT_EQ(launchSeparatedOrOwnAccesses(out.get()), cudaSuccess);
  const std::vector<float> got = out.toHost();
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(got[t], 4.0f) << "thread " << t;
    EXPECT_EQ(got[64 + t], 64.0f) << "thread " << t;
  }
}

// =================================================================================================
// Launch configurations
// =================================================================================================

// 0 or more than 1024 threads, more than 64 in z, an empty or too large grid: the launch fails
// with cudaErrorInvalidConfiguration, which is not sticky (the next launch runs).
TEST_F(CudaLaunch, InvalidConfigurationsAreRejected) {
  DeviceBuffer<unsigned> out(12 * 64);
  const dim3 bad[][2] = {
      {dim3(1), dim3(0)},        {dim3(1), dim3(1025)},   {dim3(1), dim3(32, 32, 2)},
      {dim3(1), dim3(1, 1, 65)}, {dim3(0), dim3(32)},     {dim3(1, 0), dim3(32)},
      {dim3(1, 65536), dim3(1)}, {dim3(1, 1, 65536), dim3(1)}};
  for (const auto &config : bad) {
    SCOPED_TRACE("grid (" + std::to_string(config[0].x) + "," + std::to_string(config[0].y) + "," +
                 std::to_string(config[0].z) + "), block (" + std::to_string(config[1].x) + "," +
                 std::to_string(config[1].y) + "," + std::to_string(config[1].z) + ")");
    EXPECT_EQ(launchIndices(config[0], config[1], out.get()), cudaErrorInvalidConfiguration);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  }
  expectIndices(dim3(1), dim3(1024), launchIndices); // the largest block, and not sticky
}

// tilec's launcher returns cudaSuccess without launching when n = 0 gives an empty grid.
TEST_F(CudaLaunch, TilecLauncherReturnsEarlyForAnEmptyGrid) {
  EXPECT_EQ(launchScaleLikeTilec(nullptr, nullptr, 0), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<float> x(300, 1.5f);
  DeviceBuffer<float> dx(x);
  EXPECT_EQ(launchScaleLikeTilec(nullptr, dx.get(), 300), cudaSuccess); // 2 blocks, the last partial
  EXPECT_EQ(dx.toHost(), std::vector<float>(300, 3.0f));
}

// Above 48 KB of shared memory: the launch's dynamic shared memory, up to the 227 KB an H100 block
// may have, read and written as __shared__ arrays are (the race and uninitialized-read checks
// stay silent on this correct kernel).
TEST_F(CudaLaunch, DynamicSharedMemoryUpTo227KB) {
  for (const int bytes : {48 * 1024 + 16, 100 * 1024, kMaxDynamicShared}) {
    SCOPED_TRACE(std::to_string(bytes) + " bytes");
    const int words = bytes / 4, blocks = 2;
    std::vector<int> in(blocks * words);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<int>(3 * i + 1);
    DeviceBuffer<int> din(in), dout(blocks * words, 0xFF);
    ASSERT_EQ(launchReverseDynamic(blocks, din.get(), dout.get(), words), cudaSuccess);
    const std::vector<int> got = dout.toHost();
    for (int b = 0; b < blocks; ++b)
      for (int i = 0; i < words; ++i)
        ASSERT_EQ(got[b * words + i], in[b * words + words - 1 - i]) << "block " << b << ", int " << i;
  }
}

// A CUDA launch may give a kernel more than 48 KB of dynamic shared memory only once the kernel's
// attribute allows it, and never more than 227 KB; the GPU refuses the launch (invalid value, not
// sticky), and the attribute above the limit.
TEST_F(CudaLaunch, DynamicSharedMemoryAbove48KBNeedsTheKernelsAttribute) {
  DeviceBuffer<int> in(64 * 1024 / 4, 0), out(64 * 1024 / 4);
  EXPECT_EQ(launchReverseDynamicUnset(in.get(), out.get(), 48 * 1024), cudaSuccess);
  EXPECT_EQ(launchReverseDynamicUnset(in.get(), out.get(), 48 * 1024 + 16), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(setReverseDynamicUnsetMax(kMaxDynamicShared + 1), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(setReverseDynamicUnsetMax(64 * 1024), cudaSuccess);
  EXPECT_EQ(launchReverseDynamicUnset(in.get(), out.get(), 64 * 1024), cudaSuccess);
  EXPECT_EQ(launchReverseDynamicUnset(in.get(), out.get(), 64 * 1024 + 16), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

// =================================================================================================
// Reports that do not stop the launch
// =================================================================================================

// Thread 1 reads what thread 0 wrote with no barrier between: read after write.
TEST_F(CudaReport, SharedRaceReadAfterWrite) {
  DeviceBuffer<float> out(1);
  EXPECT_EQ(launchReadAfterWrite(out.get()), cudaSuccess);
  EXPECT_EQ(takeOnly(FindingKind::SharedRace),
            "shared-memory race (read after write): 4 bytes at shared 0x? (byte 0 of 4-byte "
            "emu_test::cuda::readAfterWrite(float*)::cell)\n"
            "  read by thread 1 (warp 0, lane 1) of block (0,0,0) at " + at<at::RawRead>() + "\n"
            "  write by thread 0 (warp 0, lane 0) at " + at<at::RawWrite>() + "\n"
            "  no __syncthreads() separates them\n");
}

// Thread 1 overwrites what thread 0 read in the same barrier interval: write after read.
TEST_F(CudaReport, SharedRaceWriteAfterRead) {
  DeviceBuffer<float> out(1);
  EXPECT_EQ(launchWriteAfterRead(out.get()), cudaSuccess);
  EXPECT_EQ(takeOnly(FindingKind::SharedRace),
            "shared-memory race (write after read): 4 bytes at shared 0x? (byte 4 of 8-byte "
            "emu_test::cuda::writeAfterRead(float*)::cell)\n"
            "  write by thread 1 (warp 0, lane 1) of block (0,0,0) at " + at<at::WarWrite>() + "\n"
            "  read by thread 0 (warp 0, lane 0) at " + at<at::WarRead>() + "\n"
            "  no __syncthreads() separates them\n");
}

// Four threads write one cell: threads 1-3 each race with the write before theirs; the report is
// made once and counted 3 times.
TEST_F(CudaReport, SharedRaceWriteAfterWriteIsCountedPerOccurrence) {
  DeviceBuffer<float> out(4);
  EXPECT_EQ(launchWriteAfterWrite(out.get()), cudaSuccess);
  EXPECT_EQ(takeOnly(FindingKind::SharedRace, 3),
            "shared-memory race (write after write): 4 bytes at shared 0x? (byte 0 of 4-byte "
            "emu_test::cuda::writeAfterWrite(float*)::cell)\n"
            "  write by thread 1 (warp 0, lane 1) of block (0,0,0) at " + at<at::WawWrite>() + "\n"
            "  write by thread 0 (warp 0, lane 0) at " + at<at::WawWrite>() + "\n"
            "  no __syncthreads() separates them\n");
}

// Global memory: thread 0 stores out[1] (a scalar store after the tile store), then thread 1's
// tile store overwrites it with no barrier between. The report names both stores; with a barrier
// there is none, and the value is the program's.
TEST_F(CudaReport, GlobalRaceWriteAfterWrite) {
  DeviceBuffer<float> out(2);
  EXPECT_EQ(launchGlobalWriteAfterWrite(out.get()), cudaSuccess);
  const std::string text = takeOnly(FindingKind::GlobalRace);
  EXPECT_EQ(text.substr(0, text.find('\n') + 1),
            "global-memory race (write after write): 4 bytes at global 0x? (byte 4 of a 8-byte buffer "
            "at 0x?)\n") << text;
  EXPECT_EQ(text.substr(text.find('\n') + 1),
            "  write by thread 1 (warp 0, lane 1) of block (0,0,0) at " + at<at::GlobalTileWrite>() + "\n"
            "  write by thread 0 (warp 0, lane 0) at " + at<at::GlobalScalarWrite>() + "\n"
            "  no __syncthreads() separates them\n");
}
TEST_F(CudaReport, GlobalAccessesOrderedByABarrierAreNoRace) {
  DeviceBuffer<float> out(2);
  EXPECT_EQ(launchGlobalOrderedByBarrier(out.get()), cudaSuccess);
  EXPECT_EQ(tilec::emu::take_findings().size(), 0u);
  EXPECT_EQ(out.toHost(), (std::vector<float>{1.0f, 2.0f}));
}

// A plain access and an atomic update of one cell race, in both orders.
TEST_F(CudaReport, SharedRaceBetweenPlainAndAtomicAccesses) {
  DeviceBuffer<int> out(1);
  EXPECT_EQ(launchAtomicAndPlain(out.get()), cudaSuccess);
  const std::vector<Finding> findings = tilec::emu::take_findings();
  ASSERT_EQ(findings.size(), 2u) << describe(findings);
  const std::string cell = "4 bytes at shared 0x? (byte 0 of 4-byte emu_test::cuda::atomicAndPlain(int*)::cell)\n";
  EXPECT_EQ(findings[0].kind, FindingKind::SharedRace);
  EXPECT_EQ(blankAddresses(findings[0].text),
            "shared-memory race (read after atomic update): " + cell +
                "  read by thread 1 (warp 0, lane 1) of block (0,0,0) at " + at<at::ReadAfterAtomic>() + "\n"
                "  atomic update by thread 0 (warp 0, lane 0) at " + at<at::AtomicThenRead>() + "\n"
                "  no __syncthreads() separates them\n");
  EXPECT_EQ(findings[1].kind, FindingKind::SharedRace);
  EXPECT_EQ(blankAddresses(findings[1].text),
            "shared-memory race (atomic update after write): " + cell +
                "  atomic update by thread 1 (warp 0, lane 1) of block (0,0,0) at " + at<at::AtomicAfterPlain>() + "\n"
                "  write by thread 0 (warp 0, lane 0) at " + at<at::PlainThenAtomic>() + "\n"
                "  no __syncthreads() separates them\n");
}

// A shared cell that no thread of the block wrote is read; threads of a 2-D block are named by
// their (x,y,z).
TEST_F(CudaReport, UninitializedSharedRead) {
  DeviceBuffer<float> out(1);
  EXPECT_EQ(launchUninitializedRead(out.get()), cudaSuccess);
  EXPECT_EQ(takeOnly(FindingKind::UninitializedShared),
            "read of uninitialized shared memory: 4 bytes at shared 0x? (byte 20 of 32-byte "
            "emu_test::cuda::uninitializedRead(float*)::cell)\n"
            "  by thread (1,1,0) (warp 0, lane 5) of block (0,0,0) at " + at<at::UninitializedRead>() + "\n"
            "  no thread of this block has written them\n");
}

// What block 0 wrote does not initialize block 1's shared memory; block 1 reads garbage (NaN).
TEST_F(CudaReport, UninitializedSharedReadInTheSecondBlockOnly) {
  DeviceBuffer<float> out(2);
  EXPECT_EQ(launchUninitializedInSecondBlock(out.get()), cudaSuccess);
  EXPECT_EQ(takeOnly(FindingKind::UninitializedShared),
            "read of uninitialized shared memory: 4 bytes at shared 0x? (byte 0 of 4-byte "
            "emu_test::cuda::uninitializedInSecondBlock(float*)::cell)\n"
            "  by thread 0 (warp 0, lane 0) of block (1,0,0) at " + at<at::UninitializedInSecondBlock>() + "\n"
            "  no thread of this block has written them\n");
  const std::vector<float> got = out.toHost();
  EXPECT_EQ(got[0], 3.0f);
  EXPECT_TRUE(std::isnan(got[1]));
}

// Warp 1 returns before a __syncthreads(): reported, and the barrier completes for warp 0.
TEST_F(CudaReport, BarrierNotReachedByThreadsThatReturned) {
  DeviceBuffer<float> out(64);
  EXPECT_EQ(launchBarrierNotReached(out.get()), cudaSuccess);
  EXPECT_EQ(takeOnly(FindingKind::BarrierNotReached),
            "__syncthreads() at " + at<at::BarrierNotReached>() + " not reached by every thread of block (0,0,0)\n"
            "  threads 0-31 wait there\n"
            "  threads 32-63 returned\n");
  const std::vector<float> got = out.toHost();
  EXPECT_EQ(std::vector<float>(got.begin(), got.begin() + 32), std::vector<float>(32, 1.0f));
}

// Warps 0 and 1 wait at two different __syncthreads() calls: reported, and both go on.
TEST_F(CudaReport, BarrierDivergence) {
  DeviceBuffer<float> out(64);
  EXPECT_EQ(launchBarrierDivergence(out.get()), cudaSuccess);
  EXPECT_EQ(takeOnly(FindingKind::BarrierDivergence),
            "threads of block (0,0,0) wait at different __syncthreads() calls\n"
            "  threads 0-31 at " + at<at::BarrierDivergenceA>() + "\n"
            "  threads 32-63 at " + at<at::BarrierDivergenceB>() + "\n");
  EXPECT_EQ(out.toHost(), std::vector<float>(64, 1.0f));
}

// The two halves of a warp shuffle in two different calls.
TEST_F(CudaReport, WarpOpDivergence) {
  DeviceBuffer<float> out(32);
  EXPECT_EQ(launchWarpOpDivergence(out.get()), cudaSuccess);
  std::string expected = "__shfl_xor_sync at " + at<at::WarpOpDivergenceA>() +
                         ": the lanes of warp 0 in block (0,0,0) do not all wait in the same call "
                         "with the same mask\n";
  for (int lane = 16; lane < 32; ++lane)
    expected += "  lane " + std::to_string(lane) + " waits in __shfl_xor_sync at " +
                at<at::WarpOpDivergenceB>() + " with mask 0xffffffff\n";
  EXPECT_EQ(takeOnly(FindingKind::WarpOpDivergence), expected);
}

// A lane passes a mask without its own bit.
TEST_F(CudaReport, LaneNotInItsOwnMask) {
  DeviceBuffer<unsigned> out(1);
  EXPECT_EQ(launchLaneNotInOwnMask(out.get()), cudaSuccess);
  EXPECT_EQ(takeOnly(FindingKind::WarpOpDivergence),
            "__ballot_sync at " + at<at::LaneNotInOwnMask>() +
                ": lane 0 of warp 0 in block (0,0,0) is not in the mask it passes\n");
}

// Lanes 0-15 shuffle with mask 0xffff from lane 20, which is outside the mask: reported once,
// counted for each of the 16 lanes.
TEST_F(CudaReport, ShuffleFromALaneOutsideTheMask) {
  DeviceBuffer<int> out(32);
  EXPECT_EQ(launchShuffleOutsideMask(out.get()), cudaSuccess);
  EXPECT_EQ(takeOnly(FindingKind::BadShuffleSource, 16),
            "__shfl_sync at " + at<at::ShuffleOutsideMask>() +
                ": lane 0 of warp 0 in block (0,0,0) reads lane 20, which is not in the mask\n");
}

// In a 48-thread block, warp 1 has lanes 0-15: xor 16 reads lanes that do not exist. Warp 0 is
// complete and gets the right values.
TEST_F(CudaReport, ShuffleFromALaneThatDoesNotExist) {
  DeviceBuffer<int> out(48);
  EXPECT_EQ(launchShuffleFromMissingLane(out.get()), cudaSuccess);
  EXPECT_EQ(takeOnly(FindingKind::BadShuffleSource, 16),
            "__shfl_xor_sync at " + at<at::ShuffleFromMissingLane>() +
                ": lane 0 of warp 1 in block (0,0,0) reads lane 16, which does not exist in this block\n");
  const std::vector<int> got = out.toHost();
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(got[t], t ^ 16) << "thread " << t;
}

// cudaMemcpy into a device buffer past its end: refused with cudaErrorInvalidValue (not sticky),
// reported at the calling line of a host program compiled with the emulator's options.
TEST_F(CudaReport, MemcpyPastTheEndOfADeviceBuffer) {
  DeviceBuffer<float> dev(64);
  const std::vector<float> host(65, 1.0f);
  EXPECT_EQ(memcpyPastEnd(dev.get(), host.data()), cudaErrorInvalidValue);
  EXPECT_EQ(takeOnly(FindingKind::HostApi),
            "cudaMemcpy/hipMemcpy at " + at<at::MemcpyPastEnd>() +
                ": the destination range of 260 bytes at 0x? is not inside one device buffer: the "
                "access starts at byte 0 of a 256-byte buffer at 0x? and runs 4 bytes past its end\n");
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(dev.toHost(), std::vector<float>(64, 0.0f)) << "nothing was copied";
}

// The source side of cudaMemcpy and cudaMemset's range are checked too (called from this ordinary
// translation unit, whose line the reports may not know at every optimization level: not checked).
TEST_F(CudaReport, MemcpySourceAndMemsetPastTheEnd) {
  DeviceBuffer<float> dev(64);
  std::vector<float> host(80);
  EXPECT_EQ(cudaMemcpy(host.data(), dev.get(), 300, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  std::string text = takeOnly(FindingKind::HostApi);
  EXPECT_NE(text.find(": the source range of 300 bytes at 0x? is not inside one device buffer: the "
                      "access starts at byte 0 of a 256-byte buffer at 0x? and runs 44 bytes past its end\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(cudaMemset(dev.get() + 60, 0, 32), cudaErrorInvalidValue);
  text = takeOnly(FindingKind::HostApi);
  EXPECT_NE(text.find("cudaMemset/hipMemset at "), std::string::npos) << text;
  EXPECT_NE(text.find(": the destination range of 32 bytes at 0x? is not inside one device buffer: the "
                      "access starts at byte 240 of a 256-byte buffer at 0x? and runs 16 bytes past its end\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

// cudaFree of memory cudaMalloc did not return, and a second cudaFree of a buffer.
TEST_F(CudaReport, FreeOfANonDevicePointerAndDoubleFree) {
  float onStack[4];
  EXPECT_EQ(cudaFree(onStack), cudaErrorInvalidValue);
  EXPECT_EQ(takeOnly(FindingKind::HostApi),
            "cudaFree/hipFree at emu_unit_cuda_tests+0x? of 0x?, which no cudaMalloc/hipMalloc returned (or it was freed already)\n");
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  float *p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 16), cudaSuccess);
  EXPECT_EQ(cudaFree(p), cudaSuccess);
  EXPECT_EQ(cudaFree(p), cudaErrorInvalidValue);
  EXPECT_EQ(takeOnly(FindingKind::HostApi),
            "cudaFree/hipFree at emu_unit_cuda_tests+0x? of 0x?, which no cudaMalloc/hipMalloc returned (or it was freed already)\n");
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
}

// take_findings() returns what was reported since the last call: a report identical to one taken
// before (same kernel, same lines) is returned again, and counts toward the exit status again.
TEST_F(CudaReport, ARepeatedReportIsReturnedAgainAfterTakeFindings) {
  DeviceBuffer<float> out(4);
  EXPECT_EQ(launchRacingWritesToRepeat(out.get()), cudaSuccess);
  const std::string first = takeOnly(FindingKind::SharedRace, 3);
  EXPECT_EQ(first.rfind("shared-memory race (write after write): ", 0), 0u) << first;
  EXPECT_EQ(launchRacingWritesToRepeat(out.get()), cudaSuccess);
  EXPECT_GT(tilec::emu::error_count(), 0);
  EXPECT_EQ(takeOnly(FindingKind::SharedRace, 3), first);
}

// error_count() counts every occurrence (emu.hpp: "each occurrence counts"): 3 racing writes.
TEST_F(CudaReport, ErrorCountCountsEveryOccurrence) {
  DeviceBuffer<float> out(4);
  EXPECT_EQ(launchRacingWritesToCount(out.get()), cudaSuccess);
  EXPECT_EQ(tilec::emu::error_count(), 3);
  takeOnly(FindingKind::SharedRace, 3);
  EXPECT_EQ(tilec::emu::error_count(), 0);
}

// =================================================================================================
// Faults: the thread stops, the launch fails, and the error is sticky (each test in a child process)
// =================================================================================================

// A global read 12 bytes past the end of a buffer; afterwards every call reports the sticky error
// and a correct launch does not run.
TEST_F(CudaFaultDeathTest, GlobalReadPastTheEnd) {
  EXPECT_IN_CHILD_PROCESS({
    DeviceBuffer<float> in(64), out(1, 0xFF);
    DeviceBuffer<int> other(32, 0xFF); // before the fault: afterwards cudaMalloc fails too
    EXPECT_EQ(launchReadPastEnd(in.get(), out.get(), 64), cudaErrorIllegalAddress);
    EXPECT_EQ(takeOnly(FindingKind::OutOfBounds),
              "out-of-bounds global read of 4 bytes at 0x?\n"
              "  by thread 5 (warp 0, lane 5) of block (1,0,0) at " + at<at::ReadPastEnd>() + "\n"
              "  12 bytes past the end of a 256-byte buffer at 0x?\n"
              "  the thread stops here and the launch fails, as on the GPU\n");
    EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
    EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress) << "sticky";
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    int *more = nullptr;
    EXPECT_EQ(cudaMalloc(&more, 4), cudaErrorIllegalAddress) << "sticky";
    EXPECT_EQ(launchShuffleAfterReturn(other.get()), cudaErrorIllegalAddress);
    // Read directly (the emulator's device memory is host memory): on a GPU, cudaMemcpy fails too now.
    EXPECT_EQ(std::vector<int>(other.get(), other.get() + 32), std::vector<int>(32, -1))
        << "the later launch did not run";
    uint32_t bits;
    std::memcpy(&bits, out.get(), 4);
    EXPECT_EQ(bits, 0xffffffffu) << "thread 5 stopped before its write";
  });
}

// A global write 4 bytes before the start of a buffer.
TEST_F(CudaFaultDeathTest, GlobalWriteBeforeTheStart) {
  EXPECT_IN_CHILD_PROCESS({
    DeviceBuffer<float> out(64);
    EXPECT_EQ(launchWriteBeforeStart(out.get()), cudaErrorIllegalAddress);
    EXPECT_EQ(takeOnly(FindingKind::OutOfBounds),
              "out-of-bounds global write of 4 bytes at 0x?\n"
              "  by thread 0 (warp 0, lane 0) of block (0,0,0) at " + at<at::WriteBeforeStart>() + "\n"
              "  4 bytes before the start of a 256-byte buffer at 0x?\n"
              "  the thread stops here and the launch fails, as on the GPU\n");
  });
}

// Thread 8 writes tile[8] of a `float tile[8]` __shared__ array (which other __shared__ arrays of
// CudaKernels.cpp follow in memory).
TEST_F(CudaFaultDeathTest, SharedWritePastTheEndOfAnArray) {
  EXPECT_IN_CHILD_PROCESS({
    DeviceBuffer<float> out(9);
    EXPECT_EQ(launchSharedWritePastEnd(out.get()), cudaErrorIllegalAddress);
    const std::string text = takeOnly(FindingKind::OutOfBounds);
    EXPECT_EQ(text.rfind("out-of-bounds shared write of 4 bytes at 0x?\n"
                         "  by thread 8 (warp 0, lane 8) of block (0,0,0) at " +
                             at<at::SharedWritePastEnd>() + "\n",
                         0),
              0u)
        << text;
    EXPECT_NE(text.find("emu_test::cuda::sharedWritePastEnd(float*)::tile"), std::string::npos) << text;
  });
}

// An 8-byte read (memcpy) of bytes 60-67 of a 64-byte __shared__ array.
TEST_F(CudaFaultDeathTest, SharedReadStraddlingTheEndOfAnArray) {
  EXPECT_IN_CHILD_PROCESS({
    DeviceBuffer<long long> out(1);
    EXPECT_EQ(launchSharedReadStraddlingEnd(out.get()), cudaErrorIllegalAddress);
    EXPECT_EQ(takeOnly(FindingKind::OutOfBounds),
              "out-of-bounds shared read of 8 bytes at 0x?\n"
              "  by thread 0 (warp 0, lane 0) of block (0,0,0) at " + at<at::SharedReadStraddlingEnd>() + "\n"
              "  it runs past the end of shared 0x? (byte 60 of 64-byte "
              "emu_test::cuda::sharedReadStraddlingEnd(long long*, int)::bytes)\n"
              "  the thread stops here and the launch fails, as on the GPU\n");
  });
}

// Thread 0 writes the int just past the launch's 64 KB of dynamic shared memory.
TEST_F(CudaFaultDeathTest, DynamicSharedWritePastTheEnd) {
  EXPECT_IN_CHILD_PROCESS({
    const int words = 64 * 1024 / 4;
    DeviceBuffer<int> in(words, 0), out(words);
    EXPECT_EQ(launchReverseDynamic(1, in.get(), out.get(), words, 0), cudaErrorIllegalAddress);
    EXPECT_EQ(takeOnly(FindingKind::OutOfBounds),
              "out-of-bounds shared write of 4 bytes at 0x?\n"
              "  by thread 0 (warp 0, lane 0) of block (0,0,0) at " + at<at::DynamicSharedWritePastEnd>() + "\n"
              "  0 bytes past the end of the launch's 65536 bytes of dynamic shared memory\n"
              "  the thread stops here and the launch fails, as on the GPU\n");
  });
}

// A 4-byte write at an odd address.
TEST_F(CudaFaultDeathTest, MisalignedWrite) {
  EXPECT_IN_CHILD_PROCESS({
    DeviceBuffer<float> p(4);
    EXPECT_EQ(launchMisalignedWrite(p.get()), cudaErrorIllegalAddress);
    EXPECT_EQ(takeOnly(FindingKind::Misaligned),
              "misaligned global write of 4 bytes at 0x?\n"
              "  by thread 0 (warp 0, lane 0) of block (0,0,0) at " + at<at::MisalignedWrite>() + "\n"
              "  the address is 1 bytes past a multiple of 4\n"
              "  the thread stops here and the launch fails, as on the GPU\n");
  });
}

// load_vec<4, true> (alignment "proven") on a pointer 4 bytes past a 16-byte boundary.
TEST_F(CudaFaultDeathTest, MisalignedVectorLoad) {
  EXPECT_IN_CHILD_PROCESS({
    DeviceBuffer<float> in(8), out(1);
    EXPECT_EQ(launchMisalignedVectorLoad(in.get(), out.get()), cudaErrorIllegalAddress);
    const std::string text = takeOnly(FindingKind::Misaligned);
    EXPECT_EQ(text.rfind("misaligned 16-byte vector access at 0x?\n"
                         "  by thread 0 (warp 0, lane 0) of block (0,0,0) at " +
                             at<at::MisalignedVectorLoad>() + " (in tilec::rt::load_vec, core.hpp:",
                         0),
              0u)
        << text;
    EXPECT_NE(text.find(")\n  the address is 4 bytes past a multiple of 16\n"
                        "  the thread stops here and the launch fails, as on the GPU\n"),
              std::string::npos)
        << text;
  });
}

// Lanes 0-15 wait in a shuffle with the full mask while lanes 16-31 wait at a __syncthreads():
// neither can complete; the launch fails with cudaErrorLaunchFailure.
TEST_F(CudaFaultDeathTest, WarpOpNotReachedByLanesWaitingAtABarrier) {
  EXPECT_IN_CHILD_PROCESS({
    DeviceBuffer<float> out(32);
    EXPECT_EQ(launchWarpOpNotReached(out.get()), cudaErrorLaunchFailure);
    EXPECT_EQ(takeOnly(FindingKind::WarpOpNotReached),
              "__shfl_xor_sync at " + at<at::WarpOpNotReachedShuffle>() +
                  " not reached by every lane of its mask (warp 0 of block (0,0,0))\n"
                  "  lanes 0-15 wait there\n"
                  "  lanes 16-31 wait at __syncthreads() at " + at<at::WarpOpNotReachedBarrier>() + "\n");
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure) << "sticky";
  });
}

// =================================================================================================
// Review: correct code the emulator reports or computes wrongly, and missed reports
// =================================================================================================

// Lanes 16-31 shuffle among themselves (mask 0xffff0000), then all 32 lanes shuffle with the full
// mask: correct CUDA. Lane 0 waits in the second shuffle while lanes 16-31 still wait in the first;
// the first must complete on its own, and the second must see the values the first produced.
TEST_F(CudaCorrect, SubsetShuffleCompletesBeforeAFullMaskShuffleThatLane0AlreadyWaitsIn) {
  DeviceBuffer<int> out(32, 0xFF);
  ASSERT_EQ(launchSubsetShuffleThenFull(out.get()), cudaSuccess);
  const std::vector<int> got = out.toHost();
  for (int l = 0; l < 32; ++l) {
    const int expected = l < 16 ? 100 + ((l + 16) ^ 1) : 100 + (l - 16);
    EXPECT_EQ(got[l], expected) << "lane " << l;
  }
}

// A template kernel's __shared__ array is shared memory like a plain kernel's. (GCC ignores the
// section attribute of a function-local static in a template instantiation and puts it in
// .bss.<mangled name>, outside tilec_shared: every access used to be a fatal "global" one.)
// Run in a child process: today the launch faults, and its sticky error must not reach other tests.
TEST_F(CudaCorrect, TemplateKernelWithASharedArray) {
  EXPECT_IN_CHILD_PROCESS({
    std::vector<int> in(kReverseThreads);
    for (int i = 0; i < kReverseThreads; ++i)
      in[i] = 3 * i + 1;
    DeviceBuffer<int> dIn(in), out(kReverseThreads, 0xFF);
    ASSERT_EQ(launchReverseTemplate(dIn.get(), out.get()), cudaSuccess);
    const std::vector<int> got = out.toHost();
    for (int t = 0; t < kReverseThreads; ++t)
      EXPECT_EQ(got[t], in[kReverseThreads - 1 - t]) << "thread " << t;
    const std::vector<Finding> findings = tilec::emu::take_findings();
    EXPECT_TRUE(findings.empty()) << describe(findings);
  });
}

// A template kernel owns its __shared__ variables as a plain kernel does: writing another kernel's
// __shared__ variable is out of bounds for both. (nm -C names the template instantiation
// "void k<4>(float*)" but its variable "k<4>(float*)::own", without the return type.)
TEST_F(CudaFaultDeathTest, TemplateKernelWritingAnotherKernelsSharedVariable) {
  for (bool templateKernel : {false, true}) {
    SCOPED_TRACE(templateKernel ? "template kernel" : "plain kernel");
    EXPECT_IN_CHILD_PROCESS({
      DeviceBuffer<unsigned long long> addr(1);
      ASSERT_EQ(launchExposeShared(addr.get()), cudaSuccess);
      float *foreign = reinterpret_cast<float *>(static_cast<uintptr_t>(addr.toHost()[0]));
      EXPECT_EQ(launchWriteForeignShared(foreign, templateKernel), cudaErrorIllegalAddress);
      const std::string text = takeOnly(FindingKind::OutOfBounds);
      EXPECT_EQ(text.rfind("out-of-bounds shared write of 4 bytes at 0x?\n", 0), 0u) << text;
      EXPECT_NE(text.find(templateKernel ? at<at::WriteForeignSharedTemplate>()
                                         : at<at::WriteForeignShared>()),
                std::string::npos)
          << text;
    });
  }
}

// After a faulting launch every later runtime call returns the sticky error (docs/emulation.md,
// "That error is sticky, as on a GPU: later runtime calls return it"), cudaFree included.
TEST_F(CudaFaultDeathTest, CudaFreeAfterAFaultingLaunchReturnsTheStickyError) {
  EXPECT_IN_CHILD_PROCESS({
    float *p = nullptr;
    ASSERT_EQ(cudaMalloc(&p, 64), cudaSuccess);
    DeviceBuffer<float> out(4);
    EXPECT_EQ(launchWriteBeforeStart(out.get()), cudaErrorIllegalAddress);
    takeOnly(FindingKind::OutOfBounds);
    EXPECT_EQ(cudaMalloc(&p, 64), cudaErrorIllegalAddress) << "sticky, as expected";
    EXPECT_EQ(cudaFree(p), cudaErrorIllegalAddress) << "cudaFree ignores the sticky error";
  });
}

} // namespace
} // namespace emu_test::cuda
