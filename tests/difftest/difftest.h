// Support for the differential tests' generated host programs (tests/difftest/gen.py): input
// buffers filled with reproducible random values, output buffers poisoned alike on both sides, and
// the comparison of the CPU reference (the kernel source through tilec/tl.hpp) with the generated
// code (run by tilec's CPU emulator, or on a GPU), output by output.
//
// The same program builds for the emulator (-DTILEC_EMULATE, -DTILEC_EMULATE_HIP for the HIP output)
// and with nvcc for an NVIDIA GPU.
#pragma once

#if defined(TILEC_EMULATE_HIP)
#include <tilec/emu/hip.hpp>
#include <tilec/hip/runtime.hpp>
#elif defined(TILEC_EMULATE)
#include <tilec/emu/cuda.hpp>
#include <tilec/cuda/runtime.cuh>
#else
#include <cuda_runtime.h>
#include <tilec/cuda/runtime.cuh>
#endif

#include <tilec/tl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace difftest {

/// The generated code's type for an element type of tl.hpp (the launcher's parameter types).
template <class T> struct DeviceType {
  using type = T;
};
template <> struct DeviceType<tl::half> {
  using type = tilec::rt::f16_t;
};
template <> struct DeviceType<tl::bfloat16> {
  using type = tilec::rt::bf16_t;
};
template <> struct DeviceType<tl::float8_e4m3> { using type = tilec::rt::f8e4m3_t; };
template <> struct DeviceType<tl::float8_e5m2> { using type = tilec::rt::f8e5m2_t; };

/// One run of a generated program: which kernels to run (`--only NAME`), and the results.
struct Run {
  int kernels = 0, failedKernels = 0;
  bool currentFailed = false;
  const char *only = nullptr;
  std::string current;

  Run(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; ++i)
      if (std::strcmp(argv[i], "--only") == 0)
        only = argv[i + 1];
  }
  bool selected(const char *name) {
    if (only && std::strcmp(only, name) != 0)
      return false;
    finishKernel();
    current = name;
    ++kernels;
    return true;
  }
  void finishKernel() {
    if (!current.empty() && currentFailed)
      ++failedKernels;
    currentFailed = false;
  }
  void fail(const char *kernel, const std::string &what) {
    std::printf("MISMATCH %s %s\n", kernel, what.c_str());
    std::fflush(stdout);
    currentFailed = true;
  }
  void launched(const char *kernel, cudaError_t err) {
    if (err == cudaSuccess)
      err = cudaDeviceSynchronize();
    if (err != cudaSuccess)
      fail(kernel, std::string("launch failed: ") + cudaGetErrorName(err));
  }
  int finish() {
    finishKernel();
    std::printf("difftest: %d kernels, %d failed\n", kernels, failedKernels);
    return failedKernels ? 1 : 0;
  }
};

inline void check(cudaError_t err, const char *what) {
  if (err != cudaSuccess) {
    std::fprintf(stderr, "difftest: %s: %s\n", what, cudaGetErrorName(err));
    std::exit(2);
  }
}

/// Elements written past the end of an output (or read past an input) would land here.
constexpr size_t kGuard = 64;
/// Outputs start as this byte pattern on both sides: elements a kernel does not write (masked off)
/// must keep it on both.
constexpr int kPoison = 0x5A;

/// A buffer on both sides: `ref()` for the CPU reference, `dev()` for the generated code.
template <class T> class Buffer {
public:
  using Dev = typename DeviceType<T>::type;
  explicit Buffer(size_t n) : n_(n), size_(n + kGuard), host_(new T[n + kGuard]()) {
    check(cudaMalloc(&dev_, size_ * sizeof(T)), "cudaMalloc");
  }
  ~Buffer() { cudaFree(dev_); }
  Buffer(Buffer &&o) noexcept : n_(o.n_), size_(o.size_), host_(std::move(o.host_)), dev_(o.dev_) {
    o.dev_ = nullptr;
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  T *ref() { return host_.get(); }
  Dev *dev() { return reinterpret_cast<Dev *>(dev_); }
  void upload() { check(cudaMemcpy(dev_, host_.get(), size_ * sizeof(T), cudaMemcpyHostToDevice), "upload"); }
  std::unique_ptr<T[]> download() const {
    std::unique_ptr<T[]> v(new T[size_]());
    check(cudaMemcpy(v.get(), dev_, size_ * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return v;
  }

  /// Compares every element (and the guard) of the generated code's output with the reference's.
  /// tol < 0: equal values (NaN equal to NaN, -0 to +0; bools and integers bit for bit);
  /// otherwise |dev - ref| <= tol.
  void compare(Run &run, const char *kernel, const char *name, double tol) const {
    std::unique_ptr<T[]> got = download();
    size_t bad = 0;
    for (size_t i = 0; i < size_; ++i) {
      const bool guard = i >= n_;
      bool ok;
      double a = 0, b = 0;
      if constexpr (std::is_same_v<T, bool>) {
        unsigned char x, y;
        std::memcpy(&x, &got[i], 1);
        std::memcpy(&y, &host_[i], 1);
        ok = x == y;
        a = x, b = y;
      } else if constexpr (std::is_integral_v<T>) {
        ok = got[i] == host_[i];
        a = static_cast<double>(got[i]), b = static_cast<double>(host_[i]);
      } else {
        a = static_cast<double>(static_cast<float>(got[i]));
        b = static_cast<double>(static_cast<float>(host_[i]));
        if (guard || tol < 0)
          ok = a == b || (std::isnan(a) && std::isnan(b));
        else
          ok = std::fabs(a - b) <= tol || (std::isnan(a) && std::isnan(b));
      }
      if (!ok && bad++ < 4) {
        char line[256];
        std::snprintf(line, sizeof line, "%s[%zu]%s: generated %.9g, reference %.9g (tolerance %s)", name,
                      i, guard ? " (past the end)" : "", a, b,
                      tol < 0 ? "exact" : std::to_string(tol).c_str());
        run.fail(kernel, line);
      }
    }
    if (bad > 4)
      run.fail(kernel, std::string(name) + ": " + std::to_string(bad) + " elements differ in all");
  }

private:
  size_t n_, size_;
  std::unique_ptr<T[]> host_;
  void *dev_ = nullptr;
};

/// n random values in [lo, hi] (reproducible from `seed`), the same on both sides; the guard too.
template <class T> Buffer<T> input(size_t n, long double lo, long double hi, uint64_t seed) {
  Buffer<T> b(n);
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 7);
  T *p = b.ref();
  for (size_t i = 0; i < n + kGuard; ++i) {
    if constexpr (std::is_same_v<T, bool>) {
      p[i] = (rng() & 1) != 0;
    } else if constexpr (std::is_integral_v<T>) {
      // (as __int128: uint64's range ends past INT64_MAX)
      const auto l = static_cast<__int128>(lo), h = static_cast<__int128>(hi);
      const uint64_t span = static_cast<uint64_t>(h - l);
      const uint64_t r = span == ~uint64_t{0} ? rng() : rng() % (span + 1);
      p[i] = static_cast<T>(static_cast<uint64_t>(l) + r);
    } else if constexpr (std::is_same_v<T, double>) {
      std::uniform_real_distribution<double> d(static_cast<double>(lo), static_cast<double>(hi));
      p[i] = std::clamp(d(rng), static_cast<double>(lo), static_cast<double>(hi));
    } else {
      std::uniform_real_distribution<double> d(static_cast<double>(lo), static_cast<double>(hi));
      T v = T(static_cast<float>(d(rng)));
      // Rounding to the element type must not leave the interval (its ends are representable).
      float f = static_cast<float>(v);
      if (f < static_cast<float>(lo))
        v = T(static_cast<float>(lo));
      if (f > static_cast<float>(hi))
        v = T(static_cast<float>(hi));
      p[i] = v;
    }
  }
  b.upload();
  return b;
}

/// An output of n elements, poisoned alike on both sides (the reference's copy and the device's).
template <class T> Buffer<T> output(size_t n) {
  Buffer<T> b(n);
  std::memset(static_cast<void *>(b.ref()), kPoison, (n + kGuard) * sizeof(T));
  b.upload();
  return b;
}

} // namespace difftest
