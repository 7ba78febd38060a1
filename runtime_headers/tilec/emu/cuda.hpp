#pragma once
/// \file CUDA's built-ins for tilec's CPU emulator (tilec/emu/emu.hpp): what tilec's CUDA output
/// and tilec/cuda/runtime.cuh use, with 32-lane warps. tilec/cuda/runtime.cuh includes this instead
/// of the CUDA headers when TILEC_EMULATE is defined.

#if defined(TILEC_EMU_WARP_SIZE) && TILEC_EMU_WARP_SIZE != 32
#error "tilec/emu/cuda.hpp and tilec/emu/hip.hpp cannot be used in one translation unit"
#endif
#define TILEC_EMU_WARP_SIZE 32

#include "device.hpp"
#include "host.hpp"

constexpr int warpSize = 32;

using __nv_bfloat16 = tl::bfloat16;
TILEC_EMU_BUILTIN float __bfloat162float(__nv_bfloat16 x) { return static_cast<float>(x); }
TILEC_EMU_BUILTIN __nv_bfloat16 __float2bfloat16(float x) { return __nv_bfloat16(x); }
TILEC_EMU_BUILTIN __nv_bfloat16 __float2bfloat16_rn(float x) { return __nv_bfloat16(x); }
TILEC_EMU_BUILTIN __nv_bfloat16 __float2bfloat16_rz(float x) {
  return tl::detail::narrowTowardZero<__nv_bfloat16>(x);
}
// cuda_fp8.h's types: constructed from a float with __NV_SATFINITE, converted to float exactly.
using __nv_fp8_e4m3 = tl::float8_e4m3;
using __nv_fp8_e5m2 = tl::float8_e5m2;

// Warp shuffles and votes: every lane named in `mask` must take part (tilec/emu/emu.hpp, warp_op).
#define TILEC_EMU_SHUFFLES(T)                                                                      \
  TILEC_EMU_BUILTIN T __shfl_xor_sync(unsigned mask, T v, int laneMask, int width = 32) {          \
    return ::tilec::emu::detail::shuffle(::tilec::emu::WarpOp::ShflXor, mask, v, laneMask, width,  \
                                         "__shfl_xor_sync");                                       \
  }                                                                                                \
  TILEC_EMU_BUILTIN T __shfl_sync(unsigned mask, T v, int srcLane, int width = 32) {               \
    return ::tilec::emu::detail::shuffle(::tilec::emu::WarpOp::Shfl, mask, v, srcLane, width,      \
                                         "__shfl_sync");                                           \
  }                                                                                                \
  TILEC_EMU_BUILTIN T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32) {         \
    return ::tilec::emu::detail::shuffle(::tilec::emu::WarpOp::ShflUp, mask, v, int(delta), width, \
                                         "__shfl_up_sync");                                        \
  }                                                                                                \
  TILEC_EMU_BUILTIN T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32) {       \
    return ::tilec::emu::detail::shuffle(::tilec::emu::WarpOp::ShflDown, mask, v, int(delta),      \
                                         width, "__shfl_down_sync");                               \
  }
TILEC_EMU_SHUFFLES(int)
TILEC_EMU_SHUFFLES(unsigned)
TILEC_EMU_SHUFFLES(long long)
TILEC_EMU_SHUFFLES(unsigned long long)
TILEC_EMU_SHUFFLES(float)
TILEC_EMU_SHUFFLES(double)
#undef TILEC_EMU_SHUFFLES

TILEC_EMU_BUILTIN unsigned __ballot_sync(unsigned mask, int pred) {
  return static_cast<unsigned>(
      ::tilec::emu::warp_op(::tilec::emu::WarpOp::Ballot, mask, pred != 0, 0, 32, "__ballot_sync"));
}
TILEC_EMU_BUILTIN int __any_sync(unsigned mask, int pred) {
  return static_cast<int>(
      ::tilec::emu::warp_op(::tilec::emu::WarpOp::Any, mask, pred != 0, 0, 32, "__any_sync"));
}
TILEC_EMU_BUILTIN int __all_sync(unsigned mask, int pred) {
  return static_cast<int>(
      ::tilec::emu::warp_op(::tilec::emu::WarpOp::All, mask, pred != 0, 0, 32, "__all_sync"));
}

// ---- launch: the CUDA runtime's type-checked C++ template, as tilec's launchers call it
// ----------
struct cudaLaunchAttribute;
struct cudaLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned numAttrs;
};
template <class... P, class... A>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, void (*kernel)(P...),
                               A &&...args) {
  const tilec::emu::LaunchConfig c{config->gridDim, config->blockDim, config->dynamicSmemBytes, 32};
  return tilec::emu::launch_kernel(c, kernel, std::forward<A>(args)...);
}
