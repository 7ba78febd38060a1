/// \file The emulator's model of TMA copies and mbarriers (tilec/cuda/tma.cuh,
/// tilec/cuda/mbarrier.cuh) on the kernels of TmaKernels.cpp: boxes laid out in shared memory with
/// every swizzle and zeros outside the tensor, stores that skip what lies outside it, a ring of
/// stages whose full and empty barriers order the producer's copies and the consumers' reads with
/// no __syncthreads, and each planted mistake of the handshake reported (a wrong phase parity, a
/// missing wait, a byte count that never completes the phase). tests/gpu/tma.cu runs the same
/// kernels on an H100.

#include "TestSupport.h"
#include "TmaKernels.h"

#include <algorithm>
#include <numeric>

namespace emu_test::tma {

struct ConsumerReadLine;
struct ProducerCopyLine;
struct ProducerEmptyWaitLine;
struct ConsumerFullWaitLine;
struct StoreLine;
struct GroupReadLine;
struct LostCopyLine;
struct GroupBarrierLine;
struct ManyReadLine;
struct ManyWriteLine;
struct StaleWaitLine;

namespace {

using Tma = EmuTest;
using TmaDeathTest = EmuTest;

template <class Tag> std::string at() { return lineIn<Tag>("TmaKernels.cpp"); }

/// Every box, and the tensor written back, for each swizzle; loaded boxes hang over all four edges,
/// stored ones over the bottom and right edges.
TEST_F(Tma, BoxesInEverySwizzleWithZerosOutsideTheTensor) {
  uint32_t seed = 7;
  for (const TileCase &c : tileCases()) {
    SCOPED_TRACE(describe(c));
    const std::vector<uint16_t> in = randomTensor(c.rows, c.rowStride, seed++);
    DeviceBuffer<uint16_t> dIn(in), boxes(size_t(c.blocks()) * c.boxElems(), 0xFF),
        out(in.size(), 0x5A);
    ASSERT_EQ(launchTileCopy(c, dIn.get(), boxes.get(), out.get()), Error::Success);
    EXPECT_EQ(boxes.toHost(), expectedBoxes(c, in));
    EXPECT_EQ(out.toHost(), expectedOut(c, in, 0x5A5A));
  }
}

/// A TMA store to negative coordinates stops the thread, as the H100's illegal instruction does.
TEST_F(TmaDeathTest, StoreToNegativeCoordinatesFaults) {
  EXPECT_IN_CHILD_PROCESS({
    TileCase c = tileCases()[0];
    c.storeShiftRows = -3;
    const std::vector<uint16_t> in = randomTensor(c.rows, c.rowStride, 5);
    DeviceBuffer<uint16_t> dIn(in), boxes(size_t(c.blocks()) * c.boxElems()), out(in.size());
    EXPECT_EQ(launchTileCopy(c, dIn.get(), boxes.get(), out.get()), cudaErrorIllegalInstruction);
    const std::string text = takeOnly(FindingKind::OutOfBounds);
    EXPECT_EQ(text.substr(0, text.find(" (in tilec::rt::tma_store_2d, tma.cuh:")),
              "tma_store_2d of a box at (-3, 0)\n"
              "  by thread 0 (warp 0, lane 0) of block (0,0,0) at " +
                  at<StoreLine>());
    EXPECT_NE(text.find("  a TMA store's coordinates must not be negative (an H100 stops at the "
                        "instruction)\n  the thread stops here and the launch fails, as on the "
                        "GPU\n"),
              std::string::npos)
        << text;
  });
}

std::vector<uint64_t> rowSums(const RingCase &c, const std::vector<uint16_t> &in) {
  std::vector<uint64_t> sums(size_t(c.rows));
  for (int r = 0; r < c.rows; ++r)
    sums[size_t(r)] =
        std::accumulate(in.begin() + ptrdiff_t(r) * c.rowStride,
                        in.begin() + ptrdiff_t(r) * c.rowStride + c.cols, uint64_t{0});
  return sums;
}

/// The ring of stages: 7 boxes through 3 stages (the phases wrap twice), ordered by the full and
/// empty barriers alone; the race checker accepts it, though each byte has two readers (the
/// producer's next copy is ordered after both: each arrives on the empty barrier).
TEST_F(Tma, RingOfStagesOrderedByMbarriers) {
  const RingCase c;
  const std::vector<uint16_t> in = randomTensor(c.rows, c.rowStride, 11);
  DeviceBuffer<uint16_t> dIn(in);
  DeviceBuffer<uint64_t> sums(size_t(c.rows), 0xFF);
  ASSERT_EQ(launchRing(c, dIn.get(), sums.get()), Error::Success);
  EXPECT_EQ(sums.toHost(), rowSums(c, in));
}

/// Runs a planted bug of the ring; returns the reports.
std::vector<tilec::emu::Finding> runBug(RingPath path, Error expected) {
  RingCase c;
  c.path = path;
  const std::vector<uint16_t> in = randomTensor(c.rows, c.rowStride, 13);
  DeviceBuffer<uint16_t> dIn(in);
  DeviceBuffer<uint64_t> sums(size_t(c.rows), 0xFF);
  EXPECT_EQ(launchRing(c, dIn.get(), sums.get()), expected);
  return tilec::emu::take_findings();
}

/// Whether some finding is of `kind` and its text contains each of `parts`.
bool has(const std::vector<tilec::emu::Finding> &findings, FindingKind kind,
         std::vector<std::string> parts) {
  return std::any_of(findings.begin(), findings.end(), [&](const tilec::emu::Finding &f) {
    const std::string text = blankAddresses(f.text);
    return f.kind == kind && std::all_of(parts.begin(), parts.end(), [&](const std::string &p) {
             return text.find(p) != std::string::npos;
           });
  });
}

/// Consumers that read a stage without waiting for its full barrier read it before the copy's
/// bytes are there; running ahead, they also complete the empty barriers' phases the producer
/// waits for before it could: the launch ends in a deadlock, reported.
TEST_F(TmaDeathTest, ConsumerWithoutFullWaitReported) {
  EXPECT_IN_CHILD_PROCESS({
    const auto findings = runBug(RingPath::NoFullWait, Error::ErrorLaunchFailure);
    EXPECT_TRUE(has(findings, FindingKind::UninitializedShared, {"at " + at<ConsumerReadLine>()}))
        << emu_test::describe(findings);
    EXPECT_TRUE(has(findings, FindingKind::Deadlock, {"wait at " + at<ProducerEmptyWaitLine>()}))
        << emu_test::describe(findings);
  });
}

/// Waiting for the wrong parity of the full barrier returns at once in phase 0: the same reads
/// before the bytes.
TEST_F(TmaDeathTest, ConsumerWrongParityReported) {
  EXPECT_IN_CHILD_PROCESS({
    const auto findings = runBug(RingPath::ConsumerParity, Error::ErrorLaunchFailure);
    EXPECT_TRUE(has(findings, FindingKind::UninitializedShared, {"at " + at<ConsumerReadLine>()}))
        << emu_test::describe(findings);
  });
}

/// A producer that refills a stage without waiting for its empty barrier overwrites a box the
/// consumers have not read: their reads are unordered after the later copy (and the phases it
/// completes early leave the consumers waiting for a parity that has passed).
TEST_F(TmaDeathTest, ProducerWithoutEmptyWaitReported) {
  EXPECT_IN_CHILD_PROCESS({
    const auto findings = runBug(RingPath::NoEmptyWait, Error::ErrorLaunchFailure);
    EXPECT_TRUE(has(findings, FindingKind::SharedRace,
                    {"read after write", "at " + at<ConsumerReadLine>(),
                     "at " + at<ProducerCopyLine>(), "no mbarrier phase orders them"}))
        << emu_test::describe(findings);
  });
}

/// Of each row's two readers only the first frees the stage: the producer's next copy into it is
/// ordered after that reader's reads, not the second's, which the race checker names.
TEST_F(TmaDeathTest, SecondReaderNotReleasingIsARace) {
  EXPECT_IN_CHILD_PROCESS({
    const auto findings = runBug(RingPath::OneReaderReleases, Error::Success);
    EXPECT_TRUE(has(findings, FindingKind::SharedRace,
                    {"write after read", "write by thread 128 (warp 4, lane 0)",
                     "at " + at<ProducerCopyLine>(), "read by thread 64 (warp 2, lane 0)",
                     "at " + at<ConsumerReadLine>(), "no mbarrier phase orders them"}))
        << emu_test::describe(findings);
    for (const auto &f : findings)
      EXPECT_EQ(f.kind, FindingKind::SharedRace) << emu_test::describe(findings);
  });
}

/// Two groups of warps, each behind its own named barrier: the exchange within a group is ordered,
/// with no __syncthreads.
TEST_F(Tma, NamedBarriersOrderTheirGroups) {
  std::vector<int> in(kGroupThreads);
  for (int t = 0; t < kGroupThreads; ++t)
    in[size_t(t)] = 1000 + 7 * t;
  DeviceBuffer<int> dIn(in), out(kGroupThreads, 0xFF);
  ASSERT_EQ(launchGroups(GroupPath::Correct, dIn.get(), out.get()), Error::Success);
  std::vector<int> expected(kGroupThreads);
  for (int t = 0; t < kGroupThreads; ++t)
    expected[size_t(t)] = in[size_t(groupPartner(t))];
  EXPECT_EQ(out.toHost(), expected);
}

/// A read of the other group's write: a named barrier orders its own threads only.
TEST_F(Tma, NamedBarrierDoesNotOrderOtherGroups) {
  std::vector<int> in(kGroupThreads, 3);
  DeviceBuffer<int> dIn(in), out(kGroupThreads, 0xFF);
  ASSERT_EQ(launchGroups(GroupPath::OtherGroup, dIn.get(), out.get()), Error::Success);
  const auto findings = tilec::emu::take_findings();
  EXPECT_TRUE(has(findings, FindingKind::SharedRace,
                  {"read after write", "at " + at<GroupReadLine>(), "write by thread 128 (warp 4"}))
      << emu_test::describe(findings);
}

/// 128 threads read one value, then one of them overwrites it after their named barrier: no race,
/// though the readers are more than the checker lists one by one (its reader set then keeps each
/// thread's latest read; it used to keep only "several threads", which a named barrier did not
/// order: a false race in a warp-specialized epilogue that every consumer thread reads a bias of).
TEST_F(Tma, ManyReadersOrderedByANamedBarrierAreNoRace) {
  std::vector<int> in(kGroupThreads);
  for (int t = 0; t < kGroupThreads; ++t)
    in[size_t(t)] = 1000 + 7 * t;
  DeviceBuffer<int> dIn(in), out(kGroupThreads, 0xFF);
  ASSERT_EQ(launchGroups(GroupPath::ManyReaders, dIn.get(), out.get()), Error::Success);
  const auto findings = tilec::emu::take_findings();
  EXPECT_TRUE(findings.empty()) << emu_test::describe(findings);
  std::vector<int> expected(kGroupThreads);
  for (int t = 0; t < kGroupThreads; ++t)
    expected[size_t(t)] = in[size_t(groupPartner(t))] + (t < kGroup ? in[kGroup - 1] : 0);
  EXPECT_EQ(out.toHost(), expected);
}

/// The same write with no barrier after the reads: a race with the other readers (the emulator runs
/// the warps in turn, so that the 127 readers before the writer are in the reader set).
TEST_F(Tma, ManyReadersThenAnUnorderedWriteIsARace) {
  std::vector<int> in(kGroupThreads, 3);
  DeviceBuffer<int> dIn(in), out(kGroupThreads, 0xFF);
  ASSERT_EQ(launchGroups(GroupPath::ManyReadersUnordered, dIn.get(), out.get()), Error::Success);
  const auto findings = tilec::emu::take_findings();
  EXPECT_TRUE(has(findings, FindingKind::SharedRace,
                  {"write after read", "write by thread 127 (warp 3, lane 31)",
                   "at " + at<ManyWriteLine>(), "at " + at<ManyReadLine>()}))
      << emu_test::describe(findings);
}

/// A named barrier that counts fewer threads than wait at it: the last warp of the group waits
/// forever, reported as a deadlock naming the barrier and its count.
TEST_F(TmaDeathTest, NamedBarrierShortCountIsADeadlock) {
  EXPECT_IN_CHILD_PROCESS({
    std::vector<int> in(kGroupThreads, 3);
    DeviceBuffer<int> dIn(in), out(kGroupThreads, 0xFF);
    EXPECT_EQ(launchGroups(GroupPath::ShortCount, dIn.get(), out.get()), Error::ErrorLaunchFailure);
    const auto findings = tilec::emu::take_findings();
    EXPECT_TRUE(
        has(findings, FindingKind::Deadlock,
            {"no thread of block (0,0,0) can go on",
             "threads 224-255 wait at named barrier 2 (96 threads) at " + at<GroupBarrierLine>()}))
        << emu_test::describe(findings);
  });
}

/// A copy on a phase that never has all its arrivals never lands: reported when the block ends.
TEST_F(Tma, CopyThatNeverLandsReported) {
  DeviceBuffer<uint16_t> in(randomTensor(64, 64, 3));
  ASSERT_EQ(launchLostCopy(in.get()), Error::Success);
  const std::string text = takeOnly(FindingKind::AsyncCopyInFlight);
  EXPECT_EQ(text.substr(0, text.find(" (in tilec::rt::tma_load_2d, tma.cuh:")),
            "a bulk copy of 8192 bytes to shared 0x? started at " + at<LostCopyLine>());
  EXPECT_NE(text.find(") never landed: phase 0 of its mbarrier never had all its arrivals (1 of 2 "
                      "missing when the block ended)\n"),
            std::string::npos)
      << text;
}

/// A producer waiting for the wrong parity of an empty barrier waits forever, and the consumers
/// for the box it never copies: a deadlock, reported with what each barrier still expects.
TEST_F(TmaDeathTest, ProducerWrongParityIsADeadlock) {
  EXPECT_IN_CHILD_PROCESS({
    const auto findings = runBug(RingPath::ProducerParity, Error::ErrorLaunchFailure);
    EXPECT_TRUE(
        has(findings, FindingKind::Deadlock,
            {"no thread of block (0,0,0) can go on",
             "threads 128 wait at " + at<ProducerEmptyWaitLine>() +
                 " (in tilec::rt::mbarrier_wait, mbarrier.cuh:",
             "for the phase of parity 0 of the mbarrier at shared 0x? (byte 24 of 48-byte",
             "::bars); it is in phase 0 (parity 0), which still expects 128 of 128 arrivals",
             "threads 0-127 wait at " + at<ConsumerFullWaitLine>(),
             "for the phase of parity 0 of the mbarrier at shared 0x? (byte 0 of 48-byte",
             "which still expects 1 of 1 arrivals\n"}))
        << emu_test::describe(findings);
  });
}

/// A wait for a phase a round old (a ring position that restarted while its barriers' phases ran
/// on): reported as a deadlock at the wait, not passed through to read the stage before its copy.
TEST_F(TmaDeathTest, WaitForAPhaseARoundOldIsADeadlock) {
  EXPECT_IN_CHILD_PROCESS({
    std::vector<uint16_t> in(64 * 192, 7);
    DeviceBuffer<uint16_t> dIn(in), out(3 * 64, 0);
    EXPECT_EQ(launchStaleWait(dIn.get(), out.get()), Error::ErrorLaunchFailure);
    const auto findings = tilec::emu::take_findings();
    EXPECT_TRUE(
        has(findings, FindingKind::Deadlock,
            {"no thread of block (0,0,0) can go on", "threads 0-31 wait at " + at<StaleWaitLine>(),
             "for the phase of parity 1 of the mbarrier", "it is in phase 3 (parity 1)"}))
        << emu_test::describe(findings);
  });
}

/// Announcing fewer bytes than the copies deliver: the phase never completes (its transaction
/// count goes below zero), and the report says so.
TEST_F(TmaDeathTest, ShortExpectTxIsADeadlock) {
  EXPECT_IN_CHILD_PROCESS({
    const auto findings = runBug(RingPath::ShortExpect, Error::ErrorLaunchFailure);
    EXPECT_TRUE(has(findings, FindingKind::Deadlock,
                    {"wait at " + at<ConsumerFullWaitLine>(),
                     "its copies delivered 16 bytes more than its arrivals announced (expect_tx)"}))
        << emu_test::describe(findings);
  });
}

/// Consumers that never free their stages leave the producer waiting at the fourth box.
TEST_F(TmaDeathTest, MissingReleaseIsADeadlock) {
  EXPECT_IN_CHILD_PROCESS({
    const auto findings = runBug(RingPath::NoRelease, Error::ErrorLaunchFailure);
    EXPECT_TRUE(has(findings, FindingKind::Deadlock,
                    {"threads 128 wait at " + at<ProducerEmptyWaitLine>(),
                     "for the phase of parity 0 of the mbarrier at shared 0x? (byte 24 of",
                     "it is in phase 0 (parity 0), which still expects 128 of 128 arrivals"}))
        << emu_test::describe(findings);
  });
}

} // namespace
} // namespace emu_test::tma
