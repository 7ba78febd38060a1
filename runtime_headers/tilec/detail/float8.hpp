// tilec/detail/float8.hpp: the 8-bit float scalars tl::float8_e4m3 (Triton's float8e4nv, OCP's
// E4M3FN) and tl::float8_e5m2 (Triton's float8e5). Part of tilec/tl.hpp; include that header, not
// this one. The HIP runtime uses the same structs as its fp8 types (ROCm 5.2 has none).
//
// Both are plain structs holding the 8 bits. Conversions from arithmetic types round to nearest,
// ties to even, and saturate: a magnitude past the largest finite number, infinity included,
// becomes that number with its sign (448 for e4m3, 57344 for e5m2), as PTX's
// `cvt.rn.satfinite.e4m3x2.f32` and Triton's casts do. A NaN becomes the NaN 0x7F. Conversion to
// float is exact.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "float16.hpp"

namespace tl {
namespace detail {

/// `v` as an 8-bit float with EXP exponent bits and MAN mantissa bits whose largest finite
/// magnitude is encoded MAX: rounded to nearest even, saturated to +-MAX, NaN to 0x7F.
template <int EXP, int MAN, std::uint8_t MAX> constexpr std::uint8_t roundToFloat8(double v) {
  if (v != v)
    return 0x7F;
  const auto b = std::bit_cast<std::uint64_t>(v);
  const auto sign = static_cast<std::uint8_t>((b >> 63) << 7);
  const bool infinite = ((b >> 52) & 0x7FF) == 0x7FF;
  const std::uint64_t mag = infinite ? MAX : roundMagnitude<EXP, MAN>(v);
  return static_cast<std::uint8_t>(sign | (mag > MAX ? MAX : mag));
}

/// The value of an 8-bit float pattern (EXP exponent bits, MAN mantissa bits, bias 2^(EXP-1) - 1).
/// FINITE: the format has no infinities and only the all-ones pattern is a NaN (E4M3FN);
/// otherwise an all-ones exponent is infinity or NaN, as in IEEE formats (E5M2).
template <int EXP, int MAN, bool FINITE> constexpr float float8Value(std::uint8_t h) {
  constexpr int bias = (1 << (EXP - 1)) - 1;
  const std::uint32_t sign = static_cast<std::uint32_t>(h >> 7) << 31;
  const int e = (h >> MAN) & ((1 << EXP) - 1);
  const std::uint32_t m = h & ((1u << MAN) - 1);
  constexpr int topExp = (1 << EXP) - 1;
  if (FINITE ? (e == topExp && m == (1u << MAN) - 1) : (e == topExp && m != 0))
    return std::bit_cast<float>(sign | 0x7FC00000u); // NaN
  if (!FINITE && e == topExp)
    return std::bit_cast<float>(sign | 0x7F800000u); // infinity
  if (e == 0) {
    // Subnormal: m * 2^(1 - bias - MAN), a normal float; the scale is a power of two.
    constexpr float scale =
        std::bit_cast<float>(static_cast<std::uint32_t>(127 + 1 - bias - MAN) << 23);
    const float mag = static_cast<float>(m) * scale;
    return sign ? -mag : mag;
  }
  return std::bit_cast<float>(sign | (static_cast<std::uint32_t>(e - bias + 127) << 23) |
                              (m << (23 - MAN)));
}

} // namespace detail

/// E4M3FN (Triton's float8e4nv): 1 sign, 4 exponent (bias 7), 3 mantissa bits; no infinities,
/// NaN 0x7F and 0xFF, largest finite 448 (0x7E), smallest subnormal 2^-9.
struct float8_e4m3 {
  std::uint8_t bits = 0;

  constexpr float8_e4m3() = default;
  /// Rounds to nearest even and saturates. Implicit, so `tl::float8_e4m3 q = 0.5f;` works.
  template <class U>
  requires std::is_arithmetic_v<U>
  constexpr float8_e4m3(U v) : bits(detail::roundToFloat8<4, 3, 0x7E>(static_cast<double>(v))) {}
  /// Exact.
  constexpr operator float() const { return detail::float8Value<4, 3, true>(bits); }
  static constexpr float8_e4m3 fromBits(std::uint8_t b) {
    float8_e4m3 h;
    h.bits = b;
    return h;
  }
};

/// E5M2 (Triton's float8e5): 1 sign, 5 exponent (bias 15), 2 mantissa bits, as IEEE formats (the
/// top half of an fp16): infinities 0x7C and 0xFC, largest finite 57344 (0x7B), smallest
/// subnormal 2^-16.
struct float8_e5m2 {
  std::uint8_t bits = 0;

  constexpr float8_e5m2() = default;
  /// Rounds to nearest even and saturates (infinity too). Implicit.
  template <class U>
  requires std::is_arithmetic_v<U>
  constexpr float8_e5m2(U v) : bits(detail::roundToFloat8<5, 2, 0x7B>(static_cast<double>(v))) {}
  /// Exact.
  constexpr operator float() const { return detail::float8Value<5, 2, false>(bits); }
  static constexpr float8_e5m2 fromBits(std::uint8_t b) {
    float8_e5m2 h;
    h.bits = b;
    return h;
  }
};

} // namespace tl
