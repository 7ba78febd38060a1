// Runs tilec's CUDA for math_kernel<256> (every math function on float, half and bfloat16 tiles) on
// random inputs at ragged sizes and compares each function's outputs with the CPU reference of the
// same source and with float64. The GPU computes exp, exp2, sigmoid, rsqrt, log, tanh and erf with
// its own approximations (docs/language.md), so floats get 1e-5 and half/bfloat16 one rounding of
// their own (1e-3, 8e-3) as tolerance, on top of the CPU reference's own error against float64.
#include "check.h"
#include "math_ops.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <math_ops.hip>
#else
#include <math_ops.cu> // golden/math_ops/math_ops.cu (<>: not this file)
#endif

namespace {
constexpr int kFunctions = 13;
const char *const kNames[kFunctions] = {"exp",  "exp2", "log",   "log2", "sqrt", "rsqrt", "sigmoid",
                                        "tanh", "erf",  "floor", "ceil", "abs",  "fma"};
double exact(int f, double a) {
  double p = std::fabs(a) + 0.5;
  switch (f) {
  case 0: return std::exp(a);
  case 1: return std::exp2(a);
  case 2: return std::log(p);
  case 3: return std::log2(p);
  case 4: return std::sqrt(p);
  case 5: return 1.0 / std::sqrt(p);
  case 6: return 1.0 / (1.0 + std::exp(-a));
  case 7: return std::tanh(a);
  case 8: return std::erf(a);
  case 9: return std::floor(a);
  case 10: return std::ceil(a);
  case 11: return std::fabs(a);
  default: return a * p + a;
  }
}
template <class T> std::vector<double> slice(const std::vector<T> &v, int f, int n) {
  return harness::toDoubles(std::vector<T>(v.begin() + size_t(f) * n, v.begin() + size_t(f + 1) * n));
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
    tl::launch(tl::grid3{tl::cdiv(n, 256)}, math_kernel<256>, x.data(), ref32.data(), ref16.data(),
               refb16.data(), n);
    harness::DeviceBuffer<float> dx(n);
    gpucheck::Output<float> o32(total);
    gpucheck::Output<uint16_t> o16(total), ob16(total);
    dx.upload(x.data());
    for (int byte : gpucheck::kPoison) {
      o32.poison(byte), o16.poison(byte), ob16.poison(byte);
      CHECK_CUDA(launch_math_kernel_256(cudaStream_t{}, dx.ptr, o32.dev.ptr, o16.as<__half>(),
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
        e32[i] = exact(f, x[i]);
        e16[i] = exact(f, float(tl::half(x[i])));
        eb16[i] = exact(f, float(tl::bfloat16(x[i])));
      }
      std::string size = std::to_string(n) + " " + kNames[f];
      report.check("math f32", size, slice(o32.vals, f, n), slice(ref32, f, n), e32, 1e-5, o32.ok());
      report.check("math f16", size, slice(got16, f, n), slice(ref16, f, n), e16, 1e-3, o16.ok());
      report.check("math bf16", size, slice(gotb16, f, n), slice(refb16, f, n), eb16, 8e-3, ob16.ok());
    }
  }
  return report.exitCode();
}
