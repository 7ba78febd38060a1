// Runs tilec's CUDA for gelu_and_mul_fwd<1024> and gelu_and_mul_bwd<1024> (fp16) on random inputs
// of ragged sizes, and compares c, da and db with the CPU reference of the same source and with
// float64 (from the same fp16 inputs, rounded to fp16 last).
#include "../common/harness.h"
#include "gelu_and_mul.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "gelu_and_mul.hip"
#else
#include "gelu_and_mul.cu"
#endif

namespace {

std::vector<tl::half> toHalf(const std::vector<float> &v) {
  std::vector<tl::half> h(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    h[i] = tl::half(v[i]);
  return h;
}
double gelu(double x) { return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }
double geluGrad(double x) {
  const double t = std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * 0.7978845608028654 * (1 + 3 * 0.044715 * x * x);
}
double roundHalf(double v) { return float(tl::half(float(v))); }
std::vector<double> toDoubles(const std::vector<tl::half> &v) {
  std::vector<double> d(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    d[i] = float(v[i]);
  return d;
}

void run(harness::Report &report, int n) {
  const size_t N = size_t(n);
  auto a = toHalf(harness::randomFloats(N, -4, 4, N * 3 + 1));
  auto b = toHalf(harness::randomFloats(N, -2, 2, N * 3 + 2));
  auto dc = toHalf(harness::randomFloats(N, -1, 1, N * 3 + 3));
  std::vector<tl::half> c(N), da(N), db(N);
  tl::launch(tl::grid3{tl::cdiv(n, 1024)}, gelu_and_mul_fwd<1024>, a.data(), b.data(), c.data(), n);
  tl::launch(tl::grid3{tl::cdiv(n, 1024)}, gelu_and_mul_bwd<1024>, dc.data(), a.data(), b.data(), da.data(),
             db.data(), n);
  harness::DeviceBuffer<__half> dA{N}, dB{N}, dDC{N}, dC{N}, dDA{N}, dDB{N};
  dA.upload(a.data());
  dB.upload(b.data());
  dDC.upload(dc.data());
  dC.poison();
  dDA.poison();
  dDB.poison();
  CHECK_CUDA(launch_gelu_and_mul_fwd_1024(cudaStream_t{}, dA.ptr, dB.ptr, dC.ptr, n));
  CHECK_CUDA(launch_gelu_and_mul_bwd_1024(cudaStream_t{}, dDC.ptr, dA.ptr, dB.ptr, dDA.ptr, dDB.ptr, n));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<tl::half> gc(N), gda(N), gdb(N);
  dC.download(gc.data());
  dDA.download(gda.data());
  dDB.download(gdb.data());
  std::vector<double> fc(N), fda(N), fdb(N);
  for (size_t i = 0; i < N; ++i) {
    const double x = float(a[i]), y = float(b[i]), g = float(dc[i]);
    fc[i] = roundHalf(gelu(x) * y);
    fda[i] = roundHalf(g * y * geluGrad(x));
    fdb[i] = roundHalf(g * gelu(x));
  }
  // fp16 outputs: a few half ulps (2^-11 relative) from float64, plus tanhf's error.
  report.check("geglu c", std::to_string(n), toDoubles(gc), toDoubles(c), fc, 2e-3);
  report.check("geglu da", std::to_string(n), toDoubles(gda), toDoubles(da), fda, 2e-3);
  report.check("geglu db", std::to_string(n), toDoubles(gdb), toDoubles(db), fdb, 2e-3);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 1000, 1024, 4099, 1 << 20};
  if (harness::smallRun(argc, argv))
    sizes = {1, 1000, 1024, 4099};
  for (int n : sizes)
    run(report, n);
  return report.exitCode();
}
