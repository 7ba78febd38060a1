#pragma once
/// \file Kernels for Hopper's TMA copies and mbarriers (tilec/cuda/tma.cuh,
/// tilec/cuda/mbarrier.cuh). TmaKernels.cpp is compiled as emitted code is for the emulator
/// (tests/emu/unit, TmaTest.cpp) and by nvcc for an H100 (tests/gpu/tma.cu): the box layouts (every
/// swizzle, boxes hanging over each edge of the tensor), the stores and the ring of stages must
/// give the same results on both.

#include "Lines.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#if defined(TILEC_EMULATE) || !defined(__CUDACC__)
#include <tilec/emu/host.hpp>
#endif

namespace emu_test::tma {

/// A tensor of 16-bit elements (their bits) and the box the copies move. The blocks of a launch
/// cover it with boxes from (shiftRows, shiftCols) on; a negative shift makes the first boxes hang
/// over the top and left edges, and ragged sizes over the bottom and right ones.
struct TileCase {
  int rows = 70, cols = 150, rowStride = 152; ///< elements; rowStride a multiple of 8
  int boxRows = 64, boxCols = 64;
  int swizzle = 128; ///< the shared-memory swizzle's row bytes: 32, 64, 128, or 0 (none)
  int shiftRows = -3, shiftCols = -8;
  /// Where the boxes are stored: block (by, bx) stores its box at (by boxRows + storeShiftRows,
  /// bx boxCols + storeShiftCols). A TMA store to negative coordinates faults on an H100 (an
  /// illegal instruction, tests/gpu/tma.cu --negative-store), so the cases store from (0, 0).
  int storeShiftRows = 0, storeShiftCols = 0;
  int gridRows() const { return (rows - shiftRows + boxRows - 1) / boxRows; }
  int gridCols() const { return (cols - shiftCols + boxCols - 1) / boxCols; }
  int blocks() const { return gridRows() * gridCols(); }
  int boxElems() const { return boxRows * boxCols; }
};

/// Every block loads its box with tma_load_2d (one thread; the others wait on the barrier), writes
/// the box as its threads read it through the swizzle to boxes[block][r][c] (row-major), adds 1 to
/// every element in shared memory and stores the box with tma_store_2d to `out` (a tensor like
/// `in`) at its store position. Expected: boxes hold `in` inside the tensor and 0 outside
/// (expectedBoxes); `out` holds the stored boxes inside the tensor and is untouched elsewhere (the
/// padding of each row; expectedOut).
cudaError_t launchTileCopy(const TileCase &c, const uint16_t *in, uint16_t *boxes, uint16_t *out);

/// What the ring kernel does: the right handshake, or a planted bug.
enum class RingPath : int {
  Correct,
  ConsumerParity,    ///< bug: the consumers wait for the wrong parity of the full barrier
  ProducerParity,    ///< bug: the producer waits for the wrong parity of the empty barrier
  NoEmptyWait,       ///< bug: the producer refills a stage without waiting for its empty barrier
  NoFullWait,        ///< bug: the consumers read a stage without waiting for its full barrier
  ShortExpect,       ///< bug: the producer announces 16 bytes fewer than its copies deliver
  NoRelease,         ///< bug: the consumers never arrive on the empty barriers
  OneReaderReleases, ///< bug: of a row's two readers only the first frees its stages
};

/// Row sums through a ring of kStages stages: one block per kRingRows rows of a rows x cols matrix
/// of 16-bit unsigned integers; a producer thread (lane 0 of the last warp) loads the row panel in
/// boxes of kRingRows x 64 with TMA into the ring (full and empty barriers per stage), and two
/// consumer threads sum each row (threads r and r + kRingRows: every byte of a stage has two
/// readers, as a B tile has two warpgroups reading it). sums[r] = the sum of row r.
constexpr int kStages = 3, kRingRows = 64, kRingBoxCols = 64;
struct RingCase {
  int rows = 100, cols = 420, rowStride = 424;
  RingPath path = RingPath::Correct;
};
cudaError_t launchRing(const RingCase &c, const uint16_t *in, uint64_t *sums);

/// Named barriers (tilec::rt::named_barrier_sync, bar.sync id, count), as a warp-specialized
/// kernel's consumers synchronize apart from its producer: 256 threads in two groups of 4 warps,
/// each group exchanging values through shared memory behind its own barrier (id 1 for threads
/// 0-127, id 2 for 128-255). out[t] = in[partner(t)], the partner the next thread of t's group.
enum class GroupPath : int {
  Correct,
  OtherGroup, ///< bug: each thread reads its partner in the other group, which its barrier does not
              ///< order
  ShortCount, ///< bug: the second group's barrier counts 96 threads: its last warp waits forever
  /// Then every thread of the first group reads one value (more readers than the race checker lists
  /// one by one), and after the group's barrier its last thread overwrites it; out[t] += in[127]
  /// there.
  ManyReaders,
  ManyReadersUnordered, ///< bug: the same without the barrier before the write
};
constexpr int kGroupThreads = 256, kGroup = 128;
#if defined(__CUDACC__)
__host__ __device__
#endif
    inline int
    groupPartner(int t) {
  return t / kGroup * kGroup + (t % kGroup + 1) % kGroup;
}
cudaError_t launchGroups(GroupPath path, const int *in, int *out);

/// A planted bug: thread 0 starts a TMA copy on a barrier that expects two arrivals and gives it
/// one; nobody waits, and the block ends with the copy's bytes never landed (the emulator reports
/// it). `in` is a 64 x 64 tensor of 16-bit values.
cudaError_t launchLostCopy(const uint16_t *in);

/// A planted bug: one thread copies three 64 x 64 boxes of `in` (64 rows of 192) in turn through
/// one tile and one mbarrier, and 32 threads read each, waiting for the phase of each copy by
/// parity; the third round waits for parity 1 (the second round's phase, complete) instead of 0.
/// The wait finds the third phase complete (the emulator lands a copy when a thread waits on its
/// barrier at the latest) and waits for a fourth that nothing brings: a deadlock, reported (on the
/// GPU the wait may instead pass before the bytes land, and the threads read the second box again).
cudaError_t launchStaleWait(const uint16_t *in, uint16_t *out);

/// Fresh 16-bit values (never zero), rows x rowStride.
inline std::vector<uint16_t> randomTensor(int rows, int rowStride, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint16_t> v(size_t(rows) * rowStride);
  for (uint16_t &x : v)
    x = uint16_t(1 + rng() % 60000);
  return v;
}

/// The boxes launchTileCopy must write.
inline std::vector<uint16_t> expectedBoxes(const TileCase &c, const std::vector<uint16_t> &in) {
  std::vector<uint16_t> boxes(size_t(c.blocks()) * c.boxElems());
  for (int by = 0; by < c.gridRows(); ++by)
    for (int bx = 0; bx < c.gridCols(); ++bx)
      for (int r = 0; r < c.boxRows; ++r)
        for (int col = 0; col < c.boxCols; ++col) {
          const int gr = c.shiftRows + by * c.boxRows + r, gc = c.shiftCols + bx * c.boxCols + col;
          const bool inside = gr >= 0 && gc >= 0 && gr < c.rows && gc < c.cols;
          boxes[(size_t(by) * c.gridCols() + bx) * c.boxElems() + size_t(r) * c.boxCols + col] =
              inside ? in[size_t(gr) * c.rowStride + gc] : 0;
        }
  return boxes;
}

/// What launchTileCopy leaves in `out` (first filled with `poison`): each element of the tensor
/// covered by a stored box holds that box's element + 1; the others keep the poison, except the
/// columns of a row up to the next 16 bytes past the last one, which an H100's TMA store writes
/// too (whole 16-byte chunks).
inline std::vector<uint16_t> expectedOut(const TileCase &c, const std::vector<uint16_t> &in,
                                         uint16_t poison) {
  const std::vector<uint16_t> boxes = expectedBoxes(c, in);
  std::vector<uint16_t> out(in.size(), poison);
  for (int by = 0; by < c.gridRows(); ++by)
    for (int bx = 0; bx < c.gridCols(); ++bx)
      for (int r = 0; r < c.boxRows; ++r)
        for (int col = 0; col < c.boxCols; ++col) {
          const int gr = c.storeShiftRows + by * c.boxRows + r,
                    gc = c.storeShiftCols + bx * c.boxCols + col;
          const int written = (c.cols * 2 + 15) / 16 * 16 / 2;
          if (gr >= 0 && gc >= 0 && gr < c.rows && gc < written)
            out[size_t(gr) * c.rowStride + gc] =
                uint16_t(boxes[(size_t(by) * c.gridCols() + bx) * c.boxElems() +
                               size_t(r) * c.boxCols + col] +
                         1);
        }
  return out;
}

/// "70x150/152 box 64x64 128B".
inline std::string describe(const TileCase &c) {
  return std::to_string(c.rows) + "x" + std::to_string(c.cols) + "/" + std::to_string(c.rowStride) +
         " box " + std::to_string(c.boxRows) + "x" + std::to_string(c.boxCols) + " " +
         (c.swizzle ? std::to_string(c.swizzle) + "B" : std::string("none"));
}

/// The cases every run checks: each swizzle with its widest box row, and an unswizzled box whose
/// rows are 80 bytes.
inline std::vector<TileCase> tileCases() {
  std::vector<TileCase> cases;
  TileCase c;
  c.swizzle = 128, c.boxRows = 64, c.boxCols = 64;
  cases.push_back(c);
  c.swizzle = 64, c.boxRows = 32, c.boxCols = 32;
  cases.push_back(c);
  c.swizzle = 32, c.boxRows = 24, c.boxCols = 16;
  cases.push_back(c);
  c.swizzle = 0, c.boxRows = 16, c.boxCols = 40;
  cases.push_back(c);
  return cases;
}

} // namespace emu_test::tma
