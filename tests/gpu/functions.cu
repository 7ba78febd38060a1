// Runs tests/kernels/functions.cpp (a kernel calling functions of its own, inlined by tilec) on
// random rows of ragged widths and compares both outputs with the CPU reference of the same source
// and with a float64 computation of GELU-tanh.
#include "check.h"
#include "functions.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <functions.hip>
#else
#include <functions.cu> // golden/functions/functions.cu (<>: not this file)
#endif

namespace {
double gelu(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
}
} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<std::pair<int, int>> cases = {{1, 1}, {3, 255}, {7, 256}, {33, 100}, {4097, 200}};
  if (harness::smallRun(argc, argv))
    cases = {{1, 1}, {3, 255}, {7, 256}, {33, 100}};
  for (auto [M, N] : cases) {
    const int stride = N; // every element written: the runs under two poisons must agree
    const size_t n = size_t(M) * stride;
    auto x = harness::randomFloats(n, -4, 4, uint64_t(M) * 131 + uint64_t(N));
    std::vector<float> ref(n, NAN), refTwice(n, NAN);
    tl::launch(tl::grid3{M}, gelu_rows<256>, x.data(), ref.data(), refTwice.data(), M, N, stride);
    harness::DeviceBuffer<float> dx(n);
    gpucheck::Output<float> out(n), twice(n);
    dx.upload(x.data());
    for (int byte : gpucheck::kPoison) {
      out.poison(byte);
      twice.poison(byte);
      CHECK_CUDA(launch_gelu_rows_256(cudaStream_t{}, dx.ptr, out.dev.ptr, twice.dev.ptr, M, N, stride));
      CHECK_CUDA(cudaDeviceSynchronize());
      out.collect(byte);
      twice.collect(byte);
    }
    std::vector<double> gpu, cpu, f64, gpu2, cpu2, f642;
    for (int r = 0; r < M; ++r)
      for (int c = 0; c < N; ++c) {
        const size_t i = size_t(r) * stride + size_t(c);
        gpu.push_back(out.vals[i]);
        cpu.push_back(ref[i]);
        f64.push_back(gelu(double(x[i])));
        gpu2.push_back(twice.vals[i]);
        cpu2.push_back(refTwice[i]);
        f642.push_back(gelu(gelu(double(x[i]))));
      }
    report.check("gelu", gpucheck::shape(M, N), gpu, cpu, f64, 1e-5, out.ok());
    report.check("gelu(gelu)", gpucheck::shape(M, N), gpu2, cpu2, f642, 1e-5, twice.ok());

    // row_stats: several values returned by helpers, bound by structured bindings.
    std::vector<float> sref(n, NAN), stref(size_t(4) * size_t(M), NAN);
    tl::launch(tl::grid3{M}, row_stats<256>, x.data(), sref.data(), stref.data(), M, N, stride);
    gpucheck::Output<float> sout(n), stats(size_t(4) * size_t(M));
    for (int byte : gpucheck::kPoison) {
      sout.poison(byte);
      stats.poison(byte);
      CHECK_CUDA(launch_row_stats_256(cudaStream_t{}, dx.ptr, sout.dev.ptr, stats.dev.ptr, M, N, stride));
      CHECK_CUDA(cudaDeviceSynchronize());
      sout.collect(byte);
      stats.collect(byte);
    }
    std::vector<double> sg, sc, sf, tg, tc, tf;
    for (int r = 0; r < M; ++r) {
      double sum = 0, var = 0, lo = INFINITY, hi = -INFINITY;
      for (int c = 0; c < N; ++c) {
        const double v = x[size_t(r) * stride + size_t(c)];
        sum += v;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      const double mean = sum / N;
      for (int c = 0; c < N; ++c) {
        const double d = x[size_t(r) * stride + size_t(c)] - mean;
        var += d * d;
      }
      const double rstd = 1 / std::sqrt(var / N + 1e-5);
      for (int c = 0; c < N; ++c) {
        const size_t i = size_t(r) * stride + size_t(c);
        const double v = x[i];
        sg.push_back(sout.vals[i]);
        sc.push_back(sref[i]);
        sf.push_back((v - mean) * rstd + v - std::fabs(v));
      }
      const double want[4] = {2 * mean, rstd, lo, hi};
      for (int j = 0; j < 4; ++j) {
        tg.push_back(stats.vals[size_t(4 * r + j)]);
        tc.push_back(stref[size_t(4 * r + j)]);
        tf.push_back(want[j]);
      }
    }
    report.check("row_stats", gpucheck::shape(M, N), sg, sc, sf, 1e-5, sout.ok());
    report.check("stats", gpucheck::shape(M, N), tg, tc, tf, 1e-5, stats.ok());
  }
  // lambdas: x s^2 + (x + s + 1) - x at ragged sizes.
  for (int n : harness::smallRun(argc, argv) ? std::vector<int>{1, 511, 1500} : std::vector<int>{1, 511, 1500, 100003}) {
    const float s = 1.25f;
    auto x = harness::randomFloats(size_t(n), -4, 4, uint64_t(n) * 7 + 3);
    std::vector<float> ref(static_cast<size_t>(n), NAN);
    tl::launch(tl::grid3{tl::cdiv(n, 512)}, lambdas<512>, x.data(), ref.data(), s, n);
    harness::DeviceBuffer<float> dx{size_t(n)};
    dx.upload(x.data());
    gpucheck::Output<float> out{static_cast<size_t>(n)};
    for (int byte : gpucheck::kPoison) {
      out.poison(byte);
      CHECK_CUDA(launch_lambdas_512(cudaStream_t{}, dx.ptr, out.dev.ptr, s, n));
      CHECK_CUDA(cudaDeviceSynchronize());
      out.collect(byte);
    }
    std::vector<double> f64(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
      f64[i] = double(x[i]) * s * s + (double(x[i]) + s + 1) - double(x[i]);
    report.check("lambdas", std::to_string(n), harness::toDoubles(out.vals), harness::toDoubles(ref), f64, 1e-6,
                 out.ok());
  }
  // choose: a helper returning from each branch of a runtime if, for each branch.
  for (float slope : {0.125f, 0.0f, -2.0f}) {
    for (int n : harness::smallRun(argc, argv) ? std::vector<int>{1, 511, 1500} : std::vector<int>{1, 1500, 100003}) {
      auto x = harness::randomFloats(size_t(n), -4, 4, uint64_t(n) * 11 + 5);
      std::vector<float> ref(static_cast<size_t>(n), NAN);
      tl::launch(tl::grid3{tl::cdiv(n, 512)}, choose<512>, x.data(), ref.data(), slope, n);
      harness::DeviceBuffer<float> dx{size_t(n)};
      dx.upload(x.data());
      gpucheck::Output<float> out{static_cast<size_t>(n)};
      for (int byte : gpucheck::kPoison) {
        out.poison(byte);
        CHECK_CUDA(launch_choose_512(cudaStream_t{}, dx.ptr, out.dev.ptr, slope, n));
        CHECK_CUDA(cudaDeviceSynchronize());
        out.collect(byte);
      }
      std::vector<double> f64(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) {
        const double v = x[i];
        f64[i] = (slope > 0 ? (v > 0 ? v : v * double(slope)) : slope < -1 ? -v : std::max(v, 0.0)) + 1;
      }
      report.check("choose", std::to_string(n) + " s=" + std::to_string(slope).substr(0, 5),
                   harness::toDoubles(out.vals), harness::toDoubles(ref), f64, 1e-6, out.ok());
    }
  }
  return report.exitCode();
}
