// Runs tilec's CUDA for int_ops_kernel<512> on random inputs (nonzero divisors, some small; shift
// counts from any int8; NaNs in either float operand, sometimes both) and compares every output
// exactly with plain loops and with the CPU reference of the source. The float output
// max(u, v) - min(u, v) * 0.5f is one rounding of an exact double, so it is compared exactly too.
#include "check.h"
#include "int_ops.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <int_ops.hip>
#else
#include <int_ops.cu> // golden/int_ops/int_ops.cu (<>: not this file)
#endif

#include <memory>

/// NaN loses (fmax/fmin); NaN only when both are NaN.
static double maxNanLoses(double a, double b) {
  return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b);
}
static double minNanLoses(double a, double b) {
  return std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b);
}

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 511, 512, 1500, 1 << 20, 999999};
  if (harness::smallRun(argc, argv))
    sizes = {1, 511, 512, 1500};
  for (int n : sizes) {
    std::mt19937_64 rng(n);
    std::uniform_int_distribution<int32_t> val(-100000, 100000), small(-9, 9), sh(-128, 127);
    std::vector<int32_t> a(n), b(n);
    std::vector<int8_t> s(n);
    auto f = harness::randomFloats(n, -5, 5, n + 1), g = harness::randomFloats(n, -5, 5, n + 2);
    for (int i = 0; i < n; ++i) {
      a[i] = i % 3 == 1 ? small(rng) : val(rng);
      b[i] = (i % 3 == 0 ? small(rng) : val(rng)) | 1; // nonzero divisors, some small
      s[i] = int8_t(sh(rng));
      if (i % 5 == 0)
        g[i] = NAN;
      if (i % 7 == 0) // i % 35 == 0: both NaN
        f[i] = NAN;
    }
    std::vector<int32_t> ref(size_t(7) * n);
    std::unique_ptr<bool[]> refB(new bool[std::max(n, 1)]);
    std::vector<float> refF(n);
    tl::launch(tl::grid3{tl::cdiv(n, 512)}, int_ops_kernel<512>, a.data(), b.data(), s.data(),
               f.data(), g.data(), ref.data(), refB.get(), refF.data(), n);
    harness::DeviceBuffer<int32_t> da(n), db(n);
    harness::DeviceBuffer<int8_t> ds(n);
    harness::DeviceBuffer<float> df(n), dg(n);
    da.upload(a.data()), db.upload(b.data()), ds.upload(s.data()), df.upload(f.data());
    dg.upload(g.data());
    gpucheck::Output<int32_t> out(size_t(7) * n);
    gpucheck::Output<uint8_t> outB(n);
    gpucheck::Output<float> outF(n);
    for (int byte : gpucheck::kPoison) {
      out.poison(byte), outB.poison(byte), outF.poison(byte);
      CHECK_CUDA(launch_int_ops_kernel_512(cudaStream_t{}, da.ptr, db.ptr, ds.ptr, df.ptr, dg.ptr,
                                           out.dev.ptr, outB.as<bool>(), outF.dev.ptr, n));
      CHECK_CUDA(cudaDeviceSynchronize());
      out.collect(byte), outB.collect(byte), outF.collect(byte);
    }
    // Plain loops; an element mismatches when any of its nine outputs does.
    size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
    for (int i = 0; i < n; ++i) {
      const int32_t x = a[i], y = b[i];
      const int k = s[i] & 31;
      const int32_t e[7] = {x / y,
                            x % y,
                            (x & y) | (x ^ 0x5A5A),
                            int32_t(uint32_t(x) << k),
                            x >> k, // arithmetic shift (C++20)
                            ~x + (x > y ? x - y : y - x),
                            std::min(x, y) * 2 + std::max(x, 7)};
      const bool eB = (x > 0 && y > 0) != (x > 0 || !(y > 0));
      const float eF = float(maxNanLoses(f[i], g[i]) - minNanLoses(f[i], g[i]) * 0.5);
      bool gpuRef = outB.vals[i] != refB[i] || !gpucheck::same(outF.vals[i], refF[i]);
      bool gpuExact = outB.vals[i] != eB || !gpucheck::same(outF.vals[i], eF);
      bool refExact = refB[i] != eB || !gpucheck::same(refF[i], eF);
      for (int r = 0; r < 7; ++r) {
        size_t at = size_t(r) * n + i;
        gpuRef = gpuRef || out.vals[at] != ref[at];
        gpuExact = gpuExact || out.vals[at] != e[r];
        refExact = refExact || ref[at] != e[r];
      }
      gpuVsRef += gpuRef, gpuVsExact += gpuExact, refVsExact += refExact;
    }
    gpucheck::checkExact(report, "int_ops", std::to_string(n), n, gpuVsRef, gpuVsExact, refVsExact,
                         out.ok() && outB.ok() && outF.ok());
  }
  return report.exitCode();
}
