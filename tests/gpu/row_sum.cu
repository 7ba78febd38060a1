// Runs tilec's CUDA for row_sum_kernel<16, 64> on random matrices of ragged shapes (row strides
// wider than the rows, the padding NaN so that reading it shows) and compares with the CPU
// reference of the same source and a float64 sum.
#include "check.h"
#include "row_sum.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <row_sum.hip>
#else
#include <row_sum.cu> // golden/row_sum/row_sum.cu (<>: not this file)
#endif

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<std::pair<int, int>> cases = {{1, 1},       {17, 63},    {16, 64},   {33, 200},
                                            {1000, 1000}, {4099, 777}, {5, 20000}, {4096, 4096}};
  if (harness::smallRun(argc, argv))
    cases = {{1, 1}, {17, 63}, {16, 64}, {33, 200}};
  for (auto [M, N] : cases) {
    int stride = N + 3;
    size_t n = size_t(M) * stride;
    auto x = harness::randomFloats(n, -1, 2, M * 7919 + N);
    for (int i = 0; i < M; ++i)
      for (int j = N; j < stride; ++j)
        x[size_t(i) * stride + j] = NAN;
    std::vector<float> ref(M, NAN);
    tl::launch(tl::grid3{tl::cdiv(M, 16)}, row_sum_kernel<16, 64>, x.data(), ref.data(), M, N,
               stride);
    harness::DeviceBuffer<float> dx(n);
    gpucheck::Output<float> out(M);
    dx.upload(x.data());
    for (int byte : gpucheck::kPoison) {
      out.poison(byte);
      CHECK_CUDA(launch_row_sum_kernel_16_64(cudaStream_t{}, dx.ptr, out.dev.ptr, M, N, stride));
      CHECK_CUDA(cudaDeviceSynchronize());
      out.collect(byte);
    }
    std::vector<double> f64(M, 0.0);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        f64[i] += x[size_t(i) * stride + j];
    report.check("row_sum", gpucheck::shape(M, N), harness::toDoubles(out.vals),
                 harness::toDoubles(ref), f64, 1e-5, out.ok());
  }
  return report.exitCode();
}
