// Runs tilec's CUDA for transpose_big<128, 128> (tests/kernels/big_shared.cpp), whose 66048 bytes of
// shared memory are the launch's dynamic shared memory, on ragged shapes (the general kernel) and on
// shapes whose sizes and strides are multiples of 16 (the aligned variant), and compares with the
// CPU reference of the same source; the padding columns of the output must keep their poison. The
// output is not a golden: tests/emu writes it at build time with the tilec just built. On the
// emulator the program also checks which variant ran; the emulator, as the GPU, refuses a launch
// above 48 KB without the attribute the launcher sets.
#include "check.h"
#include "big_shared.cpp"
#include <big_shared.cu> // written by tilec (<>: not this file)

namespace {

void run(harness::Report &report, int M, int N, int in_stride, int out_stride, bool aligned) {
  const size_t nin = size_t(M) * in_stride, nout = size_t(N) * out_stride;
  auto x = harness::randomFloats(nin, -1, 1, M * 131 + N);
  std::vector<float> ref(nout, NAN), out(nout);
  tl::launch(tl::grid3{tl::cdiv(M, 128), tl::cdiv(N, 128)}, transpose_big<128, 128>, x.data(),
             ref.data(), M, N, in_stride, out_stride);
  harness::DeviceBuffer<float> din(nin), dout(nout);
  din.upload(x.data());
  dout.poison();
  CHECK_CUDA(launch_transpose_big_128_128(cudaStream_t{}, din.ptr, dout.ptr, M, N, in_stride,
                                          out_stride));
  CHECK_CUDA(cudaDeviceSynchronize());
  bool variantOk = true;
#if defined(TILEC_EMULATE)
  const void *expected =
      aligned ? reinterpret_cast<const void *>(&transpose_big_128_128::aligned::transpose_big)
              : reinterpret_cast<const void *>(&transpose_big_128_128::transpose_big);
  variantOk = tilec::emu::last_kernel() == expected;
#endif
  dout.download(out.data());
  std::vector<double> gpu, cpu, f64;
  bool paddingUntouched = true;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < out_stride; ++i) {
      const float v = out[size_t(j) * out_stride + i];
      if (i < M) {
        gpu.push_back(v);
        cpu.push_back(ref[size_t(j) * out_stride + i]);
        f64.push_back(x[size_t(i) * in_stride + j]);
      } else if (!std::isnan(v)) {
        paddingUntouched = false;
      }
    }
  report.check("big_shared", std::to_string(M) + "x" + std::to_string(N) +
                                 (aligned ? " aligned" : " general"),
               gpu, cpu, f64, 1e-6, paddingUntouched && variantOk);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  // M, N, strides past the rows (general kernel), or none (multiples of 16: the aligned variant).
  std::vector<std::pair<int, int>> ragged = {{1, 1}, {129, 130}, {300, 200}};
  std::vector<std::pair<int, int>> aligned = {{128, 128}, {256, 384}};
  if (!harness::smallRun(argc, argv)) {
    ragged.push_back({4099, 2051});
    aligned.push_back({4096, 8192});
  }
  for (auto [M, N] : ragged)
    run(report, M, N, N + 5, M + 3, false);
  for (auto [M, N] : aligned)
    run(report, M, N, N, M, true);
  return report.exitCode();
}
