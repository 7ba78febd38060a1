#pragma once
/// \file Float division rounded toward zero, for tl::div_rz on the CPU (tl.hpp) and __fdiv_rz in
/// the emulator (emu/device.hpp); HIP's tilec::rt::div_rz (hip/runtime.hpp) computes it alike.

#include <cmath>

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

} // namespace tl::detail
