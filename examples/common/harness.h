// Shared by the examples' host programs: random inputs, poisoned outputs, relative error, CUDA error
// checks and one result line per run. Each host program includes the generated CUDA (tilec's output)
// and the kernel source itself, whose CPU semantics (tilec/tl.hpp) are the reference. The same
// programs run on the CPU emulator in CI (tests/emu), for the CUDA and the HIP output.
#pragma once

#if defined(TILEC_EMULATE_HIP)
// tilec's CPU emulator runs the same program on the CPU (tests/emu, docs/emulation.md), with the
// HIP output or with the CUDA output.
#include <tilec/emu/hip.hpp>
#elif defined(TILEC_EMULATE)
#include <tilec/emu/cuda.hpp>
#else
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: CUDA error %s: %s\n", __FILE__, __LINE__,                       \
                   cudaGetErrorName(err_), cudaGetErrorString(err_));                              \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

namespace harness {

/// Fresh random values in [lo, hi): every run draws new data (seeded from the run's sizes and a
/// per-process counter, so reruns are reproducible but no two buffers share values).
inline std::vector<float> randomFloats(size_t n, float lo, float hi, uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 12345);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto &x : v)
    x = d(rng);
  return v;
}

/// Device buffer of T, freed on scope exit.
template <class T> struct DeviceBuffer {
  T *ptr = nullptr;
  size_t n = 0;
  explicit DeviceBuffer(size_t count) : n(count) {
    CHECK_CUDA(cudaMalloc(&ptr, std::max<size_t>(1, n) * sizeof(T)));
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  void upload(const void *host) { CHECK_CUDA(cudaMemcpy(ptr, host, n * sizeof(T), cudaMemcpyHostToDevice)); }
  void download(void *host) const {
    CHECK_CUDA(cudaMemcpy(host, ptr, n * sizeof(T), cudaMemcpyDeviceToHost));
  }
  /// Fill with the byte pattern 0xFF: NaN for floats and halves, -1 for ints. An element the kernel
  /// fails to write stays NaN and fails the comparison.
  void poison() { CHECK_CUDA(cudaMemset(ptr, 0xFF, std::max<size_t>(1, n) * sizeof(T))); }
};

/// ||a - b|| / ||b|| over doubles; NaN anywhere in a gives NaN (and fails).
inline double relError(const std::vector<double> &a, const std::vector<double> &b) {
  double num = 0, den = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i]))
      return NAN;
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  if (den == 0)
    return num == 0 ? 0 : INFINITY;
  return std::sqrt(num / den);
}

/// One table row per run. Three vectors of the same output: the GPU's (tilec's CUDA), the CPU
/// reference's (the kernel source run through tilec/tl.hpp, in the source's float arithmetic) and an
/// exact float64 computation. The GPU passes when it is within `tol` of float64, and within `tol`
/// plus the CPU reference's own float64 error of the CPU reference: both compute in float, in
/// different orders (a sequential sum on the CPU, a tree on the GPU), so they differ by up to the
/// sum of their errors.
struct Report {
  int failures = 0;
  void check(const char *example, const std::string &size, const std::vector<double> &gpu,
             const std::vector<double> &cpuRef, const std::vector<double> &f64, double tol,
             bool extraOk = true) {
    double vsRef = relError(gpu, cpuRef), vsF64 = relError(gpu, f64), refVsF64 = relError(cpuRef, f64);
    bool ok = extraOk && vsF64 <= tol && vsRef <= tol + refVsF64; // false for NaN
    failures += !ok;
    std::printf("| %-11s | %-16s | %10.3e | %10.3e | %10.3e | %7.0e | %-6s |\n", example,
                size.c_str(), vsRef, vsF64, refVsF64, tol, ok ? "ok" : "FAIL");
    std::fflush(stdout);
  }
  int exitCode() const { return failures ? 1 : 0; }
};

template <class T> std::vector<double> toDoubles(const std::vector<T> &v) {
  std::vector<double> d(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    d[i] = static_cast<double>(static_cast<float>(v[i]));
  return d;
}

/// Sizes come from the command line as "a" or "axb"; `small` runs use only the small ones (for
/// the sanitizers).
inline bool smallRun(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--small") == 0)
      return true;
  return false;
}

} // namespace harness
