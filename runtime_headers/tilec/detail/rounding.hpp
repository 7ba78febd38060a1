#pragma once
/// \file Float division and narrowing conversions rounded toward zero, for tl::div_rz and
/// tl::cast's "rtz" on the CPU (tl.hpp) and __fdiv_rz, __float2half_rz ... in the emulator
/// (emu/device.hpp); HIP's tilec::rt::div_rz and to_f16_toward_zero ... (hip/runtime.hpp) compute
/// them alike.

#include <cmath>
#include <type_traits>

#include "float16.hpp"

namespace tl::detail {

/// a / b rounded toward zero, from the division rounded to nearest: the exact remainder of that
/// quotient (fma) says whether it went past a / b, and then the next float toward zero is the
/// answer (an overflow to infinity gives FLT_MAX). The emulator's __fdiv_rz computes the same.
/// (float or double)
template <class F> inline F divTowardZero(F a, F b) {
  const F q = a / b;
  const F r = std::fma(-q, b, a);
  const bool past = (q > F(0) && (b > F(0) ? r < F(0) : r > F(0))) ||
                    (q < F(0) && (b > F(0) ? r > F(0) : r < F(0)));
  return past ? std::nextafter(q, F(0)) : q;
}

/// x narrowed to T (float, tl::half or tl::bfloat16) rounding toward zero: x rounded to nearest,
/// moved to the next T toward zero when that rounding went past x (one step down the magnitude's
/// bits, same sign; from infinity, the largest finite T). A NaN stays a NaN.
template <class T> inline T narrowTowardZero(double x) {
  const T nearest = static_cast<T>(x);
  const double back = static_cast<float>(nearest);
  if (!(std::fabs(back) > std::fabs(x)))
    return nearest;
  if constexpr (std::is_same_v<T, float>)
    return std::nextafter(nearest, 0.0f);
  else
    return T::fromBits(static_cast<std::uint16_t>(nearest.bits - 1));
}

} // namespace tl::detail
