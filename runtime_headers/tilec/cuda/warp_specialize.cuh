#pragma once
/// \file What tilec's warp-specialized, persistent kernels for sm_90 use beside the mbarriers of
/// their rings (issue 13, docs/plan-hopper.md step 4): a block of NUM_THREADS consumer threads and
/// a producer warpgroup of 128 more, which hands its registers to the consumers (setmaxnreg), and
/// a grid of one block per SM that loops over the launch's programs. Included by
/// tilec/cuda/runtime.cuh.
///
/// On tilec's CPU emulator (docs/emulation.md) registers are not modelled: the register helpers
/// check their count at compile time and do nothing; persistent_blocks gives at most
/// kEmulatedMultiprocessors blocks, so that each block of a small test loops over several
/// programs. References are to the PTX ISA (8.0 and later), "setmaxnreg".

#if defined(TILEC_EMULATE)
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TILEC_SETMAXNREG_PTX 1
#endif

namespace tilec::rt {

namespace detail {
/// setmaxnreg takes a count from 24 to 256, a multiple of 8. (The helpers below stop a build for
/// an older GPU with `REGISTERS < 0`: false, but only once a call instantiates them.)
template <int REGISTERS>
inline constexpr bool kRegisterCount = REGISTERS >= 24 && REGISTERS <= 256 && REGISTERS % 8 == 0;
} // namespace detail

/// Lowers this warpgroup's registers per thread to REGISTERS (`setmaxnreg.dec.sync.aligned`),
/// giving the rest back to the SM for another warpgroup's warpgroup_claim_registers. All 128
/// threads of the warpgroup call it together.
template <int REGISTERS> __device__ __forceinline__ void warpgroup_release_registers() {
  static_assert(detail::kRegisterCount<REGISTERS>, "setmaxnreg takes 24 to 256, a multiple of 8");
#if defined(TILEC_SETMAXNREG_PTX)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(REGISTERS));
#elif defined(__CUDA_ARCH__) && !defined(TILEC_EMULATE)
  static_assert(REGISTERS < 0, "tilec::rt::warpgroup_release_registers needs sm_90");
#endif
}

/// Raises this warpgroup's registers per thread to REGISTERS (`setmaxnreg.inc.sync.aligned`),
/// waiting until the SM has them (released by another warpgroup). All 128 threads of the
/// warpgroup call it together.
template <int REGISTERS> __device__ __forceinline__ void warpgroup_claim_registers() {
  static_assert(detail::kRegisterCount<REGISTERS>, "setmaxnreg takes 24 to 256, a multiple of 8");
#if defined(TILEC_SETMAXNREG_PTX)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(REGISTERS));
#elif defined(__CUDA_ARCH__) && !defined(TILEC_EMULATE)
  static_assert(REGISTERS < 0, "tilec::rt::warpgroup_claim_registers needs sm_90");
#endif
}

#if defined(TILEC_EMULATE)
/// The SMs persistent_blocks counts on the emulator.
inline constexpr unsigned kEmulatedMultiprocessors = 3;
#endif

/// The blocks of a persistent launch of `programs` programs: one per SM of the current device, at
/// most one per program (each block loops over programs blockIdx.x, + gridDim.x, ...). Where the
/// device cannot be asked, one block per program: still correct, no longer persistent.
inline unsigned persistent_blocks(unsigned programs) {
#if defined(TILEC_EMULATE)
  const unsigned sms = kEmulatedMultiprocessors;
#else
  int device = 0, count = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      count <= 0)
    return programs;
  const unsigned sms = static_cast<unsigned>(count);
#endif
  return programs < sms ? programs : sms;
}

} // namespace tilec::rt
