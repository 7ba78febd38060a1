// Runs tests/kernels/loops.cpp (loops whose iteration counts a literal translation would change)
// and compares every count with the CPU reference of the same source and with the count worked out
// by hand from C++'s rules.
#include "check.h"
#include "loops.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <loops.hip>
#else
#include <loops.cu> // golden/loops/loops.cu (<>: not this file)
#endif

int main(int, char **) {
  harness::Report report;
  struct Case {
    int8_t m;
    int n;
  };
  for (Case c : {Case{5, 100}, Case{125, 2147483647}, Case{-3, 1}, Case{0, 2147483600}}) {
    constexpr size_t kCounts = 7;
    std::vector<int32_t> ref(kCounts, -1);
    tl::launch(tl::grid3{1}, loops, ref.data(), c.m, c.n);
    gpucheck::Output<int32_t> out(kCounts);
    for (int byte : gpucheck::kPoison) {
      out.poison(byte);
      CHECK_CUDA(launch_loops_instance(cudaStream_t{}, out.dev.ptr, c.m, c.n));
      CHECK_CUDA(cudaDeviceSynchronize());
      out.collect(byte);
    }
    auto log = [](int n, int base) { // iterations of i = 1; i < n; i *= base
      int k = 0;
      for (long long i = 1; i < n; i *= base)
        ++k;
      return k;
    };
    const int64_t lo = int64_t(c.n) - 9, hi = int64_t(c.n) - 4;
    const int32_t exact[kCounts] = {c.m > 0 ? c.m : 0, c.m >= 120 ? (c.m - 120) / 2 + 1 : 0, 0 + 3 + 6,
                                    10 + 11 + 12 + 13, 120 - 128,
                                    log(c.n % 100000, 2) + 100 * log(c.n % 100000, 3),
                                    int32_t(lo <= hi ? (hi - lo) / 4 + 1 : 0)};
    size_t vsRef = 0, vsExact = 0, refVsExact = 0;
    for (size_t i = 0; i < kCounts; ++i) {
      vsRef += out.vals[i] != ref[i];
      vsExact += out.vals[i] != exact[i];
      refVsExact += ref[i] != exact[i];
    }
    gpucheck::checkExact(report, "loops", "m=" + std::to_string(c.m) + " n=" + std::to_string(c.n), kCounts,
                         vsRef, vsExact, refVsExact, out.ok());
  }
  return report.exitCode();
}
