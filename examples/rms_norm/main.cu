// Runs tilec's CUDA for rms_norm_fwd at its three element types (float, fp16 with EPS 1e-6, bf16
// with EPS 1e-5) and for add_rms_norm_fwd (fp16) on random rows of ragged widths, and compares Y,
// RSTD (and the residual sum S) with the CPU reference of the same source and with float64 (which
// rounds where the kernel's algorithm rounds: the sum x + r to T, the 16-bit rows' normalized
// values to T before the weight, the product to T).
#include "../common/harness.h"
#include "rms_norm.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "rms_norm.hip"
using device_bf16 = hip_bfloat16;
#else
#include "rms_norm.cu"
using device_bf16 = __nv_bfloat16;
#endif

static_assert(sizeof(tl::half) == sizeof(__half) && sizeof(tl::bfloat16) == sizeof(device_bf16),
              "tl::half and tl::bfloat16 share the device types' bit layouts");

namespace {

template <class T> std::vector<T> toT(const std::vector<float> &v) {
  std::vector<T> r(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    r[i] = T(v[i]);
  return r;
}

// The device launcher of rms_norm_fwd<T, 4096, EPS>.
cudaError_t launchDevice(const float *x, const float *w, float *y, float *rstd, int M, int N, int stride) {
  return launch_rms_norm_fwd_f32_4096_1em06(cudaStream_t{}, x, w, y, rstd, M, N, stride);
}
cudaError_t launchDevice(const tl::half *x, const tl::half *w, tl::half *y, float *rstd, int M, int N, int stride) {
  return launch_rms_norm_fwd_f16_4096_1em06(cudaStream_t{}, reinterpret_cast<const __half *>(x),
                                            reinterpret_cast<const __half *>(w), reinterpret_cast<__half *>(y),
                                            rstd, M, N, stride);
}
cudaError_t launchDevice(const tl::bfloat16 *x, const tl::bfloat16 *w, tl::bfloat16 *y, float *rstd, int M, int N,
                         int stride) {
  return launch_rms_norm_fwd_bf16_4096_1em05(cudaStream_t{}, reinterpret_cast<const device_bf16 *>(x),
                                             reinterpret_cast<const device_bf16 *>(w),
                                             reinterpret_cast<device_bf16 *>(y), rstd, M, N, stride);
}

// The device launcher of add_rms_norm_fwd<tl::half, 4096, 1e-6f>.
cudaError_t launchFused(const tl::half *x, const tl::half *r, const tl::half *w, tl::half *s, tl::half *y, float *rstd,
                        int M, int N, int stride) {
  auto in = [](const tl::half *p) { return reinterpret_cast<const __half *>(p); };
  auto out = [](tl::half *p) { return reinterpret_cast<__half *>(p); };
  return launch_add_rms_norm_fwd_f16_4096_1em06(cudaStream_t{}, in(x), in(r), in(w), out(s), out(y), rstd, M, N,
                                                stride);
}

/// rms_norm_fwd, or with FUSED add_rms_norm_fwd (x + r first, stored as S).
template <class T, float EPS, bool FUSED = false>
void run(harness::Report &report, const char *name, int M, int N, double tol) {
  const int stride = N + 5;
  const size_t n = size_t(M) * stride;
  auto x = toT<T>(harness::randomFloats(n, -3, 3, uint64_t(M) * 41 + uint64_t(N)));
  auto r = toT<T>(harness::randomFloats(n, -3, 3, uint64_t(M) * 43 + uint64_t(N)));
  auto w = toT<T>(harness::randomFloats(size_t(N), 0.5f, 1.5f, uint64_t(N) + 9));
  std::vector<T> y(n, T(0.0f)), s(n, T(0.0f));
  std::vector<float> rstd(size_t(M), NAN);
  if constexpr (FUSED)
    tl::launch(tl::grid3{M}, add_rms_norm_fwd<T, 4096, EPS>, x.data(), r.data(), w.data(), s.data(), y.data(),
               rstd.data(), M, N, stride);
  else
    tl::launch(tl::grid3{M}, rms_norm_fwd<T, 4096, EPS>, x.data(), w.data(), y.data(), rstd.data(), M, N, stride);

  harness::DeviceBuffer<T> dx{n}, dr{n}, dw{size_t(N)}, dy{n}, ds{n};
  harness::DeviceBuffer<float> drstd{size_t(M)};
  dx.upload(x.data());
  dr.upload(r.data());
  dw.upload(w.data());
  dy.poison();
  ds.poison();
  drstd.poison();
  if constexpr (FUSED)
    CHECK_CUDA(launchFused(dx.ptr, dr.ptr, dw.ptr, ds.ptr, dy.ptr, drstd.ptr, M, N, stride));
  else
    CHECK_CUDA(launchDevice(dx.ptr, dw.ptr, dy.ptr, drstd.ptr, M, N, stride));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<T> gy(n), gs(n);
  std::vector<float> grstd(static_cast<size_t>(M));
  dy.download(gy.data());
  ds.download(gs.data());
  drstd.download(grstd.data());
  // The row the norm is taken of: x, or the sum x + r rounded to T as the kernel stores it.
  auto in = [&](size_t at) { return FUSED ? double(float(T(float(x[at]) + float(r[at])))) : double(float(x[at])); };

  std::vector<double> gpu, cpu, f64, gr, cr, fr, sg, sc, sf;
  bool paddingUntouched = true;
  for (int i = 0; i < M; ++i) {
    double ss = 0;
    for (int j = 0; j < N; ++j) {
      double v = in(size_t(i) * stride + j);
      ss += v * v;
    }
    const double r = 1 / std::sqrt(ss / N + double(EPS));
    gr.push_back(grstd[i]);
    cr.push_back(rstd[i]);
    fr.push_back(r);
    for (int j = 0; j < stride; ++j) {
      const size_t at = size_t(i) * stride + j;
      const float got = float(gy[at]);
      if (j >= N) {
        paddingUntouched = paddingUntouched && std::isnan(got) && (!FUSED || std::isnan(float(gs[at])));
        continue;
      }
      if constexpr (FUSED) {
        sg.push_back(float(gs[at]));
        sc.push_back(float(s[at]));
        sf.push_back(in(at));
      }
      const double xv = in(at), wv = float(w[j]);
      double want = xv * r * wv;
      if constexpr (is_16bit_float<T>)
        want = float(T(float(float(T(float(xv * r))) * wv)));
      gpu.push_back(got);
      cpu.push_back(float(y[at]));
      f64.push_back(want);
    }
  }
  const std::string size = std::to_string(M) + "x" + std::to_string(N);
  report.check(name, size, gpu, cpu, f64, tol, paddingUntouched);
  report.check("rstd", size, gr, cr, fr, 1e-5);
  if constexpr (FUSED)
    report.check("residual", size, sg, sc, sf, 0.0);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<std::pair<int, int>> cases = {{1, 1}, {3, 255}, {7, 1000}, {5, 4096}, {2048, 3001}};
  if (harness::smallRun(argc, argv))
    cases = {{1, 1}, {3, 255}, {7, 1000}, {2, 4096}};
  for (auto [M, N] : cases) {
    run<float, 1e-6f>(report, "rms f32", M, N, 1e-5);
    run<tl::half, 1e-6f>(report, "rms f16", M, N, 2e-3);
    run<tl::bfloat16, 1e-5f>(report, "rms bf16", M, N, 1.6e-2);
    run<tl::half, 1e-6f, true>(report, "add+rms f16", M, N, 2e-3);
  }
  return report.exitCode();
}
