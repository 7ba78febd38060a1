// Runs tilec's CUDA for examples/cumsum (rows_cumsum for rows of up to 128 columns, and
// row_cumsum_long for any length; fp32 and fp16) on random inputs at ragged shapes, against the
// CPU reference (the same source through tilec/tl.hpp) and float64: y[r][c] = x[r][0] + ... +
// x[r][c]. Rows are `stride` = N + 3 elements apart; the gaps between rows must keep the poison.
#include "../common/harness.h"
#include "cumsum.cpp"          // the kernel source: CPU reference
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "cumsum.hip"
#else
#include "cumsum.cu" // tilec's output: kernel + host launcher
#endif

#include <cstring>

namespace {

template <class T, class Dev, class Reference, class Launch>
void run(harness::Report &report, const char *name, int m, int n, Reference reference,
         Launch launch) {
  const int stride = n + 3;
  auto xf = harness::randomFloats(size_t(m) * stride, -1, 1, uint64_t(m) * 7919 + n);
  std::vector<T> x(xf.size()), ref(xf.size(), T(NAN)), out(xf.size());
  for (size_t i = 0; i < xf.size(); ++i)
    x[i] = T(xf[i]);
  reference(x.data(), ref.data(), m, n, stride);

  harness::DeviceBuffer<Dev> dx(x.size()), dy(x.size());
  dx.upload(x.data());
  dy.poison();
  CHECK_CUDA(launch(dx.ptr, dy.ptr, m, n, stride));
  CHECK_CUDA(cudaDeviceSynchronize());
  dy.download(out.data());
  std::vector<unsigned char> poison(sizeof(T));
  std::memset(poison.data(), 0xFF, poison.size()); // harness::DeviceBuffer::poison's byte
  bool gapsKept = true;
  std::vector<double> f64, gpu, cpu;
  for (int r = 0; r < m; ++r) {
    double acc = 0;
    for (int c = 0; c < stride; ++c) {
      const size_t i = size_t(r) * stride + c;
      if (c >= n) {
        gapsKept = gapsKept && std::memcmp(&out[i], poison.data(), sizeof(T)) == 0;
        continue;
      }
      acc += double(float(x[i]));
      f64.push_back(acc);
      gpu.push_back(double(float(out[i])));
      cpu.push_back(double(float(ref[i])));
    }
  }
  // fp16 outputs are rounded once: half an ulp, 2^-11 relative.
  report.check(name, std::to_string(m) + "x" + std::to_string(n), gpu, cpu, f64,
               std::is_same_v<T, float> ? 1e-5 : 1e-3, gapsKept);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  const bool small = harness::smallRun(argc, argv);
  std::vector<std::pair<int, int>> shortRows = {{1, 1}, {37, 100}, {300, 128}};
  std::vector<std::pair<int, int>> longRows = {{1, 1}, {3, 5000}, {40, 2048}};
  if (!small) {
    shortRows.push_back({100000, 77});
    longRows.push_back({4096, 4099});
  }
  for (auto [m, n] : shortRows) {
    run<float, float>(
        report, "rows f32", m, n,
        [](const float *x, float *y, int m, int n, int s) {
          tl::launch(tl::grid3{tl::cdiv(m, 16)}, rows_cumsum<float, 16, 128>, x, y, m, n, s);
        },
        [](float *x, float *y, int m, int n, int s) {
          return launch_rows_cumsum_f32_16_128(cudaStream_t{}, x, y, m, n, s);
        });
    run<tl::half, __half>(
        report, "rows f16", m, n,
        [](const tl::half *x, tl::half *y, int m, int n, int s) {
          tl::launch(tl::grid3{tl::cdiv(m, 16)}, rows_cumsum<tl::half, 16, 128>, x, y, m, n, s);
        },
        [](__half *x, __half *y, int m, int n, int s) {
          return launch_rows_cumsum_f16_16_128(cudaStream_t{}, x, y, m, n, s);
        });
  }
  for (auto [m, n] : longRows) {
    run<float, float>(
        report, "long f32", m, n,
        [](const float *x, float *y, int m, int n, int s) {
          tl::launch(tl::grid3{m}, row_cumsum_long<float, 2048>, x, y, m, n, s);
        },
        [](float *x, float *y, int m, int n, int s) {
          return launch_row_cumsum_long_f32_2048(cudaStream_t{}, x, y, m, n, s);
        });
    run<tl::half, __half>(
        report, "long f16", m, n,
        [](const tl::half *x, tl::half *y, int m, int n, int s) {
          tl::launch(tl::grid3{m}, row_cumsum_long<tl::half, 2048>, x, y, m, n, s);
        },
        [](__half *x, __half *y, int m, int n, int s) {
          return launch_row_cumsum_long_f16_2048(cudaStream_t{}, x, y, m, n, s);
        });
  }
  return report.exitCode();
}
