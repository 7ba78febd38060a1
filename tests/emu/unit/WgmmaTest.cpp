/// \file The emulator's model of wgmma (tilec/cuda/wgmma.cuh) on the kernels of WgmmaKernels.cpp:
/// the descriptors are packed as the PTX ISA says, decoded with their swizzle to give A B (+ C)
/// exactly in every layout tilec stages, the results land at the wgmma_wait that retires them, and
/// each misuse is reported. tests/gpu/wgmma.cu runs the same kernels on an H100.

#include "TestSupport.h"
#include "WgmmaKernels.h"

#include <tilec/tl.hpp>

#include <algorithm>
#include <cstring>

namespace emu_test::wgmma {
namespace {

using Wgmma = EmuTest;

std::vector<float> run(const WgmmaCase &c, const WgmmaOperands &ops) {
  DeviceBuffer<uint16_t> a(ops.a), b(ops.b);
  DeviceBuffer<float> cIn(ops.c), d(size_t(kM) * c.n, 0xFF);
  EXPECT_EQ(launchWgmma(c, a.get(), b.get(), cIn.get(), d.get()), Error::Success) << describe(c);
  return d.toHost();
}
std::vector<float> run(const WgmmaCase &c, uint32_t seed) { return run(c, WgmmaOperands(c, seed)); }

/// The bits of every element equal `bits`.
bool allBits(const std::vector<float> &v, uint32_t bits) {
  for (float x : v) {
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    if (u != bits)
      return false;
  }
  return true;
}

/// What the emulator's accumulator registers hold while a wgmma is in flight.
constexpr uint32_t kInFlightBits = 0x7FC0FFEE;

// Descriptors by hand from the PTX ISA's "Matrix Descriptor Format": start address >> 4 in bits
// 0-13, LBO >> 4 in 16-29, SBO >> 4 in 32-45, base offset in 49-51, swizzle in 62-63 (1 128-byte,
// 2 64-byte, 3 32-byte); and back.
TEST_F(Wgmma, DescriptorBitPacking) {
  EXPECT_EQ(packDescriptor(0x1000, Swizzle::None, 128, 256), 0x0000'0010'0008'0100ull);
  EXPECT_EQ(packDescriptor(0x2A400, Swizzle::B128, 16, 1024), 0x4000'0040'0001'2A40ull);
  EXPECT_EQ(packDescriptor(0x400, Swizzle::B64, 16, 512), 0x8000'0020'0001'0040ull);
  EXPECT_EQ(packDescriptor(0x3FFF0, Swizzle::B32, 0x3FFF0, 256), 0xC000'0010'3FFF'3FFFull);
  const DescriptorFields f = unpackDescriptor(0x4000'0040'0001'2A40ull | 5ull << 49);
  EXPECT_EQ(f.start, 0x2A400u);
  EXPECT_EQ(f.leading, 16u);
  EXPECT_EQ(f.stride, 1024u);
  EXPECT_EQ(f.baseOffset, 5u);
  EXPECT_EQ(f.swizzle, 1);
  // Moved on: the descriptor made at the later address, the other fields untouched.
  EXPECT_EQ(moveDescriptor(packDescriptor(0x2A400, Swizzle::B128, 16, 1024), 32),
            packDescriptor(0x2A420, Swizzle::B128, 16, 1024));
  EXPECT_EQ(moveDescriptor(packDescriptor(0x400, Swizzle::B64, 16, 512), 4096),
            packDescriptor(0x1400, Swizzle::B64, 16, 512));
}

// The accumulator map against entries of the PTX ISA's figure of the m64nNk16 D fragment (thread
// T holds d0, d1 at row T / 4 % 8 + 16 (T / 32), columns 2 (T % 4) and + 1, d2, d3 8 rows below,
// d4 ... d7 8 columns on); every element of a 64 x 256 tile held by exactly one register. (The
// emulator computes and the kernels store by this map: only this test and the H100 check it.)
TEST_F(Wgmma, AccumulatorMap) {
  const int entries[][4] = {
      // thread, register, row, column
      {0, 0, 0, 0},   {0, 1, 0, 1},   {0, 2, 8, 0},    {0, 3, 8, 1},        {0, 4, 0, 8},
      {0, 7, 8, 9},   {1, 0, 0, 2},   {3, 1, 0, 7},    {4, 0, 1, 0},        {31, 3, 15, 7},
      {32, 0, 16, 0}, {64, 2, 40, 0}, {97, 5, 48, 11}, {127, 126, 63, 254}, {127, 127, 63, 255}};
  for (const auto &e : entries) {
    EXPECT_EQ(accumulatorRow(e[0], e[1]), e[2]) << "thread " << e[0] << ", register " << e[1];
    EXPECT_EQ(accumulatorCol(e[0], e[1]), e[3]) << "thread " << e[0] << ", register " << e[1];
  }
  std::vector<int> held(64 * 256, 0);
  for (int t = 0; t < kThreads; ++t)
    for (int r = 0; r < 128; ++r)
      ++held[size_t(accumulatorRow(t, r)) * 256 + size_t(accumulatorCol(t, r))];
  EXPECT_EQ(std::count(held.begin(), held.end(), 1), 64 * 256);
}

// The test's own encoding of its small integers is tl::half's and tl::bfloat16's.
TEST_F(Wgmma, SmallIntegerBits) {
  for (int v = -255; v <= 255; ++v) {
    EXPECT_EQ(smallIntBits(v, false), tl::half(float(v)).bits) << v;
    EXPECT_EQ(smallIntBits(v, true), tl::bfloat16(float(v)).bits) << v;
  }
}

// Every layout (A and B in each swizzle mode, B K- and MN-major, A MN-major too), four k steps
// through the descriptors, N = 64 and 256 (fp16) and 128 (bf16), scale-d 0 and 1 on the first step:
// exactly A B (+ C), with no finding. A swizzle, offset or map wrong by one chunk changes results.
TEST_F(Wgmma, ProductsInEveryLayout) {
  const std::pair<int, bool> shapes[] = {{64, false}, {256, false}, {128, true}};
  uint32_t seed = 1;
  for (const auto &[n, bf16] : shapes)
    for (const WgmmaCase &c : layoutCases(n, bf16)) {
      const WgmmaOperands ops(c, seed++);
      EXPECT_EQ(run(c, ops), ops.reference(c)) << describe(c);
    }
  EXPECT_TRUE(tilec::emu::take_findings().empty());
}

// A commit after each step and wgmma_wait<1>: each step continues the product in flight (no fence
// needed), and the last wait delivers the sum of all four.
TEST_F(Wgmma, OneProductInFlightAcrossGroups) {
  for (Major bMajor : {Major::K, Major::MN}) {
    WgmmaCase c;
    c.n = 128, c.bMajor = bMajor, c.bSwizzle = Swizzle::B64, c.accumulate = true;
    c.path = WgmmaPath::GroupPerStep;
    const WgmmaOperands ops(c, 40);
    EXPECT_EQ(run(c, ops), ops.reference(c)) << describe(c);
  }
  EXPECT_TRUE(tilec::emu::take_findings().empty());
}

// The accumulators stored before the wgmma_wait hold the in-flight pattern, not the product: the
// results land at the wait. (Reading them early is not itself reported: registers are not watched.)
TEST_F(Wgmma, ResultsLandAtTheWait) {
  WgmmaCase c;
  c.path = WgmmaPath::StoreBeforeWait;
  EXPECT_TRUE(allBits(run(c, 7), kInFlightBits));
  EXPECT_TRUE(tilec::emu::take_findings().empty());
}

// Planted bug: no wgmma_wait. Every thread returns with its four wgmmas in flight: reported once,
// counted for the 128 threads, naming the first wgmma's line.
TEST_F(Wgmma, MissingWaitIsReported) {
  WgmmaCase c;
  c.path = WgmmaPath::NoWait;
  EXPECT_TRUE(allBits(run(c, 8), kInFlightBits));
  const std::string text = takeOnly(FindingKind::WgmmaInFlight, kThreads);
  EXPECT_NE(text.find("thread 0 (warp 0, lane 0) of block (0,0,0) returned with 4 wgmmas in flight "
                      "(the first issued at " +
                      lineIn<at::Issue>("WgmmaKernels.cpp") + " (in issue, wgmma.cuh:"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("no wgmma_wait retired them, so their results never land"), std::string::npos)
      << text;
}

// Planted bug: no wgmma_fence before the first wgmma. Reported at it, once per thread; the steps
// after it continue its product and need none. The product itself is right.
TEST_F(Wgmma, MissingFenceIsReported) {
  WgmmaCase c;
  c.path = WgmmaPath::NoFence;
  const WgmmaOperands ops(c, 9);
  EXPECT_EQ(run(c, ops), ops.reference(c));
  const std::string text = takeOnly(FindingKind::WgmmaNoFence, kThreads);
  EXPECT_NE(
      text.find("wgmma_m64nNk16_f32_f16 with no wgmma_fence before it\n  by thread 0 (warp 0, "
                "lane 0) of block (0,0,0) at " +
                lineIn<at::Issue>("WgmmaKernels.cpp")),
      std::string::npos)
      << text;
}

// Planted bug: A's tile half an atom off its alignment, staged as if aligned, in each swizzle mode.
// The hardware swizzles by address bits, so the rows are read in another phase: reported at every
// step (one finding, 4 steps x 128 threads), and the product is that of the misread A.
TEST_F(Wgmma, MisalignedSwizzleAtomIsReported) {
  for (Swizzle s : {Swizzle::B32, Swizzle::B64, Swizzle::B128}) {
    WgmmaCase c;
    c.aSwizzle = s;
    c.aOffset = 4 * int(s); // half of the 8-row atom
    const WgmmaOperands ops(c, 10);
    const std::vector<float> d = run(c, ops);
    EXPECT_EQ(d, ops.reference(c)) << describe(c);
    EXPECT_NE(d, ops.intended(c)) << describe(c);
    const std::string text = takeOnly(FindingKind::WgmmaDescriptor, kSteps * kThreads);
    EXPECT_NE(text.find("wgmma_m64nNk16_f32_f16: operand A (K-major, " + std::to_string(int(s)) +
                        "-byte swizzle) is not aligned to its swizzle atom: the 8 rows the "
                        "pattern repeats over start " +
                        std::to_string(4 * int(s)) + " bytes past a multiple of their size\n  by " +
                        "thread 0 (warp 0, lane 0) of block (0,0,0) at " +
                        lineIn<at::Issue>("WgmmaKernels.cpp")),
              std::string::npos)
        << text;
  }
}

// Planted bug: A's first element rewritten (after a barrier) while the product is in flight. The
// thread that read it for the first step finds it changed at the wait that retires that step.
TEST_F(Wgmma, OperandChangedInFlightIsReported) {
  WgmmaCase c;
  c.path = WgmmaPath::OverwriteOperand;
  (void)run(c, 11);
  const std::string text = takeOnly(FindingKind::WgmmaInFlight);
  EXPECT_NE(text.find("shared memory that a wgmma in flight reads changed before the wgmma_wait "
                      "that retires it: 16 bytes at shared 0x?\n  read by thread 0 (warp 0, lane "
                      "0) of block (0,0,0) for the wgmma at " +
                      lineIn<at::Issue>("WgmmaKernels.cpp")),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("retired at " + lineIn<at::Wait>("WgmmaKernels.cpp")), std::string::npos)
      << text;
}

// Planted bug: an accumulator register written while the wgmma is in flight: found at the wait
// (its register no longer holds the in-flight pattern), in every thread.
TEST_F(Wgmma, AccumulatorWrittenInFlightIsReported) {
  WgmmaCase c;
  c.path = WgmmaPath::WriteAccumulator;
  (void)run(c, 12);
  const std::string text = takeOnly(FindingKind::WgmmaInFlight, kThreads);
  EXPECT_NE(text.find("accumulator registers of a wgmma in flight were written before the "
                      "wgmma_wait that retires it"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("retired at " + lineIn<at::Wait>("WgmmaKernels.cpp")), std::string::npos)
      << text;
}

// Planted bug: a wgmma of another shape (N = 32) on the first registers of a product in flight
// (N = 64): the hardware orders only wgmmas of one shape on the same registers.
TEST_F(Wgmma, OtherShapeOnRegistersInFlightIsReported) {
  WgmmaCase c;
  c.path = WgmmaPath::OtherShape;
  (void)run(c, 14);
  const std::string text = takeOnly(FindingKind::WgmmaInFlight, kThreads);
  EXPECT_NE(text.find("wgmma_m64nNk16_f32_f16 on accumulator registers that a wgmma of another "
                      "shape (or on other registers) has in flight\n  by thread 0 (warp 0, lane 0) "
                      "of block (0,0,0) at " +
                      lineIn<at::OtherShape>("WgmmaKernels.cpp")),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("the other wgmma was issued at " + lineIn<at::Issue>("WgmmaKernels.cpp")),
            std::string::npos)
      << text;
}

// Planted bug: a block of 96 threads, so its warpgroup lacks a warp. Each wgmma goes on without
// the missing threads (their chunks read as zeros) and is reported as not reached by all.
TEST_F(Wgmma, IncompleteWarpgroupIsReported) {
  WgmmaCase c;
  c.threads = 96;
  (void)run(c, 13);
  const std::string text = takeOnly(FindingKind::WarpOpNotReached, kSteps);
  EXPECT_NE(text.find("wgmma_m64nNk16_f32_f16 at " + lineIn<at::Issue>("WgmmaKernels.cpp")),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("not reached by every thread of warpgroup 0 of block (0,0,0) (threads "
                      "0-127)\n  threads 0-95 wait there\n  the block has no threads 96-127"),
            std::string::npos)
      << text;
}

} // namespace
} // namespace emu_test::wgmma
