// Runs tests/kernels/program_order.cpp: kernels whose loads and stores of one tensor must keep the
// source's order although many threads perform them. Each result is compared with the CPU
// reference of the same source (which runs the statements in order) and with float64; in-place
// kernels get their input afresh for each of two runs, which must agree.
#include "check.h"
#include "program_order.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <program_order.hip>
#else
#include <program_order.cu> // golden/program_order/program_order.cu (<>: not this file)
#endif

#include <random>

namespace {

// The gradient row in place, then the target's element corrected: row r's element c becomes
// x * 0.5 + 1, and the target's becomes that minus 4. The padding past n must stay as it was.
void gradRow(harness::Report &report, int M, int N) {
  const int stride = N + 3;
  const size_t n = size_t(M) * stride;
  auto x = harness::randomFloats(n, -8, 8, uint64_t(M) * 977 + uint64_t(N));
  std::mt19937 rng(M * 31 + N);
  std::vector<int32_t> target(M);
  for (auto &t : target)
    t = int32_t(rng() % uint32_t(N));
  std::vector<float> ref = x;
  tl::launch(tl::grid3{M}, grad_row<256>, ref.data(), target.data(), M, N, stride);
  harness::DeviceBuffer<float> dx(n);
  harness::DeviceBuffer<int32_t> dt(M);
  dt.upload(target.data());
  std::vector<float> first, again(n);
  for (int run = 0; run < 2; ++run) {
    dx.upload(x.data());
    CHECK_CUDA(launch_grad_row_256(cudaStream_t{}, dx.ptr, dt.ptr, M, N, stride));
    CHECK_CUDA(cudaDeviceSynchronize());
    dx.download(again.data());
    if (run == 0)
      first = again;
  }
  std::vector<double> gpu, cpu, f64;
  bool padding = true;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < stride; ++c) {
      const size_t i = size_t(r) * stride + size_t(c);
      if (c >= N) {
        padding = padding && first[i] == x[i];
        continue;
      }
      double want = double(x[i]) * 0.5 + 1.0 - (c == target[r] ? 4.0 : 0.0);
      gpu.push_back(first[i]);
      cpu.push_back(ref[i]);
      f64.push_back(want);
    }
  report.check("grad_row", gpucheck::shape(M, N), gpu, cpu, f64, 1e-6, padding && first == again);
}

// Each block of 128 reversed in place (the last block's valid elements only).
void reverseBlocks(harness::Report &report, int N) {
  std::mt19937 rng(N);
  std::vector<int32_t> x(N);
  for (auto &v : x)
    v = int32_t(rng());
  std::vector<int32_t> ref = x, exact(N);
  tl::launch(tl::grid3{(N + 127) / 128}, reverse_blocks<128>, ref.data(), N);
  for (int b = 0; b < N; b += 128) {
    const int len = std::min(128, N - b);
    for (int k = 0; k < len; ++k)
      exact[b + k] = x[b + len - 1 - k];
  }
  harness::DeviceBuffer<int32_t> dx(N + gpucheck::kGuard);
  std::vector<int32_t> guard(N + gpucheck::kGuard, 0x5A5A5A5A), first, again(N + gpucheck::kGuard);
  std::copy(x.begin(), x.end(), guard.begin());
  for (int run = 0; run < 2; ++run) {
    dx.upload(guard.data());
    CHECK_CUDA(launch_reverse_blocks_128(cudaStream_t{}, dx.ptr, N));
    CHECK_CUDA(cudaDeviceSynchronize());
    dx.download(again.data());
    if (run == 0)
      first = again;
  }
  size_t vsRef = 0, vsExact = 0, refVsExact = 0;
  for (int i = 0; i < N; ++i) {
    vsRef += first[i] != ref[i];
    vsExact += first[i] != exact[i];
    refVsExact += ref[i] != exact[i];
  }
  bool guardIntact = std::equal(first.begin() + N, first.end(), guard.begin() + N);
  gpucheck::checkExact(report, "reverse", std::to_string(N), size_t(N), vsRef, vsExact, refVsExact,
                       guardIntact && first == again);
}

// Outputs in other parameters than the input: no barrier, and still the values of the source.
void splitSum(harness::Report &report, int N) {
  const int programs = (N + 511) / 512;
  auto x = harness::randomFloats(N, -3, 3, uint64_t(N) * 7 + 1);
  std::vector<float> lo(N, NAN), hi(N, NAN), totals(2 * programs, NAN);
  tl::launch(tl::grid3{programs}, split_sum<512>, x.data(), lo.data(), hi.data(), totals.data(), N);
  harness::DeviceBuffer<float> dx(N);
  dx.upload(x.data());
  gpucheck::Output<float> dlo(N), dhi(N), dtot(2 * programs);
  for (int byte : gpucheck::kPoison) {
    dlo.poison(byte);
    dhi.poison(byte);
    dtot.poison(byte);
    CHECK_CUDA(launch_split_sum_512(cudaStream_t{}, dx.ptr, dlo.dev.ptr, dhi.dev.ptr, dtot.dev.ptr, N));
    CHECK_CUDA(cudaDeviceSynchronize());
    dlo.collect(byte);
    dhi.collect(byte);
    dtot.collect(byte);
  }
  std::vector<double> lo64(N), hi64(N), tot64(2 * programs, 0.0);
  for (int i = 0; i < N; ++i) {
    lo64[i] = std::min(double(x[i]), 0.0);
    hi64[i] = std::max(double(x[i]), 0.0);
    tot64[2 * (i / 512)] += lo64[i];
    tot64[2 * (i / 512) + 1] += hi64[i];
  }
  report.check("split lo", std::to_string(N), harness::toDoubles(dlo.vals), harness::toDoubles(lo), lo64, 0,
               dlo.ok());
  report.check("split hi", std::to_string(N), harness::toDoubles(dhi.vals), harness::toDoubles(hi), hi64, 0,
               dhi.ok());
  report.check("split sums", std::to_string(N), harness::toDoubles(dtot.vals), harness::toDoubles(totals),
               tot64, 1e-5, dtot.ok());
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  const bool small = harness::smallRun(argc, argv);
  std::vector<std::pair<int, int>> rows = {{1, 1}, {3, 255}, {5, 256}, {7, 1000}, {2, 4099}};
  if (!small)
    rows.push_back({1023, 3001});
  for (auto [M, N] : rows)
    gradRow(report, M, N);
  for (int N : small ? std::vector<int>{1, 127, 128, 300} : std::vector<int>{1, 127, 128, 300, 100003})
    reverseBlocks(report, N);
  for (int N : small ? std::vector<int>{1, 511, 1500} : std::vector<int>{1, 511, 1500, 100003})
    splitSum(report, N);
  return report.exitCode();
}
