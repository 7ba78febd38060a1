// Runs tilec's CUDA for cross_entropy_fwd<float, 1024, 4> and <tl::bfloat16, 1024, 4> on random
// logits (vocabularies of one to several chunks, ragged; row strides wider than the rows; targets
// anywhere, the first and last columns included) and compares the per-row losses and the gradient
// written in place over the logits with the CPU reference of the same source and with float64
// (the gradient rounded to T where the kernel rounds it). The padding past each row must keep the
// poison the device buffer was filled with.
#include "../common/harness.h"
#include "cross_entropy.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "cross_entropy.hip"
using device_bf16 = hip_bfloat16;
#else
#include "cross_entropy.cu"
using device_bf16 = __nv_bfloat16;
#endif

#include <cmath>
#include <cstring>

namespace {

cudaError_t launchDevice(float *logits, int64_t stride, const int64_t *target, float *loss, int rows, int V) {
  return launch_cross_entropy_fwd_f32_1024_4(cudaStream_t{}, logits, stride, target, loss, rows, V);
}
cudaError_t launchDevice(tl::bfloat16 *logits, int64_t stride, const int64_t *target, float *loss, int rows, int V) {
  return launch_cross_entropy_fwd_bf16_1024_4(cudaStream_t{}, reinterpret_cast<device_bf16 *>(logits), stride,
                                              target, loss, rows, V);
}

template <class T> void run(harness::Report &report, const char *name, int rows, int V, double tol) {
  const int64_t stride = V + 3;
  const size_t n = size_t(rows) * size_t(stride);
  auto xf = harness::randomFloats(n, -6, 6, uint64_t(rows) * 131 + uint64_t(V));
  std::vector<T> x(n);
  for (size_t i = 0; i < n; ++i)
    x[i] = T(xf[i]);
  // Targets: the first column, the last, and random ones between.
  auto pick = harness::randomFloats(size_t(rows), 0, 1, uint64_t(V) * 7 + 3);
  std::vector<int64_t> target(static_cast<size_t>(rows));
  for (int r = 0; r < rows; ++r)
    target[r] = r == 0 ? 0 : r == 1 ? V - 1 : std::min<int64_t>(V - 1, int64_t(pick[r] * float(V)));

  // The CPU reference writes its gradient over its own copy of the logits.
  std::vector<T> ref = x;
  std::vector<float> refLoss(static_cast<size_t>(rows), NAN);
  tl::launch(tl::grid3{rows}, cross_entropy_fwd<T, 1024, 4>, ref.data(), stride, target.data(), refLoss.data(),
             rows, V);

  harness::DeviceBuffer<T> dx(n);
  harness::DeviceBuffer<int64_t> dt{static_cast<size_t>(rows)};
  harness::DeviceBuffer<float> dloss{static_cast<size_t>(rows)};
  // The padding past each row holds NaN, which the kernel must leave there.
  std::vector<T> upload(n, T(NAN));
  for (int r = 0; r < rows; ++r)
    std::memcpy(&upload[size_t(r) * stride], &x[size_t(r) * stride], sizeof(T) * size_t(V));
  dx.upload(upload.data());
  dt.upload(target.data());
  dloss.poison();
  CHECK_CUDA(launchDevice(dx.ptr, stride, dt.ptr, dloss.ptr, rows, V));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<T> grad(n);
  std::vector<float> loss(static_cast<size_t>(rows));
  dx.download(grad.data());
  dloss.download(loss.data());

  std::vector<double> gg, cg, fg, gl, cl, fl;
  bool paddingUntouched = true;
  for (int r = 0; r < rows; ++r) {
    const size_t at = size_t(r) * size_t(stride);
    double m = -INFINITY, sum = 0;
    for (int j = 0; j < V; ++j)
      m = std::max(m, double(float(x[at + j])));
    for (int j = 0; j < V; ++j)
      sum += std::exp(double(float(x[at + j])) - m);
    gl.push_back(loss[r]);
    cl.push_back(refLoss[r]);
    fl.push_back((std::log(sum) + m - double(float(x[at + target[r]]))) / rows);
    for (int j = 0; j < V; ++j) {
      const double want = (std::exp(double(float(x[at + j])) - m) / sum - (j == target[r] ? 1.0 : 0.0)) / rows;
      gg.push_back(float(grad[at + j]));
      cg.push_back(float(ref[at + j]));
      fg.push_back(sizeof(T) == 2 ? double(float(T(float(want)))) : want);
    }
    for (int64_t j = V; j < stride; ++j)
      paddingUntouched = paddingUntouched && std::isnan(float(grad[at + j]));
  }
  const std::string size = std::to_string(rows) + "x" + std::to_string(V);
  report.check(name, size, gg, cg, fg, tol, paddingUntouched);
  report.check("loss", size, gl, cl, fl, 1e-5);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  const bool small = harness::smallRun(argc, argv);
  // One chunk, exactly one, several, a ragged last one; a 32000 vocabulary on the GPU.
  std::vector<std::pair<int, int>> sizes = {{2, 1}, {3, 1000}, {4, 1024}, {5, 3001}, {64, 32000}, {1000, 4099}};
  if (small)
    sizes = {{2, 1}, {3, 1000}, {2, 1024}, {3, 3001}};
  for (auto [rows, V] : sizes) {
    run<float>(report, "grad f32", rows, V, 1e-5);
    run<tl::bfloat16>(report, "grad bf16", rows, V, 4e-3);
  }
  return report.exitCode();
}
