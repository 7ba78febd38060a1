// Helpers for the reference tests: guarded buffers (the page after the last element is
// inaccessible, so a read or write past the end crashes the test), poisoned outputs, fixed-seed
// random data without zeros, and the relative L2 error against a double-precision reference.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include <tilec/tl.hpp>

namespace tilec::test {

/// n elements of T ending exactly at an inaccessible guard page.
template <class T> class GuardedBuffer {
public:
  explicit GuardedBuffer(std::size_t n) : n_(n) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t bytes = n * sizeof(T);
    dataPages_ = (bytes + page - 1) / page * page;
    mapBytes_ = dataPages_ + page;
    void *m = mmap(nullptr, mapBytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
      throw std::runtime_error("mmap failed");
    base_ = static_cast<char *>(m);
    if (mprotect(base_ + dataPages_, page, PROT_NONE) != 0)
      throw std::runtime_error("mprotect failed");
    data_ = reinterpret_cast<T *>(base_ + dataPages_ - bytes);
  }
  GuardedBuffer(const GuardedBuffer &) = delete;
  GuardedBuffer &operator=(const GuardedBuffer &) = delete;
  ~GuardedBuffer() { munmap(base_, mapBytes_); }

  T *data() { return data_; }
  const T *data() const { return data_; }
  std::size_t size() const { return n_; }
  T &operator[](std::size_t i) { return data_[i]; }
  const T &operator[](std::size_t i) const { return data_[i]; }
  void fill(T v) {
    for (std::size_t i = 0; i < n_; ++i)
      data_[i] = v;
  }

private:
  std::size_t n_;
  std::size_t dataPages_ = 0;
  std::size_t mapBytes_ = 0;
  char *base_ = nullptr;
  T *data_ = nullptr;
};

/// A generator seeded from the test's identity and the problem size: fixed per (test, size) and
/// different between sizes.
inline std::mt19937_64 makeRng(std::uint64_t testSeed, std::uint64_t size) {
  return std::mt19937_64(testSeed * 0x9E3779B97F4A7C15ull + size);
}

/// Uniform in [lo, hi], never (close to) zero.
inline float nonZeroUniform(std::mt19937_64 &rng, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  for (;;) {
    const float v = d(rng);
    if (std::fabs(v) > 1e-3f)
      return v;
  }
}

template <class T> void fillRandom(GuardedBuffer<T> &b, std::mt19937_64 &rng, float lo, float hi) {
  for (std::size_t i = 0; i < b.size(); ++i)
    b[i] = T(nonZeroUniform(rng, lo, hi));
}

inline float nanF() { return std::numeric_limits<float>::quiet_NaN(); }
inline tl::half nanH() { return tl::half::fromBits(0x7E00); }

/// ||out - ref|| / ||ref|| over the given elements; infinite if any output is not finite.
class RelError {
public:
  void add(double out, double ref) {
    if (!std::isfinite(out))
      finite_ = false;
    num_ += (out - ref) * (out - ref);
    den_ += ref * ref;
  }
  double value() const {
    if (!finite_)
      return INFINITY;
    return den_ == 0 ? std::sqrt(num_) : std::sqrt(num_ / den_);
  }

private:
  double num_ = 0, den_ = 0;
  bool finite_ = true;
};

inline constexpr double kTolFp32 = 1e-6;
inline constexpr double kTolFp16 = 1e-3;

} // namespace tilec::test
