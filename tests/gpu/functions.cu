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
  }
  return report.exitCode();
}
