// Runs the kernels of tests/emu/unit/TmaKernels.cpp on an H100 (sm_90: tools/gpu-check.sh builds it
// with the sm_90a programs): boxes of a 16-bit tensor loaded by TMA (tilec::rt::tma_load_2d, maps
// from tilec::rt::make_tensor_map_2d) into shared memory with every swizzle, the first and last
// boxes hanging over all four edges, read back through the swizzle the emulator models, then
// changed and stored with tma_store_2d; and a ring of 3 stages with full and empty mbarriers
// (tilec::rt::StageBarriers, StagePosition) between one producer thread and 128 consumers (two
// per row); and two groups of warps each behind its own named barrier. The
// results are integers and bits, so they must match the host's exactly: the boxes (zeros outside
// the tensor), the tensor written back (in + 1 inside, every padding element untouched) and the row
// sums. Every launch runs twice under two poison patterns (check.h); one table row per case.
#include "../emu/unit/TmaKernels.cpp"
#include "check.h"

#include <numeric>

namespace {

using namespace emu_test::tma;

void runTiles(harness::Report &report, const TileCase &c, uint32_t seed) {
  const std::vector<uint16_t> in = randomTensor(c.rows, c.rowStride, seed);
  harness::DeviceBuffer<uint16_t> dIn(in.size());
  dIn.upload(in.data());
  gpucheck::Output<uint16_t> boxes(size_t(c.blocks()) * c.boxElems()), out(in.size());
  for (int byte : gpucheck::kPoison) {
    boxes.poison(byte);
    out.poison(byte);
    CHECK_CUDA(launchTileCopy(c, dIn.ptr, boxes.dev.ptr, out.dev.ptr));
    CHECK_CUDA(cudaDeviceSynchronize());
    boxes.collect(byte);
    out.collect(byte);
  }
  const std::vector<uint16_t> expected = expectedBoxes(c, in);
  size_t wrong = 0;
  for (size_t i = 0; i < expected.size(); ++i)
    wrong += boxes.vals[i] != expected[i];
  gpucheck::checkExact(report, "tma load", describe(c), expected.size(), wrong, wrong, 0,
                       boxes.ok());
  // Written back: the stored boxes inside the tensor; the rest keeps the first run's poison, and
  // out.guardIntact needs the second run's to survive past the end too.
  const std::vector<uint16_t> expectedFirst = expectedOut(c, in, 0xFFFF);
  size_t wrongOut = 0;
  for (size_t i = 0; i < expectedFirst.size(); ++i)
    if (out.vals[i] != expectedFirst[i] && ++wrongOut <= 3)
      std::printf("  tma store %s: element (%zu, %zu) is 0x%04x, expected 0x%04x\n",
                  describe(c).c_str(), i / size_t(c.rowStride), i % size_t(c.rowStride),
                  unsigned(out.vals[i]), unsigned(expectedFirst[i]));
  std::vector<uint16_t> second(out.dev.n); // the second run, read back directly
  out.dev.download(second.data());
  second.resize(in.size());
  const bool secondRunWrong = second != expectedOut(c, in, 0x5A5A);
  gpucheck::checkExact(report, "tma store", describe(c), in.size(), wrongOut, wrongOut, 0,
                       !secondRunWrong && out.guardIntact);
}

void runRing(harness::Report &report, const RingCase &c, uint32_t seed) {
  const std::vector<uint16_t> in = randomTensor(c.rows, c.rowStride, seed);
  harness::DeviceBuffer<uint16_t> dIn(in.size());
  dIn.upload(in.data());
  gpucheck::Output<uint64_t> sums(size_t(c.rows));
  for (int byte : gpucheck::kPoison) {
    sums.poison(byte);
    CHECK_CUDA(launchRing(c, dIn.ptr, sums.dev.ptr));
    CHECK_CUDA(cudaDeviceSynchronize());
    sums.collect(byte);
  }
  size_t wrong = 0;
  for (int r = 0; r < c.rows; ++r) {
    const auto row = in.begin() + ptrdiff_t(r) * c.rowStride;
    wrong += sums.vals[size_t(r)] != std::accumulate(row, row + c.cols, uint64_t{0});
  }
  gpucheck::checkExact(report, "tma ring", gpucheck::shape(c.rows, c.cols), size_t(c.rows), wrong,
                       wrong, 0, sums.ok());
}

// Two groups of four warps exchanging values through shared memory, each behind its own named
// barrier (bar.sync 1, 128 and bar.sync 2, 128).
void runGroups(harness::Report &report) {
  std::vector<int> in(kGroupThreads);
  for (int t = 0; t < kGroupThreads; ++t)
    in[size_t(t)] = 1000 + 7 * t;
  harness::DeviceBuffer<int> dIn(in.size());
  dIn.upload(in.data());
  gpucheck::Output<int> out{size_t(kGroupThreads)};
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    CHECK_CUDA(launchGroups(GroupPath::Correct, dIn.ptr, out.dev.ptr));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
  }
  size_t wrong = 0;
  for (int t = 0; t < kGroupThreads; ++t)
    wrong += out.vals[size_t(t)] != in[size_t(groupPartner(t))];
  gpucheck::checkExact(report, "named bar", "2x128 threads", size_t(kGroupThreads), wrong, wrong, 0,
                       out.ok());
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  const bool small = harness::smallRun(argc, argv);
  uint32_t seed = 1;
  for (const TileCase &c : tileCases())
    runTiles(report, c, seed++);
  bool negativeStore = false; // --negative-store: a TMA store to negative coordinates (it faults)
  for (int i = 1; i < argc; ++i)
    negativeStore = negativeStore || std::string(argv[i]) == "--negative-store";
  if (negativeStore) {
    TileCase c = tileCases()[0];
    c.storeShiftRows = -3, c.storeShiftCols = -8;
    runTiles(report, c, seed++);
  }
  RingCase ring;
  runRing(report, ring, seed++);
  runGroups(report);
  if (!small) { // 65 boxes a row panel: the phases wrap around 21 times
    ring.rows = 1000, ring.cols = 4100, ring.rowStride = 4104;
    runRing(report, ring, seed++);
  }
  return report.exitCode();
}
