// Runs tests/kernels/hints.cpp against the CPU reference of the same source and against values
// computed here: loads and stores with cache hints must move the same values as without. Sums and
// differences of random inputs are exact (halves and floats of few bits; integers wrap), the
// gathered values and scales exact, the block and row sums within the float tolerance. Each launch
// runs twice into outputs poisoned with two patterns.
#include "check.h"
#include "hints.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <hints.hip>
#else
#include <hints.cu> // golden/hints/hints.cu (<>: not this file)
#endif

#include <random>

namespace {

using gpucheck::differing;

/// Random values of T that add and subtract exactly (small integers; for floats, multiples of
/// 1/16 below 64).
template <class T> std::vector<T> smallValues(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto &x : v) {
    const int64_t k = int64_t(rng() % 2048) - 1024;
    if constexpr (std::is_integral_v<T>)
      x = static_cast<T>(sizeof(T) == 1 ? k % 128 : k * 1000003);
    else
      x = T(float(k) / 16.0f);
  }
  return v;
}

template <class T> T wrappingAdd(T a, T b, int sign) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) +
                          static_cast<std::make_unsigned_t<T>>(sign) *
                              static_cast<std::make_unsigned_t<T>>(b));
  else
    return T(float(a) + float(sign) * float(b));
}

/// hinted_add<BLOCK, T>: out = x + y and out2 = x - y, exact.
template <int BLOCK, class T, class D, class Launch>
void add(harness::Report &report, const char *name, int n, Launch launch) {
  auto x = smallValues<T>(n, uint64_t(n) * 7 + sizeof(T)), y = smallValues<T>(n, uint64_t(n) + 3);
  std::vector<T> rSum(n), rDiff(n), eSum(n), eDiff(n);
  tl::launch(tl::grid3{tl::cdiv(n, BLOCK)}, hinted_add<BLOCK, T>, x.data(), y.data(), rSum.data(),
             rDiff.data(), n);
  for (int i = 0; i < n; ++i) {
    eSum[i] = wrappingAdd(x[i], y[i], 1);
    eDiff[i] = wrappingAdd(x[i], y[i], -1);
  }
  harness::DeviceBuffer<T> dx(n), dy(n);
  dx.upload(x.data());
  dy.upload(y.data());
  gpucheck::Output<T> sum(n), diff(n);
  for (int byte : gpucheck::kPoison) {
    sum.poison(byte);
    diff.poison(byte);
    CHECK_CUDA(launch(reinterpret_cast<const D *>(dx.ptr), reinterpret_cast<const D *>(dy.ptr),
                      sum.template as<D>(), diff.template as<D>(), n));
    CHECK_CUDA(cudaDeviceSynchronize());
    sum.collect(byte);
    diff.collect(byte);
  }
  gpucheck::checkExact(report, name, std::to_string(n), 2 * size_t(n),
                       differing(sum.vals, rSum) + differing(diff.vals, rDiff),
                       differing(sum.vals, eSum) + differing(diff.vals, eDiff),
                       differing(rSum, eSum) + differing(rDiff, eDiff), sum.ok() && diff.ok());
}

/// hinted_gather: out[i] = x[index[i]] * scale exactly; each block's sum of the gathered values.
void gather(harness::Report &report, int n) {
  const int blocks = tl::cdiv(n, 128);
  auto x = harness::randomFloats(n, -1, 1, uint64_t(n) * 5 + 1);
  std::mt19937_64 rng(uint64_t(n) + 11);
  std::vector<int32_t> index(n);
  for (auto &i : index)
    i = static_cast<int32_t>(rng() % uint64_t(n));
  const float scale = 0.5f;
  std::vector<float> rOut(n), eOut(n), rSums(blocks);
  std::vector<double> eSums(blocks, 0.0);
  tl::launch(tl::grid3{blocks}, hinted_gather, x.data(), index.data(), &scale, rOut.data(),
             rSums.data(), n);
  for (int i = 0; i < n; ++i) {
    eOut[i] = x[index[i]] * scale;
    eSums[i / 128] += x[index[i]];
  }
  harness::DeviceBuffer<float> dx(n), dscale(1);
  harness::DeviceBuffer<int32_t> didx(n);
  dx.upload(x.data());
  didx.upload(index.data());
  dscale.upload(&scale);
  gpucheck::Output<float> out(n), sums(blocks);
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    sums.poison(byte);
    CHECK_CUDA(launch_hinted_gather_instance(cudaStream_t{}, dx.ptr, didx.ptr, dscale.ptr,
                                             out.dev.ptr, sums.dev.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
    sums.collect(byte);
  }
  gpucheck::checkExact(report, "gather", std::to_string(n), size_t(n), differing(out.vals, rOut),
                       differing(out.vals, eOut), differing(rOut, eOut), out.ok());
  report.check("gather sums", std::to_string(n), harness::toDoubles(sums.vals),
               harness::toDoubles(rSums), eSums, 1e-5, sums.ok());
}

/// hinted_row_sums<512>: each row's sum, several blocks of columns a row.
void rowSums(harness::Report &report, int rows, int cols) {
  auto x = harness::randomFloats(size_t(rows) * cols, -1, 1, uint64_t(rows) * 31 + uint64_t(cols));
  std::vector<float> ref(rows);
  std::vector<double> exact(rows, 0.0);
  tl::launch(tl::grid3{rows}, hinted_row_sums<512>, x.data(), ref.data(), rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      exact[r] += x[size_t(r) * cols + c];
  harness::DeviceBuffer<float> dx(x.size());
  dx.upload(x.data());
  gpucheck::Output<float> out(rows);
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    CHECK_CUDA(
        launch_hinted_row_sums_512(dim3(rows), cudaStream_t{}, dx.ptr, out.dev.ptr, rows, cols));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
  }
  report.check("row sums", gpucheck::shape(rows, cols), harness::toDoubles(out.vals),
               harness::toDoubles(ref), exact, 1e-5, out.ok());
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 300, 1037};
  if (!harness::smallRun(argc, argv))
    sizes.push_back(100003);
  for (int n : sizes) {
    add<1024, float, float>(report, "add f32", n, [](auto... a) {
      return launch_hinted_add_1024_f32(cudaStream_t{}, a...);
    });
    add<2048, tl::half, __half>(report, "add f16", n, [](auto... a) {
      return launch_hinted_add_2048_f16(cudaStream_t{}, a...);
    });
    add<2048, int8_t, int8_t>(report, "add i8", n, [](auto... a) {
      return launch_hinted_add_2048_i8(cudaStream_t{}, a...);
    });
    add<512, int64_t, int64_t>(report, "add i64", n, [](auto... a) {
      return launch_hinted_add_512_i64(cudaStream_t{}, a...);
    });
    gather(report, n);
  }
  rowSums(report, 3, 1300);
  rowSums(report, 37, 700);
  if (!harness::smallRun(argc, argv))
    rowSums(report, 1000, 5000);
  return report.exitCode();
}
