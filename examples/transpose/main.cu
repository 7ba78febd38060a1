// Runs tilec's CUDA for transpose_kernel<64, 64> on random matrices of ragged shapes (strides wider
// than the rows) and compares with the CPU reference of the same source. Also checks that the
// padding columns of the output are never written.
#include "../common/harness.h"
#include "transpose.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "transpose.hip"
#else
#include "transpose.cu"
#endif

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<std::pair<int, int>> cases = {{1, 1}, {65, 130}, {64, 64}, {1000, 777}, {4096, 4100}};
  if (harness::smallRun(argc, argv))
    cases = {{1, 1}, {65, 130}, {64, 64}, {100, 77}};
  for (auto [M, N] : cases) {
    int in_stride = N + 5, out_stride = M + 3;
    size_t nin = size_t(M) * in_stride, nout = size_t(N) * out_stride;
    auto x = harness::randomFloats(nin, -1, 1, M * 131 + N);
    std::vector<float> ref(nout, NAN), out(nout);
    tl::launch(tl::grid3{tl::cdiv(M, 64), tl::cdiv(N, 64)}, transpose_kernel<64, 64>, x.data(),
               ref.data(), M, N, in_stride, out_stride);
    harness::DeviceBuffer<float> din(nin), dout(nout);
    din.upload(x.data());
    dout.poison();
    CHECK_CUDA(launch_transpose_kernel_64_64(cudaStream_t{}, din.ptr, dout.ptr, M, N, in_stride,
                                             out_stride));
    CHECK_CUDA(cudaDeviceSynchronize());
    dout.download(out.data());
    std::vector<double> gpu, cpu, f64;
    bool paddingUntouched = true;
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < out_stride; ++i) {
        float v = out[size_t(j) * out_stride + i];
        if (i < M) {
          gpu.push_back(v);
          cpu.push_back(ref[size_t(j) * out_stride + i]);
          f64.push_back(x[size_t(i) * in_stride + j]);
        } else if (!std::isnan(v)) {
          paddingUntouched = false;
        }
      }
    report.check("transpose", std::to_string(M) + "x" + std::to_string(N), gpu, cpu, f64, 1e-6,
                 paddingUntouched);
  }
  return report.exitCode();
}
