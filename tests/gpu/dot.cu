// Runs tilec's CUDA for the tl::dot kernels of tests/kernels/dot.cpp (fp16 and bf16 operands into
// float, float operands under ieee, tf32 and tf32x3, int8 into a wrapping int32 accumulator, an
// fp16 result, an fp16 accumulator, a dot inside bigger expressions, transposed operands (bf16;
// fp32 and int8 with both transposed) and a transposed result) on fresh random operands at ragged
// M, N and K (down to 1 x 1 x 1), with row strides wider than the rows, and at sizes whose strides
// are multiples of 16 (the launchers' aligned variants). The padding of A and B holds NaN
// (for int8: 127), so that a read past K shows; C is poisoned twice: the written elements must
// agree between the runs, the padding columns and a guard tail past the end must keep the poison.
// Compared with the CPU reference of the same source and with float64 (int8: exactly).
//
// Tolerances (||gpu - f64|| / ||f64||, docs/language.md "Matrix products"):
// - fp16 and bf16 operands, float result: every product is exact in fp32, so only the fp32 sum of
//   K <= 128 products rounds: near 3e-7; 1e-5 holds in any order of summation (tensor cores).
// - float operands, ieee and tf32x3: products and sum in fp32 (tf32x3: operands exact to about 22
//   bits, lo x lo dropped), near 5e-7 at K = 128; 2e-6.
// - tf32: each operand rounded to 10 mantissa bits (relative error up to 2^-11), near 3e-4 against
//   the products of the unrounded operands; 1e-3. The CPU reference rounds the operands the same
//   way, so the GPU must also match it within 1e-5 (the row "tf32 vs ref": only the order of the
//   fp32 sum may differ).
// - fp16 result: rounded once from the fp32 sum, as float64's sum is rounded: they differ by an
//   fp16 ulp where the sums fall on either side of a rounding midpoint, at most 2^-10 of an
//   element; 1e-3. The fp16 accumulator is rounded after every K step in float64 too (as the kernel
//   does).
// - int8: exact, including the sums that wrap around 2^31 (c0 near INT32_MAX and INT32_MIN).
#include "check.h"
#include "dot.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <dot.hip>
#else
#include <dot.cu> // golden/dot/dot.cu (<>: not this file)
#endif

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

namespace {

using tl::bfloat16;
using tl::half;

struct Case {
  int M, N, K;
  bool aligned = false; // N, K and every row stride multiples of 16: the aligned variants
};

/// The matrices' layout for one case: row strides wider than the rows (by an odd count, or by 16
/// for aligned cases).
struct Dims {
  int M, N, K, lda, ldb, ldc;
  Dims(Case c, int maxK)
      : M(c.M), N(c.N), K(std::min(c.K, maxK)), lda(K + (c.aligned ? 16 : 3)),
        ldb(N + (c.aligned ? 16 : 5)), ldc(N + (c.aligned ? 16 : 1)) {}
  size_t na() const { return size_t(M) * size_t(lda); }
  size_t nb() const { return size_t(K) * size_t(ldb); }
  size_t nc() const { return size_t(M) * size_t(ldc); }
  size_t aAt(int m, int k) const { return size_t(m) * size_t(lda) + size_t(k); }
  size_t bAt(int k, int n) const { return size_t(k) * size_t(ldb) + size_t(n); }
  size_t cAt(int m, int n) const { return size_t(m) * size_t(ldc) + size_t(n); }
  std::string label() const {
    return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) +
           (lda % 16 == 0 ? " al" : "");
  }
};

uint64_t seedOf(const Dims &d, int kernel) {
  return ((uint64_t(d.M) * 7919 + uint64_t(d.N)) * 7919 + uint64_t(d.K)) * 64 +
         uint64_t(kernel) * 2 + (d.lda % 16 == 0 ? 1 : 0);
}

/// Operands of type T: random values in [-1, 1) inside the matrix (int8: any of -128..127), the
/// padding NaN (int8: 127).
template <class T> std::vector<T> operand(size_t n, int rows, int cols, int ld, uint64_t seed) {
  std::vector<T> v(n);
  if constexpr (std::is_same_v<T, int8_t>) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> d(-128, 127);
    std::fill(v.begin(), v.end(), int8_t(127));
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        v[size_t(r) * size_t(ld) + size_t(c)] = int8_t(d(rng));
  } else {
    const auto f = harness::randomFloats(n, -1, 1, seed);
    std::fill(v.begin(), v.end(), T(NAN));
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        v[size_t(r) * size_t(ld) + size_t(c)] = T(f[size_t(r) * size_t(ld) + size_t(c)]);
  }
  return v;
}

template <class T> double value(T x) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>)
    return double(float(x));
  else
    return double(x);
}

/// sum over k in [k0, k1) of a[m][k] * b[k][n] in double (exact for every operand type here).
template <class A>
double exactSum(const Dims &d, const std::vector<A> &a, const std::vector<A> &b, int m, int n,
                int k0, int k1) {
  double s = 0;
  for (int k = k0; k < k1; ++k)
    s += value(a[d.aAt(m, k)]) * value(b[d.bAt(k, n)]);
  return s;
}

/// Runs `launch(c)` on a C buffer poisoned with each pattern in turn: `vals` gets the first run's
/// M x ldc elements. False if a written element differs between the runs or anything outside the
/// M x N matrix (the padding columns, the guard tail) lost its poison.
template <class T, class Launch> bool runGpu(const Dims &d, std::vector<T> &vals, Launch launch) {
  harness::DeviceBuffer<T> dc(d.nc() + gpucheck::kGuard);
  std::vector<T> all(dc.n);
  bool ok = true;
  for (int byte : gpucheck::kPoison) {
    CHECK_CUDA(cudaMemset(dc.ptr, byte, dc.n * sizeof(T)));
    CHECK_CUDA(launch(dc.ptr));
    CHECK_CUDA(cudaDeviceSynchronize());
    dc.download(all.data());
    const bool first = vals.empty();
    for (size_t i = 0; i < dc.n; ++i) {
      const bool inC = i < d.nc() && int(i % size_t(d.ldc)) < d.N;
      const auto *bytes = reinterpret_cast<const unsigned char *>(&all[i]);
      if (!inC)
        for (size_t j = 0; j < sizeof(T); ++j)
          ok = ok && bytes[j] == byte;
      else if (!first)
        ok = ok && std::memcmp(&vals[i], &all[i], sizeof(T)) == 0;
    }
    if (first)
      vals.assign(all.begin(), all.begin() + std::ptrdiff_t(d.nc()));
  }
  return ok;
}

/// The table row of a float or fp16 output: the written elements of the GPU's, the CPU reference's
/// and float64's C.
template <class T>
void report(harness::Report &report, const char *name, const Dims &d, const std::vector<T> &gpu,
            const std::vector<T> &cpu, const std::function<double(int, int)> &f64, double tol,
            bool ok, double tolVsRef = -1) {
  std::vector<double> g, c, e;
  for (int m = 0; m < d.M; ++m)
    for (int n = 0; n < d.N; ++n) {
      g.push_back(value(gpu[d.cAt(m, n)]));
      c.push_back(value(cpu[d.cAt(m, n)]));
      e.push_back(f64(m, n));
    }
  report.check(name, d.label(), g, c, e, tol, ok);
  if (tolVsRef >= 0) // the GPU against the CPU reference alone, with a tolerance of its own
    report.check("tf32 vs ref", d.label(), g, c, c, tolVsRef, ok);
}

constexpr int kAnyK = 1 << 30; // no limit on K: the kernel loops over it

// fp16 x fp16 -> float over K (dot_f16<BM, BN, BK>).
template <int BM, int BN, int BK, class Launch>
void runF16(harness::Report &rep, Case c, Launch gpuLaunch) {
  const Dims d(c, kAnyK);
  const uint64_t seed = seedOf(d, BM * 3 + BN);
  const auto a = operand<half>(d.na(), d.M, d.K, d.lda, seed);
  const auto b = operand<half>(d.nb(), d.K, d.N, d.ldb, seed + 1);
  std::vector<float> ref(d.nc(), NAN), out;
  tl::launch(tl::grid3{tl::cdiv(d.M, BM) * tl::cdiv(d.N, BN)}, dot_f16<BM, BN, BK>, a.data(),
             b.data(), ref.data(), d.M, d.N, d.K, d.lda, d.ldb, d.ldc);
  harness::DeviceBuffer<half> da(d.na()), db(d.nb());
  da.upload(a.data()), db.upload(b.data());
  const bool ok = runGpu<float>(d, out, [&](float *dc) {
    return gpuLaunch(cudaStream_t{}, reinterpret_cast<const __half *>(da.ptr),
                     reinterpret_cast<const __half *>(db.ptr), dc, d.M, d.N, d.K, d.lda, d.ldb,
                     d.ldc);
  });
  auto f64 = [&](int m, int n) { return exactSum(d, a, b, m, n, 0, d.K); };
  report(rep, BM == BN ? "dot f16" : "dot f16 N64", d, out, ref, f64, 1e-5, ok);
}

// bf16 x bf16 -> float, one K step (dot_bf16<32, 16, 64>).
void runBf16(harness::Report &rep, Case c) {
  constexpr int BM = 32, BN = 16, BK = 64;
  const Dims d(c, BK);
  const uint64_t seed = seedOf(d, 1);
  const auto a = operand<bfloat16>(d.na(), d.M, d.K, d.lda, seed);
  const auto b = operand<bfloat16>(d.nb(), d.K, d.N, d.ldb, seed + 1);
  std::vector<float> ref(d.nc(), NAN), out;
  tl::launch(tl::grid3{tl::cdiv(d.M, BM) * tl::cdiv(d.N, BN)}, dot_bf16<BM, BN, BK>, a.data(),
             b.data(), ref.data(), d.M, d.N, d.K, d.lda, d.ldb, d.ldc);
  harness::DeviceBuffer<bfloat16> da(d.na()), db(d.nb());
  da.upload(a.data()), db.upload(b.data());
  const bool ok = runGpu<float>(d, out, [&](float *dc) {
    return launch_dot_bf16_32_16_64(cudaStream_t{},
                                    reinterpret_cast<const tilec::rt::bf16_t *>(da.ptr),
                                    reinterpret_cast<const tilec::rt::bf16_t *>(db.ptr), dc, d.M,
                                    d.N, d.K, d.lda, d.ldb, d.ldc);
  });
  auto f64 = [&](int m, int n) { return exactSum(d, a, b, m, n, 0, d.K); };
  report(rep, "dot bf16", d, out, ref, f64, 1e-5, ok);
}

// float x float -> float under precision P (dot_f32<P, 32, 32, 16>).
template <tl::input_precision P, class Launch>
void runF32(harness::Report &rep, Case c, Launch gpuLaunch) {
  constexpr int BM = 32, BN = 32, BK = 16;
  const Dims d(c, kAnyK);
  const uint64_t seed = seedOf(d, 2 + int(P));
  const auto a = operand<float>(d.na(), d.M, d.K, d.lda, seed);
  const auto b = operand<float>(d.nb(), d.K, d.N, d.ldb, seed + 1);
  std::vector<float> ref(d.nc(), NAN), out;
  tl::launch(tl::grid3{tl::cdiv(d.M, BM) * tl::cdiv(d.N, BN)}, dot_f32<P, BM, BN, BK>, a.data(),
             b.data(), ref.data(), d.M, d.N, d.K, d.lda, d.ldb, d.ldc);
  harness::DeviceBuffer<float> da(d.na()), db(d.nb());
  da.upload(a.data()), db.upload(b.data());
  const bool ok = runGpu<float>(d, out, [&](float *dc) {
    return gpuLaunch(cudaStream_t{}, da.ptr, db.ptr, dc, d.M, d.N, d.K, d.lda, d.ldb, d.ldc);
  });
  // float64: the products of the operands as given (not rounded to tf32).
  auto f64 = [&](int m, int n) { return exactSum(d, a, b, m, n, 0, d.K); };
  if constexpr (P == tl::tf32)
    report(rep, "dot tf32", d, out, ref, f64, 1e-3, ok, 1e-5);
  else
    report(rep, P == tl::ieee ? "dot f32" : "dot tf32x3", d, out, ref, f64, 2e-6, ok);
}

// int8 x int8 -> int32 from c0 (dot_i8<32, 32, 32>): exact, wrapping.
void runI8(harness::Report &rep, Case c) {
  constexpr int BM = 32, BN = 32, BK = 32;
  const Dims d(c, kAnyK);
  const uint64_t seed = seedOf(d, 6);
  const auto a = operand<int8_t>(d.na(), d.M, d.K, d.lda, seed);
  const auto b = operand<int8_t>(d.nb(), d.K, d.N, d.ldb, seed + 1);
  // c0: a third of the elements within 2^16 of INT32_MAX, a third as near INT32_MIN, the rest
  // anywhere: a sum of K products (|sum| < 2^21, typically 5000 sqrt(K)) of the right sign wraps.
  std::vector<int32_t> c0(d.nc(), -1);
  std::mt19937_64 rng(seed + 2);
  std::uniform_int_distribution<int32_t> any(std::numeric_limits<int32_t>::min(),
                                             std::numeric_limits<int32_t>::max()),
      near(0, 1 << 16);
  for (int m = 0; m < d.M; ++m)
    for (int n = 0; n < d.N; ++n) {
      const int r = (m + n) % 3;
      c0[d.cAt(m, n)] = r == 0   ? std::numeric_limits<int32_t>::max() - near(rng)
                        : r == 1 ? std::numeric_limits<int32_t>::min() + near(rng)
                                 : any(rng);
    }
  std::vector<int32_t> ref(d.nc(), -1), out;
  tl::launch(tl::grid3{tl::cdiv(d.M, BM) * tl::cdiv(d.N, BN)}, dot_i8<BM, BN, BK>, a.data(),
             b.data(), c0.data(), ref.data(), d.M, d.N, d.K, d.lda, d.ldb, d.ldc);
  harness::DeviceBuffer<int8_t> da(d.na()), db(d.nb());
  harness::DeviceBuffer<int32_t> dc0(d.nc());
  da.upload(a.data()), db.upload(b.data()), dc0.upload(c0.data());
  const bool ok = runGpu<int32_t>(d, out, [&](int32_t *dc) {
    return launch_dot_i8_32_32_32(cudaStream_t{}, da.ptr, db.ptr, dc0.ptr, dc, d.M, d.N, d.K, d.lda,
                                  d.ldb, d.ldc);
  });
  size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0, wrapped = 0;
  for (int m = 0; m < d.M; ++m)
    for (int n = 0; n < d.N; ++n) {
      const int64_t sum = int64_t(c0[d.cAt(m, n)]) + int64_t(exactSum(d, a, b, m, n, 0, d.K));
      const auto e = int32_t(uint32_t(uint64_t(sum)));
      wrapped += sum != e;
      const int32_t g = out[d.cAt(m, n)], r = ref[d.cAt(m, n)];
      gpuVsRef += g != r, gpuVsExact += g != e, refVsExact += r != e;
    }
  // Every case from 32 elements up must have wrapped somewhere (else the c0 above is wrong).
  const bool wraps = d.M * d.N < 32 || d.K < 16 || wrapped > 0;
  gpucheck::checkExact(rep, "dot i8", d.label(), size_t(d.M) * size_t(d.N), gpuVsRef, gpuVsExact,
                       refVsExact, ok && wraps);
}

// fp16 x fp16 -> fp16 result, one K step (dot_f16_out<16, 16, 32>).
void runF16Out(harness::Report &rep, Case c) {
  constexpr int BM = 16, BN = 16, BK = 32;
  const Dims d(c, BK);
  const uint64_t seed = seedOf(d, 7);
  const auto a = operand<half>(d.na(), d.M, d.K, d.lda, seed);
  const auto b = operand<half>(d.nb(), d.K, d.N, d.ldb, seed + 1);
  std::vector<half> ref(d.nc(), half(NAN)), out;
  tl::launch(tl::grid3{tl::cdiv(d.M, BM) * tl::cdiv(d.N, BN)}, dot_f16_out<BM, BN, BK>, a.data(),
             b.data(), ref.data(), d.M, d.N, d.K, d.lda, d.ldb, d.ldc);
  harness::DeviceBuffer<half> da(d.na()), db(d.nb());
  da.upload(a.data()), db.upload(b.data());
  const bool ok = runGpu<half>(d, out, [&](half *dc) {
    return launch_dot_f16_out_16_16_32(cudaStream_t{}, reinterpret_cast<const __half *>(da.ptr),
                                       reinterpret_cast<const __half *>(db.ptr),
                                       reinterpret_cast<__half *>(dc), d.M, d.N, d.K, d.lda, d.ldb,
                                       d.ldc);
  });
  auto f64 = [&](int m, int n) { return value(half(exactSum(d, a, b, m, n, 0, d.K))); };
  report(rep, "dot ->f16", d, out, ref, f64, 1e-3, ok);
}

// fp16 x fp16 into an fp16 accumulator over K (dot_f16_acc<32, 32, 16>).
void runF16Acc(harness::Report &rep, Case c) {
  constexpr int BM = 32, BN = 32, BK = 16;
  const Dims d(c, kAnyK);
  const uint64_t seed = seedOf(d, 8);
  const auto a = operand<half>(d.na(), d.M, d.K, d.lda, seed);
  const auto b = operand<half>(d.nb(), d.K, d.N, d.ldb, seed + 1);
  std::vector<half> ref(d.nc(), half(NAN)), out;
  tl::launch(tl::grid3{tl::cdiv(d.M, BM) * tl::cdiv(d.N, BN)}, dot_f16_acc<BM, BN, BK>, a.data(),
             b.data(), ref.data(), d.M, d.N, d.K, d.lda, d.ldb, d.ldc);
  harness::DeviceBuffer<half> da(d.na()), db(d.nb());
  da.upload(a.data()), db.upload(b.data());
  const bool ok = runGpu<half>(d, out, [&](half *dc) {
    return launch_dot_f16_acc_32_32_16(cudaStream_t{}, reinterpret_cast<const __half *>(da.ptr),
                                       reinterpret_cast<const __half *>(db.ptr),
                                       reinterpret_cast<__half *>(dc), d.M, d.N, d.K, d.lda, d.ldb,
                                       d.ldc);
  });
  // float64: each K step's exact sum added to the fp16 accumulator, rounded to fp16 as the
  // kernel's.
  auto f64 = [&](int m, int n) {
    double acc = 0;
    for (int k0 = 0; k0 < d.K; k0 += BK)
      acc = value(half(acc + exactSum(d, a, b, m, n, k0, std::min(d.K, k0 + BK))));
    return acc;
  };
  report(rep, "dot f16 acc", d, out, ref, f64, 1e-3, ok);
}

// acc += dot(a, b) * 2 over K, plus a bias per column (dot_expr<32, 16, 16>).
void runExpr(harness::Report &rep, Case c) {
  constexpr int BM = 32, BN = 16, BK = 16;
  const Dims d(c, kAnyK);
  const uint64_t seed = seedOf(d, 9);
  const auto a = operand<half>(d.na(), d.M, d.K, d.lda, seed);
  const auto b = operand<half>(d.nb(), d.K, d.N, d.ldb, seed + 1);
  const auto bias = harness::randomFloats(size_t(d.N), -1, 1, seed + 2);
  std::vector<float> ref(d.nc(), NAN), out;
  tl::launch(tl::grid3{tl::cdiv(d.M, BM) * tl::cdiv(d.N, BN)}, dot_expr<BM, BN, BK>, a.data(),
             b.data(), bias.data(), ref.data(), d.M, d.N, d.K, d.lda, d.ldb, d.ldc);
  harness::DeviceBuffer<half> da(d.na()), db(d.nb());
  harness::DeviceBuffer<float> dbias(size_t(d.N));
  da.upload(a.data()), db.upload(b.data()), dbias.upload(bias.data());
  const bool ok = runGpu<float>(d, out, [&](float *dc) {
    return launch_dot_expr_32_16_16(cudaStream_t{}, reinterpret_cast<const __half *>(da.ptr),
                                    reinterpret_cast<const __half *>(db.ptr), dbias.ptr, dc, d.M,
                                    d.N, d.K, d.lda, d.ldb, d.ldc);
  });
  auto f64 = [&](int m, int n) {
    return 2 * exactSum(d, a, b, m, n, 0, d.K) + double(bias[size_t(n)]);
  };
  report(rep, "dot expr", d, out, ref, f64, 1e-5, ok);
}

// C = A x B^T with B^T given as N rows of K, and C^T stored beside it (dot_trans<32, 32, 16>).
// Each output is checked on its own run of the kernel (the other one written to a scratch buffer),
// with its own poison, padding and guard tail.
void runTrans(harness::Report &rep, Case c) {
  constexpr int BM = 32, BN = 32, BK = 16;
  const Dims d(c, kAnyK);
  const Dims dt(Case{c.N, c.M, c.K, c.aligned}, kAnyK); // C^T: N rows of M, dt.ldc apart
  const int ldbt = d.lda;                               // B^T: N rows of K, padded as A
  const uint64_t seed = seedOf(d, 10);
  const auto a = operand<half>(d.na(), d.M, d.K, d.lda, seed);
  const auto bt = operand<half>(size_t(d.N) * size_t(ldbt), d.N, d.K, ldbt, seed + 1);
  std::vector<float> ref(d.nc(), NAN), refT(dt.nc(), NAN), out, outT;
  tl::launch(tl::grid3{tl::cdiv(d.M, BM) * tl::cdiv(d.N, BN)}, dot_trans<BM, BN, BK>, a.data(),
             bt.data(), ref.data(), refT.data(), d.M, d.N, d.K, d.lda, ldbt, d.ldc, dt.ldc);
  harness::DeviceBuffer<half> da(d.na()), dbt(bt.size());
  harness::DeviceBuffer<float> scratchC(d.nc()), scratchT(dt.nc());
  da.upload(a.data()), dbt.upload(bt.data());
  auto launch = [&](float *pc, float *pct) {
    return launch_dot_trans_32_32_16(cudaStream_t{}, reinterpret_cast<const __half *>(da.ptr),
                                     reinterpret_cast<const __half *>(dbt.ptr), pc, pct, d.M, d.N,
                                     d.K, d.lda, ldbt, d.ldc, dt.ldc);
  };
  const bool ok = runGpu<float>(d, out, [&](float *dc) { return launch(dc, scratchT.ptr); });
  const bool okT = runGpu<float>(dt, outT, [&](float *dct) { return launch(scratchC.ptr, dct); });
  auto f64 = [&](int m, int n) {
    double s = 0;
    for (int k = 0; k < d.K; ++k)
      s += value(a[d.aAt(m, k)]) * value(bt[size_t(n) * size_t(ldbt) + size_t(k)]);
    return s;
  };
  report(rep, "dot trans", d, out, ref, f64, 1e-5, ok);
  report(
      rep, "dot trans C^T", dt, outT, refT, [&](int n, int m) { return f64(m, n); }, 1e-5, okT);
}

// C = (A^T)^T x B with A^T given as K rows of M, bf16 (dot_trans_a<64, 32, 32>).
void runTransA(harness::Report &rep, Case c) {
  constexpr int BM = 64, BN = 32, BK = 32;
  const Dims d(c, kAnyK);
  const int ldatM = d.M + (c.aligned ? 16 : 1); // A^T: K rows of M
  const uint64_t seed = seedOf(d, 11);
  const auto at = operand<bfloat16>(size_t(d.K) * size_t(ldatM), d.K, d.M, ldatM, seed);
  const auto b = operand<bfloat16>(d.nb(), d.K, d.N, d.ldb, seed + 1);
  std::vector<float> ref(d.nc(), NAN), out;
  tl::launch(tl::grid3{tl::cdiv(d.M, BM) * tl::cdiv(d.N, BN)}, dot_trans_a<BM, BN, BK>, at.data(),
             b.data(), ref.data(), d.M, d.N, d.K, ldatM, d.ldb, d.ldc);
  harness::DeviceBuffer<bfloat16> dat(at.size()), db(d.nb());
  dat.upload(at.data()), db.upload(b.data());
  const bool ok = runGpu<float>(d, out, [&](float *dc) {
    return launch_dot_trans_a_64_32_32(cudaStream_t{},
                                       reinterpret_cast<const tilec::rt::bf16_t *>(dat.ptr),
                                       reinterpret_cast<const tilec::rt::bf16_t *>(db.ptr), dc, d.M,
                                       d.N, d.K, ldatM, d.ldb, d.ldc);
  });
  auto f64 = [&](int m, int n) {
    double s = 0;
    for (int k = 0; k < d.K; ++k)
      s += value(at[size_t(k) * size_t(ldatM) + size_t(m)]) * value(b[d.bAt(k, n)]);
    return s;
  };
  report(rep, "dot transA", d, out, ref, f64, 1e-5, ok);
}

// C = (A^T)^T x (B^T)^T from A^T (K rows of M) and B^T (N rows of K): fp32 under tf32 and tf32x3
// (dot_trans_both<P, float, float, 32, 32, 16>, tolerances as runF32's) and int8 into int32
// (dot_trans_both<tl::ieee, int8_t, int32_t, 32, 32, 32>, exact).
template <tl::input_precision P, class T, class Acc, int BK, class Launch>
void runTransBoth(harness::Report &rep, Case c, const char *name, Launch gpuLaunch) {
  constexpr int BM = 32, BN = 32;
  const Dims d(c, kAnyK);
  const int ldat = d.M + (c.aligned ? 16 : 1), ldbt = d.K + (c.aligned ? 16 : 1);
  const uint64_t seed = seedOf(d, 12 + int(sizeof(T)) + int(P));
  const auto at = operand<T>(size_t(d.K) * size_t(ldat), d.K, d.M, ldat, seed);
  const auto bt = operand<T>(size_t(d.N) * size_t(ldbt), d.N, d.K, ldbt, seed + 1);
  std::vector<Acc> ref(d.nc(), Acc(-1)), out;
  tl::launch(tl::grid3{tl::cdiv(d.M, BM) * tl::cdiv(d.N, BN)},
             dot_trans_both<P, T, Acc, BM, BN, BK>, at.data(), bt.data(), ref.data(), d.M, d.N, d.K,
             ldat, ldbt, d.ldc);
  harness::DeviceBuffer<T> dat(at.size()), dbt(bt.size());
  dat.upload(at.data()), dbt.upload(bt.data());
  const bool ok = runGpu<Acc>(d, out, [&](Acc *dc) {
    return gpuLaunch(cudaStream_t{}, dat.ptr, dbt.ptr, dc, d.M, d.N, d.K, ldat, ldbt, d.ldc);
  });
  auto f64 = [&](int m, int n) {
    double s = 0;
    for (int k = 0; k < d.K; ++k)
      s += double(at[size_t(k) * size_t(ldat) + size_t(m)]) *
           double(bt[size_t(n) * size_t(ldbt) + size_t(k)]);
    return s;
  };
  if constexpr (P == tl::tf32) {
    report(rep, name, d, out, ref, f64, 1e-3, ok, 1e-5);
  } else if constexpr (P == tl::tf32x3) {
    report(rep, name, d, out, ref, f64, 2e-6, ok);
  } else {
    size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
    for (int m = 0; m < d.M; ++m)
      for (int n = 0; n < d.N; ++n) {
        const auto e = Acc(f64(m, n)); // |sum| < 2^21: exact in double, no wrap
        const Acc g = out[d.cAt(m, n)], r = ref[d.cAt(m, n)];
        gpuVsRef += g != r, gpuVsExact += g != e, refVsExact += r != e;
      }
    gpucheck::checkExact(rep, name, d.label(), size_t(d.M) * size_t(d.N), gpuVsRef, gpuVsExact,
                         refVsExact, ok);
  }
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  // M x N x K: one element; ragged in every dim, with K a few steps and a remainder; K of 128 (the
  // int8 sums stay under 2^21); tall and thin; and sizes whose strides are multiples of 16 (the
  // aligned variants). Single-step kernels (bf16: K <= 64, fp16 result: K <= 32) clamp K.
  std::vector<Case> cases = {{1, 1, 1},       {37, 45, 70},       {100, 77, 128},
                             {513, 19, 50},   {64, 64, 64, true}, {96, 48, 128, true},
                             {300, 200, 100}, {17, 300, 33}};
  // The CPU emulator is about 1000x slower than a GPU: a few programs a case.
  if (harness::smallRun(argc, argv))
    cases = {{1, 1, 1}, {37, 45, 70}, {32, 32, 32, true}, {19, 33, 128}};
  for (Case c : cases) {
    runF16<32, 32, 16>(report, c, [](auto... x) { return launch_dot_f16_32_32_16(x...); });
    runF16<16, 64, 32>(report, c, [](auto... x) { return launch_dot_f16_16_64_32(x...); });
    runBf16(report, c);
    runF32<tl::ieee>(report, c, [](auto... x) { return launch_dot_f32_ieee_32_32_16(x...); });
    runF32<tl::tf32>(report, c, [](auto... x) { return launch_dot_f32_tf32_32_32_16(x...); });
    runF32<tl::tf32x3>(report, c, [](auto... x) { return launch_dot_f32_tf32x3_32_32_16(x...); });
    runI8(report, c);
    runF16Out(report, c);
    runF16Acc(report, c);
    runExpr(report, c);
    runTrans(report, c);
    runTransA(report, c);
    runTransBoth<tl::tf32, float, float, 16>(report, c, "dot tf32 T", [](auto... x) {
      return launch_dot_trans_both_tf32_f32_f32_32_32_16(x...);
    });
    runTransBoth<tl::tf32x3, float, float, 16>(report, c, "dot tf32x3 T", [](auto... x) {
      return launch_dot_trans_both_tf32x3_f32_f32_32_32_16(x...);
    });
    runTransBoth<tl::ieee, int8_t, int32_t, 32>(report, c, "dot i8 T", [](auto... x) {
      return launch_dot_trans_both_ieee_i8_i32_32_32_32(x...);
    });
  }
  return report.exitCode();
}
