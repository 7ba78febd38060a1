// Runs tilec's CUDA for examples/quantize (fp16 rows to int8, bf16 rows to fp8 e4m3, fp32 rows to
// fp8 e5m2) on random inputs at ragged shapes, against the CPU reference (the same source through
// tilec/tl.hpp) and float64. The quantized values must equal the CPU reference's bit for bit and
// the scales too; dequantized (q * scale), the rows must be within the format's rounding of x:
// half a step of the scale for int8, 2^-4 (e4m3) or 2^-3 (e5m2) of each value for fp8. Rows are
// `stride` = N + 5 elements apart; the gaps between rows must keep the poison, and one row in
// seven is zeros (scale 0).
#include "../common/harness.h"
#include "quantize.cpp"        // the kernel source: CPU reference
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "quantize.hip"
#else
#include "quantize.cu" // tilec's output: kernel + host launcher
#endif

#include <cmath>
#include <cstring>

namespace {

template <class T, class Q, class DevT, class DevQ, class Reference, class Launch>
void run(harness::Report &report, const char *name, int m, int n, double qmax, double tol,
         Reference reference, Launch launch) {
  const int stride = n + 5;
  auto xf = harness::randomFloats(size_t(m) * stride, -3, 3, uint64_t(m) * 104729 + n);
  for (int r = 0; r < m; r += 7) // rows of zeros
    for (int c = 0; c < stride; ++c)
      xf[size_t(r) * stride + c] = 0.0f;
  std::vector<T> x(xf.begin(), xf.end());
  std::vector<Q> refQ(x.size()), q(x.size());
  std::vector<float> refScale(m), scale(m);
  reference(x.data(), refQ.data(), refScale.data(), m, n, stride);

  harness::DeviceBuffer<DevT> dx(x.size());
  harness::DeviceBuffer<DevQ> dq(x.size());
  harness::DeviceBuffer<float> ds(m);
  dx.upload(x.data());
  dq.poison();
  ds.poison();
  CHECK_CUDA(launch(dx.ptr, dq.ptr, ds.ptr, m, n, stride));
  CHECK_CUDA(cudaDeviceSynchronize());
  dq.download(q.data());
  ds.download(scale.data());

  bool exact = std::memcmp(refScale.data(), scale.data(), m * sizeof(float)) == 0;
  bool gapsKept = true;
  std::vector<double> gpu, cpu, f64, gpuScale(scale.begin(), scale.end()),
      cpuScale(refScale.begin(), refScale.end()), f64Scale(m);
  for (int r = 0; r < m; ++r) {
    double absmax = 0;
    for (int c = 0; c < n; ++c)
      absmax = std::max(absmax, std::fabs(double(float(x[size_t(r) * stride + c]))));
    f64Scale[r] = absmax / qmax;
    for (int c = 0; c < stride; ++c) {
      const size_t i = size_t(r) * stride + c;
      if (c >= n) {
        unsigned char poison[sizeof(Q)];
        std::memset(poison, 0xFF, sizeof(Q)); // harness::DeviceBuffer::poison's byte
        gapsKept = gapsKept && std::memcmp(&q[i], poison, sizeof(Q)) == 0;
        continue;
      }
      exact = exact && std::memcmp(&q[i], &refQ[i], sizeof(Q)) == 0;
      gpu.push_back(double(float(q[i])) * scale[r]);
      cpu.push_back(double(float(refQ[i])) * refScale[r]);
      f64.push_back(double(float(x[i])));
    }
  }
  const std::string size = std::to_string(m) + "x" + std::to_string(n);
  report.check(name, size, gpu, cpu, f64, tol, exact && gapsKept);
  report.check("  scales", size, gpuScale, cpuScale, f64Scale, 1e-6);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  const bool small = harness::smallRun(argc, argv);
  std::vector<std::pair<int, int>> shapes = {{1, 1}, {37, 100}, {9, 1024}};
  std::vector<std::pair<int, int>> short_rows = {{1, 1}, {37, 100}, {9, 256}}; // BLOCK 256
  if (!small) {
    shapes.push_back({4096, 1000});
    short_rows.push_back({4096, 250});
  }
  for (auto [m, n] : shapes) {
    // int8: |x - q * scale| <= scale / 2 = max|x| / 254 per element, about sqrt(3) / 254 of the
    // rows' norm for uniform values.
    run<tl::half, int8_t, __half, int8_t>(
        report, "f16->int8", m, n, 127, std::sqrt(3.0) / 254,
        [](const tl::half *x, int8_t *q, float *s, int m, int n, int st) {
          tl::launch(tl::grid3{m}, quantize_rows<tl::half, int8_t, 1024>, x, q, s, m, n, st);
        },
        [](__half *x, int8_t *q, float *s, int m, int n, int st) {
          return launch_quantize_rows_f16_i8_1024(dim3(m), cudaStream_t{}, x, q, s, m, n, st);
        });
    // e4m3: 3 mantissa bits, each value within 2^-4 of itself.
    run<tl::bfloat16, tl::float8_e4m3, tilec::rt::bf16_t, tilec::rt::f8e4m3_t>(
        report, "bf16->e4m3", m, n, 448, 0.0625,
        [](const tl::bfloat16 *x, tl::float8_e4m3 *q, float *s, int m, int n, int st) {
          tl::launch(tl::grid3{m}, quantize_rows<tl::bfloat16, tl::float8_e4m3, 1024>, x, q, s, m,
                     n, st);
        },
        [](tilec::rt::bf16_t *x, tilec::rt::f8e4m3_t *q, float *s, int m, int n, int st) {
          return launch_quantize_rows_bf16_f8e4m3_1024(dim3(m), cudaStream_t{}, x, q, s, m, n, st);
        });
  }
  for (auto [m, n] : short_rows) // e5m2: 2 mantissa bits, within 2^-3
    run<float, tl::float8_e5m2, float, tilec::rt::f8e5m2_t>(
        report, "f32->e5m2", m, n, 57344, 0.125,
        [](const float *x, tl::float8_e5m2 *q, float *s, int m, int n, int st) {
          tl::launch(tl::grid3{m}, quantize_rows<float, tl::float8_e5m2, 256>, x, q, s, m, n, st);
        },
        [](float *x, tilec::rt::f8e5m2_t *q, float *s, int m, int n, int st) {
          return launch_quantize_rows_f32_f8e5m2_256(dim3(m), cudaStream_t{}, x, q, s, m, n, st);
        });
  return report.exitCode();
}
