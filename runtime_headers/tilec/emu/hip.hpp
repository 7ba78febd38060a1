#pragma once
/// \file HIP's built-ins for tilec's CPU emulator (tilec/emu/emu.hpp): what tilec's HIP output and
/// tilec/hip/runtime.hpp use, with 64-lane wavefronts (gfx90a). tilec/hip/runtime.hpp includes this
/// instead of the HIP headers when TILEC_EMULATE is defined.

#if defined(TILEC_EMU_WARP_SIZE) && TILEC_EMU_WARP_SIZE != 64
#error "tilec/emu/cuda.hpp and tilec/emu/hip.hpp cannot be used in one translation unit"
#endif
#define TILEC_EMU_WARP_SIZE 64

#include "device.hpp"
#include "host.hpp"

constexpr int warpSize = 64;

using hip_bfloat16 = tl::bfloat16;

// Wavefront shuffles and votes: every lane of the wavefront takes part.
#define TILEC_EMU_SHUFFLES(T)                                                                      \
  TILEC_EMU_BUILTIN T __shfl_xor(T v, int laneMask, int width = 64) {                              \
    return ::tilec::emu::detail::shuffle(::tilec::emu::WarpOp::ShflXor, ~0ull, v, laneMask, width, \
                                         "__shfl_xor");                                            \
  }                                                                                                \
  TILEC_EMU_BUILTIN T __shfl(T v, int srcLane, int width = 64) {                                   \
    return ::tilec::emu::detail::shuffle(::tilec::emu::WarpOp::Shfl, ~0ull, v, srcLane, width,     \
                                         "__shfl");                                                \
  }                                                                                                \
  TILEC_EMU_BUILTIN T __shfl_up(T v, unsigned delta, int width = 64) {                             \
    return ::tilec::emu::detail::shuffle(::tilec::emu::WarpOp::ShflUp, ~0ull, v, int(delta),       \
                                         width, "__shfl_up");                                      \
  }                                                                                                \
  TILEC_EMU_BUILTIN T __shfl_down(T v, unsigned delta, int width = 64) {                           \
    return ::tilec::emu::detail::shuffle(::tilec::emu::WarpOp::ShflDown, ~0ull, v, int(delta),     \
                                         width, "__shfl_down");                                    \
  }
TILEC_EMU_SHUFFLES(int)
TILEC_EMU_SHUFFLES(unsigned)
TILEC_EMU_SHUFFLES(long)
TILEC_EMU_SHUFFLES(long long)
TILEC_EMU_SHUFFLES(unsigned long long)
TILEC_EMU_SHUFFLES(float)
TILEC_EMU_SHUFFLES(double)
#undef TILEC_EMU_SHUFFLES

TILEC_EMU_BUILTIN unsigned long long __ballot(int pred) {
  return ::tilec::emu::warp_op(::tilec::emu::WarpOp::Ballot, ~0ull, pred != 0, 0, 64, "__ballot");
}
TILEC_EMU_BUILTIN int __any(int pred) {
  return static_cast<int>(
      ::tilec::emu::warp_op(::tilec::emu::WarpOp::Any, ~0ull, pred != 0, 0, 64, "__any"));
}
TILEC_EMU_BUILTIN int __all(int pred) {
  return static_cast<int>(
      ::tilec::emu::warp_op(::tilec::emu::WarpOp::All, ~0ull, pred != 0, 0, 64, "__all"));
}

// ---- launch: ROCm's macro, as tilec's launchers call it -----------------------------------------
#define hipLaunchKernelGGL(kernel, grid, block, sharedBytes, stream, ...)                          \
  ((void)(stream),                                                                                 \
   (void)::tilec::emu::launch_kernel(                                                              \
       ::tilec::emu::LaunchConfig{dim3(grid), dim3(block), size_t(sharedBytes), 64},               \
       kernel __VA_OPT__(, ) __VA_ARGS__))
