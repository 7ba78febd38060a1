// Runs tilec's CUDA for col_reduce_kernel<32, 32> on random matrices of ragged shapes (row strides
// wider than the rows, the padding NaN so that reading it shows) and compares the column maxima
// exactly and the column sums against float64, and both against the CPU reference of the source.
#include "check.h"
#include "col_reduce.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <col_reduce.hip>
#else
#include <col_reduce.cu> // golden/col_reduce/col_reduce.cu (<>: not this file)
#endif

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<std::pair<int, int>> cases = {{1, 1},       {31, 33},     {64, 32},   {100, 70},
                                            {1000, 1000}, {4097, 3001}, {5, 10000}, {20000, 31}};
  if (harness::smallRun(argc, argv))
    cases = {{1, 1}, {31, 33}, {64, 32}, {100, 70}};
  for (auto [M, N] : cases) {
    int stride = N + 3;
    size_t n = size_t(M) * stride;
    auto x = harness::randomFloats(n, -1, 2, M * 7919 + N);
    for (int i = 0; i < M; ++i)
      for (int j = N; j < stride; ++j)
        x[size_t(i) * stride + j] = NAN;
    std::vector<float> refMax(N, NAN), refSum(N, NAN);
    tl::launch(tl::grid3{tl::cdiv(N, 32)}, col_reduce_kernel<32, 32>, x.data(), refMax.data(),
               refSum.data(), M, N, stride);
    harness::DeviceBuffer<float> dx(n);
    gpucheck::Output<float> mx(N), sm(N);
    dx.upload(x.data());
    for (int byte : gpucheck::kPoison) {
      mx.poison(byte);
      sm.poison(byte);
      CHECK_CUDA(launch_col_reduce_kernel_32_32(cudaStream_t{}, dx.ptr, mx.dev.ptr, sm.dev.ptr, M,
                                                N, stride));
      CHECK_CUDA(cudaDeviceSynchronize());
      mx.collect(byte);
      sm.collect(byte);
    }
    std::vector<double> colMax(N, -INFINITY), colSum(N, 0.0);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double v = x[size_t(i) * stride + j];
        colMax[j] = std::max(colMax[j], v);
        colSum[j] += v;
      }
    size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
    for (int j = 0; j < N; ++j) {
      gpuVsRef += !gpucheck::same(mx.vals[j], refMax[j]);
      gpuVsExact += !gpucheck::same(mx.vals[j], colMax[j]);
      refVsExact += !gpucheck::same(refMax[j], colMax[j]);
    }
    gpucheck::checkExact(report, "col_max", gpucheck::shape(M, N), N, gpuVsRef, gpuVsExact,
                         refVsExact, mx.ok());
    report.check("col_sum", gpucheck::shape(M, N), harness::toDoubles(sm.vals),
                 harness::toDoubles(refSum), colSum, 1e-5, sm.ok());
  }
  return report.exitCode();
}
