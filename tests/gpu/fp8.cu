// Runs tests/kernels/fp8.cpp against the CPU reference of the same source and against an oracle
// written here from the formats' definitions: an fp8 value is decoded with ldexp, and a number is
// rounded to fp8 by searching all codes for the nearest value (a tie to the even code), saturating
// past the largest finite value, NaN to 0x7F. Inputs: ties and their neighbours, subnormals,
// infinities, NaNs and random bits for float; every fp16 and bf16 value; doubles one ulp beside a
// tie (rounding twice, through float, would fail them); integers past the range; and every pair of
// fp8 values for the arithmetic. Every result must match the oracle bit for bit. Each launch runs
// twice into outputs poisoned with two patterns.
#include "check.h"
#include "fp8.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <fp8.hip>
#else
#include <fp8.cu> // golden/fp8/fp8.cu (<>: not this file)
#endif

#include <cmath>
#include <deque>
#include <random>

namespace {

using gpucheck::differing;
using E4M3 = tl::float8_e4m3;
using E5M2 = tl::float8_e5m2;

template <class F> constexpr bool isE4M3 = std::is_same_v<F, E4M3>;

/// The value of fp8 bits: E4M3FN (bias 7, no infinities, 0x7F and 0xFF NaN) or E5M2 (bias 15,
/// IEEE's infinities and NaNs).
template <class F> double value(uint8_t b) {
  constexpr int man = isE4M3<F> ? 3 : 2, bias = isE4M3<F> ? 7 : 15;
  const int e = (b & 0x7F) >> man, m = b & ((1 << man) - 1);
  const double sign = (b & 0x80) ? -1.0 : 1.0;
  if (isE4M3<F> ? (b & 0x7F) == 0x7F : e == 31)
    return !isE4M3<F> && m == 0 ? sign * INFINITY : NAN;
  if (e == 0)
    return sign * std::ldexp(m, 1 - bias - man);
  return sign * std::ldexp((1 << man) + m, e - bias - man);
}

/// x rounded to F: the nearest finite value (ties to the even code), saturated to the largest
/// finite one, NaN to 0x7F.
template <class F> F nearest(double x) {
  constexpr uint8_t maxCode = isE4M3<F> ? 0x7E : 0x7B;
  if (std::isnan(x))
    return F::fromBits(0x7F);
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  if (std::fabs(x) >= value<F>(maxCode))
    return F::fromBits(sign | maxCode);
  uint8_t best = 0;
  double bestErr = INFINITY;
  for (int c = 0; c <= maxCode; ++c) {
    const double err = std::fabs(value<F>(static_cast<uint8_t>(c)) - std::fabs(x));
    if (err < bestErr || (err == bestErr && c % 2 == 0)) {
      best = static_cast<uint8_t>(c);
      bestErr = err;
    }
  }
  return F::fromBits(sign | best);
}

template <class F> double value(F f) { return value<F>(f.bits); }

/// Inputs of type T for the conversion to F, chosen by index.
template <class T, class F> std::vector<T> conversionInputs(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  constexpr uint8_t maxCode = isE4M3<F> ? 0x7E : 0x7B;
  std::vector<T> x(n);
  for (int i = 0; i < n; ++i) {
    const uint64_t r = rng();
    const uint8_t c = static_cast<uint8_t>(r % maxCode); // c and c + 1 are finite
    const double tie = (value<F>(c) + value<F>(static_cast<uint8_t>(c + 1))) / 2;
    const double sign = (r >> 40) & 1 ? -1.0 : 1.0;
    if constexpr (std::is_same_v<T, tl::half> || std::is_same_v<T, tl::bfloat16>) {
      x[i] = T::fromBits(static_cast<uint16_t>(i * 40503u)); // every value once per 65536
    } else if constexpr (std::is_same_v<T, int32_t>) {
      x[i] = i % 3 == 0 ? static_cast<int32_t>(r) : static_cast<int32_t>(r % 140001) - 70000;
    } else if constexpr (std::is_same_v<T, double>) {
      // A tie, or one double ulp either side of it: through float the neighbours would round to
      // the tie first.
      const double t = sign * tie;
      x[i] = i % 3 == 0 ? t : std::nextafter(t, i % 3 == 1 ? INFINITY : -INFINITY);
    } else { // float
      switch (i % 4) {
      case 0:
        x[i] = std::bit_cast<float>(static_cast<uint32_t>(r));
        break; // NaNs, infinities too
      case 1:
        x[i] = static_cast<float>(sign * tie);
        break;
      case 2:
        x[i] = std::nextafter(static_cast<float>(sign * tie), (r >> 41) & 1 ? INFINITY : -INFINITY);
        break;
      default:
        x[i] =
            static_cast<float>(sign * std::ldexp(1.0 + double(r % 1000) / 1000, int(r % 41) - 22));
      }
    }
  }
  if (n > 8) { // the edges
    const double edges[] = {0.0,
                            -0.0,
                            INFINITY,
                            -INFINITY,
                            NAN,
                            value<F>(maxCode) * 1.0625,
                            value<F>(uint8_t{1}) / 2,
                            -value<F>(uint8_t{1}) * 0.75};
    for (int i = 0; i < 8; ++i)
      if constexpr (!std::is_same_v<T, int32_t>)
        x[i] = static_cast<T>(edges[i]);
  }
  return x;
}

/// to_fp8<BLOCK, T, F>: q = x rounded to F, back = q in float.
template <int BLOCK, class T, class F, class Launch>
void conversion(harness::Report &report, const char *name, int n, Launch launch) {
  const auto x = conversionInputs<T, F>(n, uint64_t(n) * 131 + sizeof(T));
  std::vector<F> rQ(n), eQ(n);
  std::vector<float> rBack(n), eBack(n);
  tl::launch(tl::grid3{tl::cdiv(n, BLOCK)}, to_fp8<BLOCK, T, F>, x.data(), rQ.data(), rBack.data(),
             n);
  for (int i = 0; i < n; ++i) {
    eQ[i] = nearest<F>(static_cast<double>(static_cast<float>(x[i])));
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, int32_t>)
      eQ[i] = nearest<F>(static_cast<double>(x[i]));
    eBack[i] = static_cast<float>(value(eQ[i]));
  }
  harness::DeviceBuffer<T> dx(n);
  dx.upload(x.data());
  gpucheck::Output<F> q(n);
  gpucheck::Output<float> back(n);
  for (int byte : gpucheck::kPoison) {
    q.poison(byte);
    back.poison(byte);
    CHECK_CUDA(launch(dx.ptr, q.dev.ptr, back.dev.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    q.collect(byte);
    back.collect(byte);
  }
  // NaN values compare by bits: the oracle's and the kernel's are both the canonical quiet NaN of
  // float (0x7FC00000) with the fp8 NaN's sign; a NaN's float bits are compared as NaNs.
  auto nanSafe = [](std::vector<float> v) {
    for (float &f : v)
      if (std::isnan(f))
        f = std::bit_cast<float>(std::signbit(f) ? 0xFFC00000u : 0x7FC00000u);
    return v;
  };
  gpucheck::checkExact(report, name, std::to_string(n), 2 * size_t(n),
                       differing(q.vals, rQ) + differing(nanSafe(back.vals), nanSafe(rBack)),
                       differing(q.vals, eQ) + differing(nanSafe(back.vals), nanSafe(eBack)),
                       differing(rQ, eQ) + differing(nanSafe(rBack), nanSafe(eBack)),
                       q.ok() && back.ok());
}

/// Each operand's bits by index: every pair of fp8 values in 65536 elements.
std::vector<uint8_t> pairBits(int n, int shift) {
  std::vector<uint8_t> b(n);
  for (int i = 0; i < n; ++i)
    b[i] = static_cast<uint8_t>((i >> shift) & 0xFF);
  return b;
}

template <class F> std::vector<F> fromBits(const std::vector<uint8_t> &b) {
  std::vector<F> v(b.size());
  for (size_t i = 0; i < b.size(); ++i)
    v[i] = F::fromBits(b[i]);
  return v;
}

/// tl::maximum's rule: a NaN operand loses, a tie keeps the first.
template <class F> F maximumOf(F a, F b) {
  const double x = value(a), y = value(b);
  return std::isnan(x) ? b : std::isnan(y) ? a : y > x ? b : a;
}

/// fp8_ops<BLOCK, F>: every pair of values.
template <int BLOCK, class F, class Launch>
void ops(harness::Report &report, const char *name, int n, Launch launch) {
  const auto x = fromBits<F>(pairBits(n, 0)), y = fromBits<F>(pairBits(n, 8));
  std::vector<F> r[5], e[5];
  for (auto &v : r)
    v.resize(n);
  for (auto &v : e)
    v.resize(n);
  std::vector<int8_t> rLess(n), eLess(n);
  tl::launch(tl::grid3{tl::cdiv(n, BLOCK)}, fp8_ops<BLOCK, F>, x.data(), y.data(), r[0].data(),
             r[1].data(), r[2].data(), r[3].data(), r[4].data(), rLess.data(), n);
  for (int i = 0; i < n; ++i) {
    const double a = value(x[i]), b = value(y[i]);
    const F negB = nearest<F>(-b);
    e[0][i] = nearest<F>(a + b);                          // exact in double, rounded once
    e[1][i] = nearest<F>(value(nearest<F>(a * b)) * 2.0); // 2 is exact in F
    e[2][i] = nearest<F>(a / b); // double's quotient is close enough to round as the exact one
    e[3][i] = maximumOf(x[i], negB);
    e[4][i] = a < b ? nearest<F>(std::fabs(a)) : negB;
    eLess[i] = a < b;
  }
  harness::DeviceBuffer<F> dx(n), dy(n);
  dx.upload(x.data());
  dy.upload(y.data());
  std::deque<gpucheck::Output<F>> out; // (not movable: a deque never moves them)
  for (int k = 0; k < 5; ++k)
    out.emplace_back(n);
  gpucheck::Output<int8_t> less(n);
  for (int byte : gpucheck::kPoison) {
    for (auto &o : out)
      o.poison(byte);
    less.poison(byte);
    CHECK_CUDA(launch(dx.ptr, dy.ptr, out[0].dev.ptr, out[1].dev.ptr, out[2].dev.ptr,
                      out[3].dev.ptr, out[4].dev.ptr, less.dev.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    for (auto &o : out)
      o.collect(byte);
    less.collect(byte);
  }
  size_t vsRef = differing(less.vals, rLess), vsExact = differing(less.vals, eLess),
         refVsExact = differing(rLess, eLess);
  bool ok = less.ok();
  for (int k = 0; k < 5; ++k) {
    vsRef += differing(out[k].vals, r[k]);
    vsExact += differing(out[k].vals, e[k]);
    refVsExact += differing(r[k], e[k]);
    ok = ok && out[k].ok();
  }
  gpucheck::checkExact(report, name, std::to_string(n), 6 * size_t(n), vsRef, vsExact, refVsExact,
                       ok);
}

/// fp8_mixed: e4m3 + e5m2 in fp16, e4m3 * bf16 in float, e4m3 * 0.3 (0.3125 in e4m3), the xor of
/// the bits.
void mixed(harness::Report &report, int n) {
  const auto x = fromBits<E4M3>(pairBits(n, 0));
  const auto y = fromBits<E5M2>(pairBits(n, 8));
  const auto zf = harness::randomFloats(n, -4, 4, uint64_t(n) + 17);
  std::vector<tl::bfloat16> z(zf.begin(), zf.end());
  std::vector<tl::half> rXY(n), eXY(n);
  std::vector<float> rXZ(n), eXZ(n);
  std::vector<E4M3> rScaled(n), eScaled(n);
  std::vector<uint8_t> rBits(n), eBits(n);
  tl::launch(tl::grid3{tl::cdiv(n, 256)}, fp8_mixed, x.data(), y.data(), z.data(), rXY.data(),
             rXZ.data(), rScaled.data(), rBits.data(), n);
  for (int i = 0; i < n; ++i) {
    const double a = value(x[i]), b = value(y[i]);
    eXY[i] = tl::half(a + b); // the exact sum rounded once to fp16
    eXZ[i] = static_cast<float>(a * static_cast<double>(static_cast<float>(z[i])));
    eScaled[i] = nearest<E4M3>(a * 0.3125);
    eBits[i] = static_cast<uint8_t>(x[i].bits ^ y[i].bits);
  }
  harness::DeviceBuffer<E4M3> dx(n);
  harness::DeviceBuffer<E5M2> dy(n);
  harness::DeviceBuffer<tl::bfloat16> dz(n);
  dx.upload(x.data());
  dy.upload(y.data());
  dz.upload(z.data());
  gpucheck::Output<tl::half> xy(n);
  gpucheck::Output<float> xz(n);
  gpucheck::Output<E4M3> scaled(n);
  gpucheck::Output<uint8_t> bits(n);
  for (int byte : gpucheck::kPoison) {
    xy.poison(byte);
    xz.poison(byte);
    scaled.poison(byte);
    bits.poison(byte);
    CHECK_CUDA(launch_fp8_mixed_instance(
        cudaStream_t{}, reinterpret_cast<const tilec::rt::f8e4m3_t *>(dx.ptr),
        reinterpret_cast<const tilec::rt::f8e5m2_t *>(dy.ptr),
        reinterpret_cast<const __nv_bfloat16 *>(dz.ptr), xy.as<__half>(), xz.dev.ptr,
        scaled.as<tilec::rt::f8e4m3_t>(), bits.dev.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    xy.collect(byte);
    xz.collect(byte);
    scaled.collect(byte);
    bits.collect(byte);
  }
  // fp16 NaNs are the canonical 0x7FFF on both sides; float NaNs are compared as NaNs.
  size_t nanFloats = 0;
  for (int i = 0; i < n; ++i)
    nanFloats += std::isnan(xz.vals[i]) != std::isnan(eXZ[i]) ||
                 (!std::isnan(eXZ[i]) &&
                  std::bit_cast<uint32_t>(xz.vals[i]) != std::bit_cast<uint32_t>(eXZ[i]));
  gpucheck::checkExact(report, "mixed", std::to_string(n), 4 * size_t(n),
                       differing(xy.vals, rXY) + differing(scaled.vals, rScaled) +
                           differing(bits.vals, rBits),
                       differing(xy.vals, eXY) + nanFloats + differing(scaled.vals, eScaled) +
                           differing(bits.vals, eBits),
                       differing(rXY, eXY) + differing(rScaled, eScaled) + differing(rBits, eBits),
                       xy.ok() && xz.ok() && scaled.ok() && bits.ok());
}

template <class D> auto dev(const void *p) { return reinterpret_cast<const D *>(p); }
template <class D> auto dev(void *p) { return reinterpret_cast<D *>(p); }

} // namespace

int main(int argc, char **argv) {
  using tilec::rt::f8e4m3_t;
  using tilec::rt::f8e5m2_t;
  harness::Report report;
  std::vector<int> sizes = {300, 4133};
  if (!harness::smallRun(argc, argv))
    sizes = {65536 + 37, 100003};
  for (int n : sizes) {
    conversion<1024, float, E4M3>(report, "f32->e4m3", n, [](auto x, auto q, auto b, int m) {
      return launch_to_fp8_1024_f32_f8e4m3(cudaStream_t{}, x, dev<f8e4m3_t>(q), b, m);
    });
    conversion<1024, float, E5M2>(report, "f32->e5m2", n, [](auto x, auto q, auto b, int m) {
      return launch_to_fp8_1024_f32_f8e5m2(cudaStream_t{}, x, dev<f8e5m2_t>(q), b, m);
    });
    conversion<512, tl::half, E4M3>(report, "f16->e4m3", n, [](auto x, auto q, auto b, int m) {
      return launch_to_fp8_512_f16_f8e4m3(cudaStream_t{}, dev<__half>(x), dev<f8e4m3_t>(q), b, m);
    });
    conversion<512, tl::bfloat16, E5M2>(report, "bf16->e5m2", n, [](auto x, auto q, auto b, int m) {
      return launch_to_fp8_512_bf16_f8e5m2(cudaStream_t{}, dev<__nv_bfloat16>(x), dev<f8e5m2_t>(q),
                                           b, m);
    });
    conversion<256, double, E4M3>(report, "f64->e4m3", n, [](auto x, auto q, auto b, int m) {
      return launch_to_fp8_256_f64_f8e4m3(cudaStream_t{}, x, dev<f8e4m3_t>(q), b, m);
    });
    conversion<256, int32_t, E5M2>(report, "i32->e5m2", n, [](auto x, auto q, auto b, int m) {
      return launch_to_fp8_256_i32_f8e5m2(cudaStream_t{}, x, dev<f8e5m2_t>(q), b, m);
    });
    ops<1024, E4M3>(
        report, "ops e4m3", n,
        [](auto x, auto y, auto s, auto p, auto q, auto l, auto c, int8_t *less, int m) {
          return launch_fp8_ops_1024_f8e4m3(cudaStream_t{}, dev<f8e4m3_t>(x), dev<f8e4m3_t>(y),
                                            dev<f8e4m3_t>(s), dev<f8e4m3_t>(p), dev<f8e4m3_t>(q),
                                            dev<f8e4m3_t>(l), dev<f8e4m3_t>(c), less, m);
        });
    ops<512, E5M2>(report, "ops e5m2", n,
                   [](auto x, auto y, auto s, auto p, auto q, auto l, auto c, int8_t *less, int m) {
                     return launch_fp8_ops_512_f8e5m2(cudaStream_t{}, dev<f8e5m2_t>(x),
                                                      dev<f8e5m2_t>(y), dev<f8e5m2_t>(s),
                                                      dev<f8e5m2_t>(p), dev<f8e5m2_t>(q),
                                                      dev<f8e5m2_t>(l), dev<f8e5m2_t>(c), less, m);
                   });
    mixed(report, n);
  }
  return report.exitCode();
}
