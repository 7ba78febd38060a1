#pragma once
/// \file Float division rounded toward zero, for tl::div_rz on the CPU (tl.hpp) and __fdiv_rz in
/// the emulator (emu/device.hpp); HIP's tilec::rt::div_rz (hip/runtime.hpp) computes it alike.

#include <cmath>

namespace tl::detail {

/// a / b rounded toward zero, from the division rounded to nearest: the exact remainder of that
/// quotient (fma) says whether it went past a / b, and then the next float toward zero is the
/// answer (an overflow to infinity gives FLT_MAX). The emulator's __fdiv_rz computes the same.
inline float divTowardZero(float a, float b) {
  const float q = a / b;
  const float r = std::fma(-q, b, a);
  const bool past = (q > 0.0f && (b > 0.0f ? r < 0.0f : r > 0.0f)) || (q < 0.0f && (b > 0.0f ? r > 0.0f : r < 0.0f));
  return past ? std::nextafter(q, 0.0f) : q;
}

} // namespace tl::detail
