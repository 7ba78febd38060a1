// Runs tilec's CUDA for add_kernel<1024> on random inputs at several sizes (ragged ones included)
// and compares it with the CPU reference: the same kernel source run through tilec/tl.hpp.
#include "../common/harness.h"
#include "vector_add.cpp" // the kernel source: CPU reference
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "vector_add.hip"
#else
#include "vector_add.cu"  // tilec's output: kernel + host launcher
#endif

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 1000, 1025, 2048, 4097, 1 << 20, (1 << 24) + 3};
  if (harness::smallRun(argc, argv))
    sizes = {1, 1000, 1025, 2048, 4097}; // 2048: the launcher picks the aligned variant
  for (int n : sizes) {
    auto x = harness::randomFloats(n, -1, 1, n + 1), y = harness::randomFloats(n, -1, 1, n + 2);
    std::vector<float> ref(n, NAN), out(n);
    tl::launch(tl::grid3{tl::cdiv(n, 1024)}, add_kernel<1024>, x.data(), y.data(), ref.data(), n);

    harness::DeviceBuffer<float> dx(n), dy(n), dout(n);
    dx.upload(x.data());
    dy.upload(y.data());
    dout.poison();
    CHECK_CUDA(launch_add_kernel_1024(cudaStream_t{}, dx.ptr, dy.ptr, dout.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    dout.download(out.data());
    std::vector<double> f64(n);
    for (int i = 0; i < n; ++i)
      f64[i] = double(x[i]) + double(y[i]);
    report.check("vector_add", std::to_string(n), harness::toDoubles(out), harness::toDoubles(ref),
                 f64, 1e-6);
  }
  return report.exitCode();
}
