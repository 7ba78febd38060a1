// Runs tests/kernels/sort.cpp against the CPU reference of the same source and against rows sorted
// here with std::sort by IEEE 754 totalOrder (an order of its own, written from the standard), all
// exact: every two bit patterns compare unequal, so a sorted row is one row bit for bit. Inputs
// hold NaNs of both signs, infinities, signed zeros and repeated values. Each launch runs twice
// into outputs poisoned with two patterns; the elements past the end must keep their pattern.
#include "check.h"
#include "sort.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <sort.hip>
#else
#include <sort.cu> // golden/sort/sort.cu (<>: not this file)
#endif

#include <algorithm>
#include <random>

namespace {

using gpucheck::differing;
using gpucheck::Uploaded;

/// totalOrder's key of a value's bits: negative values (sign set) reversed below the positive ones.
template <class T> uint64_t totalOrderKey(T v) {
  if constexpr (std::is_integral_v<T>) {
    return uint64_t(int64_t(v)) ^ (uint64_t(1) << 63); // signed order as unsigned
  } else {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    const uint64_t sign = uint64_t(1) << (8 * sizeof(T) - 1);
    return bits & sign ? ~bits & (sign | (sign - 1)) : bits | sign;
  }
}

/// n values of T: floats mostly in [-4, 4) with a few in 16 (repeats) and specials among them.
template <class T> std::vector<T> sortInput(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  if constexpr (std::is_integral_v<T>) {
    for (auto &x : v)
      x = static_cast<T>(rng() % 5 == 0 ? int64_t(rng() % 7) - 3 : int64_t(rng()));
  } else {
    const float specials[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f};
    std::uniform_real_distribution<float> u(-4, 4);
    for (auto &x : v) {
      const uint64_t r = rng() % 16;
      x = T(r == 0 ? specials[rng() % 6] : r < 4 ? float(int(rng() % 5) - 2) : u(rng));
    }
  }
  return v;
}

/// Each row of `row` elements of v sorted by totalOrder (descending when asked), its first `keep`.
template <class T>
std::vector<T> sortedRows(const std::vector<T> &v, size_t row, size_t keep, bool descending) {
  std::vector<T> out;
  for (size_t r = 0; r < v.size() / row; ++r) {
    std::vector<T> x(v.begin() + r * row, v.begin() + (r + 1) * row);
    std::sort(x.begin(), x.end(), [&](T a, T b) {
      return descending ? totalOrderKey(b) < totalOrderKey(a) : totalOrderKey(a) < totalOrderKey(b);
    });
    out.insert(out.end(), x.begin(), x.begin() + keep);
  }
  return out;
}

/// sort_blocks<BLOCK, DESC, T> over n values: each block sorted with its masked-off tail as zeros,
/// the first n positions stored.
template <int BLOCK, bool DESC, class T, class D, class Launch>
void blocks(harness::Report &report, const char *name, int n, Launch launch) {
  auto x = sortInput<T>(n, uint64_t(n) * 3 + BLOCK);
  std::vector<T> ref(n);
  tl::launch(tl::grid3{tl::cdiv(n, BLOCK)}, sort_blocks<BLOCK, DESC, T>, x.data(), ref.data(), n);
  std::vector<T> padded(size_t(tl::cdiv(n, BLOCK)) * BLOCK, T(0));
  std::copy(x.begin(), x.end(), padded.begin());
  auto exact = sortedRows(padded, BLOCK, BLOCK, DESC);
  exact.resize(n);
  Uploaded<T> dx(x);
  gpucheck::Output<T> out(n);
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    CHECK_CUDA(launch(reinterpret_cast<const D *>(dx.ptr), out.template as<D>(), n));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
  }
  gpucheck::checkExact(report, name, std::to_string(n), out.vals.size(), differing(out.vals, ref),
                       differing(out.vals, exact), differing(ref, exact), out.ok());
}

/// sort_rows<R, N, K, T> over m rows: each row sorted, and its K largest.
template <int R, int N, int K, class T, class D, class Launch>
void rows(harness::Report &report, const char *name, int m, Launch launch) {
  auto x = sortInput<T>(size_t(m) * N, uint64_t(m) * 5 + N);
  std::vector<T> refSorted(x.size()), refTop(size_t(m) * K);
  tl::launch(tl::grid3{tl::cdiv(m, R)}, sort_rows<R, N, K, T>, x.data(), refSorted.data(),
             refTop.data(), m);
  auto sorted = sortedRows(x, N, N, false), top = sortedRows(x, N, K, true);
  Uploaded<T> dx(x);
  gpucheck::Output<T> outSorted(x.size()), outTop(top.size());
  for (int byte : gpucheck::kPoison) {
    outSorted.poison(byte);
    outTop.poison(byte);
    CHECK_CUDA(launch(reinterpret_cast<const D *>(dx.ptr), outSorted.template as<D>(),
                      outTop.template as<D>(), m));
    CHECK_CUDA(cudaDeviceSynchronize());
    outSorted.collect(byte);
    outTop.collect(byte);
  }
  gpucheck::checkExact(report, name, std::to_string(m) + " rows", x.size() + top.size(),
                       differing(outSorted.vals, refSorted) + differing(outTop.vals, refTop),
                       differing(outSorted.vals, sorted) + differing(outTop.vals, top),
                       differing(refSorted, sorted) + differing(refTop, top),
                       outSorted.ok() && outTop.ok());
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 300, 1037};
  if (!harness::smallRun(argc, argv))
    sizes.push_back(100000);
  for (int n : sizes) {
    blocks<1024, false, float, float>(report, "sort f32", n, [](auto... a) {
      return launch_sort_blocks_1024_0_f32(cudaStream_t{}, a...);
    });
    blocks<256, true, tl::half, __half>(report, "dsort f16", n, [](auto... a) {
      return launch_sort_blocks_256_1_f16(cudaStream_t{}, a...);
    });
    blocks<64, false, int32_t, int32_t>(report, "sort i32", n, [](auto... a) {
      return launch_sort_blocks_64_0_i32(cudaStream_t{}, a...);
    });
    blocks<32, true, uint8_t, uint8_t>(report, "dsort u8", n, [](auto... a) {
      return launch_sort_blocks_32_1_u8(cudaStream_t{}, a...);
    });
    blocks<128, false, tl::float8_e5m2, tilec::rt::f8e5m2_t>(
        report, "sort f8e5m2", n,
        [](auto... a) { return launch_sort_blocks_128_0_f8e5m2(cudaStream_t{}, a...); });
    blocks<512, true, double, double>(report, "dsort f64", n, [](auto... a) {
      return launch_sort_blocks_512_1_f64(cudaStream_t{}, a...);
    });
    const int m = std::max(1, n / 64);
    rows<16, 64, 8, float, float>(report, "rows f32", m, [](auto... a) {
      return launch_sort_rows_16_64_8_f32(cudaStream_t{}, a...);
    });
    rows<4, 256, 16, tl::bfloat16, __nv_bfloat16>(report, "rows bf16", m, [](auto... a) {
      return launch_sort_rows_4_256_16_bf16(cudaStream_t{}, a...);
    });
    rows<8, 32, 32, int64_t, int64_t>(report, "rows i64", m, [](auto... a) {
      return launch_sort_rows_8_32_32_i64(cudaStream_t{}, a...);
    });
  }
  return report.exitCode();
}
