// tests/kernels/*.cpp run through tl::launch against plain loops, on guarded buffers of exact size
// with poisoned outputs.
#include "tests/kernels/col_reduce.cpp"
#include "tests/kernels/convert.cpp"
#include "tests/kernels/int_ops.cpp"
#include "tests/kernels/nested_reduce.cpp"
#include "tests/kernels/row_argmax.cpp"
#include "tests/kernels/row_sum.cpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "tests/reference/TestUtil.hpp"

namespace tilec::test {
namespace {

struct MatrixCase {
  int M, N;
};
std::string caseName(const ::testing::TestParamInfo<MatrixCase> &info) {
  return std::to_string(info.param.M) + "x" + std::to_string(info.param.N);
}

class RowSum : public ::testing::TestWithParam<MatrixCase> {};
TEST_P(RowSum, MatchesLoop) {
  const auto [M, N] = GetParam();
  auto rng = makeRng(11, static_cast<std::uint64_t>(M * 100000 + N));
  GuardedBuffer<float> x(static_cast<std::size_t>(M * N)), out(M);
  fillRandom(x, rng, -1, 2);
  out.fill(nanF());
  tl::launch(tl::grid3{tl::cdiv(M, 16)}, row_sum_kernel<16, 64>, x.data(), out.data(), M, N, N);
  RelError err;
  for (int i = 0; i < M; ++i) {
    double s = 0;
    for (int j = 0; j < N; ++j)
      s += x[i * N + j];
    err.add(out[i], s);
  }
  EXPECT_LT(err.value(), kTolFp32);
}
INSTANTIATE_TEST_SUITE_P(Shapes, RowSum,
                         ::testing::Values(MatrixCase{1, 1}, MatrixCase{17, 63},
                                           MatrixCase{16, 64}, MatrixCase{33, 200}),
                         caseName);

class ColReduce : public ::testing::TestWithParam<MatrixCase> {};
TEST_P(ColReduce, MatchesLoop) {
  const auto [M, N] = GetParam();
  auto rng = makeRng(12, static_cast<std::uint64_t>(M * 100000 + N));
  GuardedBuffer<float> x(static_cast<std::size_t>(M * N)), mx(N), sm(N);
  fillRandom(x, rng, -4, 3);
  mx.fill(nanF());
  sm.fill(nanF());
  tl::launch(tl::grid3{tl::cdiv(N, 32)}, col_reduce_kernel<32, 32>, x.data(), mx.data(), sm.data(),
             M, N, N);
  RelError errSum;
  for (int j = 0; j < N; ++j) {
    double s = 0;
    float m = -INFINITY;
    for (int i = 0; i < M; ++i) {
      s += x[i * N + j];
      m = std::max(m, x[i * N + j]);
    }
    EXPECT_EQ(mx[j], m) << "column " << j;
    errSum.add(sm[j], s);
  }
  EXPECT_LT(errSum.value(), kTolFp32);
}
INSTANTIATE_TEST_SUITE_P(Shapes, ColReduce,
                         ::testing::Values(MatrixCase{1, 1}, MatrixCase{31, 33},
                                           MatrixCase{64, 32}, MatrixCase{100, 70}),
                         caseName);

class RowArgmax : public ::testing::TestWithParam<MatrixCase> {};
TEST_P(RowArgmax, MatchesLoop) {
  const auto [M, N] = GetParam();
  auto rng = makeRng(13, static_cast<std::uint64_t>(M * 100000 + N));
  GuardedBuffer<float> x(static_cast<std::size_t>(M * N)), mx(M);
  const int programs = tl::cdiv(M, 8);
  GuardedBuffer<int> amax(M), amin(M), tmax(programs), tmin(programs);
  // Few distinct values, so every row has ties: the smallest index must win.
  std::uniform_int_distribution<int> level(-4, 4);
  for (std::size_t k = 0; k < x.size(); ++k) {
    int l = level(rng);
    x[k] = static_cast<float>(l == 0 ? 5 : l) * 0.25f;
  }
  mx.fill(nanF());
  amax.fill(-1);
  amin.fill(-1);
  tmax.fill(-1);
  tmin.fill(-1);
  tl::launch(tl::grid3{programs}, row_argmax_kernel<8, 128>, x.data(), amax.data(), amin.data(),
             mx.data(), tmax.data(), tmin.data(), M, N, N);
  for (int i = 0; i < M; ++i) {
    int best = 0, worst = 0;
    for (int j = 1; j < N; ++j) {
      if (x[i * N + j] > x[i * N + best])
        best = j;
      if (x[i * N + j] < x[i * N + worst])
        worst = j;
    }
    EXPECT_EQ(amax[i], best) << "row " << i;
    EXPECT_EQ(amin[i], worst) << "row " << i;
    EXPECT_EQ(mx[i], x[i * N + best]) << "row " << i;
  }
  // Each program's whole [8, 128] tile, flattened row-major; masked-off elements are -inf for the
  // argmax and +inf for the argmin.
  for (int p = 0; p < programs; ++p) {
    auto at = [&](int k, float masked) {
      int i = p * 8 + k / 128, j = k % 128;
      return i < M && j < N ? x[i * N + j] : masked;
    };
    int best = 0, worst = 0;
    for (int k = 1; k < 8 * 128; ++k) {
      if (at(k, -INFINITY) > at(best, -INFINITY))
        best = k;
      if (at(k, INFINITY) < at(worst, INFINITY))
        worst = k;
    }
    EXPECT_EQ(tmax[p], best) << "program " << p;
    EXPECT_EQ(tmin[p], worst) << "program " << p;
  }
}
INSTANTIATE_TEST_SUITE_P(Shapes, RowArgmax,
                         ::testing::Values(MatrixCase{1, 1}, MatrixCase{9, 100},
                                           MatrixCase{16, 128}, MatrixCase{21, 7}),
                         caseName);

class Convert : public ::testing::TestWithParam<int> {};
TEST_P(Convert, MatchesLoop) {
  const int n = GetParam();
  auto rng = makeRng(14, static_cast<std::uint64_t>(n));
  GuardedBuffer<float> x(n), f32(n);
  GuardedBuffer<std::int64_t> big(n), i64(n);
  GuardedBuffer<std::int8_t> i8(n);
  GuardedBuffer<std::int32_t> i32(n);
  GuardedBuffer<tl::half> f16(n);
  GuardedBuffer<tl::bfloat16> bf16(n);
  GuardedBuffer<bool> b(n);
  fillRandom(x, rng, -300, 300);
  std::uniform_int_distribution<std::int64_t> bigDist(-(std::int64_t{1} << 40), std::int64_t{1} << 40);
  for (int i = 0; i < n; ++i) {
    big[i] = bigDist(rng) | 1;
    if (i % 7 == 3) // multiples of 256: i32 * 37 is a multiple of 256, so i8 == 0 and bool is false
      x[i] = static_cast<float>((i % 5) * 256);
  }
  f32.fill(nanF());
  i64.fill(std::numeric_limits<std::int64_t>::min());
  i8.fill(-128);
  i32.fill(std::numeric_limits<std::int32_t>::min());
  f16.fill(nanH());
  bf16.fill(tl::bfloat16::fromBits(0x7FC0));
  b.fill(true);
  tl::launch(tl::grid3{tl::cdiv(n, 1024)}, convert_kernel<256, 4>, x.data(), big.data(), i8.data(),
             i32.data(), i64.data(), f16.data(), bf16.data(), b.data(), f32.data(), n);
  int bad = 0;
  for (int i = 0; i < n && bad < 10; ++i) {
    const float v = x[i];
    const auto ri32 = static_cast<std::int32_t>(std::trunc(v));
    const auto ri8 = static_cast<std::int8_t>(static_cast<std::uint32_t>(ri32) * 37u);
    const std::int64_t ri64 = ri8 + big[i];
    const tl::half rh(v);
    const tl::bfloat16 rb(static_cast<float>(tl::half(static_cast<float>(rh) * 3.0f)));
    const bool rnz = ri8 != 0;
    const tl::bfloat16 sumB(static_cast<float>(rb) + (rnz ? 1.0f : 0.0f));
    const float rf = static_cast<float>(tl::half(static_cast<float>(sumB) + static_cast<float>(rh)));
    const bool ok = i32[i] == ri32 && i8[i] == ri8 && i64[i] == ri64 && f16[i].bits == rh.bits &&
                    bf16[i].bits == rb.bits && b[i] == rnz && f32[i] == rf;
    if (!ok) {
      ++bad;
      ADD_FAILURE() << "element " << i << " x=" << v;
    }
  }
  EXPECT_EQ(bad, 0);
}
INSTANTIATE_TEST_SUITE_P(Sizes, Convert, ::testing::Values(1, 1023, 1024, 3000));

class IntOps : public ::testing::TestWithParam<int> {};
TEST_P(IntOps, MatchesLoop) {
  const int n = GetParam();
  auto rng = makeRng(15, static_cast<std::uint64_t>(n));
  GuardedBuffer<std::int32_t> a(n), b(n), out(static_cast<std::size_t>(7 * n));
  GuardedBuffer<std::int8_t> s(n);
  GuardedBuffer<float> f(n), g(n), outF(n);
  GuardedBuffer<bool> outB(n);
  std::uniform_int_distribution<std::int32_t> val(-100000, 100000), small(-9, 9), sh(-128, 127);
  for (int i = 0; i < n; ++i) {
    a[i] = val(rng) | 1;
    b[i] = i % 3 == 0 ? small(rng) | 1 : val(rng) | 1; // nonzero divisors, some small
    s[i] = static_cast<std::int8_t>(sh(rng));
    f[i] = nonZeroUniform(rng, -5, 5);
    g[i] = i % 5 == 0 ? nanF() : nonZeroUniform(rng, -5, 5); // NaN operands lose
  }
  out.fill(std::numeric_limits<std::int32_t>::min());
  outF.fill(nanF());
  outB.fill(true);
  tl::launch(tl::grid3{tl::cdiv(n, 512)}, int_ops_kernel<512>, a.data(), b.data(), s.data(),
             f.data(), g.data(), out.data(), outB.data(), outF.data(), n);
  int bad = 0;
  for (int i = 0; i < n && bad < 10; ++i) {
    const std::int32_t x = a[i], y = b[i];
    const int k = s[i] & 31;
    const std::int32_t ref[7] = {
        x / y,
        x % y,
        (x & y) | (x ^ 0x5A5A),
        static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << k),
        x >> k,
        ~x + (x > y ? x - y : y - x),
        std::min(x, y) * 2 + std::max(x, 7)};
    for (int r = 0; r < 7; ++r)
      if (out[r * n + i] != ref[r]) {
        ++bad;
        ADD_FAILURE() << "op " << r << " element " << i << ": " << out[r * n + i] << " vs " << ref[r];
      }
    const bool both = x > 0 && y > 0, either = x > 0 || !(y > 0);
    EXPECT_EQ(outB[i], both != either) << i;
    const float u = f[i], v = g[i];
    EXPECT_EQ(outF[i], std::fmax(u, v) - std::fmin(u, v) * 0.5f) << i;
  }
  EXPECT_EQ(bad, 0);
}
INSTANTIATE_TEST_SUITE_P(Sizes, IntOps, ::testing::Values(1, 511, 512, 1500));

class NestedReduce : public ::testing::TestWithParam<MatrixCase> {};
TEST_P(NestedReduce, MatchesLoop) {
  const auto [M, N] = GetParam();
  const int blocks = tl::cdiv(M, 64);
  auto rng = makeRng(23, static_cast<std::uint64_t>(M * 100000 + N));
  GuardedBuffer<float> x(static_cast<std::size_t>(M * N)), rowMax(blocks), total(blocks);
  fillRandom(x, rng, -1, 1);
  rowMax.fill(nanF());
  total.fill(nanF());
  tl::launch(tl::grid3{blocks}, nested_reduce<64, 64>, x.data(), rowMax.data(), total.data(), M, N);
  RelError errMax, errTotal;
  for (int b = 0; b < blocks; ++b) {
    double best = -INFINITY, sum = 0;
    for (int i = b * 64; i < std::min(M, b * 64 + 64); ++i) {
      double row = 0;
      for (int j = 0; j < N; ++j)
        row += x[i * N + j];
      best = std::max(best, row);
      sum += row;
    }
    errMax.add(rowMax[b], best);
    errTotal.add(total[b], sum);
  }
  EXPECT_LT(errMax.value(), kTolFp32);
  // The total is a sequential float sum of up to 4096 terms of both signs (cancellation): its own
  // rounding reaches ~1e-6 relative to float64, hence a looser bound than a single row's.
  EXPECT_LT(errTotal.value(), 1e-5);
}
INSTANTIATE_TEST_SUITE_P(Ragged, NestedReduce,
                         ::testing::Values(MatrixCase{1, 1}, MatrixCase{63, 64},
                                           MatrixCase{100, 37}, MatrixCase{130, 64}),
                         caseName);

TEST(IntBits, Bf16RoundsOnceAndBoolNot) {
  const int n = 1500;
  GuardedBuffer<int32_t> a(n);
  GuardedBuffer<tl::bfloat16> bf(n);
  GuardedBuffer<bool> notPositive(n);
  auto rng = makeRng(29, n);
  for (int i = 0; i < n; ++i)
    a[i] = i % 7 == 0 ? 0 : static_cast<int32_t>(rng()) >> (rng() % 31);
  tl::launch(tl::grid3{tl::cdiv(n, 512)}, int_bits<512>, a.data(), bf.data(), notPositive.data(), n);
  for (int i = 0; i < n; ++i) {
    // bf16 keeps 8 significant bits; scaling by a power of two is exact, nearbyint ties to even.
    double want = 0;
    if (a[i] != 0) {
      double q = std::ldexp(1.0, std::ilogb(std::fabs(double(a[i]))) - 7);
      want = std::nearbyint(double(a[i]) / q) * q;
    }
    ASSERT_EQ(static_cast<float>(bf[i]), want) << "a = " << a[i];
    ASSERT_EQ(notPositive[i], a[i] <= 0) << "a = " << a[i];
  }
}

} // namespace
} // namespace tilec::test
