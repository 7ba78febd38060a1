// Runs tilec's CUDA for checked_scale<256> (tl::device_assert) on random inputs within the limit:
// y = 2x exactly, against the CPU reference and float64, no assert failing. With --fail, one
// element past the limit: the launch must fail with cudaErrorAssert (the device prints the located
// message) unless the program was built with NDEBUG, where the asserts are compiled out; the CPU
// reference is not run then. With --fail-cpu, the CPU reference on an element past the limit: it
// stops the program with the located message (NDEBUG: it goes on).
// tests/emu/planted/device_assert.test checks both on the emulator.
#include "asserts.cpp"
#include "check.h"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <asserts.hip>
#else
#include <asserts.cu> // golden/asserts/asserts.cu (<>: not this file)
#endif

#include <cstring>

int main(int argc, char **argv) {
  bool fail = false, failCpu = false;
  for (int i = 1; i < argc; ++i) {
    fail = fail || std::strcmp(argv[i], "--fail") == 0;
    failCpu = failCpu || std::strcmp(argv[i], "--fail-cpu") == 0;
  }
  if (failCpu) { // the CPU reference stops the program with the located message (without NDEBUG)
    std::vector<float> x = {0.5f, -3.0f}, y(2);
    tl::launch(tl::grid3{1}, checked_scale<256>, x.data(), y.data(), 2, 2.0f);
    std::printf("the CPU reference went on: y = %g %g\n", y[0], y[1]);
    return 0;
  }
  if (fail) {
    const int n = 1000;
    auto x = harness::randomFloats(n, -1, 1, 7);
    x[777] = 5.0f; // past the limit of 2
    harness::DeviceBuffer<float> dx(n), dy(n);
    dx.upload(x.data());
    // The GPU reports the failure at the synchronization, the emulator (which runs the kernel
    // within the launch) at the launch.
    cudaError_t e = launch_checked_scale_256(cudaStream_t{}, dx.ptr, dy.ptr, n, 2.0f);
    if (e == cudaSuccess)
      e = cudaDeviceSynchronize();
    std::printf("launch with x[777] = 5 past the limit 2: %s\n", cudaGetErrorName(e));
#if defined(NDEBUG)
    return e == cudaSuccess ? 0 : 1;
#else
    return e == cudaErrorAssert ? 0 : 1;
#endif
  }
  harness::Report report;
  std::vector<int> sizes = {1, 255, 256, 1000, 100003};
  if (harness::smallRun(argc, argv))
    sizes = {1, 255, 256, 1000};
  for (int n : sizes) {
    auto x = harness::randomFloats(n, -2, 2, n);
    std::vector<float> ref(n, NAN);
    tl::launch(tl::grid3{tl::cdiv(n, 256)}, checked_scale<256>, x.data(), ref.data(), n, 2.0f);
    harness::DeviceBuffer<float> dx(n);
    gpucheck::Output<float> out(n);
    dx.upload(x.data());
    for (int byte : gpucheck::kPoison) {
      out.poison(byte);
      CHECK_CUDA(launch_checked_scale_256(cudaStream_t{}, dx.ptr, out.dev.ptr, n, 2.0f));
      CHECK_CUDA(cudaDeviceSynchronize());
      out.collect(byte);
    }
    std::vector<double> f64(n);
    for (int i = 0; i < n; ++i)
      f64[i] = 2.0 * double(x[i]);
    report.check("asserts", std::to_string(n), harness::toDoubles(out.vals),
                 harness::toDoubles(ref), f64, 0.0, out.ok());
  }
  for (auto [rows, cols] : {std::pair{1, 1}, std::pair{37, 300}, std::pair{64, 64}}) {
    auto x = harness::randomFloats(size_t(rows) * cols, -1, 1, uint64_t(rows) * 7 + cols);
    std::vector<float> ref(rows, NAN);
    tl::launch(tl::grid3{tl::cdiv(rows, 16)}, checked_row_sums<16, 64>, x.data(), ref.data(), rows,
               cols);
    harness::DeviceBuffer<float> dx(x.size());
    gpucheck::Output<float> out(rows);
    dx.upload(x.data());
    for (int byte : gpucheck::kPoison) {
      out.poison(byte);
      CHECK_CUDA(launch_checked_row_sums_16_64(cudaStream_t{}, dx.ptr, out.dev.ptr, rows, cols));
      CHECK_CUDA(cudaDeviceSynchronize());
      out.collect(byte);
    }
    std::vector<double> f64(rows, 0.0);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j)
        f64[i] += x[size_t(i) * cols + j];
    report.check("assert rows", gpucheck::shape(rows, cols), harness::toDoubles(out.vals),
                 harness::toDoubles(ref), f64, 1e-5, out.ok());
  }
  return report.exitCode();
}
