#pragma once
/// \file Device helpers included by tilec's HIP output. The HIP-specific part is small: warp
/// (wavefront) size 64, shuffles, the 16-bit float conversions and the matrix-core instructions
/// (tilec/hip/matrix_core.hpp); the rest is tilec/rt/core.hpp.

#if defined(TILEC_EMULATE)
#include "../emu/hip.hpp" // tilec's CPU emulator (docs/emulation.md)
#else
#include <hip/hip_bfloat16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#endif
#include <math.h>
#include <stdint.h>

#include "fp8.hpp" // tilec::rt::fp8_e4m3, fp8_e5m2

#define TILEC_WARP_SIZE 64
// How a failed tl::device_assert stops the kernel (tilec::rt::assert_fail): a trap.
#define TILEC_STOP_AFTER_ASSERT(condition, file, line) __builtin_trap()
#ifndef TILEC_UNROLL // the CPU emulator does without
#define TILEC_UNROLL _Pragma("unroll")
#define TILEC_NO_UNROLL _Pragma("unroll 1")
#endif

namespace tilec::rt {
using f16_t = __half;
using bf16_t = hip_bfloat16;
using f8e4m3_t = fp8_e4m3;
using f8e5m2_t = fp8_e5m2;

// 16-bit floats compute in float; conversions to them round to nearest even.
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(hip_bfloat16 x) { return static_cast<float>(x); }
__device__ __forceinline__ __half to_f16(float x) { return __float2half(x); }
__device__ __forceinline__ hip_bfloat16 to_bf16(float x) { return hip_bfloat16(x); }
// tl::cast's rounding toward zero ("rtz"). AMD's device library rounds __float2half_rz and
// __double2float_rz to nearest (ROCm 5.2): x rounded to nearest, then moved to the next number
// toward zero when that rounding went past x (one step down the magnitude's bits, same sign; from
// infinity, the largest finite number). A NaN stays a NaN. tl.hpp's CPU reference computes alike.
namespace detail {
template <class Bits, class N, class W>
__device__ __forceinline__ N step_toward_zero(N nearest, W back, W x) {
  if (!((back < 0 ? -back : back) > (x < 0 ? -x : x)))
    return nearest;
  Bits b;
  __builtin_memcpy(&b, &nearest, sizeof b);
  b = static_cast<Bits>(b - 1);
  __builtin_memcpy(static_cast<void *>(&nearest), &b, sizeof b);
  return nearest;
}
} // namespace detail
__device__ __forceinline__ __half to_f16_toward_zero(float x) {
  const __half h = to_f16(x);
  return detail::step_toward_zero<uint16_t>(h, to_float(h), x);
}
__device__ __forceinline__ hip_bfloat16 to_bf16_toward_zero(float x) {
  const hip_bfloat16 h = to_bf16(x);
  return detail::step_toward_zero<uint16_t>(h, to_float(h), x);
}
__device__ __forceinline__ float to_float_toward_zero(double x) {
  const float f = static_cast<float>(x);
  return detail::step_toward_zero<uint32_t>(f, static_cast<double>(f), x);
}

// tl::exp, tl::exp2, tl::sigmoid and `/` on float tiles: the device library's fast forms, as on
// NVIDIA GPUs (cuda/runtime.cuh). The CPU emulator uses the C library and IEEE division.
__device__ __forceinline__ float exp2(float x) { return exp2f(x); }
#if defined(TILEC_EMULATE)
__device__ __forceinline__ float exp(float x) { return expf(x); }
__device__ __forceinline__ float fdiv(float a, float b) { return a / b; }
#else
__device__ __forceinline__ float exp(float x) { return __expf(x); }
__device__ __forceinline__ float fdiv(float a, float b) { return __fdividef(a, b); }
#endif
__device__ __forceinline__ float sigmoid(float x) { return fdiv(1.0f, 1.0f + exp(-x)); }
/// tl::div_rz: a / b rounded toward zero. AMD's device library has no such division: the quotient
/// rounded to nearest, moved one float toward zero when its exact remainder (fma) shows that it
/// went past a / b (tl.hpp's CPU reference computes it alike).
template <class F> __device__ __forceinline__ F div_rz_of(F a, F b, F q) { // q: a / b to nearest
  const F r = fma(-q, b, a);
  const F zero = 0;
  const bool past = (q > zero && (b > zero ? r < zero : r > zero)) ||
                    (q < zero && (b > zero ? r > zero : r < zero));
  return past ? nextafter(q, zero) : q;
}
__device__ __forceinline__ float div_rz(float a, float b) {
  return div_rz_of(a, b, __fdiv_rn(a, b));
}
__device__ __forceinline__ double div_rz(double a, double b) { return div_rz_of(a, b, a / b); }

/// The value of lane (lane ^ laneMask) in the 64-lane wavefront.
__device__ __forceinline__ int shfl_xor(int v, int m) { return __shfl_xor(v, m); }
__device__ __forceinline__ float shfl_xor(float v, int m) { return __shfl_xor(v, m); }
__device__ __forceinline__ int64_t shfl_xor(int64_t v, int m) {
  return static_cast<int64_t>(__shfl_xor(static_cast<long long>(v), m));
}
/// The value of lane `src` of the 64-lane wavefront.
__device__ __forceinline__ int shfl_idx(int v, int src) { return __shfl(v, src); }
__device__ __forceinline__ float shfl_idx(float v, int src) { return __shfl(v, src); }
__device__ __forceinline__ int64_t shfl_idx(int64_t v, int src) {
  return static_cast<int64_t>(__shfl(static_cast<long long>(v), src));
}
} // namespace tilec::rt

#if !defined(TILEC_EMULATE)   // (the emulator has atomicAdd for fp16 and bf16, as CUDA)
#define TILEC_ATOMIC_ADD_16 0 // fp16/bf16 atomic adds by compare-and-swap (tilec/rt/core.hpp)
#endif
#include "../rt/core.hpp"
#include "matrix_core.hpp"
