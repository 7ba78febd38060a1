#pragma once
/// \file Device helpers included by tilec's CUDA output. The CUDA-specific part is small: warp
/// size, shuffles and the 16-bit float conversions, and the matrix instructions
/// (tilec/cuda/tensor_core.cuh); everything else is tilec/rt/core.hpp.

#if defined(TILEC_EMULATE)
#include "../emu/cuda.hpp" // tilec's CPU emulator (docs/emulation.md)
#else
#include <assert.h> // __assert_fail (tl::device_assert)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <stdio.h> // printf (tl::device_assert)
#endif
#include <math.h>
#include <stdint.h>

#define TILEC_WARP_SIZE 32
// How a failed tl::device_assert stops the kernel (tilec::rt::assert_fail): CUDA's assert, so the
// launch fails with cudaErrorAssert (glibc declares __assert_fail only without NDEBUG, when
// nothing calls assert_fail anyway).
#if !defined(NDEBUG)
#define TILEC_STOP_AFTER_ASSERT(condition, file, line)                                             \
  __assert_fail(condition, file, static_cast<unsigned>(line), "tl::device_assert")
#else
#define TILEC_STOP_AFTER_ASSERT(condition, file, line) __trap()
#endif
#ifndef TILEC_UNROLL // the CPU emulator does without
#define TILEC_UNROLL _Pragma("unroll")
#define TILEC_NO_UNROLL _Pragma("unroll 1")
#endif

namespace tilec::rt {
using f16_t = __half;
using bf16_t = __nv_bfloat16;

// 16-bit floats compute in float; conversions to them round to nearest even.
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ __half to_f16(float x) { return __float2half_rn(x); }
__device__ __forceinline__ __nv_bfloat16 to_bf16(float x) { return __float2bfloat16_rn(x); }
// tl::cast's rounding toward zero ("rtz"): cvt.rz, as Triton's. fp64 goes to float first (the
// emitter: exact for the 16-bit results).
__device__ __forceinline__ __half to_f16_toward_zero(float x) { return __float2half_rz(x); }
__device__ __forceinline__ __nv_bfloat16 to_bf16_toward_zero(float x) {
  return __float2bfloat16_rz(x);
}
__device__ __forceinline__ float to_float_toward_zero(double x) { return __double2float_rz(x); }
// fp8 (tl::float8_e4m3, tl::float8_e5m2) computes in float. A conversion to it rounds to nearest
// even and saturates (infinity too), NaN to NaN: cuda_fp8.h's __NV_SATFINITE, on sm_89 and later
// PTX's cvt.rn.satfinite.e4m3x2.f32, as Triton's casts. Back to float is exact.
using f8e4m3_t = __nv_fp8_e4m3;
using f8e5m2_t = __nv_fp8_e5m2;
__device__ __forceinline__ float to_float(__nv_fp8_e4m3 x) { return static_cast<float>(x); }
__device__ __forceinline__ float to_float(__nv_fp8_e5m2 x) { return static_cast<float>(x); }
__device__ __forceinline__ __nv_fp8_e4m3 to_f8e4m3(float x) { return __nv_fp8_e4m3(x); }
__device__ __forceinline__ __nv_fp8_e5m2 to_f8e5m2(float x) { return __nv_fp8_e5m2(x); }
#if !defined(TILEC_EMULATE)
// 16-bit +, -, *, max and min in the GPU's 16-bit instructions (tilec/rt/core.hpp computes them in
// float for the other targets: the same values). The _rn forms round once to nearest even and are
// never contracted into an fma; max and min return an operand (a NaN loses, signaling or quiet:
// tests/gpu/convert.cu checks every kind of operand against the CPU reference).
__device__ __forceinline__ __half hadd(__half a, __half b) { return __hadd_rn(a, b); }
__device__ __forceinline__ __half hsub(__half a, __half b) { return __hsub_rn(a, b); }
__device__ __forceinline__ __half hmul(__half a, __half b) { return __hmul_rn(a, b); }
__device__ __forceinline__ __half hmax(__half a, __half b) { return __hmax(a, b); }
__device__ __forceinline__ __half hmin(__half a, __half b) { return __hmin(a, b); }
__device__ __forceinline__ __nv_bfloat16 hadd(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hadd_rn(a, b);
}
__device__ __forceinline__ __nv_bfloat16 hsub(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hsub_rn(a, b);
}
__device__ __forceinline__ __nv_bfloat16 hmul(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hmul_rn(a, b);
}
__device__ __forceinline__ __nv_bfloat16 hmax(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hmax(a, b);
}
__device__ __forceinline__ __nv_bfloat16 hmin(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hmin(a, b);
}
#endif

// tl::exp, tl::exp2, tl::sigmoid and `/` on float tiles, computed as Triton computes them on NVIDIA
// GPUs: ex2.approx (2 ulp; exp multiplies by log2(e) first) and div.full (2 ulp, full range). The CPU
// emulator uses the C library and IEEE division.
__device__ __forceinline__ float exp2(float x) {
#if defined(TILEC_EMULATE)
  return exp2f(x);
#else
  float y;
  asm("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#endif
}
__device__ __forceinline__ float exp(float x) {
#if defined(TILEC_EMULATE)
  return expf(x);
#else
  return exp2(x * 1.4426950408889634f);
#endif
}
__device__ __forceinline__ float fdiv(float a, float b) {
#if defined(TILEC_EMULATE)
  return a / b;
#else
  float q;
  asm("div.full.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
  return q;
#endif
}
__device__ __forceinline__ float sigmoid(float x) { return fdiv(1.0f, 1.0f + exp(-x)); }
/// tl::div_rz: a / b rounded toward zero (the hardware's rounding mode).
__device__ __forceinline__ float div_rz(float a, float b) { return __fdiv_rz(a, b); }
__device__ __forceinline__ double div_rz(double a, double b) { return __ddiv_rz(a, b); }

/// Barrier `id` (1 to 15; 0 is __syncthreads()'s) among `threads` threads of the block, a multiple
/// of 32 (whole warps), all calling it with the same id and count (`bar.sync id, threads`): what
/// they wrote to shared memory before it is visible to all of them after it, and the block's other
/// threads are not waited for (a warp-specialized kernel's consumers, apart from its producer).
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
#if defined(TILEC_EMULATE)
  ::tilec::emu::named_barrier(id, threads);
#else
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
#endif
}

/// The value of lane (lane ^ laneMask); all 32 lanes of the warp take part.
__device__ __forceinline__ int shfl_xor(int v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
__device__ __forceinline__ float shfl_xor(float v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
__device__ __forceinline__ int64_t shfl_xor(int64_t v, int m) {
  return static_cast<int64_t>(__shfl_xor_sync(0xffffffffu, static_cast<long long>(v), m));
}
/// The value of lane `src`; all 32 lanes of the warp take part.
__device__ __forceinline__ int shfl_idx(int v, int src) { return __shfl_sync(0xffffffffu, v, src); }
__device__ __forceinline__ float shfl_idx(float v, int src) {
  return __shfl_sync(0xffffffffu, v, src);
}
__device__ __forceinline__ int64_t shfl_idx(int64_t v, int src) {
  return static_cast<int64_t>(__shfl_sync(0xffffffffu, static_cast<long long>(v), src));
}
} // namespace tilec::rt

#include "../rt/core.hpp"
#include "mbarrier.cuh"
#include "tensor_core.cuh"
#include "tma.cuh"
#include "warp_specialize.cuh"
#include "wgmma.cuh"
