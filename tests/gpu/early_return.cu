// Runs tests/kernels/early_return.cpp on random rows (sums of either sign) with more programs than
// rows, and compares y and the row sums with the CPU reference of the same source and with float64;
// the programs past the last row must write nothing (the guards after y and the sums keep their
// poison).
#include "check.h"
#include "early_return.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <early_return.hip>
#else
#include <early_return.cu> // golden/early_return/early_return.cu (<>: not this file)
#endif

int main(int, char **) {
  harness::Report report;
  constexpr float s = 1.5f;
  for (auto [rows, cols] : {std::pair{37, 50}, std::pair{1, 64}, std::pair{9, 1}}) {
    const int programs = rows + 3;
    const size_t n = size_t(rows) * cols;
    auto x = harness::randomFloats(n, -1, 1, rows * 7919 + cols);
    std::vector<float> ref(n, NAN), refSums(rows, NAN);
    tl::launch(tl::grid3{programs}, early_return<64>, x.data(), ref.data(), refSums.data(), rows,
               cols, s, programs);
    harness::DeviceBuffer<float> dx(n);
    dx.upload(x.data());
    gpucheck::Output<float> y(n), sums(rows);
    for (int byte : gpucheck::kPoison) {
      y.poison(byte);
      sums.poison(byte);
      CHECK_CUDA(launch_early_return_64(cudaStream_t{}, dx.ptr, y.dev.ptr, sums.dev.ptr, rows, cols,
                                        s, programs));
      CHECK_CUDA(cudaDeviceSynchronize());
      y.collect(byte);
      sums.collect(byte);
    }
    std::vector<double> fy, fs, gy, gs, cy, cs;
    for (int r = 0; r < rows; ++r) {
      double sum = 0;
      for (int c = 0; c < cols; ++c)
        sum += x[size_t(r) * cols + c];
      fs.push_back(sum);
      gs.push_back(sums.vals[r]);
      cs.push_back(refSums[r]);
      for (int c = 0; c < cols; ++c) {
        const double v = x[size_t(r) * cols + c];
        fy.push_back(sum < 0 ? 0.0 : r == 0 ? v : v * s);
        gy.push_back(y.vals[size_t(r) * cols + c]);
        cy.push_back(ref[size_t(r) * cols + c]);
      }
    }
    const std::string shape = gpucheck::shape(rows, cols);
    report.check("early_return sums", shape, gs, cs, fs, 1e-5, sums.ok());
    report.check("early_return y", shape, gy, cy, fy, 1e-6, y.ok());
  }
  return report.exitCode();
}
