// Runs tilec's CUDA for tests/kernels/trans.cpp (tl::trans outside a dot): out = trans(x) + y and
// back = trans(trans(x) * 2), for float, fp16, int32 and int8, on fresh random inputs at ragged
// M x N (down to 1 x 1), with row strides wider than the rows. Both outputs are poisoned twice
// (the written elements must agree, the padding and a guard tail past the end keep the poison)
// and must equal, exactly, the CPU reference of the same source and the value computed here:
// each element is one addition or one doubling of the element type (fp16: of two fp16 values,
// exact in float and rounded once; integers wrap). trans_reduce's column sums and row maxima of a
// transposed int32 view (M <= 64 rows) are exact as well.
#include "check.h"
#include "trans.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <trans.hip>
#else
#include <trans.cu> // golden/trans/trans.cu (<>: not this file)
#endif

#include <algorithm>
#include <cstring>
#include <random>

namespace {

/// The element type's own a + b and a * 2 (integers wrap).
template <class T> T add(T a, T b) {
  if constexpr (std::is_same_v<T, tl::half>)
    return tl::half(float(a) + float(b));
  else if constexpr (std::is_integral_v<T>)
    return T(static_cast<std::make_unsigned_t<T>>(a) + static_cast<std::make_unsigned_t<T>>(b));
  else
    return a + b;
}

/// Random values of T in the padding-marked layout of `rows` rows of `cols`, `ld` apart; the
/// padding holds a value that shows if read (NaN, or 99).
template <class T> std::vector<T> input(int rows, int cols, int ld, uint64_t seed) {
  std::vector<T> v(size_t(rows) * size_t(ld), std::is_integral_v<T> ? T(99) : T(NAN));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> d(-100, 100);
  std::uniform_real_distribution<float> f(-4, 4);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      v[size_t(r) * size_t(ld) + size_t(c)] = std::is_integral_v<T> ? T(d(rng)) : T(f(rng));
  return v;
}

template <class T> double asDouble(T x) { return double(float(x)); }
template <> double asDouble(int32_t x) { return double(x); }
template <> double asDouble(int8_t x) { return double(x); }

/// The exact-match row of one output (its written elements only).
template <class T>
void row(harness::Report &rep, const char *name, const std::string &size, int rows, int cols,
         int ld, const std::vector<T> &gpu, const std::vector<T> &ref, const std::vector<T> &want,
         bool ok) {
  size_t n = 0, gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c, ++n) {
      const size_t i = size_t(r) * size_t(ld) + size_t(c);
      gpuVsRef += !gpucheck::same(asDouble(gpu[i]), asDouble(ref[i]));
      gpuVsExact += !gpucheck::same(asDouble(gpu[i]), asDouble(want[i]));
      refVsExact += !gpucheck::same(asDouble(ref[i]), asDouble(want[i]));
    }
  gpucheck::checkExact(rep, name, size, n, gpuVsRef, gpuVsExact, refVsExact, ok);
}

template <class T, int BM, int BN, class Launch>
void run(harness::Report &rep, const char *name, int M, int N, Launch gpuLaunch) {
  const int ldx = N + 3, ldy = M + 5; // x: M rows of N; y, out: N rows of M; back: as x
  const uint64_t seed = uint64_t(M) * 7919 + uint64_t(N) + sizeof(T) * 101;
  const auto x = input<T>(M, N, ldx, seed), y = input<T>(N, M, ldy, seed + 1);
  std::vector<T> refOut(y.size(), T(0)), refBack(x.size(), T(0));
  tl::launch(tl::grid3{tl::cdiv(M, BM) * tl::cdiv(N, BN)}, trans_add<T, BM, BN>, x.data(), y.data(),
             refOut.data(), refBack.data(), M, N, ldx, ldy);
  std::vector<T> wantOut(y.size(), T(0)), wantBack(x.size(), T(0));
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      const T xv = x[size_t(m) * size_t(ldx) + size_t(n)];
      wantOut[size_t(n) * size_t(ldy) + size_t(m)] =
          add(xv, y[size_t(n) * size_t(ldy) + size_t(m)]);
      wantBack[size_t(m) * size_t(ldx) + size_t(n)] = add(xv, xv);
    }
  harness::DeviceBuffer<T> dx(x.size()), dy(y.size());
  dx.upload(x.data()), dy.upload(y.data());
  // Both outputs, `rows` rows of `cols` written, `ld` apart, plus a guard tail: poisoned with each
  // pattern in turn; the written elements must agree between the runs, everything else keep the
  // poison.
  struct Out {
    int rows, cols, ld;
    harness::DeviceBuffer<T> dev;
    std::vector<T> vals;
    bool ok = true;
    Out(int r, int c, int l)
        : rows(r), cols(c), ld(l), dev(size_t(r) * size_t(l) + gpucheck::kGuard) {}
    void collect(int byte) {
      std::vector<T> all(dev.n);
      dev.download(all.data());
      const bool first = vals.empty();
      for (size_t i = 0; i < all.size(); ++i) {
        const bool written = i < size_t(rows) * size_t(ld) && int(i % size_t(ld)) < cols;
        const auto *bytes = reinterpret_cast<const unsigned char *>(&all[i]);
        if (!written)
          for (size_t k = 0; k < sizeof(T); ++k)
            ok = ok && bytes[k] == byte;
        else if (!first)
          ok = ok && std::memcmp(&vals[i], &all[i], sizeof(T)) == 0;
      }
      if (first)
        vals = all;
    }
  } out(N, M, ldy), back(M, N, ldx);
  for (int byte : gpucheck::kPoison) {
    CHECK_CUDA(cudaMemset(out.dev.ptr, byte, out.dev.n * sizeof(T)));
    CHECK_CUDA(cudaMemset(back.dev.ptr, byte, back.dev.n * sizeof(T)));
    CHECK_CUDA(gpuLaunch(dx.ptr, dy.ptr, out.dev.ptr, back.dev.ptr, M, N, ldx, ldy));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte), back.collect(byte);
  }
  const std::string size = gpucheck::shape(M, N);
  row(rep, name, size, N, M, ldy, out.vals, refOut, wantOut, out.ok);
  row(rep, "  back", size, M, N, ldx, back.vals, refBack, wantBack, back.ok);
}

// trans_reduce<64, 32> on an M x N int32 matrix (M <= 64): column sums and per-program row maxima,
// exact.
void runReduce(harness::Report &rep, int M, int N) {
  constexpr int BM = 64, BN = 32;
  const int ldx = N + 3, programs = tl::cdiv(N, BN);
  const auto x = input<int32_t>(M, N, ldx, uint64_t(M) * 31 + uint64_t(N));
  std::vector<int32_t> refSum(size_t(N), -7), refMax(size_t(programs) * size_t(M), -7);
  tl::launch(tl::grid3{programs}, trans_reduce<BM, BN>, x.data(), refSum.data(), refMax.data(), M,
             N, ldx);
  std::vector<int32_t> wantSum(size_t(N), 0), wantMax(refMax.size(), 0);
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < M; ++m)
      wantSum[size_t(n)] += x[size_t(m) * size_t(ldx) + size_t(n)];
  for (int p = 0; p < programs; ++p)
    for (int m = 0; m < M; ++m) {
      int32_t best = -1000;
      for (int n = p * BN; n < std::min(N, p * BN + BN); ++n)
        best = std::max(best, x[size_t(m) * size_t(ldx) + size_t(n)]);
      wantMax[size_t(p) * size_t(M) + size_t(m)] = best;
    }
  harness::DeviceBuffer<int32_t> dx(x.size());
  dx.upload(x.data());
  gpucheck::Output<int32_t> sums{size_t(N)}, maxes{refMax.size()};
  for (int byte : gpucheck::kPoison) {
    sums.poison(byte), maxes.poison(byte);
    CHECK_CUDA(
        launch_trans_reduce_64_32(cudaStream_t{}, dx.ptr, sums.dev.ptr, maxes.dev.ptr, M, N, ldx));
    CHECK_CUDA(cudaDeviceSynchronize());
    sums.collect(byte), maxes.collect(byte);
  }
  const std::string size = gpucheck::shape(M, N);
  row(rep, "trans sum", size, 1, N, N, sums.vals, refSum, wantSum, sums.ok());
  row(rep, "trans max", size, 1, int(refMax.size()), int(refMax.size()), maxes.vals, refMax,
      wantMax, maxes.ok());
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<std::pair<int, int>> cases = {{1, 1},    {37, 45},   {64, 64},
                                            {100, 33}, {513, 130}, {17, 300}};
  if (harness::smallRun(argc, argv)) // the CPU emulator: a few programs a case
    cases = {{1, 1}, {37, 45}, {64, 64}, {19, 70}};
  for (auto [M, N] : cases) {
    run<float, 32, 64>(report, "trans f32", M, N,
                       [](auto... a) { return launch_trans_add_f32_32_64(cudaStream_t{}, a...); });
    run<tl::half, 64, 32>(
        report, "trans f16", M, N,
        [](const tl::half *x, const tl::half *y, tl::half *o, tl::half *b, auto... a) {
          return launch_trans_add_f16_64_32(cudaStream_t{}, reinterpret_cast<const __half *>(x),
                                            reinterpret_cast<const __half *>(y),
                                            reinterpret_cast<__half *>(o),
                                            reinterpret_cast<__half *>(b), a...);
        });
    run<int32_t, 16, 16>(report, "trans i32", M, N, [](auto... a) {
      return launch_trans_add_i32_16_16(cudaStream_t{}, a...);
    });
    run<int8_t, 32, 32>(report, "trans i8", M, N,
                        [](auto... a) { return launch_trans_add_i8_32_32(cudaStream_t{}, a...); });
    runReduce(report, std::min(M, 64), N);
  }
  return report.exitCode();
}
