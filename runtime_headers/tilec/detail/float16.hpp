// tilec/detail/float16.hpp: the 16-bit float scalars tl::half (IEEE binary16) and tl::bfloat16.
// Part of tilec/tl.hpp; include that header, not this one.
//
// Both are plain structs holding the 16 bits. Conversions from arithmetic types round to nearest,
// ties to even, with correct NaN, infinity, overflow and subnormal handling; conversion to float is
// exact. Scalar arithmetic on them goes through the implicit conversion to float (ordinary C++);
// tile arithmetic rounds back to the element type after every operation (see tl.hpp).
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

namespace tl {
namespace detail {

/// `x / 2^s` rounded to nearest, ties to even (`s >= 1`). `x < 2^53`, so `s > 63` gives 0.
constexpr std::uint64_t shiftRightRne(std::uint64_t x, int s) {
  if (s > 63)
    return 0;
  const std::uint64_t q = x >> s;
  const std::uint64_t r = x & ((std::uint64_t{1} << s) - 1);
  const std::uint64_t halfway = std::uint64_t{1} << (s - 1);
  return (r > halfway || (r == halfway && (q & 1))) ? q + 1 : q;
}

/// The magnitude of `v` (finite, not NaN) rounded to nearest, ties to even, in a binary format with
/// EXP exponent bits (bias 2^(EXP-1) - 1) and MAN mantissa bits: its encoding without the sign,
/// which may run past the format's largest number (the caller saturates or overflows). Going
/// through double is exact for every float and every int32, so one rounding happens.
template <int EXP, int MAN> constexpr std::uint64_t roundMagnitude(double v) {
  const auto b = std::bit_cast<std::uint64_t>(v);
  const int e = static_cast<int>((b >> 52) & 0x7FF);
  const std::uint64_t frac = b & ((std::uint64_t{1} << 52) - 1);
  if (e == 0) // zero or a double subnormal: far below the smallest subnormal of these formats
    return 0;
  constexpr int bias = (1 << (EXP - 1)) - 1;
  const std::uint64_t sig = frac | (std::uint64_t{1} << 52); // v = sig * 2^(e - 1023 - 52)
  const int biased = e - 1023 + bias;
  if (biased >= 1) {
    // Normal: keep MAN bits after the leading one. A carry out of the mantissa bumps the exponent
    // field by one, which is exactly what adding it to the encoded value does.
    const std::uint64_t m = shiftRightRne(sig, 52 - MAN); // in [2^MAN, 2^(MAN+1)]
    return (static_cast<std::uint64_t>(biased - 1) << MAN) + m;
  }
  // Subnormal: fixed exponent 1 - bias, no implicit one. Rounding up to 2^MAN gives the smallest
  // normal number's encoding.
  return shiftRightRne(sig, 52 - MAN + 1 - biased);
}

/// Rounds `v` to a binary format with EXP exponent bits and MAN mantissa bits (sign in bit
/// EXP+MAN); round to nearest even, overflow to infinity, NaN to the canonical NaN 0x7FFF (as
/// NVIDIA GPUs convert: a negative NaN loses its sign, which tl::signbit then shows).
template <int EXP, int MAN> constexpr std::uint16_t roundToBits(double v) {
  const auto b = std::bit_cast<std::uint64_t>(v);
  const auto sign = static_cast<std::uint16_t>((b >> 63) << (EXP + MAN));
  constexpr std::uint64_t infBits = ((std::uint64_t{1} << EXP) - 1) << MAN;
  if (v != v) // NVIDIA's cvt gives the canonical NaN 0x7FFF whatever the sign and payload
    return static_cast<std::uint16_t>(infBits | ((std::uint64_t{1} << MAN) - 1));
  const std::uint64_t mag = ((b >> 52) & 0x7FF) == 0x7FF ? infBits : roundMagnitude<EXP, MAN>(v);
  return static_cast<std::uint16_t>(sign | (mag >= infBits ? infBits : mag));
}

/// Exact value of a 16-bit pattern (EXP exponent bits, MAN mantissa bits) as a float.
template <int EXP, int MAN> constexpr float bitsToFloat(std::uint16_t h) {
  if constexpr (EXP == 8) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(h) << 16); // bf16 = top half of a float
  } else {
    constexpr int bias = (1 << (EXP - 1)) - 1;
    const std::uint32_t sign = static_cast<std::uint32_t>(h >> (EXP + MAN)) << 31;
    const int e = (h >> MAN) & ((1 << EXP) - 1);
    std::uint32_t m = h & ((1u << MAN) - 1);
    std::uint32_t f;
    if (e == (1 << EXP) - 1) {
      f = sign | 0x7F800000u | (m << (23 - MAN)); // infinity, or NaN keeping its payload
    } else if (e == 0) {
      if (m == 0) {
        f = sign;
      } else { // subnormal: normalize (always a normal float for binary16)
        int exp = 1 - bias;
        while (!(m & (1u << MAN))) {
          m <<= 1;
          --exp;
        }
        f = sign | (static_cast<std::uint32_t>(exp + 127) << 23) |
            ((m & ((1u << MAN) - 1)) << (23 - MAN));
      }
    } else {
      f = sign | (static_cast<std::uint32_t>(e - bias + 127) << 23) | (m << (23 - MAN));
    }
    return std::bit_cast<float>(f);
  }
}

} // namespace detail

/// IEEE binary16 (fp16): 1 sign, 5 exponent, 10 mantissa bits.
struct half {
  std::uint16_t bits = 0;

  constexpr half() = default;
  /// Rounds to nearest even. Implicit, so `tl::half h = 0.5f;` works.
  template <class U>
    requires std::is_arithmetic_v<U>
  constexpr half(U v) : bits(detail::roundToBits<5, 10>(static_cast<double>(v))) {}
  /// Exact.
  constexpr operator float() const { return detail::bitsToFloat<5, 10>(bits); }
  static constexpr half fromBits(std::uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
};

/// bfloat16: 1 sign, 8 exponent, 7 mantissa bits (the top half of a float).
struct bfloat16 {
  std::uint16_t bits = 0;

  constexpr bfloat16() = default;
  /// Rounds to nearest even. Implicit, so `tl::bfloat16 b = 0.5f;` works.
  template <class U>
    requires std::is_arithmetic_v<U>
  constexpr bfloat16(U v) : bits(detail::roundToBits<8, 7>(static_cast<double>(v))) {}
  /// Exact.
  constexpr operator float() const { return detail::bitsToFloat<8, 7>(bits); }
  static constexpr bfloat16 fromBits(std::uint16_t b) {
    bfloat16 h;
    h.bits = b;
    return h;
  }
};

} // namespace tl
