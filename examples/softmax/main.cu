// Runs tilec's CUDA for softmax_kernel<float, 1024, 4> and <float, 4096, 8>, softmax_kernel<tl::half,
// 1024, 4> (fp16 rows), and softmax_looped<float, 1024, 4> on rows wider than its block, on random
// matrices (ragged column counts, row strides wider than the rows) and compares with the CPU
// reference of the same source and float64 (rounded to fp16 for the fp16 rows).
#include "../common/harness.h"
#include "softmax.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "softmax.hip"
#else
#include "softmax.cu"
#endif

struct Case {
  int rows, cols;
};

template <class T, int BLOCK, int WARPS, bool LOOPED = false, class Launch>
void run(harness::Report &report, Case c, Launch launch) {
  int stride = c.cols + 3; // rows are not packed: the padding must stay untouched
  size_t n = size_t(c.rows) * stride;
  auto xf = harness::randomFloats(n, -8, 8, c.rows * 7919 + c.cols);
  std::vector<T> x(n), ref(n, T(-1.0f)), out(n);
  for (size_t i = 0; i < n; ++i)
    x[i] = T(xf[i]);
  if constexpr (LOOPED)
    tl::launch(tl::grid3{c.rows}, softmax_looped<T, BLOCK, WARPS>, ref.data(), x.data(), stride, stride,
               c.rows, c.cols);
  else
    tl::launch(tl::grid3{c.rows}, softmax_kernel<T, BLOCK, WARPS>, ref.data(), x.data(), stride, stride,
               c.rows, c.cols);
  harness::DeviceBuffer<T> din(n), dout(n);
  din.upload(x.data());
  dout.poison();
  CHECK_CUDA(launch(cudaStream_t{}, dout.ptr, din.ptr, stride, stride, c.rows, c.cols));
  CHECK_CUDA(cudaDeviceSynchronize());
  dout.download(out.data());
  // Compare the written columns; the padding columns must still hold the poison (NaN).
  std::vector<double> gpu, cpu, f64;
  bool paddingUntouched = true;
  for (int r = 0; r < c.rows; ++r) {
    const T *xr = &x[size_t(r) * stride];
    double m = -INFINITY, sum = 0;
    for (int j = 0; j < c.cols; ++j)
      m = std::max(m, double(float(xr[j])));
    for (int j = 0; j < c.cols; ++j)
      sum += std::exp(double(float(xr[j])) - m);
    for (int j = 0; j < stride; ++j) {
      float v = float(out[size_t(r) * stride + j]);
      if (j < c.cols) {
        gpu.push_back(v);
        cpu.push_back(float(ref[size_t(r) * stride + j]));
        f64.push_back(std::exp(double(float(xr[j])) - m) / sum);
      } else if (!std::isnan(v)) {
        paddingUntouched = false;
      }
    }
  }
  // fp16 outputs: rounded to 11 significant bits (a relative error up to 2^-11 per element).
  const bool f16 = sizeof(T) == 2;
  report.check(LOOPED ? "looped1024" : f16 ? "softmax_f16" : BLOCK == 1024 ? "softmax1024" : "softmax4096",
               std::to_string(c.rows) + "x" + std::to_string(c.cols), gpu, cpu, f64, f16 ? 5e-4 : 1e-6,
               paddingUntouched);
}

int main(int argc, char **argv) {
  harness::Report report;
  bool small = harness::smallRun(argc, argv);
  std::vector<Case> c1 = {{1, 1}, {7, 1000}, {64, 1024}, {4096, 777}};
  std::vector<Case> c2 = {{1, 1025}, {33, 3001}, {4096, 4096}};
  if (small) {
    c1 = {{1, 1}, {7, 1000}, {3, 1024}};
    c2 = {{1, 1025}, {5, 3001}};
  }
  for (auto c : c1)
    run<float, 1024, 4>(report, c, [](auto... a) { return launch_softmax_kernel_f32_1024_4(a...); });
  for (auto c : c2)
    run<float, 4096, 8>(report, c, [](auto... a) { return launch_softmax_kernel_f32_4096_8(a...); });
  for (auto c : c1)
    run<tl::half, 1024, 4>(report, c, [](cudaStream_t s, tl::half *out, const tl::half *in, auto... a) {
      return launch_softmax_kernel_f16_1024_4(s, reinterpret_cast<__half *>(out),
                                              reinterpret_cast<const __half *>(in), a...);
    });
  // Looped: one chunk, several, a ragged last one, and a row of 262144.
  std::vector<Case> c3 = {{1, 1}, {3, 1000}, {5, 5000}, {64, 1024 * 9}, {4, 262144}, {1024, 65537}};
  if (small)
    c3 = {{1, 1}, {3, 1000}, {2, 5000}, {2, 2048}};
  for (auto c : c3)
    run<float, 1024, 4, true>(report, c, [](auto... a) { return launch_softmax_looped_f32_1024_4(a...); });
  return report.exitCode();
}
