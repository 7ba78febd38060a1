/// \file The emulator run on HIP-spelling kernels (HipKernels.cpp, 64-lane wavefronts): indices,
/// shuffles and votes over 64 lanes, tilec's reductions with 64-lane butterflies, conversions, and
/// the reports that show 32-lane assumptions. Launches that fault run in a child process.

#include "HipKernels.h"
#include "TestSupport.h"

namespace emu_test::hip {
namespace {

using HipCorrect = EmuTest;
using HipLaunch = EmuTest;
using HipReport = EmuTest;
using HipFaultDeathTest = EmuTest;

/// Where reports must place the statement marked EMU_TEST_LINE(Tag) in HipKernels.cpp.
template <class Tag> std::string at() { return lineIn<Tag>("HipKernels.cpp"); }

// =================================================================================================
// Correct kernels: the right values and no report
// =================================================================================================

// threadIdx, blockIdx, blockDim, gridDim through hipLaunchKernelGGL; 100-thread blocks end in a
// partial wavefront.
TEST_F(HipCorrect, IndicesOf1DGridAnd1DBlocksNotAMultipleOfTheWavefront) {
  expectIndices(dim3(3), dim3(100), launchIndices);
}
TEST_F(HipCorrect, IndicesOf2DGridAnd2DBlocks) { expectIndices(dim3(3, 2), dim3(16, 5), launchIndices); }
TEST_F(HipCorrect, IndicesOf3DGridAnd3DBlocks) {
  expectIndices(dim3(2, 3, 2), dim3(5, 3, 7), launchIndices);
}

// __shfl_xor / __shfl / __shfl_up / __shfl_down over 64 lanes (lane 0 and lane 32 are in one
// wavefront), with widths 16 and 32, for int, float and 64-bit values, in two wavefronts.
TEST_F(HipCorrect, ShufflesOver64Lanes) {
  DeviceBuffer<int> out(kShuffleThreads * kShuffleResults, 0xFF);
  ASSERT_EQ(launchShuffles(out.get()), hipSuccess);
  const std::vector<int> got = out.toHost();
  for (int t = 0; t < kShuffleThreads; ++t) {
    const int wave = t / 64, l = t % 64;
    auto v = [&](int lane) { return 10 * (64 * wave + lane) + 7; };
    const int expected[kShuffleResults] = {
        v(xorSource(l, 32, 64)), v(xorSource(l, 5, 16)), v(xorSource(l, 24, 16)),
        v(idxSource(l, 63, 64)), v(idxSource(l, 3, 16)), v(upSource(l, 33, 64)),
        v(downSource(l, 7, 32)), 2 * v(downSource(l, 1, 64)) + 1, v(xorSource(l, 40, 64))};
    for (int r = 0; r < kShuffleResults; ++r)
      EXPECT_EQ(got[kShuffleResults * t + r], expected[r]) << "thread " << t << ", result " << r;
  }
  EXPECT_EQ(got[kShuffleResults * 0 + 0], 10 * 32 + 7);   // lane 0 reads lane 32: one wavefront
  EXPECT_EQ(got[kShuffleResults * 100 + 3], 10 * 127 + 7); // thread 100 reads lane 63 of wavefront 1
}

// __ballot (64 bits) / __any / __all over a full wavefront and a 32-lane partial one.
TEST_F(HipCorrect, VotesOverAFullAndAPartialWavefront) {
  DeviceBuffer<unsigned long long> out(kVoteThreads * kVoteResults, 0xFF);
  ASSERT_EQ(launchVotes(out.get()), hipSuccess);
  const std::vector<unsigned long long> got = out.toHost();
  unsigned long long every3rd = 0;
  for (int l = 0; l < 64; l += 3)
    every3rd |= 1ull << l;
  for (int t = 0; t < kVoteThreads; ++t) {
    const bool wave0 = t < 64;
    const unsigned long long expected[kVoteResults] = {wave0 ? every3rd : every3rd & 0xffffffffull,
                                                       wave0 ? 0ull : 1ull, wave0 ? 1ull : 0ull, 1ull};
    for (int r = 0; r < kVoteResults; ++r)
      EXPECT_EQ(got[kVoteResults * t + r], expected[r]) << "thread " << t << ", vote " << r;
  }
}

// tilec's block reduction with 64-lane butterflies (lane bits 32..1) and 4 per-wavefront partials.
TEST_F(HipCorrect, BlockReductionThroughSharedMemory) {
  const int blocks = 3, n = blocks * kReduceThreads;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = static_cast<float>((i * 53) % 97 - 40);
  DeviceBuffer<float> dIn(in), sums(n, 0xFF);
  ASSERT_EQ(launchBlockReduce(blocks, dIn.get(), sums.get()), hipSuccess);
  const std::vector<float> got = sums.toHost();
  for (int b = 0; b < blocks; ++b) {
    float sum = 0;
    for (int t = 0; t < kReduceThreads; ++t)
      sum += in[b * kReduceThreads + t];
    for (int t = 0; t < kReduceThreads; ++t)
      EXPECT_EQ(got[b * kReduceThreads + t], sum) << "block " << b << ", thread " << t;
  }
}

// tilec::rt::to_f16 (__float2half) / to_bf16 (hip_bfloat16) / to_float round to nearest even.
TEST_F(HipCorrect, HalfAndBfloat16Conversions) {
  const int n = static_cast<int>(kConversions.size());
  std::vector<float> in;
  for (const Conversion &c : kConversions)
    in.push_back(c.in);
  DeviceBuffer<float> dIn(in), f16Back(n, 0xFF), bf16Back(n, 0xFF);
  DeviceBuffer<uint16_t> f16(n, 0xFF), bf16(n, 0xFF);
  ASSERT_EQ(launchConvert(n, dIn.get(), f16.get(), bf16.get(), f16Back.get(), bf16Back.get()), hipSuccess);
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

// =================================================================================================
// Launch configurations
// =================================================================================================

// hipLaunchKernelGGL returns nothing: hipGetLastError gives hipErrorInvalidConfiguration for 0 or
// more than 1024 threads, and the error is not sticky.
TEST_F(HipLaunch, InvalidConfigurationsAreRejected) {
  DeviceBuffer<unsigned> out(12 * 64);
  for (dim3 block : {dim3(0), dim3(1025), dim3(16, 16, 8)}) {
    EXPECT_EQ(launchIndices(dim3(1), block, out.get()), hipErrorInvalidConfiguration);
    EXPECT_EQ(hipGetLastError(), hipSuccess) << "the launcher took the error";
  }
  EXPECT_EQ(launchIndices(dim3(0), dim3(64), out.get()), hipErrorInvalidConfiguration);
  expectIndices(dim3(1), dim3(64), launchIndices);
}

// Dynamic shared memory up to a gfx90a workgroup's 64 KB of LDS; above it the launch fails
// (hipGetLastError: invalid value, not sticky) and so does the attribute.
TEST_F(HipLaunch, DynamicSharedMemoryUpTo64KB) {
  const int words = kMaxDynamicShared / 4;
  std::vector<int> in(words);
  for (int i = 0; i < words; ++i)
    in[i] = 7 * i - 3;
  DeviceBuffer<int> din(in), dout(words, 0xFF);
  ASSERT_EQ(launchReverseDynamic(din.get(), dout.get(), kMaxDynamicShared), hipSuccess);
  const std::vector<int> got = dout.toHost();
  for (int i = 0; i < words; ++i)
    ASSERT_EQ(got[i], in[words - 1 - i]) << "int " << i;
  EXPECT_EQ(launchReverseDynamic(din.get(), dout.get(), kMaxDynamicShared + 16), hipErrorInvalidValue);
  EXPECT_EQ(hipGetLastError(), hipSuccess) << "the launcher took the error";
  EXPECT_EQ(setReverseDynamicMax(kMaxDynamicShared + 1), hipErrorInvalidValue);
  EXPECT_EQ(hipGetLastError(), hipErrorInvalidValue);
}

// =================================================================================================
// Reports
// =================================================================================================

// Code written for 32-lane warps: the lanes with threadIdx.x % 32 == 0 write the partials of their
// 32 lanes to partials[threadIdx.x / warpSize], so lanes 0 and 32 (and 64 and 96) of one 64-lane
// wavefront write the same slot: a write-after-write race. Half of the block's sum is lost.
TEST_F(HipReport, ThirtyTwoLaneAssumptionGivesASharedRace) {
  DeviceBuffer<float> in(std::vector<float>(128, 1.0f)), out(1);
  EXPECT_EQ(launchPartialsPer32Lanes(in.get(), out.get()), hipSuccess);
  EXPECT_EQ(takeOnly(FindingKind::SharedRace, 2),
            "shared-memory race (write after write): 4 bytes at shared 0x? (byte 0 of 16-byte "
            "emu_test::hip::partialsPer32Lanes(float const*, float*)::partials)\n"
            "  write by thread 32 (warp 0, lane 32) of block (0,0,0) at " + at<at::PartialWrite>() + "\n"
            "  write by thread 0 (warp 0, lane 0) at " + at<at::PartialWrite>() + "\n"
            "  no __syncthreads() separates them\n");
  EXPECT_EQ(out.toHost()[0], 64.0f);
}

// A global read just past the end of a buffer: hipGetLastError returns hipErrorIllegalAddress, and
// keeps returning it.
TEST_F(HipFaultDeathTest, GlobalReadPastTheEnd) {
  EXPECT_IN_CHILD_PROCESS({
    DeviceBuffer<float> in(64), out(1);
    EXPECT_EQ(launchReadPastEnd(in.get(), out.get(), 64), hipErrorIllegalAddress);
    EXPECT_EQ(takeOnly(FindingKind::OutOfBounds),
              "out-of-bounds global read of 4 bytes at 0x?\n"
              "  by thread 40 (warp 0, lane 40) of block (1,0,0) at " + at<at::ReadPastEnd>() + "\n"
              "  0 bytes past the end of a 256-byte buffer at 0x?\n"
              "  the thread stops here and the launch fails, as on the GPU\n");
    EXPECT_EQ(hipGetLastError(), hipErrorIllegalAddress) << "sticky";
    EXPECT_EQ(hipDeviceSynchronize(), hipErrorIllegalAddress);
  });
}

// Lanes 0-31 of a wavefront shuffle while lanes 32-63 wait at a barrier (a 32-lane warp's code):
// the shuffle names all 64 lanes, so neither completes.
TEST_F(HipFaultDeathTest, WarpOpNotReachedByTheUpperHalfOfTheWavefront) {
  EXPECT_IN_CHILD_PROCESS({
    DeviceBuffer<float> out(64);
    EXPECT_EQ(launchWarpOpNotReached(out.get()), hipErrorLaunchFailure);
    EXPECT_EQ(takeOnly(FindingKind::WarpOpNotReached),
              "__shfl_xor at " + at<at::WarpOpNotReachedShuffle>() +
                  " not reached by every lane of its mask (warp 0 of block (0,0,0))\n"
                  "  lanes 0-31 wait there\n"
                  "  lanes 32-63 wait at __syncthreads() at " + at<at::WarpOpNotReachedBarrier>() + "\n");
  });
}

} // namespace
} // namespace emu_test::hip
