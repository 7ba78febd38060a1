// tl::dot and tl::trans on the CPU (runtime_headers/tilec/tl.hpp, docs/language.md "Matrix
// products"): result types, the documented accumulation (from acc, one product at a time in
// increasing k, in float or wrapping int32), tf32 rounding (nearest, ties away from zero) and the
// three-product tf32x3, against float64 on random operands.
#include <tilec/tl.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

namespace tilec::test {
namespace {

using tl::bfloat16;
using tl::half;

template <class T, int R, int C>
tl::tile<T, R, C> randomTile(std::mt19937 &rng, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  tl::tile<T, R, C> t;
  for (auto &v : t.data)
    v = T(d(rng));
  return t;
}

TEST(Dot, ResultTypes) {
  static_assert(
      std::is_same_v<decltype(tl::dot(tl::tile<half, 16, 32>{}, tl::tile<half, 32, 64>{})),
                     tl::tile<float, 16, 64>>);
  static_assert(
      std::is_same_v<decltype(tl::dot(tl::tile<bfloat16, 32, 16>{}, tl::tile<bfloat16, 16, 16>{})),
                     tl::tile<float, 32, 16>>);
  static_assert(
      std::is_same_v<decltype(tl::dot(tl::tile<float, 16, 16>{}, tl::tile<float, 16, 16>{})),
                     tl::tile<float, 16, 16>>);
  static_assert(std::is_same_v<decltype(tl::dot(tl::tile<std::int8_t, 16, 32>{},
                                                tl::tile<std::int8_t, 32, 16>{})),
                               tl::tile<std::int32_t, 16, 16>>);
  static_assert(std::is_same_v<decltype(tl::dot<tl::ieee, half>(tl::tile<half, 16, 16>{},
                                                                tl::tile<half, 16, 16>{})),
                               tl::tile<half, 16, 16>>);
  static_assert(std::is_same_v<decltype(tl::dot(tl::tile<half, 16, 16>{}, tl::tile<half, 16, 16>{},
                                                tl::tile<half, 16, 16>{})),
                               tl::tile<half, 16, 16>>);
  static_assert(
      std::is_same_v<decltype(tl::trans(tl::tile<half, 16, 64>{})), tl::tile<half, 64, 16>>);
}

TEST(Dot, Fp16AndBf16AgainstFloat64) {
  std::mt19937 rng(20261126);
  auto check = [](const auto &a, const auto &b) {
    auto c = tl::dot(a, b);
    double worst = 0, norm = 0;
    for (int m = 0; m < 32; ++m)
      for (int n = 0; n < 64; ++n) {
        double ref = 0;
        float inOrder = 0; // the documented order: one product at a time in increasing k
        for (int k = 0; k < 64; ++k) {
          ref += double(float(a.at(m, k))) * double(float(b.at(k, n)));
          inOrder += float(a.at(m, k)) * float(b.at(k, n));
        }
        EXPECT_EQ(c.at(m, n), inOrder) << m << "," << n;
        worst = std::max(worst, std::fabs(double(c.at(m, n)) - ref));
        norm = std::max(norm, std::fabs(ref));
      }
    EXPECT_LT(worst / norm, 1e-5);
  };
  check(randomTile<half, 32, 64>(rng, -2, 2), randomTile<half, 64, 64>(rng, -2, 2));
  check(randomTile<bfloat16, 32, 64>(rng, -2, 2), randomTile<bfloat16, 64, 64>(rng, -2, 2));
}

TEST(Dot, AccumulatorStartsTheSum) {
  // Small integers: every sum is exact, so the order cannot matter and acc + a x b is exact.
  tl::tile<half, 16, 16> a, b;
  tl::tile<float, 16, 16> acc;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      a.at(i, j) = half((i + 2 * j) % 7 - 3);
      b.at(i, j) = half((3 * i + j) % 5 - 2);
      acc.at(i, j) = float(i * 16 + j);
    }
  auto c = tl::dot(a, b, acc);
  auto p = tl::dot(a, b);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      EXPECT_EQ(c.at(i, j), acc.at(i, j) + p.at(i, j));
}

TEST(Dot, Int8AccumulatesInWrappingInt32) {
  tl::tile<std::int8_t, 16, 16> a, b;
  for (auto &v : a.data)
    v = 127;
  for (auto &v : b.data)
    v = -128;
  auto c = tl::dot(a, b);
  EXPECT_EQ(c.at(3, 5), 16 * 127 * -128);
  tl::tile<std::int32_t, 16, 16> acc;
  for (auto &v : acc.data)
    v = std::numeric_limits<std::int32_t>::max();
  for (auto &v : b.data)
    v = 1;
  auto w = tl::dot(a, b, acc); // INT32_MAX + 16 * 127 wraps
  EXPECT_EQ(w.at(0, 0), std::numeric_limits<std::int32_t>::min() + 16 * 127 - 1);
}

TEST(Dot, Fp32Precisions) {
  // a = 1 + 2^-12 is not a tf32 value (10 mantissa bits): tf32 rounds it to 1, ieee keeps it, and
  // tf32x3 recovers it (the rest, 2^-12, is a tf32 value).
  tl::tile<float, 16, 16> a, b;
  for (auto &v : a.data)
    v = 1.0f + std::ldexp(1.0f, -12);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      b.at(i, j) = i == j ? 1.0f : 0.0f;
  EXPECT_EQ(tl::dot(a, b).at(2, 7), 1.0f + std::ldexp(1.0f, -12));
  EXPECT_EQ(tl::dot<tl::ieee>(a, b).at(2, 7), 1.0f + std::ldexp(1.0f, -12));
  EXPECT_EQ(tl::dot<tl::tf32>(a, b).at(2, 7), 1.0f);
  EXPECT_EQ(tl::dot<tl::tf32x3>(a, b).at(2, 7), 1.0f + std::ldexp(1.0f, -12));
  // Exactly half an ulp of tf32 rounds away from zero, on both sides of zero.
  for (auto &v : a.data)
    v = 1.0f + std::ldexp(1.0f, -11);
  EXPECT_EQ(tl::dot<tl::tf32>(a, b).at(0, 0), 1.0f + std::ldexp(1.0f, -10));
  for (auto &v : a.data)
    v = -(1.0f + std::ldexp(1.0f, -11));
  EXPECT_EQ(tl::dot<tl::tf32>(a, b).at(0, 0), -(1.0f + std::ldexp(1.0f, -10)));
  // Infinities and NaNs pass through the rounding.
  a.at(0, 0) = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(std::isinf(tl::dot<tl::tf32>(a, b).at(0, 0)));
  a.at(0, 0) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(tl::dot<tl::tf32>(a, b).at(0, 0)));
}

TEST(Dot, Fp32Tf32x3NearIeee) {
  std::mt19937 rng(7);
  auto a = randomTile<float, 16, 64>(rng, -1, 1);
  auto b = randomTile<float, 64, 32>(rng, -1, 1);
  auto ieee = tl::dot(a, b), t1 = tl::dot<tl::tf32>(a, b), t3 = tl::dot<tl::tf32x3>(a, b);
  double e1 = 0, e3 = 0, norm = 0;
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 32; ++n) {
      double ref = 0;
      for (int k = 0; k < 64; ++k)
        ref += double(a.at(m, k)) * double(b.at(k, n));
      norm = std::max(norm, std::fabs(ref));
      e1 = std::max(e1, std::fabs(t1.at(m, n) - ref));
      e3 = std::max(e3, std::fabs(t3.at(m, n) - ref));
      EXPECT_NEAR(ieee.at(m, n), ref, 1e-5 * 64);
    }
  EXPECT_GT(e1 / norm, 1e-5); // tf32 loses about 3 decimal digits
  EXPECT_LT(e1 / norm, 3e-3);
  EXPECT_LT(e3 / norm, 1e-5); // tf32x3 is near fp32
}

TEST(Dot, HalfResultRoundsOnce) {
  std::mt19937 rng(11);
  auto a = randomTile<half, 16, 32>(rng, -1, 1);
  auto b = randomTile<half, 32, 16>(rng, -1, 1);
  auto f = tl::dot(a, b);
  auto h = tl::dot<tl::ieee, half>(a, b);
  for (int i = 0; i < 16 * 16; ++i)
    EXPECT_EQ(h.data[i].bits, half(f.data[i]).bits);
}

TEST(Trans, SwapsIndices) {
  tl::tile<std::int32_t, 16, 32> x;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 32; ++j)
      x.at(i, j) = i * 100 + j;
  auto t = tl::trans(x);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 32; ++j)
      EXPECT_EQ(t.at(j, i), i * 100 + j);
  // dot(q, trans(k)): rows of q against rows of k.
  tl::tile<half, 16, 16> q, k;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      q.at(i, j) = half(float((i + j) % 3)), k.at(i, j) = half(float((2 * i + j) % 4));
  auto s = tl::dot(q, tl::trans(k));
  float want = 0;
  for (int d = 0; d < 16; ++d)
    want += float(q.at(5, d)) * float(k.at(9, d));
  EXPECT_EQ(s.at(5, 9), want);
}

} // namespace
} // namespace tilec::test
