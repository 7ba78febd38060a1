#pragma once
/// \file Device helpers included by tilec's CUDA output. The CUDA-specific part is small: warp
/// size, shuffles and the 16-bit float conversions; everything else is tilec/rt/core.hpp.

#if defined(TILEC_EMULATE)
#include "../emu/cuda.hpp" // tilec's CPU emulator (docs/emulation.md)
#else
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#endif
#include <math.h>
#include <stdint.h>

#define TILEC_WARP_SIZE 32
#ifndef TILEC_UNROLL // the CPU emulator does without
#define TILEC_UNROLL _Pragma("unroll")
#endif

namespace tilec::rt {
using f16_t = __half;
using bf16_t = __nv_bfloat16;

// 16-bit floats compute in float; conversions to them round to nearest even.
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ __half to_f16(float x) { return __float2half_rn(x); }
__device__ __forceinline__ __nv_bfloat16 to_bf16(float x) { return __float2bfloat16_rn(x); }

/// The value of lane (lane ^ laneMask); all 32 lanes of the warp take part.
__device__ __forceinline__ int shfl_xor(int v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
__device__ __forceinline__ float shfl_xor(float v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
__device__ __forceinline__ int64_t shfl_xor(int64_t v, int m) {
  return static_cast<int64_t>(__shfl_xor_sync(0xffffffffu, static_cast<long long>(v), m));
}
} // namespace tilec::rt

#include "../rt/core.hpp"
