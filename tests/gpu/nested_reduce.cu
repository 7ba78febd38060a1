// Runs tilec's CUDA for tests/kernels/nested_reduce.cpp: nested_reduce<64, 64> (a reduction of a
// sliced tile across warps, and a whole 2-D tile reduced to a scalar) against the CPU reference and
// float64; int_bits<512> (int32 -> bf16 with one rounding, `~` on bools) bit-exactly against the CPU
// reference and an independent exact rounding.
#include "check.h"
#include "nested_reduce.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <nested_reduce.hip>
#else
#include <nested_reduce.cu> // golden/nested_reduce/nested_reduce.cu (<>: not this file)
#endif


/// int32 rounded to the nearest bf16 (ties to even), as bits: scaling by a power of two is exact in
/// double, so nearbyint (round-half-even by default) on the scaled value rounds exactly once.
static uint16_t exactBf16Bits(int32_t v) {
  if (v == 0)
    return 0;
  int e = std::ilogb(std::fabs(double(v)));
  double q = std::ldexp(1.0, e - 7); // bf16 keeps 8 significant bits
  float r = static_cast<float>(std::nearbyint(double(v) / q) * q);
  uint32_t bits;
  std::memcpy(&bits, &r, 4);
  return static_cast<uint16_t>(bits >> 16);
}

static void nested(harness::Report &report, int M, int N) {
  int blocks = tl::cdiv(M, 64);
  auto x = harness::randomFloats(size_t(M) * N, -1, 1, M * 131 + N);
  std::vector<float> refMax(blocks, NAN), refTotal(blocks, NAN);
  tl::launch(tl::grid3{blocks}, nested_reduce<64, 64>, x.data(), refMax.data(), refTotal.data(), M,
             N);
  harness::DeviceBuffer<float> dx(x.size());
  dx.upload(x.data());
  gpucheck::Output<float> outMax(blocks), outTotal(blocks);
  for (int byte : gpucheck::kPoison) {
    outMax.poison(byte);
    outTotal.poison(byte);
    CHECK_CUDA(launch_nested_reduce_64_64(cudaStream_t{}, dx.ptr, outMax.dev.ptr, outTotal.dev.ptr,
                                          M, N));
    CHECK_CUDA(cudaDeviceSynchronize());
    outMax.collect(byte);
    outTotal.collect(byte);
  }
  std::vector<double> f64Max(blocks, -INFINITY), f64Total(blocks, 0.0);
  for (int i = 0; i < M; ++i) {
    double rowSum = 0;
    for (int j = 0; j < std::min(N, 64); ++j) // the kernel reads the first 64 columns
      rowSum += x[size_t(i) * N + j];
    f64Max[i / 64] = std::max(f64Max[i / 64], rowSum);
    f64Total[i / 64] += rowSum;
  }
  report.check("nested_max", gpucheck::shape(M, N), harness::toDoubles(outMax.vals),
               harness::toDoubles(refMax), f64Max, 1e-5, outMax.ok());
  report.check("nested_sum", gpucheck::shape(M, N), harness::toDoubles(outTotal.vals),
               harness::toDoubles(refTotal), f64Total, 1e-5, outTotal.ok());
}

static void bits(harness::Report &report, int n) {
  std::mt19937 rng(n * 977 + 5);
  std::vector<int32_t> a(n);
  for (int i = 0; i < n; ++i) // wide magnitudes (rounding matters above 2^8), both signs, zeros
    a[i] = i % 7 == 0 ? 0 : int32_t(rng()) >> (rng() % 31);
  std::vector<tl::bfloat16> refBf(n);
  std::vector<unsigned char> refNot(n); // bool storage, byte-wise
  tl::launch(tl::grid3{tl::cdiv(n, 512)}, int_bits<512>, a.data(), refBf.data(),
             reinterpret_cast<bool *>(refNot.data()), n);
  harness::DeviceBuffer<int32_t> da(n);
  da.upload(a.data());
  gpucheck::Output<uint16_t> outBf(n);
  gpucheck::Output<unsigned char> outNot(n);
  for (int byte : gpucheck::kPoison) {
    outBf.poison(byte);
    outNot.poison(byte);
    CHECK_CUDA(launch_int_bits_512(cudaStream_t{}, da.ptr, outBf.as<__nv_bfloat16>(),
                                   outNot.as<bool>(), n));
    CHECK_CUDA(cudaDeviceSynchronize());
    outBf.collect(byte);
    outNot.collect(byte);
  }
  size_t bfRef = 0, bfExact = 0, refExact = 0, notRef = 0, notExact = 0, notRefExact = 0;
  for (int i = 0; i < n; ++i) {
    uint16_t cpu;
    std::memcpy(&cpu, &refBf[i], 2);
    uint16_t exact = exactBf16Bits(a[i]);
    bfRef += outBf.vals[i] != cpu;
    bfExact += outBf.vals[i] != exact;
    refExact += cpu != exact;
    unsigned char want = a[i] <= 0;
    notRef += outNot.vals[i] != refNot[i];
    notExact += outNot.vals[i] != want;
    notRefExact += refNot[i] != want;
  }
  gpucheck::checkExact(report, "int_to_bf16", std::to_string(n), n, bfRef, bfExact, refExact,
                       outBf.ok());
  gpucheck::checkExact(report, "bool_not", std::to_string(n), n, notRef, notExact, notRefExact,
                       outNot.ok());
}

int main(int argc, char **argv) {
  harness::Report report;
  bool small = harness::smallRun(argc, argv);
  std::vector<std::pair<int, int>> shapes = {{1, 1}, {63, 64}, {64, 64}, {100, 37}, {4099, 64}};
  std::vector<int> sizes = {1, 511, 512, 100003};
  if (small) {
    shapes = {{1, 1}, {63, 64}, {100, 37}};
    sizes = {1, 511, 1500};
  }
  for (auto [M, N] : shapes)
    nested(report, M, N);
  for (int n : sizes)
    bits(report, n);
  return report.exitCode();
}
