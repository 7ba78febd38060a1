// Support for the operator matrix's generated host programs (tests/matrix/gen.py): inputs drawn
// from an operation's domain (with NaN, infinities and signed zeros where the operation defines
// them), outputs poisoned before the run, and three comparisons per output:
//   - every element outside the written region (masked off, between rows, past the end) keeps the
//     poison, in the CPU reference's copy and in the generated code's;
//   - every written element of both copies is within the operation's tolerance of a float64 (or
//     exact integer) oracle computed here from the inputs, independently of tl.hpp;
//   - for operations that are exact by definition, the generated code's bits equal the reference's.
//
// The same program builds for the emulator (-DTILEC_EMULATE, -DTILEC_EMULATE_HIP for the HIP output)
// and with nvcc for an NVIDIA GPU.
#pragma once

#include "difftest.h"

#include <bit>
#include <cinttypes>
#include <functional>

namespace matrix {

using difftest::Buffer;
using difftest::Run;

/// With `--mutate` every oracle is wrong on purpose (gen.py): every kernel must fail then.
inline bool mutated = false;
inline bool flag(int argc, char **argv, const char *name) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], name) == 0)
      return true;
  return false;
}

/// The elements a kernel writes: rank 1, `n` elements from 0; rank 2, `rows` rows of `cols`
/// elements, `stride` apart.
struct Region {
  size_t rows, cols, stride;
  size_t size() const { return (rows - 1) * stride + cols; }
  bool contains(size_t i) const { return i / stride < rows && i % stride < cols; }
};

/// What an input holds: uniform values in [lo, hi]; with `whole`, rounded to whole numbers (so that
/// equal operands and zeros are common); with `alternate`, every other element negated (a divisor
/// domain such as +-[0.5, 8]); `avoid` lists integers replaced by the next one up (zero and -1 for
/// integer divisors); every `specialsEvery`-th element (when > 0) one of NaN, +inf, -inf, -0.0,
/// +0.0 (floating-point types only).
struct Domain {
  long double lo, hi;
  bool whole = false, alternate = false;
  int specialsEvery = 0;
  std::vector<long long> avoid = {};
};

template <class T> Buffer<T> input(const Region &r, const Domain &d, uint64_t seed) {
  Buffer<T> b = difftest::input<T>(r.size(), d.lo, d.hi, seed);
  T *p = b.ref();
  for (size_t i = 0; i < r.size() + difftest::kGuard; ++i) {
    if constexpr (std::is_integral_v<T>) {
      if (!std::is_same_v<T, bool>) {
        if (d.alternate && i % 2)
          p[i] = static_cast<T>(-p[i]);
        for (bool again = true; again;) {
          again = false;
          for (long long a : d.avoid)
            if (static_cast<long long>(p[i]) == a) {
              p[i] = static_cast<T>(p[i] + 1);
              again = true;
            }
        }
      }
    } else {
      if (d.whole)
        p[i] = T(std::round(static_cast<float>(p[i])));
      if (d.alternate && i % 2)
        p[i] = T(-static_cast<float>(p[i]));
      if (d.specialsEvery > 0 && i % d.specialsEvery == 1) {
        static const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                                         std::numeric_limits<float>::infinity(),
                                         -std::numeric_limits<float>::infinity(), -0.0f, 0.0f};
        p[i] = T(specials[(i / d.specialsEvery) % 5]);
      }
    }
  }
  b.upload();
  return b;
}

/// A scalar argument as the generated launcher takes it (tl::half as the target's 16-bit type).
template <class T> typename difftest::DeviceType<T>::type toDevice(T v) {
  typename difftest::DeviceType<T>::type d;
  static_assert(sizeof d == sizeof v);
  std::memcpy(static_cast<void *>(&d), &v, sizeof d);
  return d;
}

/// An element as the oracle sees it: floats exactly as double, integers as __int128, bools as 0/1.
template <class T> double asDouble(T v) { return static_cast<double>(static_cast<float>(v)); }
template <> inline double asDouble<double>(double v) { return v; }

/// Bits of an element (for the poison check and the bit-for-bit comparison).
template <class T> uint64_t bitsOf(const T &v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T> bool isNan(const T &v) {
  if constexpr (std::is_integral_v<T>)
    return false;
  else
    return std::isnan(static_cast<double>(v));
}

/// The unit in the last place at 1 (epsilon) and the smallest subnormal of a floating-point type.
template <class T> constexpr double epsilonOf() {
  if constexpr (std::is_same_v<T, tl::float8_e4m3>)
    return 0x1p-3;
  else if constexpr (std::is_same_v<T, tl::float8_e5m2>)
    return 0x1p-2;
  else if constexpr (std::is_same_v<T, tl::half>)
    return 0x1p-10;
  else if constexpr (std::is_same_v<T, tl::bfloat16>)
    return 0x1p-7;
  else if constexpr (std::is_same_v<T, double>)
    return 0x1p-52;
  else
    return 0x1p-23;
}
template <class T> constexpr double tinyOf() {
  if constexpr (std::is_same_v<T, tl::float8_e4m3>)
    return 0x1p-9;
  else if constexpr (std::is_same_v<T, tl::float8_e5m2>)
    return 0x1p-16;
  else if constexpr (std::is_same_v<T, tl::half>)
    return 0x1p-24;
  else if constexpr (std::is_same_v<T, tl::bfloat16>)
    return 0x1p-133;
  else if constexpr (std::is_same_v<T, double>)
    return 0x1p-1074;
  else
    return 0x1p-149;
}
/// The largest finite value of a floating-point type, and the magnitude from which a value rounds
/// to infinity (halfway to the next power of two's first step).
template <class T> constexpr double overflowOf() {
  if constexpr (std::is_same_v<T, tl::half>)
    return 65520.0;
  else if constexpr (std::is_same_v<T, tl::bfloat16>)
    return 0x1.ffp127; // 0x1.fep127 + half an ulp
  else if constexpr (std::is_same_v<T, double>)
    return std::numeric_limits<double>::infinity(); // (no double result overflows here)
  else
    return 0x1.ffffffp127;
}
/// The fp8 types saturate instead (docs/language.md "fp8"): their largest finite value, or 0.
template <class T> constexpr double saturationOf() {
  if constexpr (std::is_same_v<T, tl::float8_e4m3>)
    return 448.0;
  else if constexpr (std::is_same_v<T, tl::float8_e5m2>)
    return 57344.0;
  else
    return 0.0;
}

/// The tolerance of a floating-point result against the oracle: `ulps` units in the last place of
/// the result type, relative to max(|exact|, floor) (a floor of 1 makes it absolute below 1, for
/// functions whose zeros float math cannot place exactly), plus two of the smallest subnormal.
struct Tolerance {
  double ulps, floor = 0;
};

/// One output of one kernel: checks the CPU reference's copy and the generated code's.
template <class R> class Check {
public:
  Check(Run &run, const char *kernel, const char *name, const Buffer<R> &out, const Region &region)
      : run_(run), kernel_(kernel), name_(name), out_(out), region_(region), got_(out.download()) {}

  /// Outside the region: the poison, on both sides, bit for bit.
  void poisonKept() {
    const R *ref = const_cast<Buffer<R> &>(out_).ref();
    R poison;
    std::memset(static_cast<void *>(&poison), difftest::kPoison, sizeof(R));
    for (size_t i = 0; i < region_.size() + difftest::kGuard; ++i) {
      if (i < region_.size() && region_.contains(i))
        continue;
      if (bitsOf(ref[i]) != bitsOf(poison))
        fail(i, "reference", "wrote outside the region");
      if (bitsOf(got_[i]) != bitsOf(poison))
        fail(i, "generated", "wrote outside the region");
    }
  }

  /// Written elements equal bit for bit (NaN equal to NaN).
  void sameBits() {
    const R *ref = const_cast<Buffer<R> &>(out_).ref();
    forRegion([&](size_t i) {
      if (bitsOf(got_[i]) != bitsOf(ref[i]) && !(isNan(got_[i]) && isNan(ref[i]))) {
        char line[160];
        std::snprintf(line, sizeof line, "generated %s, reference %s (exact)", show(got_[i]).c_str(),
                      show(ref[i]).c_str());
        fail(i, "generated", line);
      }
    });
  }

  /// An integer or bool result equal to the oracle's on both sides.
  template <class F> void exact(F oracle) {
    const R *ref = const_cast<Buffer<R> &>(out_).ref();
    forRegion([&](size_t i) {
      const R want = static_cast<R>(oracle(i));
      for (int side = 0; side < 2; ++side) {
        const R v = side ? got_[i] : ref[i];
        if (bitsOf(v) != bitsOf(want)) {
          char line[160];
          std::snprintf(line, sizeof line, "%s, float64 oracle %s", show(v).c_str(), show(want).c_str());
          fail(i, side ? "generated" : "reference", line);
        }
      }
    });
  }

  /// A floating-point result within `tol` of the oracle's exact value on both sides: NaN where the
  /// oracle is NaN, infinity of the right sign where it overflows the type (for fp8: the oracle
  /// saturated to the largest finite value, infinity included).
  template <class F> void near(F oracle, Tolerance tol) {
    const R *ref = const_cast<Buffer<R> &>(out_).ref();
    forRegion([&](size_t i) {
      double want = oracle(i);
      // An fp8 result is a float result rounded once: within one fp8 ulp of the exact value
      // whatever the float computation's own few ulps (tol.ulps counts those for float types).
      const double ulps = saturationOf<R>() > 0 ? 1.0 : tol.ulps;
      if (constexpr double sat = saturationOf<R>(); sat > 0 && std::fabs(want) > sat)
        want = std::copysign(sat, want);
      for (int side = 0; side < 2; ++side) {
        const double v = asDouble(side ? got_[i] : ref[i]);
        bool ok;
        if (std::isnan(want))
          ok = std::isnan(v);
        else if (std::isinf(want) || std::fabs(want) >= overflowOf<R>())
          ok =
              v == (want > 0 ? INFINITY : -INFINITY) ||
              (!std::isinf(want) && std::fabs(v - want) <= ulps * epsilonOf<R>() * std::fabs(want));
        else
          ok = !std::isnan(v) &&
               std::fabs(v - want) <=
                   ulps * epsilonOf<R>() * std::max(std::fabs(want), tol.floor) + 2 * tinyOf<R>();
        if (!ok) {
          char line[200];
          std::snprintf(line, sizeof line, "%.9g, float64 oracle %.17g (tolerance %g ulp)", v, want,
                        ulps);
          fail(i, side ? "generated" : "reference", line);
        }
      }
    });
  }

  ~Check() {
    if (bad_ > 4)
      run_.fail(kernel_, std::string(name_) + ": " + std::to_string(bad_) + " findings in all");
  }

private:
  template <class F> void forRegion(F f) {
    for (size_t r = 0; r < region_.rows; ++r)
      for (size_t c = 0; c < region_.cols; ++c)
        f(r * region_.stride + c);
  }
  static std::string show(R v) {
    char s[64];
    if constexpr (std::is_same_v<R, bool>)
      std::snprintf(s, sizeof s, "%d", static_cast<int>(bitsOf(v) & 0xFF));
    else if constexpr (std::is_integral_v<R>)
      std::snprintf(s, sizeof s, "%" PRId64, static_cast<int64_t>(v));
    else
      std::snprintf(s, sizeof s, "%.9g (bits 0x%" PRIx64 ")", asDouble(v), bitsOf(v));
    return s;
  }
  void fail(size_t i, const char *side, const std::string &what) {
    if (bad_++ >= 4)
      return;
    char at[96];
    if (region_.rows > 1 || region_.stride != region_.cols)
      std::snprintf(at, sizeof at, "%s[%zu] (row %zu, column %zu), %s: ", name_, i, i / region_.stride,
                    i % region_.stride, side);
    else
      std::snprintf(at, sizeof at, "%s[%zu], %s: ", name_, i, side);
    run_.fail(kernel_, at + what);
  }

  Run &run_;
  const char *kernel_, *name_;
  const Buffer<R> &out_;
  Region region_;
  std::unique_ptr<R[]> got_;
  size_t bad_ = 0;
};

/// Integer oracles: the exact result wrapped to the type (two's complement), as tl.hpp promises.
template <class T> T wrap(__int128 v) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<unsigned __int128>(v)));
}
/// An integer element as the oracle's wide integer.
template <class T> __int128 wide(T v) { return static_cast<__int128>(v); }

/// The float64 oracle of a cast to a floating-point type: the exact value (integers as long double:
/// exact up to 64 bits).
template <class T> long double exactValue(T v) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<long double>(v);
  else
    return asDouble(v);
}

} // namespace matrix
