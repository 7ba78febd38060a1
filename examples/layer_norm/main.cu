// Runs tilec's CUDA for layer_norm_fwd<1024, 8> and <1024, 8, 2> (loads one chunk ahead) (fp16
// in/out, fp32 statistics) on random rows of ragged widths, one chunk and several, and compares Y,
// Mean and Rstd with the CPU reference of the same source and float64.
#include "../common/harness.h"
#include "layer_norm.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "layer_norm.hip"
#else
#include "layer_norm.cu"
#endif


static_assert(sizeof(tl::half) == sizeof(__half), "tl::half and __half share a bit layout");

static std::vector<tl::half> toHalf(const std::vector<float> &v) {
  std::vector<tl::half> h(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    h[i] = tl::half(v[i]);
  return h;
}

template <int STAGES, class Launch>
void run(harness::Report &report, const char *name, const std::vector<std::pair<int, int>> &cases, Launch launch) {
  for (auto [M, N] : cases) {
    int stride = N + 8;
    size_t n = size_t(M) * stride;
    auto x = toHalf(harness::randomFloats(n, -3, 5, M * 31 + N));
    auto w = toHalf(harness::randomFloats(N, 0.5f, 1.5f, N + 1));
    auto b = toHalf(harness::randomFloats(N, -1, 1, N + 2));
    float eps = 1e-5f;
    std::vector<tl::half> y(n, tl::half(0.0f));
    std::vector<float> mean(M), rstd(M);
    tl::launch(tl::grid3{M}, layer_norm_fwd<1024, 8, STAGES>, x.data(), y.data(), w.data(), b.data(),
               mean.data(), rstd.data(), stride, M, N, eps);

    harness::DeviceBuffer<__half> dx(n), dy(n), dw(N), db(N);
    harness::DeviceBuffer<float> dmean(M), drstd(M);
    dx.upload(x.data());
    dw.upload(w.data());
    db.upload(b.data());
    dy.poison();
    dmean.poison();
    drstd.poison();
    CHECK_CUDA(launch(cudaStream_t{}, dx.ptr, dy.ptr, dw.ptr, db.ptr, dmean.ptr, drstd.ptr, stride, M, N, eps));
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<tl::half> gy(n);
    std::vector<float> gmean(M), grstd(M);
    dy.download(gy.data());
    dmean.download(gmean.data());
    drstd.download(grstd.data());

    // float64 statistics and output from the same fp16 inputs (the output rounded to fp16 last).
    std::vector<double> fmean(M), frstd(M), fy;
    for (int i = 0; i < M; ++i) {
      double s = 0, v = 0;
      for (int j = 0; j < N; ++j)
        s += static_cast<float>(x[size_t(i) * stride + j]);
      fmean[i] = s / N;
      for (int j = 0; j < N; ++j) {
        double d = static_cast<float>(x[size_t(i) * stride + j]) - fmean[i];
        v += d * d;
      }
      frstd[i] = 1 / std::sqrt(v / N + eps);
    }
    // Y over the written columns of each row; the padding columns must keep their poison.
    std::vector<double> gpu, cpu;
    bool paddingUntouched = true;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < stride; ++j) {
        float v = static_cast<float>(gy[size_t(i) * stride + j]);
        if (j < N) {
          gpu.push_back(v);
          cpu.push_back(static_cast<float>(y[size_t(i) * stride + j]));
          double xv = static_cast<float>(x[size_t(i) * stride + j]);
          double yv = (xv - fmean[i]) * frstd[i] * static_cast<float>(w[j]) + static_cast<float>(b[j]);
          fy.push_back(static_cast<float>(tl::half(static_cast<float>(yv))));
        } else if (!std::isnan(v)) {
          paddingUntouched = false;
        }
      }
    std::string size = std::to_string(M) + "x" + std::to_string(N);
    report.check(name, size + " Y", gpu, cpu, fy, 1e-3, paddingUntouched);
    report.check(name, size + " mean", harness::toDoubles(gmean), harness::toDoubles(mean), fmean, 1e-6);
    report.check(name, size + " rstd", harness::toDoubles(grstd), harness::toDoubles(rstd), frstd, 1e-6);
  }
}

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<std::pair<int, int>> cases = {{1, 1}, {5, 1000}, {64, 1024}, {17, 3000}, {4096, 4096}, {3, 40000}};
  if (harness::smallRun(argc, argv))
    cases = {{1, 1}, {5, 1000}, {3, 2500}};
  run<1>(report, "layer_norm", cases, [](auto... a) { return launch_layer_norm_fwd_1024_8_1(a...); });
  run<2>(report, "layer_norm s2", cases, [](auto... a) { return launch_layer_norm_fwd_1024_8_2(a...); });
  return report.exitCode();
}
