#pragma once
/// \file Hopper's tensor memory accelerator (TMA), as tilec's CUDA output for sm_90 uses it (issue
/// 13, docs/plan-hopper.md step 3): a tile of a 2-D row-major tensor copied between global and
/// shared memory by one instruction of one thread, described by a tensor map the host builds (the
/// tensor's address, dimensions and row stride; the tile's "box"; the shared-memory swizzle).
/// Elements of the box outside the tensor read as zeros and are not written, so the edges of a
/// matrix need no masks. A load completes on an mbarrier (tilec/cuda/mbarrier.cuh) with the box's
/// bytes; a store is waited for with tma_store_wait.
///
/// On the GPU the map is a CUtensorMap made by the driver's cuTensorMapEncodeTiled, reached
/// through cudaGetDriverEntryPointByVersion (no program links libcuda), and passed to the kernel
/// as a `const __grid_constant__` parameter. On tilec's CPU emulator (docs/emulation.md) the map
/// holds the same fields, the load reads the box at the call (each element checked as the calling
/// thread's read) and lays it out swizzled as the hardware does, and its bytes land when the
/// barrier's phase has had its arrivals (tilec/emu/emu.hpp, tensor_load_2d). The PTX exists from
/// sm_90 on: code for older GPUs may include this header, and a call of a device helper then stops
/// the build with a message. References are to the PTX ISA (8.0 and later), "cp.async.bulk.tensor",
/// and the CUDA driver API's "Tensor Map Object Management".

#include "mbarrier.cuh" // the barriers copies complete on; detail::shared_address, kNeedsSm90
#include "wgmma.cuh"    // SmemSwizzle, and the swizzle patterns TMA shares with wgmma

#if !defined(TILEC_EMULATE)
#include <cuda.h>         // CUtensorMap and its enums (types only: nothing links libcuda)
#include <cudaTypedefs.h> // PFN_cuTensorMapEncodeTiled
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TILEC_TMA_PTX 1
#endif
#endif

namespace tilec::rt {

#if defined(TILEC_EMULATE)
/// The emulator's tensor map: the fields cuTensorMapEncodeTiled takes, for a 2-D row-major tensor.
struct alignas(64) TensorMap2D {
  const unsigned char *base;
  uint64_t rows, cols;         ///< the tensor's size in elements
  uint64_t row_stride_bytes;   ///< bytes from one row to the next
  uint32_t box_rows, box_cols; ///< the tile one copy moves
  uint32_t element_bytes;
  SmemSwizzle swizzle;
};
#else
using TensorMap2D = CUtensorMap;
#endif

namespace detail {
#if !defined(TILEC_EMULATE)
template <class T> struct TmaDataType;
template <> struct TmaDataType<__half> {
  static constexpr CUtensorMapDataType value = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
};
template <> struct TmaDataType<__nv_bfloat16> {
  static constexpr CUtensorMapDataType value = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
};
template <> struct TmaDataType<float> {
  static constexpr CUtensorMapDataType value = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
};
template <> struct TmaDataType<int32_t> {
  static constexpr CUtensorMapDataType value = CU_TENSOR_MAP_DATA_TYPE_INT32;
};
template <> struct TmaDataType<uint16_t> { // 16-bit values copied as their bits
  static constexpr CUtensorMapDataType value = CU_TENSOR_MAP_DATA_TYPE_UINT16;
};
template <> struct TmaDataType<int8_t> { // copied as bytes
  static constexpr CUtensorMapDataType value = CU_TENSOR_MAP_DATA_TYPE_UINT8;
};
template <> struct TmaDataType<uint8_t> {
  static constexpr CUtensorMapDataType value = CU_TENSOR_MAP_DATA_TYPE_UINT8;
};
#endif
} // namespace detail

/// Builds `map` for the row-major tensor of `rows` x `cols` elements of T at `base` (16-byte
/// aligned), rows `row_stride` elements apart (a multiple of 16 bytes), copied in boxes of
/// `box_rows` x `box_cols` elements (1 to 256 each) laid out in shared memory with `swizzle`: for
/// a swizzled map a box row is exactly the swizzle's row (box_cols * sizeof(T) == 32, 64 or 128
/// bytes), unswizzled a multiple of 16 bytes. Returns cudaErrorInvalidValue when these do not hold
/// or the driver refuses the map, cudaErrorNotSupported when the driver has no TMA. Host code.
template <class T>
inline cudaError_t make_tensor_map_2d(TensorMap2D *map, const T *base, uint64_t rows, uint64_t cols,
                                      uint64_t row_stride, uint32_t box_rows, uint32_t box_cols,
                                      SmemSwizzle swizzle) {
  const uint64_t stride_bytes = row_stride * sizeof(T), box_row_bytes = box_cols * sizeof(T);
  const bool box_fits = swizzle == SmemSwizzle::None ? box_row_bytes % 16 == 0
                                                     : box_row_bytes == swizzle_row_bytes(swizzle);
  if (!map || reinterpret_cast<uintptr_t>(base) % 16 != 0 || rows == 0 || cols == 0 ||
      stride_bytes % 16 != 0 || row_stride < cols || box_rows == 0 || box_rows > 256 ||
      box_cols == 0 || box_cols > 256 || !box_fits)
    return cudaErrorInvalidValue;
#if defined(TILEC_EMULATE)
  *map = TensorMap2D{reinterpret_cast<const unsigned char *>(base),
                     rows,
                     cols,
                     stride_bytes,
                     box_rows,
                     box_cols,
                     uint32_t(sizeof(T)),
                     swizzle};
  return cudaSuccess;
#else
  static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (!encode) {
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess || !fn)
      return cudaErrorNotSupported;
    encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }
  const cuuint64_t dims[2] = {cols, rows};      // innermost first
  const cuuint64_t strides[1] = {stride_bytes}; // of every dimension but the innermost
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUtensorMapSwizzle swizzles[] = {CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                         CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_32B};
  const CUresult r =
      encode(map, detail::TmaDataType<T>::value, 2, const_cast<T *>(base), dims, strides, box,
             element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzles[uint32_t(swizzle)],
             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
#endif
}

#if defined(TILEC_EMULATE)
namespace detail {
inline ::tilec::emu::TensorBox tma_box(const TensorMap2D &m) {
  return {m.base,          m.rows,
          m.cols,          m.row_stride_bytes,
          m.box_rows,      m.box_cols,
          m.element_bytes, m.swizzle == SmemSwizzle::None ? 0u : swizzle_row_bytes(m.swizzle)};
}
} // namespace detail
#endif

/// Starts the TMA copy of the box whose first element is (row, col) of `map`'s tensor into shared
/// memory at `dst` (128-byte aligned; 1024 for the 128-byte swizzle, so that its pattern starts at
/// phase 0), completing on the mbarrier `bar` with the box's bytes, zeros included
/// (`cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes`). `map` is the
/// kernel's __grid_constant__ parameter. One thread issues it, after announcing the bytes
/// (mbarrier_arrive_expect_tx).
template <class Sm90 = void>
__device__ __forceinline__ void tma_load_2d(void *dst, const TensorMap2D *map, int row, int col,
                                            uint64_t *bar) {
#if defined(TILEC_EMULATE)
  ::tilec::emu::tensor_load_2d(dst, detail::tma_box(*map), row, col, bar,
                               ::tilec::emu::call_site());
#elif defined(TILEC_TMA_PTX)
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];" ::"r"(detail::shared_address(dst)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(col), "r"(row),
               "r"(detail::shared_address(bar))
               : "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::kNeedsSm90<Sm90>, "tilec::rt::tma_load_2d needs sm_90");
#endif
}

/// Starts the TMA copy of a box from shared memory at `src` (laid out as tma_load_2d lays it out)
/// to (row, col) of `map`'s tensor, both at least 0 (an H100 faults on a negative coordinate:
/// illegal instruction); rows and columns outside the tensor are not written, except that the
/// hardware writes a row in whole 16-byte chunks, up to the next 16-byte boundary past the
/// tensor's last column (measured on an H100, tests/gpu/tma.cu; triton#11583): store only where
/// a row of the tensor is a multiple of 16 bytes, or where what follows it may be overwritten
/// (`cp.async.bulk.tensor.2d.global.shared::cta.bulk_group`). The writing threads' stores to `src`
/// need fence_proxy_async_shared() and a barrier before it. One thread issues it, then
/// tma_store_commit() and, before `src` changes or the block ends, tma_store_wait<0>().
template <class Sm90 = void>
__device__ __forceinline__ void tma_store_2d(const TensorMap2D *map, int row, int col,
                                             const void *src) {
#if defined(TILEC_EMULATE)
  ::tilec::emu::tensor_store_2d(src, detail::tma_box(*map), row, col, ::tilec::emu::call_site());
#elif defined(TILEC_TMA_PTX)
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(
                   reinterpret_cast<uint64_t>(map)),
               "r"(col), "r"(row), "r"(detail::shared_address(src))
               : "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::kNeedsSm90<Sm90>, "tilec::rt::tma_store_2d needs sm_90");
#endif
}
/// Closes the group of this thread's TMA stores since the last commit
/// (`cp.async.bulk.commit_group`).
template <class Sm90 = void> __device__ __forceinline__ void tma_store_commit() {
#if defined(TILEC_TMA_PTX)
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#elif defined(__CUDA_ARCH__) && !defined(TILEC_EMULATE)
  static_assert(detail::kNeedsSm90<Sm90>, "tilec::rt::tma_store_commit needs sm_90");
#endif
}
/// Waits until at most PENDING of this thread's groups of TMA stores still read their shared
/// memory (`cp.async.bulk.wait_group.read`). On the emulator the stores complete at the call.
template <int PENDING> __device__ __forceinline__ void tma_store_wait() {
  static_assert(PENDING >= 0 && PENDING <= 7, "tma_store_wait: 0 to 7 groups may stay in flight");
#if defined(TILEC_TMA_PTX)
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(PENDING) : "memory");
#elif defined(__CUDA_ARCH__) && !defined(TILEC_EMULATE)
  // (`PENDING < 0`: false, but only once a call instantiates it, as kNeedsSm90<Sm90> elsewhere)
  static_assert(PENDING < 0, "tilec::rt::tma_store_wait needs sm_90");
#endif
}

} // namespace tilec::rt

#if defined(TILEC_TMA_PTX)
#undef TILEC_TMA_PTX
#endif
