// Runs tilec's CUDA for math_more<256> (the C library's functions on float, half and bfloat16 tiles,
// through a generic helper) on random inputs at ragged sizes and compares each function's outputs
// with the CPU reference of the same source and with float64. The GPU's functions are within a few
// ulp of float (CUDA's and HIP's math library), so floats get 1e-5 and half/bfloat16 one rounding
// of their own (1e-3, 8e-3) as tolerance, on top of the CPU reference's own error against float64.
#include "check.h"
#include "math_more.cpp"

#include <bit>
#include <memory>
#include <random>
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <math_more.hip>
#else
#include <math_more.cu> // golden/math_more/math_more.cu (<>: not this file)
#endif

namespace {
constexpr int kFunctions = 28;
const char *const kNames[kFunctions] = {
    "sin",   "cos",   "tan",   "asin",  "acos",  "atan",   "sinh",   "cosh",   "asinh",     "acosh",
    "atanh", "expm1", "log1p", "log10", "cbrt",  "erfc",   "lgamma", "rint",   "round",     "trunc",
    "pow",   "pow s", "atan2", "hypot", "copysign", "fmod", "remainder", "clamp"};
/// Function f of the input a, in float64, from the arguments as the kernel forms them in the tile's
/// precision T: a scalar next to a tile is converted to T first (0.2f is 0.2001953125 in
/// bfloat16), and p, u and w are rounded to T.
template <class T> double exact(int f, double a) {
  auto round = [](double v) { return double(float(T(float(v)))); };
  auto constant = [](float c) { return double(float(T(c))); };
  const double p = round(std::fabs(a) + 0.5), u = round(a * constant(0.2f)), w = round(a * constant(2.3f));
  switch (f) {
  case 0: return std::sin(a);
  case 1: return std::cos(a);
  case 2: return std::tan(u);
  case 3: return std::asin(u);
  case 4: return std::acos(u);
  case 5: return std::atan(a);
  case 6: return std::sinh(a);
  case 7: return std::cosh(a);
  case 8: return std::asinh(a);
  case 9: return std::acosh(round(p + 0.5));
  case 10: return std::atanh(u);
  case 11: return std::expm1(a);
  case 12: return std::log1p(p);
  case 13: return std::log10(p);
  case 14: return std::cbrt(a);
  case 15: return std::erfc(a);
  case 16: return std::lgamma(p);
  case 17: return std::rint(w);
  case 18: return std::round(w);
  case 19: return std::trunc(w);
  case 20: return std::pow(p, a);
  case 21: return std::pow(p, 2.5);
  case 22: return std::atan2(a, p);
  case 23: return std::hypot(a, p);
  case 24: return std::copysign(p, a);
  case 25: return std::fmod(w, p);
  case 26: return std::remainder(w, p);
  default: return std::min(std::max(a, -1.0), 2.5);
  }
}
template <class T> std::vector<double> slice(const std::vector<T> &v, int f, int n) {
  return harness::toDoubles(std::vector<T>(v.begin() + size_t(f) * n, v.begin() + size_t(f + 1) * n));
}
// Divisions and square roots of a stated rounding: div_rn, div_rz and sqrt_rn bit for bit with
// float64 rounded as stated (float64 holds a float quotient or root exactly enough that rounding it
// once more gives the correctly rounded float), fdiv within 2 ulp (relative 1e-6).
void checkRounding(harness::Report &report, int n) {
  auto a = harness::randomFloats(size_t(n), -1e3f, 1e3f, uint64_t(n) * 17 + 3);
  auto b = harness::randomFloats(size_t(n), 0.5f, 4.0f, uint64_t(n) * 19 + 5);
  for (size_t i = 0; i < b.size(); i += 2)
    b[i] = -b[i];
  std::vector<float> ref(size_t(4) * size_t(n), NAN);
  tl::launch(tl::grid3{tl::cdiv(n, 256)}, rounding<256>, a.data(), b.data(), ref.data(), n);
  harness::DeviceBuffer<float> da{size_t(n)}, db{size_t(n)};
  da.upload(a.data());
  db.upload(b.data());
  gpucheck::Output<float> out(size_t(4) * size_t(n));
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    CHECK_CUDA(launch_rounding_256(cudaStream_t{}, da.ptr, db.ptr, out.dev.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
  }
  auto towardZero = [](double q) { // the float next to q toward zero (q itself when it is one)
    float f = static_cast<float>(q);
    return std::fabs(double(f)) > std::fabs(q) ? std::nextafter(f, 0.0f) : f;
  };
  const char *names[3] = {"div_rn", "div_rz", "sqrt_rn"};
  for (int f = 0; f < 3; ++f) {
    size_t vsRef = 0, vsExact = 0, refVsExact = 0;
    for (int i = 0; i < n; ++i) {
      const double q = double(a[i]) / double(b[i]);
      const float e = f == 0 ? float(q) : f == 1 ? towardZero(q) : float(std::sqrt(std::fabs(double(a[i]))));
      const size_t at = size_t(f) * size_t(n) + size_t(i);
      vsRef += !gpucheck::same(out.vals[at], ref[at]);
      vsExact += !gpucheck::same(out.vals[at], e);
      refVsExact += !gpucheck::same(ref[at], e);
    }
    gpucheck::checkExact(report, names[f], std::to_string(n), size_t(n), vsRef, vsExact, refVsExact, out.ok());
  }
  std::vector<double> gpu, cpu, f64;
  for (int i = 0; i < n; ++i) {
    gpu.push_back(out.vals[size_t(3) * size_t(n) + size_t(i)]);
    cpu.push_back(ref[size_t(3) * size_t(n) + size_t(i)]);
    f64.push_back(double(a[i]) / double(b[i]));
  }
  report.check("fdiv", std::to_string(n), gpu, cpu, f64, 1e-6, out.ok());
}

// popc, clz and umulhi of int32 and int64 values, exactly.
void checkBits(harness::Report &report, int n) {
  std::mt19937_64 rng(uint64_t(n) * 23 + 11);
  std::vector<int32_t> x(static_cast<size_t>(n));
  std::vector<int64_t> y(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    x[i] = int32_t(uint32_t(rng()) >> (rng() % 32)); // every count of leading zeros
    y[i] = int64_t(rng() >> (rng() % 64));
    if (i % 5 == 0)
      x[i] = -x[i], y[i] = -y[i];
  }
  std::vector<int32_t> ref32(size_t(3) * size_t(n), -7);
  std::vector<int64_t> ref64(size_t(3) * size_t(n), -7);
  tl::launch(tl::grid3{tl::cdiv(n, 256)}, bits<256>, x.data(), y.data(), ref32.data(), ref64.data(), n);
  harness::DeviceBuffer<int32_t> dx{size_t(n)};
  harness::DeviceBuffer<int64_t> dy{size_t(n)};
  dx.upload(x.data());
  dy.upload(y.data());
  gpucheck::Output<int32_t> o32(size_t(3) * size_t(n));
  gpucheck::Output<int64_t> o64(size_t(3) * size_t(n));
  for (int byte : gpucheck::kPoison) {
    o32.poison(byte);
    o64.poison(byte);
    CHECK_CUDA(launch_bits_256(cudaStream_t{}, dx.ptr, dy.ptr, o32.dev.ptr, o64.dev.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    o32.collect(byte);
    o64.collect(byte);
  }
  size_t vsRef = 0, vsExact = 0, refVsExact = 0;
  for (int i = 0; i < n; ++i) {
    const uint32_t u = uint32_t(x[i]), u2 = uint32_t(x[i] ^ 12345);
    const uint64_t v = uint64_t(y[i]), v2 = uint64_t(y[i] ^ int64_t{0x5DEECE66D});
    const int64_t e[6] = {std::popcount(u), std::countl_zero(u), int32_t(uint32_t((uint64_t(u) * u2) >> 32)),
                          std::popcount(v), std::countl_zero(v),
                          int64_t(uint64_t((static_cast<unsigned __int128>(v) * v2) >> 64))};
    for (int f = 0; f < 6; ++f) {
      const size_t at = size_t(f % 3) * size_t(n) + size_t(i);
      const int64_t got = f < 3 ? o32.vals[at] : o64.vals[at], want = f < 3 ? ref32[at] : ref64[at];
      vsRef += got != want;
      vsExact += got != e[f];
      refVsExact += want != e[f];
    }
  }
  gpucheck::checkExact(report, "int bits", std::to_string(n), size_t(6) * size_t(n), vsRef, vsExact,
                       refVsExact, o32.ok() && o64.ok());
}
} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 255, 256, 1000, 100003};
  if (harness::smallRun(argc, argv))
    sizes = {1, 255, 1000};
  for (int n : sizes) {
    auto x = harness::randomFloats(n, -4, 4, n + 17);
    size_t total = size_t(kFunctions) * n;
    std::vector<float> ref32(total, NAN);
    std::vector<tl::half> ref16(total, tl::half(NAN));
    std::vector<tl::bfloat16> refb16(total, tl::bfloat16(NAN));
    tl::launch(tl::grid3{tl::cdiv(n, 256)}, math_more<256>, x.data(), ref32.data(), ref16.data(),
               refb16.data(), n);
    harness::DeviceBuffer<float> dx(n);
    gpucheck::Output<float> o32(total);
    gpucheck::Output<uint16_t> o16(total), ob16(total);
    dx.upload(x.data());
    for (int byte : gpucheck::kPoison) {
      o32.poison(byte), o16.poison(byte), ob16.poison(byte);
      CHECK_CUDA(launch_math_more_256(cudaStream_t{}, dx.ptr, o32.dev.ptr, o16.as<__half>(),
                                        ob16.as<__nv_bfloat16>(), n));
      CHECK_CUDA(cudaDeviceSynchronize());
      o32.collect(byte), o16.collect(byte), ob16.collect(byte);
    }
    std::vector<tl::half> got16(total);
    std::vector<tl::bfloat16> gotb16(total);
    for (size_t i = 0; i < total; ++i) {
      got16[i] = tl::half::fromBits(o16.vals[i]);
      gotb16[i] = tl::bfloat16::fromBits(ob16.vals[i]);
    }
    for (int f = 0; f < kFunctions; ++f) {
      // float64 of each precision's own input (x rounded to half / bfloat16 first).
      std::vector<double> e32(n), e16(n), eb16(n);
      for (int i = 0; i < n; ++i) {
        e32[i] = exact<float>(f, x[i]);
        e16[i] = exact<tl::half>(f, float(tl::half(x[i])));
        eb16[i] = exact<tl::bfloat16>(f, float(tl::bfloat16(x[i])));
      }
      std::string size = std::to_string(n) + " " + kNames[f];
      report.check("math f32", size, slice(o32.vals, f, n), slice(ref32, f, n), e32, 1e-5, o32.ok());
      report.check("math f16", size, slice(got16, f, n), slice(ref16, f, n), e16, 1e-3, o16.ok());
      report.check("math bf16", size, slice(gotb16, f, n), slice(refb16, f, n), eb16, 8e-3, ob16.ok());
    }
  }
  // The predicates on special values: NaN of either sign, infinities, zeros of either sign,
  // subnormals, and values past half's range (infinite as half, finite as bfloat16).
  for (int n : {1, 97, 1000}) {
    std::vector<float> x = harness::randomFloats(size_t(n), -1e5f, 1e5f, uint64_t(n) * 31 + 7);
    const float specials[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -1e-40f, 70000.0f, -3.0f};
    for (size_t i = 0; i < x.size(); i += 3)
      x[i] = specials[(i / 3) % 10];
    const size_t total = size_t(12) * size_t(n);
    std::vector<uint8_t> ref(total, 2);
    // tl::launch writes bools: give it a bool buffer and copy.
    std::unique_ptr<bool[]> refBools(new bool[total]);
    tl::launch(tl::grid3{tl::cdiv(n, 128)}, predicates<128>, x.data(), refBools.get(), n);
    for (size_t i = 0; i < total; ++i)
      ref[i] = refBools[i];
    harness::DeviceBuffer<float> dx(static_cast<size_t>(n));
    gpucheck::Output<uint8_t> out(total);
    dx.upload(x.data());
    for (int byte : gpucheck::kPoison) {
      out.poison(byte);
      CHECK_CUDA(launch_predicates_128(cudaStream_t{}, dx.ptr, out.as<bool>(), n));
      CHECK_CUDA(cudaDeviceSynchronize());
      out.collect(byte);
    }
    size_t vsRef = 0, vsExact = 0, refVsExact = 0;
    for (int t = 0; t < 3; ++t)
      for (int f = 0; f < 4; ++f)
        for (int i = 0; i < n; ++i) {
          const float v = t == 0 ? x[i] : t == 1 ? float(tl::half(x[i])) : float(tl::bfloat16(x[i]));
          const bool e = f == 0 ? std::isnan(v) : f == 1 ? std::isinf(v) : f == 2 ? std::isfinite(v) : std::signbit(v);
          const size_t at = size_t(4 * t + f) * size_t(n) + size_t(i);
          vsRef += out.vals[at] != ref[at];
          vsExact += out.vals[at] != uint8_t(e);
          refVsExact += ref[at] != uint8_t(e);
        }
    gpucheck::checkExact(report, "predicates", std::to_string(n), total, vsRef, vsExact, refVsExact, out.ok());
  }
  for (int n : {1, 255, 1000, 4099}) {
    checkRounding(report, n);
    checkBits(report, n);
  }
  return report.exitCode();
}
