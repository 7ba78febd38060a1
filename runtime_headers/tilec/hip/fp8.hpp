#pragma once
/// \file The 8-bit floats of tilec's HIP output, `tilec::rt::fp8_e4m3` (tl::float8_e4m3: E4M3FN,
/// Triton's float8e4nv) and `tilec::rt::fp8_e5m2` (tl::float8_e5m2). ROCm 5.2 has no fp8 types
/// and gfx90a no fp8 instructions, so these hold the bits and convert in software, with the
/// meaning of tl.hpp's CPU reference and of CUDA's cvt.rn.satfinite: to nearest even, a magnitude
/// past the largest finite number (infinity too) saturated to it, NaN to 0x7F. Back to float is
/// exact. tilec/hip/runtime.hpp includes this; so does a launcher header whose kernels take fp8.

#if defined(TILEC_EMULATE)
#include "../emu/hip.hpp" // tilec's CPU emulator (docs/emulation.md)
#else
#include <hip/hip_runtime.h>
#endif
#include <math.h>
#include <stdint.h>

namespace tilec::rt {

#if defined(TILEC_EMULATE)
// The emulator runs the CUDA and the HIP output with one host program, so the types are tl.hpp's
// (as hip_bfloat16 is there); the conversions below are still HIP's own.
using fp8_e4m3 = tl::float8_e4m3;
using fp8_e5m2 = tl::float8_e5m2;
#else
struct fp8_e4m3 {
  uint8_t bits;
};
struct fp8_e5m2 {
  uint8_t bits;
};
#endif

namespace detail {
/// x as an 8-bit float with MAN mantissa bits, exponent bias BIAS and largest finite magnitude
/// encoded MAX.
template <int MAN, int BIAS, uint32_t MAX>
__host__ __device__ inline uint8_t float_to_fp8(float x) {
  if (x != x)
    return 0x7F;
  uint32_t b;
  __builtin_memcpy(&b, &x, sizeof b);
  const uint32_t sign = (b >> 24) & 0x80u;
  const uint32_t magnitude = b & 0x7FFFFFFFu; // |x|'s bits
  constexpr uint32_t smallest_normal = static_cast<uint32_t>(127 + 1 - BIAS) << 23;
  uint32_t code;
  if (magnitude < smallest_normal) {
    // Subnormal: |x| in units of the smallest subnormal 2^(1 - BIAS - MAN) (an exact scaling),
    // rounded to nearest even; 2^MAN units is the smallest normal number's code.
    constexpr uint32_t unit_bits = static_cast<uint32_t>(127 + BIAS - 1 + MAN) << 23;
    float unit;
    __builtin_memcpy(&unit, &unit_bits, sizeof unit);
    code = static_cast<uint32_t>(rintf(fabsf(x) * unit));
  } else {
    // Normal: drop 23 - MAN mantissa bits rounding to nearest even (a carry moves into the
    // exponent), then move the exponent to the fp8 bias. Infinity ends far past MAX.
    constexpr int drop = 23 - MAN;
    const uint32_t rounded = magnitude + ((1u << (drop - 1)) - 1u) + ((magnitude >> drop) & 1u);
    code = (rounded >> drop) - (static_cast<uint32_t>(127 - BIAS) << MAN);
  }
  return static_cast<uint8_t>(sign | (code > MAX ? MAX : code));
}

/// The value of an 8-bit float's bits. FINITE (E4M3FN): no infinities, only 0x7F and 0xFF are
/// NaN; otherwise (E5M2) an all-ones exponent is infinity or NaN.
template <int MAN, int BIAS, bool FINITE> __host__ __device__ inline float fp8_to_float(uint8_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x80u) << 24;
  const uint32_t e = (h & 0x7Fu) >> MAN, m = h & ((1u << MAN) - 1u);
  constexpr uint32_t all_ones = 0x7Fu >> MAN;
  uint32_t bits;
  if (FINITE ? (h & 0x7Fu) == 0x7Fu : e == all_ones) {
    bits = sign | 0x7F800000u | (m << (23 - MAN)); // NaN, or (m == 0) infinity
  } else if (e == 0) {
    const float v = static_cast<float>(m) * ldexpf(1.0f, 1 - BIAS - MAN); // exact
    return sign ? -v : v;
  } else {
    bits = sign | ((e - BIAS + 127) << 23) | (m << (23 - MAN));
  }
  float f;
  __builtin_memcpy(&f, &bits, sizeof f);
  return f;
}
/// An fp8 value of these bits.
template <class F> __host__ __device__ inline F fp8_of_bits(uint8_t bits) {
  F f;
  __builtin_memcpy(static_cast<void *>(&f), &bits, 1);
  return f;
}
} // namespace detail

__host__ __device__ inline float to_float(fp8_e4m3 x) {
  return detail::fp8_to_float<3, 7, true>(x.bits);
}
__host__ __device__ inline float to_float(fp8_e5m2 x) {
  return detail::fp8_to_float<2, 15, false>(x.bits);
}
__host__ __device__ inline fp8_e4m3 to_f8e4m3(float x) {
  return detail::fp8_of_bits<fp8_e4m3>(detail::float_to_fp8<3, 7, 0x7E>(x));
}
__host__ __device__ inline fp8_e5m2 to_f8e5m2(float x) {
  return detail::fp8_of_bits<fp8_e5m2>(detail::float_to_fp8<2, 15, 0x7B>(x));
}

} // namespace tilec::rt
