/// \file The kernels of TmaKernels.h, written as tilec's CUDA output for sm_90 uses TMA and
/// mbarriers: <tilec/cuda/runtime.cuh>, tilec::rt helpers, cudaLaunchKernelEx launchers. The
/// statements the tests locate end their line with TMA_LINE (kept there: not clang-formatted).

#include "TmaKernels.h"

#include <tilec/cuda/runtime.cuh>

// The line marks serve the emulator's reports; nvcc's device code cannot take their host address.
#if defined(__CUDA_ARCH__)
#define TMA_LINE(Tag)
#else
#define TMA_LINE(Tag) EMU_TEST_LINE(Tag)
#endif

namespace emu_test::tma {

struct ConsumerReadLine {};
struct ProducerCopyLine {};
struct ProducerEmptyWaitLine {};
struct ConsumerFullWaitLine {};
struct StoreLine {};
struct GroupReadLine {};
struct LostCopyLine {};
struct GroupBarrierLine {};
struct ManyReadLine {};
struct ManyWriteLine {};
struct StaleWaitLine {};

namespace {

using tilec::rt::SmemSwizzle;
using tilec::rt::TensorMap2D;

SmemSwizzle toRt(int swizzle) {
  return swizzle == 128  ? SmemSwizzle::Bytes128
         : swizzle == 64 ? SmemSwizzle::Bytes64
         : swizzle == 32 ? SmemSwizzle::Bytes32
                         : SmemSwizzle::None;
}

/// Where element (r, c) of a box of `boxCols` 16-bit elements lies in a 1024-byte aligned tile:
/// rows one after another, the 16-byte chunk index XORed with the row's phase (address bits 7-9,
/// as many as the swizzle row has chunks beyond one).
__device__ __forceinline__ int boxOffset(int r, int c, int boxCols, int swizzle) {
  const int o = (r * boxCols + c) * 2;
  const int chunkMask = swizzle ? swizzle / 16 - 1 : 0;
  return o ^ ((o >> 7 & chunkMask) << 4);
}

constexpr int kTileThreads = 128;
constexpr int kMaxBoxBytes = 64 * 64 * 2;

__global__ void tileCopy(const __grid_constant__ TensorMap2D in,
                         const __grid_constant__ TensorMap2D out, uint16_t *boxes, int boxRows,
                         int boxCols, int swizzle, int shiftRows, int shiftCols, int storeShiftRows,
                         int storeShiftCols) {
  alignas(1024) __shared__ unsigned char tile[kMaxBoxBytes];
  alignas(8) __shared__ uint64_t full;
  const int tid = static_cast<int>(threadIdx.x);
  const int row0 = shiftRows + static_cast<int>(blockIdx.y) * boxRows;
  const int col0 = shiftCols + static_cast<int>(blockIdx.x) * boxCols;
  const int elems = boxRows * boxCols;
  if (tid == 0) {
    tilec::rt::mbarrier_init(&full, 1);
    tilec::rt::mbarrier_init_fence();
  }
  __syncthreads();
  if (tid == 0) {
    tilec::rt::mbarrier_arrive_expect_tx(&full, uint32_t(elems * 2));
    tilec::rt::tma_load_2d(tile, &in, row0, col0, &full);
  }
  tilec::rt::mbarrier_wait(&full, 0);
  uint16_t *box = boxes + (size_t(blockIdx.y) * gridDim.x + blockIdx.x) * size_t(elems);
  for (int i = tid; i < elems; i += kTileThreads) {
    uint16_t *at =
        reinterpret_cast<uint16_t *>(tile + boxOffset(i / boxCols, i % boxCols, boxCols, swizzle));
    box[i] = *at;
  }
  __syncthreads(); // every thread has read the box before any changes it
  for (int i = tid; i < elems; i += kTileThreads) {
    uint16_t *at =
        reinterpret_cast<uint16_t *>(tile + boxOffset(i / boxCols, i % boxCols, boxCols, swizzle));
    *at = uint16_t(*at + 1);
  }
  tilec::rt::fence_proxy_async_shared(); // the stores above, before the copy engine reads them
  __syncthreads();
  if (tid == 0) {
    const int storeRow = row0 - shiftRows + storeShiftRows,
              storeCol = col0 - shiftCols + storeShiftCols;
    tilec::rt::tma_store_2d(&out, storeRow, storeCol, tile); TMA_LINE(StoreLine);
    tilec::rt::tma_store_commit();
    tilec::rt::tma_store_wait<0>();
  }
}

/// The consumers (two per row: each byte of a stage has two readers), then the producer's warp.
constexpr int kConsumers = 2 * kRingRows, kRingThreads = kConsumers + 32;
constexpr int kStageBytes = kRingRows * kRingBoxCols * 2;

__global__ void ring(const __grid_constant__ TensorMap2D in, uint64_t *sums, int rows, int cols,
                     RingPath path) {
  alignas(1024) __shared__ unsigned char stages[kStages][kStageBytes];
  alignas(8) __shared__ tilec::rt::StageBarriers<kStages> bars;
  const int tid = static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.x) * kRingRows;
  const int boxes = (cols + kRingBoxCols - 1) / kRingBoxCols;
  // OneReaderReleases: only the first reader of each row frees the stages.
  const bool releases = path != RingPath::OneReaderReleases || tid < kRingRows;
  if (tid == 0) {
    bars.init(path == RingPath::OneReaderReleases ? kRingRows : kConsumers);
    tilec::rt::mbarrier_init_fence();
  }
  __syncthreads();
  if (tid >= kConsumers) { // the producer's warp: one thread issues every copy
    if (tid != kConsumers)
      return;
    tilec::rt::StagePosition<kStages> p;
    for (int b = 0; b < boxes; ++b) {
      // The first pass finds every stage free: waiting for parity 1 of phase 0 returns at once.
      const uint32_t emptyParity = path == RingPath::ProducerParity ? p.phase : p.phase ^ 1;
      if (path != RingPath::NoEmptyWait) {
        tilec::rt::mbarrier_wait(&bars.empty[p.stage], emptyParity); TMA_LINE(ProducerEmptyWaitLine);
      }
      tilec::rt::mbarrier_arrive_expect_tx(&bars.full[p.stage],
                                           kStageBytes - (path == RingPath::ShortExpect ? 16 : 0));
      tilec::rt::tma_load_2d(stages[p.stage], &in, row0, b * kRingBoxCols, &bars.full[p.stage]); TMA_LINE(ProducerCopyLine);
      p.advance();
    }
    return;
  }
  tilec::rt::StagePosition<kStages> p;
  uint64_t sum = 0;
  for (int b = 0; b < boxes; ++b) {
    const uint32_t fullParity = path == RingPath::ConsumerParity ? p.phase ^ 1 : p.phase;
    if (path != RingPath::NoFullWait) {
      tilec::rt::mbarrier_wait(&bars.full[p.stage], fullParity); TMA_LINE(ConsumerFullWaitLine);
    }
    for (int c = 0; c < kRingBoxCols; ++c) {
      const int o = boxOffset(tid % kRingRows, c, kRingBoxCols, 128);
      sum += *reinterpret_cast<const uint16_t *>(&stages[p.stage][o]); TMA_LINE(ConsumerReadLine);
    }
    if (path != RingPath::NoRelease && releases)
      tilec::rt::mbarrier_arrive(&bars.empty[p.stage]);
    p.advance();
  }
  if (tid < kRingRows && row0 + tid < rows)
    sums[row0 + tid] = sum;
}

__global__ void groups(const int *in, int *out, GroupPath path) {
  __shared__ int exchange[kGroupThreads];
  const int tid = static_cast<int>(threadIdx.x);
  exchange[tid] = in[tid];
  const int group = tid / kGroup;
  const int count = path == GroupPath::ShortCount && group == 1 ? kGroup - 32 : kGroup;
  tilec::rt::named_barrier_sync(1 + group, count); TMA_LINE(GroupBarrierLine);
  const int partner =
      path == GroupPath::OtherGroup ? (tid + kGroup) % kGroupThreads : groupPartner(tid);
  out[tid] = exchange[partner]; TMA_LINE(GroupReadLine);
  if ((path == GroupPath::ManyReaders || path == GroupPath::ManyReadersUnordered) && group == 0) {
    // Every thread of the first group reads one value, then its last thread overwrites it.
    out[tid] += exchange[kGroup - 1]; TMA_LINE(ManyReadLine);
    if (path == GroupPath::ManyReaders)
      tilec::rt::named_barrier_sync(1, kGroup);
    if (tid == kGroup - 1) {
      exchange[kGroup - 1] = 0; TMA_LINE(ManyWriteLine);
    }
  }
}

__global__ void lostCopy(const __grid_constant__ TensorMap2D in) {
  alignas(1024) __shared__ unsigned char tile[64 * 64 * 2];
  alignas(8) __shared__ uint64_t full;
  if (threadIdx.x == 0) {
    tilec::rt::mbarrier_init(&full, 2);
    tilec::rt::mbarrier_init_fence();
    tilec::rt::mbarrier_arrive_expect_tx(&full, sizeof tile);
    tilec::rt::tma_load_2d(tile, &in, 0, 0, &full); TMA_LINE(LostCopyLine);
  }
}

// Three rounds of one copy on one barrier; the third round waits for the parity of the first
// (phase 0 or 2: a parity cannot tell them apart), as a ring whose position restarted would.
__global__ void staleWait(const __grid_constant__ TensorMap2D in, uint16_t *out) {
  alignas(1024) __shared__ unsigned char tile[64 * 64 * 2];
  alignas(8) __shared__ uint64_t full;
  if (threadIdx.x == 0) {
    tilec::rt::mbarrier_init(&full, 1);
    tilec::rt::mbarrier_init_fence();
  }
  __syncthreads();
  for (int round = 0; round < 3; ++round) {
    if (threadIdx.x == 0) {
      tilec::rt::mbarrier_arrive_expect_tx(&full, sizeof tile);
      tilec::rt::tma_load_2d(tile, &in, 0, 64 * round, &full);
    }
    const uint32_t parity = round == 2 ? 1 : uint32_t(round); // right: round % 2
    tilec::rt::mbarrier_wait(&full, parity); TMA_LINE(StaleWaitLine);
    out[64 * round + threadIdx.x] = *reinterpret_cast<const uint16_t *>(&tile[2 * threadIdx.x]);
    __syncthreads(); // every thread has read the tile before the next round overwrites it
  }
}

} // namespace

cudaError_t launchStaleWait(const uint16_t *in, uint16_t *out) {
  TensorMap2D map;
  if (cudaError_t e = tilec::rt::make_tensor_map_2d(&map, in, 64, 192, 192, 64, 64,
                                                    SmemSwizzle::None);
      e != cudaSuccess)
    return e;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(32);
  return cudaLaunchKernelEx(&config, staleWait, map, out);
}

cudaError_t launchLostCopy(const uint16_t *in) {
  TensorMap2D map;
  if (cudaError_t e = tilec::rt::make_tensor_map_2d(&map, in, 64, 64, 64, 64, 64,
                                                    SmemSwizzle::Bytes128);
      e != cudaSuccess)
    return e;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(32);
  return cudaLaunchKernelEx(&config, lostCopy, map);
}

cudaError_t launchGroups(GroupPath path, const int *in, int *out) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(2);
  config.blockDim = dim3(kGroupThreads);
  return cudaLaunchKernelEx(&config, groups, in, out, path);
}

cudaError_t launchTileCopy(const TileCase &c, const uint16_t *in, uint16_t *boxes, uint16_t *out) {
  TensorMap2D inMap, outMap;
  for (auto [map, base] : {std::pair<TensorMap2D *, const uint16_t *>{&inMap, in}, {&outMap, out}})
    if (cudaError_t e = tilec::rt::make_tensor_map_2d(map, base, uint64_t(c.rows),
                                                      uint64_t(c.cols), uint64_t(c.rowStride),
                                                      uint32_t(c.boxRows), uint32_t(c.boxCols),
                                                      toRt(c.swizzle));
        e != cudaSuccess)
      return e;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(unsigned(c.gridCols()), unsigned(c.gridRows()));
  config.blockDim = dim3(kTileThreads);
  return cudaLaunchKernelEx(&config, tileCopy, inMap, outMap, boxes, c.boxRows, c.boxCols,
                            c.swizzle, c.shiftRows, c.shiftCols, c.storeShiftRows,
                            c.storeShiftCols);
}

cudaError_t launchRing(const RingCase &c, const uint16_t *in, uint64_t *sums) {
  TensorMap2D map;
  if (cudaError_t e = tilec::rt::make_tensor_map_2d(
          &map, in, uint64_t(c.rows), uint64_t(c.cols), uint64_t(c.rowStride),
          uint32_t(kRingRows), uint32_t(kRingBoxCols), SmemSwizzle::Bytes128);
      e != cudaSuccess)
    return e;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(unsigned((c.rows + kRingRows - 1) / kRingRows));
  config.blockDim = dim3(kRingThreads);
  return cudaLaunchKernelEx(&config, ring, map, sums, c.rows, c.cols, c.path);
}

} // namespace emu_test::tma
