// Runs tilec's CUDA for momentum_step<4096> and row_sum_sq<4096> (tests/kernels/streamed.cpp),
// whose loads, arithmetic and stores are emitted chunk by chunk (streamed runs; row_sum_sq's chunks
// hold two vectors), on random rows at ragged widths and strides, and compares with the CPU
// reference of the same source and float64. The kernel works in place: every checked launch starts
// from fresh inputs; w and m must match the reference, every element the reference changes must
// have changed (written), every element past n must not, and the per-row norms must be written
// under two poison patterns alike.
#include "check.h"
#include "streamed.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <streamed.hip>
#else
#include <streamed.cu> // golden/streamed/streamed.cu (<>: not this file)
#endif

#include <cstring>

namespace {

using bf16 = tl::bfloat16;

float toFloat(bf16 x) { return float(x); }

void run(harness::Report &report, int rows, int n, int64_t stride) {
  const size_t span = size_t(rows) * size_t(stride);
  const float lr = 0.5f, beta = 0.75f;
  auto wf = harness::randomFloats(span, -2, 2, rows * 31 + n), gf = harness::randomFloats(span, -2, 2, n + 7),
       mf = harness::randomFloats(span, -1, 1, stride + 3);
  std::vector<bf16> w(span), g(span), m(span);
  for (size_t i = 0; i < span; ++i)
    w[i] = bf16(wf[i]), g[i] = bf16(gf[i]), m[i] = bf16(mf[i]);
  std::vector<bf16> wRef = w, mRef = m;
  std::vector<float> normsRef(rows, NAN);
  tl::launch(tl::grid3{rows}, momentum_step<4096>, wRef.data(), g.data(), mRef.data(), normsRef.data(), lr, beta,
             stride, rows, n);

  harness::DeviceBuffer<bf16> dw(span), dg(span), dm(span);
  gpucheck::Output<float> norms(rows);
  std::vector<bf16> wOut(span), mOut(span);
  dg.upload(g.data());
  bool written = true, untouched = true;
  for (int byte : gpucheck::kPoison) {
    dw.upload(w.data());
    dm.upload(m.data());
    norms.poison(byte);
    CHECK_CUDA(launch_momentum_step_4096(cudaStream_t{}, reinterpret_cast<tilec::rt::bf16_t *>(dw.ptr),
                                         reinterpret_cast<const tilec::rt::bf16_t *>(dg.ptr),
                                         reinterpret_cast<tilec::rt::bf16_t *>(dm.ptr), norms.dev.ptr, lr, beta,
                                         stride, rows, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    norms.collect(byte);
    dw.download(wOut.data());
    dm.download(mOut.data());
    for (size_t i = 0; i < span; ++i) {
      const bool inRow = int64_t(i % size_t(stride)) < n;
      auto same = [](bf16 a, bf16 b) { return std::memcmp(&a, &b, sizeof a) == 0; };
      if (!inRow)
        untouched = untouched && same(wOut[i], w[i]) && same(mOut[i], m[i]);
      else
        written = written && (same(wRef[i], w[i]) || !same(wOut[i], w[i])) &&
                  (same(mRef[i], m[i]) || !same(mOut[i], m[i]));
    }
  }
  std::vector<double> gpu, cpu, f64;
  std::vector<double> nGpu, nCpu, nF64;
  for (int r = 0; r < rows; ++r) {
    double sumSq = 0;
    for (int c = 0; c < n; ++c) {
      const size_t i = size_t(r) * size_t(stride) + size_t(c);
      const double mNew = double(beta) * toFloat(m[i]) + (1.0 - double(beta)) * toFloat(g[i]);
      const double mStored = double(toFloat(bf16(float(mNew))));
      gpu.push_back(toFloat(mOut[i]));
      cpu.push_back(toFloat(mRef[i]));
      f64.push_back(mStored);
      gpu.push_back(toFloat(wOut[i]));
      cpu.push_back(toFloat(wRef[i]));
      f64.push_back(double(toFloat(w[i])) - double(lr) * mNew);
      sumSq += mNew * mNew;
    }
    nGpu.push_back(norms.vals[size_t(r)]);
    nCpu.push_back(normsRef[size_t(r)]);
    nF64.push_back(sumSq);
  }
  const std::string label = std::to_string(rows) + "x" + std::to_string(n) + " stride " + std::to_string(stride);
  report.check("streamed w,m", label, gpu, cpu, f64, 1e-2, written && untouched);
  report.check("streamed norm", label, nGpu, nCpu, nF64, 1e-5, norms.ok());
}

void runSumSq(harness::Report &report, int rows, int n, int64_t stride) {
  const size_t span = size_t(rows) * size_t(stride);
  auto xf = harness::randomFloats(span, -2, 2, rows * 17 + n);
  std::vector<bf16> x(span);
  for (size_t i = 0; i < span; ++i)
    x[i] = bf16(xf[i]);
  std::vector<float> ref(rows, NAN);
  tl::launch(tl::grid3{rows}, row_sum_sq<4096>, x.data(), ref.data(), stride, rows, n);
  harness::DeviceBuffer<bf16> dx(span);
  dx.upload(x.data());
  gpucheck::Output<float> out(rows);
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    CHECK_CUDA(launch_row_sum_sq_4096(cudaStream_t{},
                                      reinterpret_cast<const tilec::rt::bf16_t *>(dx.ptr),
                                      out.dev.ptr, stride, rows, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
  }
  std::vector<double> gpu, cpu, f64;
  for (int r = 0; r < rows; ++r) {
    double sumSq = 0;
    for (int c = 0; c < n; ++c) {
      const double v = toFloat(x[size_t(r) * size_t(stride) + size_t(c)]);
      sumSq += v * v;
    }
    gpu.push_back(out.vals[size_t(r)]);
    cpu.push_back(ref[size_t(r)]);
    f64.push_back(sumSq);
  }
  const std::string label =
      std::to_string(rows) + "x" + std::to_string(n) + " stride " + std::to_string(stride);
  report.check("streamed sum_sq", label, gpu, cpu, f64, 1e-4,
               out.ok()); // fp32 sums of up to 12000 squares
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  struct Case {
    int rows, n;
    int64_t stride;
  };
  std::vector<Case> cases = {{3, 4096, 4096}, {5, 4000, 4096}, {2, 1, 8}, {4, 4096, 4104}, {3, 3001, 3001}};
  if (!harness::smallRun(argc, argv))
    cases.push_back({2049, 4096, 4096});
  for (const Case &c : cases)
    run(report, c.rows, c.n, c.stride);
  // row_sum_sq loops over 4096-wide blocks: widths under, at and over one block.
  std::vector<Case> sumSq = {
      {3, 4096, 4096}, {5, 3001, 3008}, {2, 1, 8}, {4, 9000, 9000}, {3, 8193, 8200}};
  if (!harness::smallRun(argc, argv))
    sumSq.push_back({1025, 12000, 12288});
  for (const Case &c : sumSq)
    runSumSq(report, c.rows, c.n, c.stride);
  return report.exitCode();
}
