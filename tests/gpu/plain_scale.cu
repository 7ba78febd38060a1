// Runs tilec's CUDA for the non-template kernel scale_rows on random matrices of ragged widths and
// compares with the CPU reference of the same source (included beside the generated code: the
// instance namespace must not collide with the kernel's own name) and a float64 product.
#include "check.h"
#include "plain_scale.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <plain_scale.hip>
#else
#include <plain_scale.cu> // golden/plain_scale/plain_scale.cu (<>: not this file)
#endif

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<std::pair<int, int>> cases = {{1, 1}, {3, 255}, {7, 256}, {33, 100}, {4097, 200}};
  if (harness::smallRun(argc, argv))
    cases = {{1, 1}, {3, 255}, {7, 256}, {33, 100}};
  for (auto [M, N] : cases) {
    size_t n = size_t(M) * N;
    auto x = harness::randomFloats(n, -4, 4, M * 131 + N);
    float alpha = 1.5f + 0.25f * float(N % 7);
    std::vector<float> ref(n, NAN);
    tl::launch(tl::grid3{M}, scale_rows, x.data(), ref.data(), alpha, M, N);
    harness::DeviceBuffer<float> dx(n);
    gpucheck::Output<float> out(n);
    dx.upload(x.data());
    for (int byte : gpucheck::kPoison) {
      out.poison(byte);
      CHECK_CUDA(launch_scale_rows_instance(cudaStream_t{}, dx.ptr, out.dev.ptr, alpha, M, N));
      CHECK_CUDA(cudaDeviceSynchronize());
      out.collect(byte);
    }
    std::vector<double> f64(n);
    for (size_t i = 0; i < n; ++i)
      f64[i] = double(alpha) * double(x[i]);
    report.check("plain_scale", gpucheck::shape(M, N), harness::toDoubles(out.vals),
                 harness::toDoubles(ref), f64, 1e-6, out.ok());
  }
  return report.exitCode();
}
