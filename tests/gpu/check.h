// Shared by the feature kernels' GPU checks (tests/gpu/*.cu), on top of examples/common/harness.h:
// output buffers with a guard tail that each launch twice under two poison patterns, and the table
// row for outputs that must match exactly (integers, bools, bit-exact floats).
#pragma once

#include "harness.h"

#include <cstring>

#if defined(TILEC_EMULATE_HIP)
// The CPU emulator runs the HIP output (tests/emu): HIP's bf16 type under the CUDA names these
// programs use. Host-side conversions then round as the emulator's (tl.hpp's), not CUDA's.
using __nv_bfloat16 = hip_bfloat16;
inline float __bfloat162float(hip_bfloat16 x) { return static_cast<float>(x); }
inline hip_bfloat16 __float2bfloat16_rn(float x) { return hip_bfloat16(x); }
inline hip_bfloat16 __float2bfloat16_rz(float x) {
  return tl::detail::narrowTowardZero<hip_bfloat16>(x);
}
#endif

namespace gpucheck {

/// Poison bytes: 0xFF is NaN for floats and halves, -1 for integers and no valid bool; 0x5A is a
/// second, different pattern. An element the kernel fails to write keeps the poison, so it differs
/// between the two runs whatever its type (-1 may be a legitimate int result, -1 and 0x5A5A5A5A not
/// both).
constexpr int kPoison[2] = {0xFF, 0x5A};
constexpr size_t kGuard = 64; // elements past the end, which the kernel must never write

/// n outputs of T (bools as uint8_t, halves as uint16_t) plus the guard tail. `vals` holds the
/// first run's results; `ok()` is false if a later run differed or a guard element was written.
template <class T> struct Output {
  size_t n;
  harness::DeviceBuffer<T> dev;
  std::vector<T> vals;
  bool stable = true, guardIntact = true;
  explicit Output(size_t count) : n(count), dev(count + kGuard) {}
  void poison(int byte) { CHECK_CUDA(cudaMemset(dev.ptr, byte, dev.n * sizeof(T))); }
  void collect(int byte) {
    std::vector<T> all(dev.n);
    dev.download(all.data());
    std::vector<unsigned char> tail(kGuard * sizeof(T));
    std::memcpy(tail.data(), all.data() + n, tail.size());
    for (unsigned char c : tail)
      guardIntact = guardIntact && c == byte;
    all.resize(n);
    if (vals.empty() && n)
      vals = all;
    else
      stable = stable && std::memcmp(vals.data(), all.data(), n * sizeof(T)) == 0;
  }
  bool ok() const { return stable && guardIntact; }
  template <class P> P *as() const { return reinterpret_cast<P *>(dev.ptr); }
};

/// A device copy of host values.
template <class T> struct Uploaded : harness::DeviceBuffer<T> {
  explicit Uploaded(const std::vector<T> &v) : harness::DeviceBuffer<T>(v.size()) {
    this->upload(v.data());
  }
};

/// How many elements of a and b differ, bit for bit.
template <class T> size_t differing(const std::vector<T> &a, const std::vector<T> &b) {
  size_t bad = 0;
  for (size_t i = 0; i < a.size(); ++i)
    bad += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
  return bad;
}

/// Floats equal, NaN equal to NaN.
inline bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

/// One table row for exact outputs, in the columns of harness::Report::check: the errors are the
/// fractions of mismatching elements (GPU vs CPU reference, GPU vs exact, CPU reference vs exact),
/// and the tolerance is 0.
inline void checkExact(harness::Report &report, const char *name, const std::string &size, size_t n,
                       size_t gpuVsRef, size_t gpuVsExact, size_t refVsExact, bool extraOk) {
  auto frac = [n](size_t bad) { return n ? double(bad) / double(n) : 0.0; };
  bool ok = extraOk && gpuVsExact == 0 && gpuVsRef <= refVsExact;
  report.failures += !ok;
  std::printf("| %-11s | %-16s | %10.3e | %10.3e | %10.3e | %7.0e | %-6s |\n", name, size.c_str(),
              frac(gpuVsRef), frac(gpuVsExact), frac(refVsExact), 0.0, ok ? "ok" : "FAIL");
  std::fflush(stdout);
}

inline std::string shape(int m, int n) { return std::to_string(m) + "x" + std::to_string(n); }

} // namespace gpucheck
