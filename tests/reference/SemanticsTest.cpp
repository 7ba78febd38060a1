// Unit tests of the language semantics of tilec/tl.hpp (docs/language.md): result types of the
// promotion rules, half/bfloat16 rounding, masked memory access, broadcasting, reductions,
// static_range and the launch grid.
#include <tilec/tl.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tests/reference/TestUtil.hpp"

namespace tilec::test {
namespace {

using tl::bfloat16;
using tl::half;
using std::int32_t;
using std::int64_t;
using std::int8_t;

template <class T> using T4 = tl::tile<T, 4>;
template <class A, class B> using Sum = decltype(std::declval<A>() + std::declval<B>());

// ---- Promotion (result types) --------------------------------------------------------------------

// Tile-tile: higher kind wins, then wider width; fp16 beats bf16.
static_assert(std::is_same_v<Sum<T4<half>, T4<float>>, T4<float>>);
static_assert(std::is_same_v<Sum<T4<half>, T4<bfloat16>>, T4<half>>);
static_assert(std::is_same_v<Sum<T4<bfloat16>, T4<half>>, T4<half>>);
static_assert(std::is_same_v<Sum<T4<int8_t>, T4<int32_t>>, T4<int32_t>>);
static_assert(std::is_same_v<Sum<T4<int64_t>, T4<float>>, T4<float>>);
static_assert(std::is_same_v<Sum<T4<int64_t>, T4<half>>, T4<half>>);
static_assert(std::is_same_v<Sum<T4<bool>, T4<int8_t>>, T4<int8_t>>);
static_assert(std::is_same_v<Sum<T4<int32_t>, T4<bfloat16>>, T4<bfloat16>>);
// Scalars join only when of a higher kind, or an int64 next to a narrower integer tile.
static_assert(std::is_same_v<Sum<T4<half>, float>, T4<half>>);
static_assert(std::is_same_v<Sum<T4<half>, double>, T4<half>>);
static_assert(std::is_same_v<Sum<double, T4<bfloat16>>, T4<bfloat16>>);
static_assert(std::is_same_v<Sum<T4<int32_t>, double>, T4<float>>);
static_assert(std::is_same_v<Sum<T4<int32_t>, int64_t>, T4<int64_t>>);
static_assert(std::is_same_v<Sum<int64_t, T4<int8_t>>, T4<int64_t>>);
static_assert(std::is_same_v<Sum<T4<int8_t>, int>, T4<int8_t>>);
static_assert(std::is_same_v<Sum<T4<int64_t>, int>, T4<int64_t>>);
static_assert(std::is_same_v<Sum<T4<bool>, int>, T4<int32_t>>);
static_assert(std::is_same_v<Sum<T4<int8_t>, float>, T4<float>>);
static_assert(std::is_same_v<Sum<T4<float>, half>, T4<float>>);
static_assert(std::is_same_v<Sum<T4<bfloat16>, half>, T4<bfloat16>>);
static_assert(std::is_same_v<decltype(std::declval<T4<half>>() * 2.0f), T4<half>>);
// Unsigned and 16-bit integers (Triton's integer promotion, C's): wider wins, at equal width
// unsigned wins; fp64 beats every other type.
static_assert(std::is_same_v<Sum<T4<std::int32_t>, T4<std::uint32_t>>, T4<std::uint32_t>>);
static_assert(std::is_same_v<Sum<T4<std::uint32_t>, T4<std::int64_t>>, T4<std::int64_t>>);
static_assert(std::is_same_v<Sum<T4<std::uint8_t>, T4<std::int16_t>>, T4<std::int16_t>>);
static_assert(std::is_same_v<Sum<T4<std::int8_t>, T4<std::uint8_t>>, T4<std::uint8_t>>);
static_assert(std::is_same_v<Sum<T4<std::uint64_t>, T4<std::int8_t>>, T4<std::uint64_t>>);
static_assert(std::is_same_v<Sum<T4<std::uint16_t>, T4<half>>, T4<half>>);
static_assert(std::is_same_v<Sum<T4<float>, T4<double>>, T4<double>>);
static_assert(std::is_same_v<Sum<T4<std::int64_t>, T4<double>>, T4<double>>);
// Scalars: an unsigned scalar of the tile's kind does not join; a double scalar is fp32.
static_assert(std::is_same_v<Sum<T4<std::uint8_t>, int>, T4<std::uint8_t>>);
static_assert(std::is_same_v<Sum<T4<std::int32_t>, unsigned>, T4<std::int32_t>>);
static_assert(std::is_same_v<Sum<T4<std::uint32_t>, std::uint64_t>, T4<std::uint64_t>>);
static_assert(std::is_same_v<Sum<T4<double>, double>, T4<double>>);
static_assert(std::is_same_v<Sum<T4<std::uint16_t>, double>, T4<float>>);
// Comparisons give bool tiles; shifts keep the left operand's type.
static_assert(std::is_same_v<decltype(std::declval<T4<half>>() < 1.0), T4<bool>>);
static_assert(std::is_same_v<decltype(std::declval<T4<int8_t>>() == std::declval<T4<float>>()),
                             T4<bool>>);
static_assert(std::is_same_v<decltype(std::declval<T4<int8_t>>() << std::declval<T4<int32_t>>()),
                             T4<int8_t>>);
static_assert(std::is_same_v<decltype(std::declval<T4<int32_t>>() >> int64_t{1}), T4<int32_t>>);
static_assert(std::is_same_v<decltype(1 << std::declval<T4<int8_t>>()), T4<int32_t>>);
static_assert(std::is_same_v<decltype(std::declval<T4<bool>>() & std::declval<T4<bool>>()),
                             T4<bool>>);
static_assert(std::is_same_v<decltype(std::declval<T4<bool>>() && std::declval<T4<int32_t>>()),
                             T4<bool>>);
static_assert(std::is_same_v<decltype(!std::declval<T4<float>>()), T4<bool>>);
// Pointer arithmetic.
static_assert(std::is_same_v<decltype(std::declval<const float *>() + std::declval<T4<int32_t>>()),
                             T4<const float *>>);
static_assert(
    std::is_same_v<decltype(std::declval<T4<int64_t>>() + std::declval<half *>()), T4<half *>>);
// Math functions keep the float type; double scalars count as float.
static_assert(std::is_same_v<decltype(tl::exp(std::declval<T4<half>>())), T4<half>>);
static_assert(std::is_same_v<decltype(tl::sqrt(2.0)), float>);
static_assert(std::is_same_v<decltype(tl::sqrt(half(2.0f))), half>);
static_assert(std::is_same_v<decltype(tl::abs(std::declval<T4<int8_t>>())), T4<int8_t>>);
static_assert(std::is_same_v<decltype(tl::where(std::declval<T4<bool>>(), 1, 0.5f)), T4<float>>);
static_assert(std::is_same_v<decltype(tl::where(std::declval<T4<bool>>(),
                                                std::declval<T4<half>>(), 0.0f)),
                             T4<half>>);
static_assert(std::is_same_v<decltype(tl::maximum(3, 2.5f)), float>);
static_assert(std::is_same_v<decltype(tl::minimum(std::declval<T4<int8_t>>(), int64_t{0})),
                             T4<int64_t>>);
static_assert(std::is_same_v<decltype(tl::fma(std::declval<T4<half>>(), 2.0f, 1.0f)), T4<half>>);
// Reductions: bool/int8 sums are int32, argmax/argmin int32, rank-1 -> scalar, axis removed.
static_assert(std::is_same_v<decltype(tl::sum(std::declval<T4<int8_t>>())), int32_t>);
static_assert(std::is_same_v<decltype(tl::sum(std::declval<T4<bool>>())), int32_t>);
static_assert(std::is_same_v<decltype(tl::sum(std::declval<T4<half>>())), half>);
static_assert(std::is_same_v<decltype(tl::max(std::declval<T4<int8_t>>())), int8_t>);
static_assert(std::is_same_v<decltype(tl::argmax(std::declval<T4<half>>())), int32_t>);
static_assert(std::is_same_v<decltype(tl::sum<0>(std::declval<T4<float>>())), float>);
static_assert(std::is_same_v<decltype(tl::sum<0>(std::declval<tl::tile<float, 2, 8>>())),
                             tl::tile<float, 8>>);
static_assert(std::is_same_v<decltype(tl::argmin<1>(std::declval<tl::tile<float, 2, 8>>())),
                             tl::tile<int32_t, 2>>);
static_assert(std::is_same_v<decltype(tl::sum(std::declval<tl::tile<float, 2, 8>>())), float>);
// Shapes.
static_assert(std::is_same_v<decltype(tl::expand_dims<0>(tl::arange<0, 8>())), tl::tile<int32_t, 1, 8>>);
static_assert(std::is_same_v<decltype(tl::expand_dims<1>(tl::arange<0, 8>())), tl::tile<int32_t, 8, 1>>);
static_assert(std::is_same_v<decltype(tl::expand_dims<1>(tl::arange<0, 8>()) + tl::arange<0, 4>()),
                             tl::tile<int32_t, 8, 4>>);
static_assert(std::is_same_v<decltype(tl::broadcast_to<4, 8>(1.5)), tl::tile<float, 4, 8>>);
static_assert(tl::cdiv(1025, 1024) == 2 && tl::cdiv(1024, 1024) == 1 && tl::cdiv(1, 1024) == 1);

// ---- half / bfloat16 -------------------------------------------------------------------------

constexpr std::uint16_t h(double v) { return half(v).bits; }
constexpr std::uint16_t bf(float v) { return bfloat16(v).bits; }
static_assert(h(1.0) == 0x3C00 && h(-2.0) == 0xC000 && h(0.0) == 0x0000 && h(-0.0) == 0x8000);
static_assert(h(65504.0) == 0x7BFF && h(65519.0) == 0x7BFF && h(65520.0) == 0x7C00);
static_assert(h(1e10) == 0x7C00 && h(-1e10) == 0xFC00);
static_assert(h(0x1p-24) == 0x0001 && h(0x1p-25) == 0x0000 && h(0x1.0000002p-25) == 0x0001);
static_assert(h(0x3p-25) == 0x0002 && h(0x1p-14) == 0x0400 && h(0x1.ff8p-15) == 0x03FF &&
              h(0x1.ffcp-15) == 0x0400);
static_assert(h(1.0 + 0x1p-11) == 0x3C00 && h(1.0 + 0x3p-11) == 0x3C02); // ties to even
static_assert(h(1.0 + 0x1.0001p-11) == 0x3C01);
static_assert(bf(1.0f) == 0x3F80 && bf(std::bit_cast<float>(0x3F808000u)) == 0x3F80 &&
              bf(std::bit_cast<float>(0x3F818000u)) == 0x3F82 &&
              bf(std::bit_cast<float>(0x3F808001u)) == 0x3F81);
static_assert(bf(std::numeric_limits<float>::max()) == 0x7F80 && bf(-tl::inf) == 0xFF80);
static_assert(bf(std::bit_cast<float>(0x00008000u)) == 0x0000 &&
              bf(std::bit_cast<float>(0x00018000u)) == 0x0002 &&
              bf(std::bit_cast<float>(0x00007FFFu)) == 0x0000);
static_assert(float(half::fromBits(0x0001)) == 0x1p-24f && float(half::fromBits(0x7BFF)) == 65504.0f);
static_assert(float(half::fromBits(0x3555)) == 0.333251953125f);
static_assert(float(half::fromBits(0x03FF)) == 0x1.ff8p-15f);
static_assert(float(bfloat16::fromBits(0x0001)) == 0x1p-133f);
static_assert(float(half::fromBits(0xFC00)) == -tl::inf);

// A NaN converts to the canonical NaN 0x7FFF, whatever its sign, as NVIDIA's cvt does: the H100
// gave tl::signbit(tl::cast<tl::half>(-NaN)) false where this reference once kept the sign
// (docs/gpu-checks.md, run 12).
TEST(Float16, NaN) {
  EXPECT_EQ(half(std::numeric_limits<float>::quiet_NaN()).bits, 0x7FFF);
  EXPECT_EQ(bfloat16(std::numeric_limits<float>::quiet_NaN()).bits, 0x7FFF);
  EXPECT_EQ(half(-std::numeric_limits<float>::quiet_NaN()).bits, 0x7FFF);
  EXPECT_EQ(bfloat16(-std::numeric_limits<float>::quiet_NaN()).bits, 0x7FFF);
  EXPECT_TRUE(std::isnan(float(half::fromBits(0x7C01))));
  EXPECT_TRUE(std::isnan(float(bfloat16::fromBits(0xFF81))));
}

// Every half round-trips through float, and float -> half is the nearest (ties to even).
TEST(Float16, ExhaustiveHalfRoundTrip) {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const half x = half::fromBits(static_cast<std::uint16_t>(b));
    const float f = x;
    if (std::isnan(f))
      continue;
    ASSERT_EQ(half(f).bits, b) << std::hex << b;
    if ((b & 0x7FFF) < 0x7BFF) { // the midpoint to the next half up rounds to the even one
      const float next = half::fromBits(static_cast<std::uint16_t>(b + 1));
      const double mid = (double(f) + double(next)) / 2;
      const std::uint32_t even = (b & 1) ? b + 1 : b;
      ASSERT_EQ(half(mid).bits, even) << std::hex << b;
      ASSERT_EQ(half(static_cast<float>(mid)).bits, even) << std::hex << b;
    }
  }
}

TEST(Float16, ExhaustiveBfloat16RoundTrip) {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const float f = bfloat16::fromBits(static_cast<std::uint16_t>(b));
    if (std::isnan(f))
      continue;
    ASSERT_EQ(bfloat16(f).bits, b) << std::hex << b;
    ASSERT_EQ(std::bit_cast<std::uint32_t>(f), b << 16);
  }
}

// Tile arithmetic on half rounds after every operation.
TEST(Float16, TileArithmeticRoundsEachOp) {
  auto a = tl::full<half, 4>(1.0f);
  auto b = tl::full<half, 4>(0x1p-11f); // half an ulp of 1.0
  auto s = a + b + b;                   // (1 + u/2) -> 1 (tie to even), again 1
  EXPECT_EQ(s.data[0].bits, 0x3C00);
  auto f = tl::cast<float>(a) + b + b; // float keeps both halves
  EXPECT_EQ(f.data[0], 1.0f + 0x1p-10f);
}

// ---- Casts ---------------------------------------------------------------------------------------

TEST(Cast, FloatToIntTruncatesTowardZero) {
  tl::tile<float, 8> x;
  const float v[8] = {-1.7f, -0.5f, 0.5f, 1.7f, 2.5f, -2.5f, 1e20f, std::nanf("")};
  for (int k = 0; k < 8; ++k)
    x.data[k] = v[k];
  auto i = tl::cast<int32_t>(x);
  const int32_t want[8] = {-1, 0, 0, 1, 2, -2, std::numeric_limits<int32_t>::max(), 0};
  for (int k = 0; k < 8; ++k)
    EXPECT_EQ(i.data[k], want[k]) << k;
  EXPECT_EQ(tl::cast<int8_t>(-3.9f), -3);
  EXPECT_EQ(tl::cast<int64_t>(half(-7.75f)), -7);
}

TEST(Cast, ToBoolIsNonZero) {
  EXPECT_TRUE(tl::cast<bool>(0.25f));
  EXPECT_FALSE(tl::cast<bool>(-0.0f));
  EXPECT_TRUE(tl::cast<bool>(std::nanf("")));
  EXPECT_TRUE(tl::cast<bool>(int8_t{-128}));
  EXPECT_FALSE(tl::cast<bool>(half(0.0f)));
  auto b = tl::cast<bool>(tl::arange<0, 4>() - 1);
  EXPECT_EQ(b.data, (std::array<bool, 4>{true, false, true, true}));
}

TEST(Cast, IntegersWrapAndFloat16RoundsToNearestEven) {
  EXPECT_EQ(tl::cast<int8_t>(int32_t{300}), 44);
  EXPECT_EQ(tl::cast<int8_t>(int32_t{-129}), 127);
  EXPECT_EQ(tl::cast<int32_t>(int64_t{1} << 33 | 5), 5);
  EXPECT_EQ(tl::cast<half>(2049).bits, half(2048.0f).bits); // 2049 is a tie between 2048 and 2050
  EXPECT_EQ(tl::cast<half>(2051).bits, half(2052.0f).bits);
  EXPECT_EQ(tl::cast<bfloat16>(half(1.0f + 0x1p-8f + 0x1p-10f)).bits, 0x3F81);
  EXPECT_EQ(tl::cast<float>(true), 1.0f);
  EXPECT_EQ(tl::cast<half>(true).bits, 0x3C00);
}

// ---- Arithmetic ---------------------------------------------------------------------------------

TEST(Arithmetic, IntegerDivisionTruncates) {
  tl::tile<int32_t, 4> a, b;
  a.data = {-7, 7, -7, 7};
  b.data = {2, -2, -2, 2};
  auto q = a / b, r = a % b;
  EXPECT_EQ(q.data, (std::array<int32_t, 4>{-3, -3, 3, 3}));
  EXPECT_EQ(r.data, (std::array<int32_t, 4>{-1, 1, -1, 1}));
  EXPECT_EQ((tl::full<int8_t, 2>(-9) / 4).data[0], -2);
  EXPECT_EQ((tl::full<int8_t, 2>(-9) % 4).data[0], -1);
  // Defined on the CPU, so masked-off lanes never trap: x / 0 = 0, x % 0 = x, MIN / -1 = MIN.
  EXPECT_EQ((tl::full<int32_t, 2>(5) / 0).data[0], 0);
  EXPECT_EQ((tl::full<int32_t, 2>(5) % 0).data[0], 5);
  EXPECT_EQ((tl::full<int32_t, 2>(std::numeric_limits<int32_t>::min()) / -1).data[0],
            std::numeric_limits<int32_t>::min());
}

TEST(Arithmetic, FloatDivisionAndModulo) {
  auto x = tl::full<float, 2>(7.5f);
  EXPECT_EQ((x / 2).data[0], 3.75f);
  EXPECT_EQ((x % 2.0f).data[0], 1.5f);
  EXPECT_EQ(((-x) % 2.0f).data[0], -1.5f);
  EXPECT_TRUE(std::isinf((x / 0.0f).data[0]));
}

TEST(Arithmetic, IntegerOverflowWraps) {
  auto x = tl::full<int8_t, 2>(120) + 10;
  EXPECT_EQ(x.data[0], -126);
  auto y = tl::full<int32_t, 2>(std::numeric_limits<int32_t>::max()) * 2;
  EXPECT_EQ(y.data[0], -2);
  EXPECT_EQ((-tl::full<int32_t, 2>(std::numeric_limits<int32_t>::min())).data[0],
            std::numeric_limits<int32_t>::min());
}

TEST(Arithmetic, UnsignedWrapsAndDividesUnsigned) {
  auto a = tl::full<std::uint16_t, 2>(65535);
  EXPECT_EQ((a * a).data[0], 1); // 65535^2 mod 2^16 (in int it would overflow)
  EXPECT_EQ((a + std::uint16_t{1}).data[0], 0);
  auto b = tl::full<std::uint32_t, 2>(0xFFFFFFF0u);
  EXPECT_EQ((b >> 4).data[0], 0x0FFFFFFFu); // logical
  EXPECT_EQ((b / 3u).data[0], 0xFFFFFFF0u / 3u);
  EXPECT_EQ((b % 7u).data[0], 0xFFFFFFF0u % 7u);
  EXPECT_EQ((-b).data[0], 16u);
  EXPECT_EQ((b < 0u).data[0], false);
  auto c = tl::full<std::int16_t, 2>(32767) + std::int16_t{1};
  EXPECT_EQ(c.data[0], -32768);
  // Mixed signedness: int32 -1 next to uint32 is 0xFFFFFFFF, so it compares greater.
  auto neg = tl::full<std::int32_t, 2>(-1);
  EXPECT_TRUE((neg > tl::full<std::uint32_t, 2>(5)).data[0]);
}

TEST(Arithmetic, SumsNarrowIntegersIn32BitsOfTheirSignedness) {
  auto u = tl::full<std::uint8_t, 64>(200);
  auto su = tl::sum(u);
  static_assert(std::is_same_v<decltype(su), std::uint32_t>);
  EXPECT_EQ(su, 12800u);
  auto s16 = tl::sum(tl::full<std::int16_t, 4>(-30000));
  static_assert(std::is_same_v<decltype(s16), std::int32_t>);
  EXPECT_EQ(s16, -120000);
  auto u64 = tl::sum(tl::full<std::uint64_t, 4>(~std::uint64_t{0}));
  EXPECT_EQ(u64, ~std::uint64_t{0} - 3); // wraps in uint64
}

TEST(Cast, FloatToUnsignedTruncatesAndSaturates) {
  auto x = tl::cast<std::uint8_t>(tl::full<float, 4>(255.9f));
  EXPECT_EQ(x.data[0], 255);
  EXPECT_EQ(tl::cast<std::uint8_t>(tl::full<float, 4>(300.0f)).data[0], 255); // saturates
  EXPECT_EQ(tl::cast<std::uint32_t>(tl::full<float, 4>(-5.0f)).data[0], 0u);
  EXPECT_EQ(tl::cast<std::uint64_t>(tl::full<double, 4>(1e19)).data[0], 10000000000000000000ull);
  EXPECT_EQ(tl::cast<std::int64_t>(tl::full<double, 4>(-1e300)).data[0],
            std::numeric_limits<std::int64_t>::min());
}

TEST(Arithmetic, Fp64KeepsDoublePrecisionButDoubleScalarsAreFp32) {
  auto x = tl::full<double, 4>(1.0) + tl::full<double, 4>(1e-12);
  EXPECT_EQ(x.data[0], 1.0 + 1e-12);
  EXPECT_EQ(tl::exp(tl::full<double, 4>(0.1)).data[0], std::exp(0.1)); // in double
  // A double scalar is an fp32 constant, also next to an fp64 tile (Triton's float constants).
  auto y = tl::full<double, 4>(0.0) + 0.1;
  EXPECT_EQ(y.data[0], static_cast<double>(0.1f));
  // tl::full converts a double directly (tl.full(shape, 0.1, tl.float64)).
  EXPECT_EQ((tl::full<double, 4>(0.1).data[0]), 0.1);
  // fp64 -> fp16 rounds once: 1 + 2^-11 + 2^-40 is above the halfway point between 1 and 1 + 2^-10
  // (through float, 1 + 2^-11 would be a tie, rounded to even: 1).
  auto h = tl::cast<half>(tl::full<double, 4>(1.0 + 0x1p-11 + 0x1p-40));
  EXPECT_EQ(static_cast<float>(h.data[0]), 1.0f + 0x1p-10f);
}

// Atomics on the CPU: one read-modify-write per element where the mask is set, the old values
// returned (0 where masked off); cas compares bits; float max/min as tl::maximum (NaN loses).
TEST(Atomics, ReadModifyWriteReturnsTheOldValues) {
  std::vector<int> m = {5, 6, 7, 8};
  auto offs = tl::arange<0, 4>();
  auto old = tl::atomic_add(m.data() + offs, 10, offs < 3);
  EXPECT_EQ(old.data[0], 5);
  EXPECT_EQ(old.data[3], 0); // masked off
  EXPECT_EQ(m[0], 15);
  EXPECT_EQ(m[3], 8);
  // Several elements at one address: applied in element order, each sees the last one's result.
  int bin = 0;
  auto seen = tl::atomic_add(tl::full<int *, 4>(&bin), 1, true, tl::relaxed);
  EXPECT_EQ(bin, 4);
  EXPECT_EQ(seen.data[3], 3);
  std::uint32_t u = 0xF0u;
  EXPECT_EQ(tl::atomic_xor(&u, 0xFFu, tl::relaxed, tl::cta), 0xF0u);
  EXPECT_EQ(u, 0x0Fu);
  float f = 1.0f;
  tl::atomic_max(&f, std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(f, 1.0f);
  tl::atomic_min(&f, -2.0f);
  EXPECT_EQ(f, -2.0f);
  double d = -0.0;
  EXPECT_EQ(std::signbit(tl::atomic_cas(&d, 0.0, 5.0)), true); // -0.0 is not 0.0 bit for bit
  EXPECT_EQ(d, -0.0);
  EXPECT_EQ(tl::atomic_cas(&d, -0.0, 5.0), -0.0);
  EXPECT_EQ(d, 5.0);
  std::int64_t big = 1;
  EXPECT_EQ(tl::atomic_xchg(&big, std::int64_t{1} << 40), 1);
  EXPECT_EQ(big, std::int64_t{1} << 40);
}

// Philox 4x32-10's known answer (the Random123 distribution's kat_vectors: counter 0, key 0), the
// generator of tl::randint; Triton's streams take the counter (offset, 0, 0, 0) and the key (low
// and high half of the seed).
TEST(Random, PhiloxKnownAnswerAndTritonsConversions) {
  const tl::detail::PhiloxBits b = tl::detail::philox(0, 0);
  EXPECT_EQ(b.c[0], 0x6627e8d5u);
  EXPECT_EQ(b.c[1], 0xe169c58du);
  EXPECT_EQ(b.c[2], 0xbc57ac4cu);
  EXPECT_EQ(b.c[3], 0x9b00dbd8u);
  auto r = tl::randint(0, tl::arange<0, 4>());
  static_assert(std::is_same_v<decltype(r), tl::tile<std::uint32_t, 4>>);
  EXPECT_EQ(r.data[0], 0x6627e8d5u);
  auto [r0, r1, r2, r3] = tl::randint4x(0, 0);
  EXPECT_EQ(r3, 0x9b00dbd8u);
  (void)r0, (void)r1, (void)r2;
  // A negative seed is sign-extended: key (0xFFFFFFFF, 0xFFFFFFFF).
  EXPECT_EQ(tl::randint(-1, 5), tl::detail::philox(~std::uint64_t{0}, 5).c[0]);
  // uint_to_uniform_float: bits as int32, negatives folded to -x - 1, times 4.6566127342e-10f, the
  // largest scale that keeps the largest value below 1.
  EXPECT_EQ(tl::detail::uniformFromBits(0x7FFFFFFFu), 2147483647.0f * 4.6566127342e-10f);
  EXPECT_EQ(tl::detail::uniformFromBits(0x80000000u), 2147483647.0f * 4.6566127342e-10f);
  EXPECT_EQ(tl::detail::uniformFromBits(0xFFFFFFFFu), 0.0f);
  EXPECT_LT(tl::detail::uniformFromBits(0x7FFFFFFFu), 1.0f);
  auto u = tl::rand(7, tl::arange<0, 1024>());
  double mean = 0;
  for (float v : u.data) {
    EXPECT_GE(v, 0.0f);
    EXPECT_LT(v, 1.0f);
    mean += v / 1024.0;
  }
  EXPECT_NEAR(mean, 0.5, 0.05);
}

TEST(Arithmetic, ScalarPromotion) {
  auto i = tl::arange<0, 4>();
  auto f = i + 0.5; // int tile + double -> float tile
  EXPECT_EQ(f.data[3], 3.5f);
  auto w = i * int64_t{1} << 0; // int64
  static_assert(std::is_same_v<decltype(w), tl::tile<int64_t, 4>>);
  auto big = tl::cast<int32_t>(i) * (int64_t{1} << 40);
  EXPECT_EQ(big.data[3], int64_t{3} << 40);
  auto n = tl::full<int8_t, 4>(100) + 100; // stays int8: wraps
  EXPECT_EQ(n.data[0], -56);
}

TEST(Compare, WideIntegersExactly) {
  // Integers compare in their own type: 2^24 + 1 and 2^24 round to the same float, and int64 values
  // a few apart near 4e18 too (found by the differential tester).
  tl::tile<int32_t, 2> a, b;
  a.data = {(1 << 24) + 1, 7};
  b.data = {1 << 24, 7};
  EXPECT_EQ((a != b).data, (std::array<bool, 2>{true, false}));
  EXPECT_EQ((a > b).data, (std::array<bool, 2>{true, false}));
  tl::tile<int64_t, 2> c, d;
  c.data = {4318874570000000000, -5};
  d.data = {4318874570000000002, -5};
  EXPECT_EQ((c != d).data, (std::array<bool, 2>{true, false}));
  EXPECT_EQ((c < d).data, (std::array<bool, 2>{true, false}));
  EXPECT_EQ((c + 2 == d).data, (std::array<bool, 2>{true, false}));
}

TEST(Bitwise, OpsAndShifts) {
  auto x = tl::full<int32_t, 4>(-16);
  EXPECT_EQ((x >> 2).data[0], -4); // arithmetic
  EXPECT_EQ((x << 28).data[0], 0);
  EXPECT_EQ((tl::full<int8_t, 2>(1) << 7).data[0], -128);
  EXPECT_EQ((x & 0xFF).data[0], 0xF0);
  EXPECT_EQ((x | 1).data[0], -15);
  EXPECT_EQ((x ^ -1).data[0], 15);
  EXPECT_EQ((~x).data[0], 15);
  auto m = tl::arange<0, 4>() < 2;
  EXPECT_EQ((~m).data, (std::array<bool, 4>{false, false, true, true}));
  EXPECT_EQ((m ^ true).data, (std::array<bool, 4>{false, false, true, true}));
  EXPECT_EQ((!tl::arange<0, 4>()).data, (std::array<bool, 4>{true, false, false, false}));
  EXPECT_EQ((m && tl::arange<0, 4>()).data, (std::array<bool, 4>{false, true, false, false}));
  EXPECT_EQ((m || tl::arange<0, 4>() == 3).data, (std::array<bool, 4>{true, true, false, true}));
}

TEST(Compound, AssignmentKeepsTypeAndShape) {
  auto acc = tl::zeros<float, 4>();
  acc += tl::arange<0, 4>();
  acc *= 2;
  acc -= 0.5;
  EXPECT_EQ(acc.data, (std::array<float, 4>{-0.5f, 1.5f, 3.5f, 5.5f}));
  auto i = tl::arange<0, 4>();
  i += 2.7f; // promoted to float, converted back (truncation)
  EXPECT_EQ(i.data, (std::array<int32_t, 4>{2, 3, 4, 5}));
  i %= 3;
  i &= 1;
  i |= 4;
  i ^= 1;
  i /= 2;
  EXPECT_EQ(i.data, (std::array<int32_t, 4>{2, 2, 2, 2}));
  float buf[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  auto p = buf + tl::arange<0, 4>();
  p += 4;
  EXPECT_EQ(tl::load(p).data, (std::array<float, 4>{4, 5, 6, 7}));
  auto bc = tl::zeros<int32_t, 2, 4>();
  bc += tl::arange<0, 4>(); // [4] broadcasts into [2, 4]
  EXPECT_EQ(bc.at(1, 3), 3);
}

// ---- Broadcasting ---------------------------------------------------------------------------------

TEST(Broadcast, ColumnTimesRow) {
  auto col = tl::expand_dims<1>(tl::arange<0, 4>()); // [4, 1]
  auto row = tl::expand_dims<0>(tl::arange<0, 8>()); // [1, 8]
  auto t = col * 10 + row;
  static_assert(std::is_same_v<decltype(t), tl::tile<int32_t, 4, 8>>);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(t.at(i, j), i * 10 + j);
  auto r1 = t - tl::arange<0, 8>(); // rank 1 aligns with the trailing dim
  EXPECT_EQ(r1.at(3, 7), 30);
  auto b = tl::broadcast_to<4, 8>(col);
  EXPECT_EQ(b.at(3, 5), 3);
  auto s = tl::broadcast_to<8>(half(2.0f));
  EXPECT_EQ(s.data[7].bits, 0x4000);
  auto w = tl::where(col < 2, row, -1); // [4,1] cond, [1,8] and scalar
  EXPECT_EQ(w.at(1, 5), 5);
  EXPECT_EQ(w.at(2, 5), -1);
}

// ---- Memory ---------------------------------------------------------------------------------------

TEST(Memory, MaskedLoadNeverTouchesMaskedOffAndYieldsOther) {
  GuardedBuffer<float> buf(5);
  for (int k = 0; k < 5; ++k)
    buf[k] = float(k + 1);
  auto offs = tl::arange<0, 8>();
  auto x = tl::load(buf.data() + offs, offs < 5, -2.5);
  EXPECT_EQ(x.data, (std::array<float, 8>{1, 2, 3, 4, 5, -2.5f, -2.5f, -2.5f}));
  auto y = tl::load(buf.data() + offs, offs < 5); // default other = 0
  EXPECT_EQ(y.data[7], 0.0f);
  GuardedBuffer<half> hb(3);
  hb.fill(half(1.0f));
  auto z = tl::load(hb.data() + offs, offs < 3, 0.1f); // other converted to half
  static_assert(std::is_same_v<decltype(z), tl::tile<half, 8>>);
  EXPECT_EQ(z.data[5].bits, half(0.1f).bits);
  // Mask and other broadcast with the pointer.
  auto rows = tl::load(buf.data() + tl::expand_dims<1>(tl::arange<0, 2>()),
                       tl::expand_dims<0>(tl::arange<0, 4>()) < 3, tl::full<float, 2, 1>(9.0f));
  EXPECT_EQ(rows.at(1, 2), 2.0f);
  EXPECT_EQ(rows.at(1, 3), 9.0f);
}

TEST(Memory, MaskedStoreWritesOnlyMaskedOn) {
  GuardedBuffer<int8_t> buf(6);
  buf.fill(7);
  auto offs = tl::arange<0, 8>();
  tl::store(buf.data() + offs, offs * 100, (offs < 6) & (offs % 2 == 0)); // int32 -> int8 wraps
  EXPECT_EQ(buf[0], 0);
  EXPECT_EQ(buf[1], 7);
  EXPECT_EQ(buf[2], static_cast<int8_t>(200));
  EXPECT_EQ(buf[4], static_cast<int8_t>(400));
  GuardedBuffer<half> hb(4);
  tl::store(hb.data() + tl::arange<0, 4>(), 1.0f / 3); // scalar value broadcasts
  EXPECT_EQ(hb[3].bits, 0x3555);
  GuardedBuffer<int32_t> ib(2);
  tl::store(ib.data() + tl::arange<0, 2>(), tl::full<float, 2>(-2.9f)); // float -> int truncates
  EXPECT_EQ(ib[1], -2);
}

TEST(Memory, TensorDescriptorBlocksZeroOutsideAndStoreOnlyInside) {
  // A 5 x 6 tensor in rows of 7 (the 7th column is padding, never read nor written).
  GuardedBuffer<float> buf(5 * 7);
  for (int k = 0; k < 5 * 7; ++k)
    buf[k] = k % 7 == 6 ? -1.0f : float(k);
  auto desc = tl::make_tensor_descriptor<4, 4>(buf.data(), {5, 6}, {7, 1});
  static_assert(std::is_same_v<decltype(desc.load({0, 0})), tl::tile<float, 4, 4>>);
  auto x = desc.load({3, -1}); // rows 3..6 (5 and 6 outside), columns -1..2 (-1 outside)
  EXPECT_EQ(x.at(0, 0), 0.0f);
  EXPECT_EQ(x.at(0, 1), 21.0f);
  EXPECT_EQ(x.at(1, 3), 30.0f);
  EXPECT_EQ(x.at(2, 1), 0.0f);
  auto edge = desc.load({0, 4}); // columns 4..7: 6 and 7 outside (the padding is not read)
  EXPECT_EQ(edge.at(0, 1), 5.0f);
  EXPECT_EQ(edge.at(0, 2), 0.0f);
  // A store writes the block's elements inside the tensor, converted; the padding stays.
  desc.store({4, 3}, tl::full<int32_t, 4, 4>(-7));
  EXPECT_EQ(buf[4 * 7 + 3], -7.0f);
  EXPECT_EQ(buf[4 * 7 + 5], -7.0f);
  EXPECT_EQ(buf[4 * 7 + 6], -1.0f);
  EXPECT_EQ(buf[3 * 7 + 3], 24.0f);
  desc.store({-2, -2}, 0.5f); // a scalar broadcasts; only element (0, 0) and (0, 1), (1, 0), (1, 1)
  EXPECT_EQ(buf[0], 0.5f);
  EXPECT_EQ(buf[8], 0.5f);
  EXPECT_EQ(buf[2], 2.0f);
  // Rank 1.
  GuardedBuffer<half> hb(10);
  for (int k = 0; k < 10; ++k)
    hb[k] = half(float(k));
  auto d1 = tl::make_tensor_descriptor<8>(hb.data(), {10}, {1});
  auto y = d1.load({5});
  static_assert(std::is_same_v<decltype(y), tl::tile<half, 8>>);
  EXPECT_EQ(float(y.data[4]), 9.0f);
  EXPECT_EQ(float(y.data[5]), 0.0f);
}

TEST(Memory, ScalarAccess) {
  float arr[2] = {1.5f, 2.5f};
  float *v = arr;
  EXPECT_EQ(tl::load(v + 1), 2.5f);
  EXPECT_EQ(tl::load(v + 1, false, 7), 7.0f);
  tl::store(v, 3);
  tl::store(v + 1, 4.0f, false);
  EXPECT_EQ(v[0], 3.0f);
  EXPECT_EQ(v[1], 2.5f);
  static_assert(std::is_same_v<decltype(tl::load(std::declval<const half *>())), half>);
}

// ---- Selection and math -------------------------------------------------------------------------

TEST(Math, MinimumMaximumNaNLoses) {
  const float nan = std::nanf("");
  tl::tile<float, 4> a, b;
  a.data = {1, nan, nan, -0.5f};
  b.data = {2, 3, nan, -1};
  auto mx = tl::maximum(a, b), mn = tl::minimum(a, b);
  EXPECT_EQ(mx.data[0], 2);
  EXPECT_EQ(mx.data[1], 3);
  EXPECT_TRUE(std::isnan(mx.data[2]));
  EXPECT_EQ(mx.data[3], -0.5f);
  EXPECT_EQ(mn.data[1], 3);
  EXPECT_EQ(mn.data[3], -1);
  EXPECT_EQ(tl::maximum(2, 7), 7);
  EXPECT_EQ(tl::minimum(nan, 1.0f), 1.0f);
  EXPECT_EQ(tl::maximum(tl::arange<0, 4>(), 2).data, (std::array<int32_t, 4>{2, 2, 2, 3}));
}

TEST(Math, ScalarsAndTiles) {
  EXPECT_EQ(tl::sqrt(4.0f), 2.0f);
  EXPECT_FLOAT_EQ(tl::rsqrt(4.0f), 0.5f);
  EXPECT_FLOAT_EQ(tl::sigmoid(0.0f), 0.5f);
  EXPECT_EQ(tl::floor(-1.5f), -2.0f);
  EXPECT_EQ(tl::ceil(-1.5f), -1.0f);
  EXPECT_EQ(tl::abs(-3), 3);
  EXPECT_EQ(tl::abs(half(-2.0f)).bits, 0x4000);
  EXPECT_EQ(tl::exp2(3.0f), 8.0f);
  EXPECT_FLOAT_EQ(tl::log2(8.0f), 3.0f);
  EXPECT_FLOAT_EQ(tl::erf(0.5f), std::erf(0.5f));
  EXPECT_FLOAT_EQ(tl::tanh(0.5f), std::tanh(0.5f));
  EXPECT_EQ(tl::fma(2.0f, 3.0f, 1.0f), 7.0f);
  auto e = tl::exp(tl::full<half, 2>(1.0f));
  EXPECT_EQ(e.data[0].bits, half(std::exp(1.0f)).bits);
  auto l = tl::log(tl::cast<float>(tl::arange<1, 3>()));
  EXPECT_FLOAT_EQ(l.data[1], std::log(2.0f));
  EXPECT_EQ(tl::cdiv(tl::arange<0, 4>(), 2).data, (std::array<int32_t, 4>{0, 1, 1, 2}));
  EXPECT_EQ(tl::multiple_of(tl::arange<0, 4>(), 4).data, (tl::arange<0, 4>().data));
  EXPECT_EQ(tl::max_contiguous(5, 4), 5);
}

// ---- Reductions -----------------------------------------------------------------------------------

TEST(Reduce, AlongEachAxisOf2D) {
  auto t = tl::expand_dims<1>(tl::arange<0, 2>()) * 10 + tl::expand_dims<0>(tl::arange<0, 4>());
  // t = [[0 1 2 3] [10 11 12 13]]
  EXPECT_EQ(tl::sum<0>(t).data, (std::array<int32_t, 4>{10, 12, 14, 16}));
  EXPECT_EQ(tl::sum<1>(t).data, (std::array<int32_t, 2>{6, 46}));
  EXPECT_EQ(tl::sum<-1>(t).data, (std::array<int32_t, 2>{6, 46}));
  EXPECT_EQ(tl::max<0>(t).data, (std::array<int32_t, 4>{10, 11, 12, 13}));
  EXPECT_EQ(tl::min<1>(t).data, (std::array<int32_t, 2>{0, 10}));
  EXPECT_EQ(tl::argmax<0>(t).data, (std::array<int32_t, 4>{1, 1, 1, 1}));
  EXPECT_EQ(tl::argmin<1>(t).data, (std::array<int32_t, 2>{0, 0}));
  EXPECT_EQ(tl::argmax(t), 7); // flattened row-major
  EXPECT_EQ(tl::sum(t), 52);
  EXPECT_EQ(tl::sum<0>(tl::arange<0, 8>()), 28);
}

TEST(Reduce, SmallIntegersAndBoolSumInInt32) {
  EXPECT_EQ(tl::sum(tl::full<int8_t, 64>(100)), 6400);
  EXPECT_EQ(tl::sum(tl::arange<0, 8>() < 3), 3);
  EXPECT_EQ(tl::max(tl::arange<0, 8>() < 3), true);
  EXPECT_EQ(tl::min(tl::arange<0, 8>() < 3), false);
}

TEST(Reduce, FloatSumIsSequential) {
  tl::tile<float, 4> x;
  x.data = {1e8f, 1.0f, -1e8f, 1.0f}; // ((1e8 + 1) - 1e8) + 1 = 1 in float
  EXPECT_EQ(tl::sum(x), 1.0f);
  tl::tile<half, 4> hx;
  hx.data = {half(2048.0f), half(1.0f), half(1.0f), half(-2048.0f)}; // rounds after every add
  EXPECT_EQ(float(tl::sum(hx)), 0.0f);
}

TEST(Reduce, MaxMinIgnoreNaNUnlessAllNaN) {
  const float nan = std::nanf("");
  tl::tile<float, 4> x;
  x.data = {nan, 2, 5, nan};
  EXPECT_EQ(tl::max(x), 5.0f);
  EXPECT_EQ(tl::min(x), 2.0f);
  EXPECT_TRUE(std::isnan(tl::max(tl::full<float, 2>(nan))));
}

TEST(Reduce, ArgmaxTiesAndNaN) {
  tl::tile<float, 8> x;
  x.data = {1, 3, 2, 3, 0, 0, 3, 0};
  EXPECT_EQ(tl::argmax(x), 1); // first of the equal maxima
  EXPECT_EQ(tl::argmin(x), 4);
  const float nan = std::nanf("");
  x.data = {1, 3, nan, 9, nan, -5, 0, 0};
  EXPECT_EQ(tl::argmax(x), 2); // a NaN beats every number: the first NaN wins
  EXPECT_EQ(tl::argmin(x), 2);
  x.data = {-tl::inf, -tl::inf, -1, -1, -tl::inf, 0, 0, 0};
  EXPECT_EQ(tl::argmax(x), 5);
  EXPECT_EQ(tl::argmin(x), 0);
  // Integers are compared exactly, not through float.
  tl::tile<int64_t, 4> big;
  big.data = {4318874570000000000, 4318874570000000002, 4318874570000000001, 0};
  EXPECT_EQ(tl::argmax(big), 1);
  EXPECT_EQ(tl::argmin(big), 3);
  tl::tile<int32_t, 4> mid;
  mid.data = {(1 << 24) + 1, (1 << 24) + 2, 1 << 24, (1 << 24) + 1};
  EXPECT_EQ(tl::argmax(mid), 1);
  EXPECT_EQ(tl::argmin(mid), 2);
  tl::tile<half, 2, 4> hx;
  for (int k = 0; k < 8; ++k)
    hx.data[k] = half(float(k % 3));
  // rows: [0 1 2 0] [1 2 0 1]
  EXPECT_EQ(tl::argmax<1>(hx).data, (std::array<int32_t, 2>{2, 1}));
  EXPECT_EQ(tl::argmin<0>(hx).data, (std::array<int32_t, 4>{0, 0, 1, 0}));
}

// ---- Control --------------------------------------------------------------------------------------

TEST(Scan, CumsumAndCumprodAlongEachAxis) {
  auto t = tl::expand_dims<1>(tl::arange<0, 2>()) * 10 + tl::expand_dims<0>(tl::arange<0, 4>());
  // t = [[0 1 2 3] [10 11 12 13]]
  EXPECT_EQ(tl::cumsum<1>(t).data, (std::array<int32_t, 8>{0, 1, 3, 6, 10, 21, 33, 46}));
  EXPECT_EQ(tl::cumsum<-1>(t).data, tl::cumsum<1>(t).data);
  EXPECT_EQ(tl::cumsum(t).data, (std::array<int32_t, 8>{0, 1, 2, 3, 10, 12, 14, 16}));
  EXPECT_EQ((tl::cumsum<1, true>(t).data), (std::array<int32_t, 8>{6, 6, 5, 3, 46, 36, 25, 13}));
  EXPECT_EQ((tl::cumprod<0, true>(t + 1).data),
            (std::array<int32_t, 8>{11, 24, 39, 56, 11, 12, 13, 14}));
  EXPECT_EQ(tl::cumprod(tl::arange<1, 5>()).data, (std::array<int32_t, 4>{1, 2, 6, 24}));
}

TEST(Scan, ResultTypesAreTritons) {
  // Narrow integers and bool sum in 32 bits of their signedness; bfloat16 scans in float.
  static_assert(std::is_same_v<decltype(tl::cumsum(tl::full<int8_t, 4>(1)))::value_type, int32_t>);
  static_assert(
      std::is_same_v<decltype(tl::cumsum(tl::full<uint16_t, 4>(1)))::value_type, uint32_t>);
  static_assert(std::is_same_v<decltype(tl::cumsum(tl::arange<0, 4>() < 2))::value_type, int32_t>);
  static_assert(std::is_same_v<decltype(tl::cumsum(tl::full<bfloat16, 4>(1)))::value_type, float>);
  static_assert(std::is_same_v<decltype(tl::cumprod(tl::full<bfloat16, 4>(1)))::value_type, float>);
  static_assert(std::is_same_v<decltype(tl::cumsum(tl::full<half, 4>(1)))::value_type, half>);
  static_assert(std::is_same_v<decltype(tl::cumprod(tl::full<int8_t, 4>(1)))::value_type, int8_t>);
  EXPECT_EQ(tl::cumsum(tl::full<int8_t, 4>(100)).data,
            (std::array<int32_t, 4>{100, 200, 300, 400}));
  EXPECT_EQ(tl::cumsum(tl::arange<0, 4>() < 2).data, (std::array<int32_t, 4>{1, 2, 2, 2}));
  // Integer products wrap: 2^16 * 2^16 is 0 in int32, 16 * 16 is 0 in uint8.
  EXPECT_EQ(tl::cumprod(tl::full<int32_t, 4>(1 << 16)).data,
            (std::array<int32_t, 4>{1 << 16, 0, 0, 0}));
  EXPECT_EQ(tl::cumprod(tl::full<uint8_t, 2>(16)).data, (std::array<uint8_t, 2>{16, 0}));
}

TEST(Scan, FloatSumIsSequentialInTheScansDirection) {
  tl::tile<half, 4> hx;
  hx.data = {half(2048.0f), half(1.0f), half(1.0f), half(-2048.0f)}; // rounds after every add
  auto forward = tl::cumsum(hx), backward = tl::cumsum<0, true>(hx);
  EXPECT_EQ(float(forward.data[2]), 2048.0f); // 2048 + 1 rounds back to 2048
  EXPECT_EQ(float(forward.data[3]), 0.0f);
  EXPECT_EQ(float(backward.data[1]), -2046.0f); // -2048 + 1 + 1, exact
  EXPECT_EQ(float(backward.data[0]), 2.0f);
}

TEST(Scan, CombineFunctionsOfTheKernel) {
  auto t = tl::expand_dims<1>(tl::arange<0, 2>()) * 10 + tl::expand_dims<0>(tl::arange<0, 4>());
  auto larger = [](int32_t a, int32_t b) { return a > b ? a : b; };
  EXPECT_EQ(tl::associative_scan<1>(t * (1 - 2 * (t % 2)), larger).data,
            (std::array<int32_t, 8>{0, 0, 2, 2, 10, 10, 12, 12}));
  // Not commutative: `a` is the earlier element in the scan's direction.
  auto last_nonzero = [](int32_t earlier, int32_t later) { return later != 0 ? later : earlier; };
  auto sparse = tl::where(t % 3 == 0, t, 0); // [[0 0 0 3] [0 0 12 0]]
  EXPECT_EQ(tl::associative_scan<1>(sparse, last_nonzero).data,
            (std::array<int32_t, 8>{0, 0, 0, 3, 0, 0, 12, 12}));
  EXPECT_EQ((tl::associative_scan<1, true>(sparse, last_nonzero).data),
            (std::array<int32_t, 8>{3, 3, 3, 3, 12, 12, 12, 0}));
  EXPECT_EQ(tl::associative_scan<0>(sparse, last_nonzero).data,
            (std::array<int32_t, 8>{0, 0, 0, 3, 0, 0, 12, 3}));
  // tl::reduce: every element, or along an axis; the result converted to the element type.
  auto bits = [](int32_t a, int32_t b) { return a ^ b; };
  EXPECT_EQ(tl::reduce(t, bits), 0 ^ 1 ^ 2 ^ 3 ^ 10 ^ 11 ^ 12 ^ 13);
  EXPECT_EQ(tl::reduce<1>(t, bits).data,
            (std::array<int32_t, 2>{0 ^ 1 ^ 2 ^ 3, 10 ^ 11 ^ 12 ^ 13}));
  EXPECT_EQ(tl::reduce<0>(t, [](auto a, auto b) { return a * 0.5 + b; }).data,
            (std::array<int32_t, 4>{10, 11, 13, 14})); // 0 * 0.5 + 10 = 10, 1 * 0.5 + 11 -> 11
  EXPECT_EQ(tl::reduce(tl::arange<0, 4>(), larger), 3);
}

TEST(Gather, AlongEachAxisWithIndicesModuloTheSize) {
  auto t = tl::expand_dims<1>(tl::arange<0, 2>()) * 10 + tl::expand_dims<0>(tl::arange<0, 4>());
  // t = [[0 1 2 3] [10 11 12 13]]; out[i][j] = t[i][index[i][j]], index longer or shorter.
  tl::tile<int32_t, 2, 2> cols;
  cols.data = {3, 0, -1, 5}; // -1 -> 3, 5 -> 1
  EXPECT_EQ(tl::gather<1>(t, cols).data, (std::array<int32_t, 4>{3, 0, 13, 11}));
  tl::tile<int64_t, 4, 4> rows;
  rows.data = {1, 0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 3, 2, -2, 0}; // 3 -> 1, 2 -> 0, -2 -> 0
  EXPECT_EQ(tl::gather<0>(t, rows).data,
            (std::array<int32_t, 16>{10, 1, 12, 3, 0, 1, 2, 3, 10, 11, 12, 13, 10, 1, 2, 3}));
  EXPECT_EQ(tl::gather<-1>(tl::arange<0, 8>() * 2, 7 - tl::arange<0, 8>()).data,
            (std::array<int32_t, 8>{14, 12, 10, 8, 6, 4, 2, 0}));
}

TEST(Gather, FlipEitherDim) {
  auto t = tl::expand_dims<1>(tl::arange<0, 2>()) * 10 + tl::expand_dims<0>(tl::arange<0, 4>());
  EXPECT_EQ(tl::flip(t).data, (std::array<int32_t, 8>{3, 2, 1, 0, 13, 12, 11, 10}));
  EXPECT_EQ(tl::flip<0>(t).data, (std::array<int32_t, 8>{10, 11, 12, 13, 0, 1, 2, 3}));
  EXPECT_EQ(tl::flip(tl::arange<0, 4>()).data, (std::array<int32_t, 4>{3, 2, 1, 0}));
}

TEST(Sort, RowsInTotalOrder) {
  tl::tile<float, 2, 4> x;
  x.data = {3.0f, -0.0f, 0.0f, -1.0f, NAN, 2.0f, -INFINITY, -NAN};
  auto s = tl::sort(x);
  EXPECT_EQ(s.at(0, 0), -1.0f);
  EXPECT_TRUE(std::signbit(s.at(0, 1)) && s.at(0, 1) == 0.0f); // -0 before +0
  EXPECT_TRUE(!std::signbit(s.at(0, 2)) && s.at(0, 2) == 0.0f);
  EXPECT_EQ(s.at(0, 3), 3.0f);
  EXPECT_TRUE(std::isnan(s.at(1, 0)) && std::signbit(s.at(1, 0))); // -NaN first
  EXPECT_EQ(s.at(1, 1), -INFINITY);
  EXPECT_EQ(s.at(1, 2), 2.0f);
  EXPECT_TRUE(std::isnan(s.at(1, 3)) && !std::signbit(s.at(1, 3))); // +NaN last
  auto d = tl::sort<-1, true>(tl::arange<0, 8>() % 3);
  EXPECT_EQ(d.data, (std::array<int32_t, 8>{2, 2, 1, 1, 1, 0, 0, 0}));
  auto t = tl::topk<2>(x);
  static_assert(decltype(t)::shape.d0 == 2 && decltype(t)::shape.d1 == 2);
  EXPECT_EQ(t.at(0, 0), 3.0f);
  EXPECT_TRUE(!std::signbit(t.at(0, 1)) && t.at(0, 1) == 0.0f);
  EXPECT_TRUE(std::isnan(t.at(1, 0)));
  EXPECT_EQ(t.at(1, 1), 2.0f);
}

TEST(Shapes, ReshapeRavelPermuteKeepRowMajorOrder) {
  auto t = tl::expand_dims<1>(tl::arange<0, 2>()) * 10 + tl::expand_dims<0>(tl::arange<0, 4>());
  // t = [[0 1 2 3] [10 11 12 13]]
  auto r = tl::reshape<4, 2>(t);
  static_assert(decltype(r)::shape.d0 == 4 && decltype(r)::shape.d1 == 2);
  EXPECT_EQ(r.at(1, 0), 2);
  EXPECT_EQ(r.at(2, 1), 11);
  EXPECT_EQ(tl::ravel(t).data, (std::array<int32_t, 8>{0, 1, 2, 3, 10, 11, 12, 13}));
  EXPECT_EQ(tl::ravel(tl::permute<1, 0>(t)).data,
            (std::array<int32_t, 8>{0, 10, 1, 11, 2, 12, 3, 13}));
  EXPECT_EQ((tl::permute<0, 1>(t).data), t.data);
  EXPECT_EQ(tl::reshape<8>(t, /*can_reorder=*/true).data, tl::ravel(t).data);
}

TEST(Shapes, JoinSplitInterleaveCat) {
  auto a = tl::arange<0, 4>(), b = tl::arange<0, 4>() + 100;
  auto j = tl::join(a, b);
  static_assert(decltype(j)::shape.d0 == 4 && decltype(j)::shape.d1 == 2);
  EXPECT_EQ(j.data, (std::array<int32_t, 8>{0, 100, 1, 101, 2, 102, 3, 103}));
  auto [x, y] = tl::split(j);
  EXPECT_EQ(x.data, a.data);
  EXPECT_EQ(y.data, b.data);
  EXPECT_EQ(tl::interleave(a, b).data, j.data);
  EXPECT_EQ(tl::cat(a, b).data, (std::array<int32_t, 8>{0, 1, 2, 3, 100, 101, 102, 103}));
  // 2-D: interleave along the last dim, cat along dim 0.
  auto m = tl::reshape<2, 2>(a), n = tl::reshape<2, 2>(b);
  EXPECT_EQ(tl::interleave(m, n).data, (std::array<int32_t, 8>{0, 100, 1, 101, 2, 102, 3, 103}));
  auto c = tl::cat(m, n);
  static_assert(decltype(c)::shape.d0 == 4 && decltype(c)::shape.d1 == 2);
  EXPECT_EQ(c.data, (std::array<int32_t, 8>{0, 1, 2, 3, 100, 101, 102, 103}));
}

// ---- Rank 3 ------------------------------------------------------------------------------------

// t[l][i][j] = 100 l + 10 i + j over [2, 4, 8], built from 1-D aranges by expand_dims, and checked
// element by element against plain loops.
auto rank3() {
  auto li = tl::expand_dims<2>(tl::expand_dims<1>(tl::arange<0, 2>()) * 100 +
                               tl::expand_dims<0>(tl::arange<0, 4>()) * 10); // [2, 4, 1]
  auto j = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, 8>()));       // [1, 1, 8]
  return li + j;
}
int rank3At(int l, int i, int j) { return 100 * l + 10 * i + j; }

TEST(Rank3, CreationBroadcastAndElementwise) {
  auto t = rank3();
  static_assert(std::is_same_v<decltype(t), tl::tile<int32_t, 2, 4, 8>>);
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 8; ++j)
        ASSERT_EQ(t.at(l, i, j), rank3At(l, i, j)) << l << " " << i << " " << j;
  // A 2-D operand broadcasts along the leading dim; a scalar everywhere.
  auto m = tl::expand_dims<1>(tl::arange<0, 4>()) * 1000 + tl::expand_dims<0>(tl::arange<0, 8>());
  auto u = tl::where(t > 120, t + m, -1);
  static_assert(std::is_same_v<decltype(u), tl::tile<int32_t, 2, 4, 8>>);
  EXPECT_EQ(u.at(0, 3, 7), -1);
  EXPECT_EQ(u.at(1, 3, 7), rank3At(1, 3, 7) + 3007);
  EXPECT_EQ((tl::broadcast_to<2, 4, 8>(m).at(1, 2, 5)), 2005);
  EXPECT_EQ((tl::expand_dims<-1>(m).at(3, 5, 0)), 3005); // [4, 8, 1]
  EXPECT_EQ((tl::expand_dims<1>(m).at(3, 0, 5)), 3005);  // [4, 1, 8]
}

TEST(Rank3, MaskedLoadAndStore) {
  std::vector<float> mem(2 * 4 * 8);
  for (size_t k = 0; k < mem.size(); ++k)
    mem[k] = 0.5f * static_cast<float>(k);
  auto t = rank3();
  // Offsets l * 32 + i * 8 + j: row-major over [2, 4, 8]; mask off i == 3.
  auto offs = tl::expand_dims<2>(tl::expand_dims<1>(tl::arange<0, 2>()) * 32 +
                                 tl::expand_dims<0>(tl::arange<0, 4>()) * 8) +
              tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, 8>()));
  auto mask = (t / 10) % 10 != 3;
  auto x = tl::load(mem.data() + offs, mask, -1.0f);
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 8; ++j)
        ASSERT_EQ(x.at(l, i, j), i == 3 ? -1.0f : 0.5f * static_cast<float>(l * 32 + i * 8 + j));
  std::vector<float> out(mem.size(), 7.0f);
  tl::store(out.data() + offs, x * 2, mask);
  for (int k = 0; k < 64; ++k)
    ASSERT_EQ(out[k], (k / 8) % 4 == 3 ? 7.0f : static_cast<float>(k)) << k;
}

TEST(Rank3, ReductionsAlongEachAxis) {
  auto t = rank3();
  auto s0 = tl::sum<0>(t);
  auto s1 = tl::max<1>(t - 2 * tl::expand_dims<0>(tl::expand_dims<1>(tl::arange<0, 4>())) * 10);
  auto s2 = tl::argmin<-1>(t % 5);
  static_assert(std::is_same_v<decltype(s0), tl::tile<int32_t, 4, 8>>);
  static_assert(std::is_same_v<decltype(s1), tl::tile<int32_t, 2, 8>>);
  static_assert(std::is_same_v<decltype(s2), tl::tile<int32_t, 2, 4>>);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(s0.at(i, j), rank3At(0, i, j) + rank3At(1, i, j));
  for (int l = 0; l < 2; ++l)
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(s1.at(l, j), 100 * l + j); // 100 l + 10 i + j - 20 i is largest at i = 0
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i < 4; ++i) {
      int best = 0;
      for (int j = 1; j < 8; ++j)
        if (rank3At(l, i, j) % 5 < rank3At(l, i, best) % 5)
          best = j;
      EXPECT_EQ(s2.at(l, i), best);
    }
  EXPECT_EQ(tl::argmax(t), 63); // flattened row-major
  EXPECT_EQ(tl::sum(t), 100 * 32 + (0 + 10 + 20 + 30) * 16 + 28 * 8);
  auto r = tl::reduce<1>(t, [](int a, int b) { return a < b ? a : b; });
  EXPECT_EQ(r.at(1, 5), 105);
}

TEST(Rank3, ScansFlipGatherSort) {
  auto t = rank3();
  auto c = tl::cumsum<1>(t);
  auto f = tl::flip<0>(t);
  auto cols = tl::broadcast_to<2, 4, 8>(tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, 8>())));
  auto g = tl::gather<2>(t, 7 - cols); // reverses each row
  auto d = tl::sort<-1, true>(t);
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 8; ++j) {
        int run = 0;
        for (int k = 0; k <= i; ++k)
          run += rank3At(l, k, j);
        ASSERT_EQ(c.at(l, i, j), run);
        ASSERT_EQ(f.at(l, i, j), rank3At(1 - l, i, j));
        ASSERT_EQ(g.at(l, i, j), rank3At(l, i, 7 - j));
        ASSERT_EQ(d.at(l, i, j), rank3At(l, i, 7 - j));
      }
  auto g0 = tl::gather<0>(t, tl::full<int32_t, 1, 4, 8>(1)); // [1, 4, 8]: the second of dim 0
  EXPECT_EQ(g0.at(0, 2, 3), rank3At(1, 2, 3));
  auto top = tl::topk<2>(t);
  static_assert(std::is_same_v<decltype(top), tl::tile<int32_t, 2, 4, 2>>);
  EXPECT_EQ(top.at(1, 2, 1), rank3At(1, 2, 6));
}

TEST(Rank3, PermuteReshapeJoinSplitCat) {
  auto t = rank3();
  auto p = tl::permute<2, 0, 1>(t); // p[j][l][i] = t[l][i][j]
  static_assert(std::is_same_v<decltype(p), tl::tile<int32_t, 8, 2, 4>>);
  auto q = tl::permute<1, 2, 0>(t); // q[i][j][l] = t[l][i][j]
  static_assert(std::is_same_v<decltype(q), tl::tile<int32_t, 4, 8, 2>>);
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 8; ++j) {
        ASSERT_EQ(p.at(j, l, i), rank3At(l, i, j));
        ASSERT_EQ(q.at(i, j, l), rank3At(l, i, j));
      }
  EXPECT_EQ((tl::permute<0, 1, 2>(t).data), t.data);
  auto r = tl::reshape<8, 8>(t); // row-major order kept
  EXPECT_EQ(r.at(5, 3), rank3At(1, 1, 3));
  EXPECT_EQ(tl::ravel(t).data[45], rank3At(1, 1, 5));
  auto m = tl::sum<0>(t);
  auto j2 = tl::join(m, m + 1); // [4, 8, 2]
  static_assert(std::is_same_v<decltype(j2), tl::tile<int32_t, 4, 8, 2>>);
  EXPECT_EQ(j2.at(3, 5, 1), m.at(3, 5) + 1);
  auto [a, b] = tl::split(j2);
  EXPECT_EQ(a.data, m.data);
  EXPECT_EQ(b.data, (m + 1).data);
  auto [x, y] = tl::split(tl::reshape<2, 16, 2>(t)); // [2, 16] each: the even and odd columns
  EXPECT_EQ(x.at(1, 5), rank3At(1, 1, 2));
  EXPECT_EQ(y.at(1, 5), rank3At(1, 1, 3));
  auto c = tl::cat(t, t + 1000);
  static_assert(std::is_same_v<decltype(c), tl::tile<int32_t, 4, 4, 8>>);
  EXPECT_EQ(c.at(3, 2, 1), rank3At(1, 2, 1) + 1000);
  EXPECT_EQ(tl::interleave(t, t).at(1, 3, 15), rank3At(1, 3, 7));
}

TEST(Histogram, CountsInBinsOfWidthOne) {
  tl::tile<int32_t, 8> x;
  x.data = {0, 3, 3, -1, 4, 1, 3, 9}; // -1, 4 and 9 lie outside 4 bins
  EXPECT_EQ(tl::histogram<4>(x).data, (std::array<int32_t, 4>{1, 1, 0, 3}));
  EXPECT_EQ(tl::histogram<4>(x, tl::arange<0, 8>() < 4).data, (std::array<int32_t, 4>{1, 0, 0, 2}));
  EXPECT_EQ(tl::histogram<16>(x).data[9], 1);
}

TEST(StaticRange, Values) {
  auto collect = [](auto range) {
    std::vector<int> v;
    for (int i : range)
      v.push_back(i);
    return v;
  };
  EXPECT_EQ(collect(tl::static_range<0, 4>()), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(collect(tl::static_range<1, 8, 3>()), (std::vector<int>{1, 4, 7}));
  EXPECT_EQ(collect(tl::static_range<5, 0, -2>()), (std::vector<int>{5, 3, 1}));
  EXPECT_EQ(collect(tl::static_range<0, 0>()), (std::vector<int>{}));
  static_assert(tl::static_range<0, 16, 4>::count == 4);
}

TEST(Traits, FloatingAndInteger) {
  // Element types, tiles (their element type), and scalars by canonical type (double is float).
  static_assert(tl::is_floating_v<float> && tl::is_floating_v<tl::half> && tl::is_floating_v<tl::bfloat16>);
  static_assert(tl::is_floating_v<double> && tl::is_floating_v<tl::tile<tl::half, 4>>);
  static_assert(!tl::is_floating_v<int32_t> && !tl::is_floating_v<bool> && !tl::is_floating_v<tl::tile<int8_t, 2, 2>>);
  static_assert(tl::is_integer_v<int8_t> && tl::is_integer_v<int32_t> && tl::is_integer_v<int64_t>);
  static_assert(!tl::is_integer_v<bool> && !tl::is_integer_v<float> && tl::is_integer_v<const int>);
  static_assert(tl::is_floating<tl::bfloat16>::value && !tl::is_integer<tl::tile<float, 8>>::value);
  EXPECT_TRUE((tl::is_integer<tl::tile<int64_t, 8>>{}));
}

std::vector<std::array<int, 6>> *gSeen = nullptr;
void recordProgram(int tag) {
  gSeen->push_back({tl::program_id(0), tl::program_id(1), tl::program_id(2), tl::num_programs(0),
                    tl::num_programs(1), tl::num_programs(2) * tag});
}

TEST(Launch, ProgramIdsOver3DGrid) {
  std::vector<std::array<int, 6>> seen;
  gSeen = &seen;
  tl::launch(tl::grid3{3, 2, 2}, recordProgram, 1);
  ASSERT_EQ(seen.size(), 12u);
  int k = 0;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 3; ++x)
        EXPECT_EQ(seen[k++], (std::array<int, 6>{{x, y, z, 3, 2, 2}}));
  // Outside a launch: one program, id 0.
  EXPECT_EQ(tl::program_id(2), 0);
  EXPECT_EQ(tl::num_programs(0), 1);
  seen.clear();
  tl::launch(tl::grid3{0}, recordProgram, 1); // an empty grid runs nothing
  EXPECT_TRUE(seen.empty());
  gSeen = nullptr;
}

} // namespace
} // namespace tilec::test

TEST(CastOptions, BitcastKeepsTheBits) {
  auto x = tl::full<float, 4>(-1.5f);
  auto bits = tl::cast<std::int32_t>(x, {.bitcast = true});
  EXPECT_EQ(bits.data[0], std::int32_t(0xBFC00000u));
  EXPECT_EQ(tl::cast<float>(bits ^ INT32_MIN, {.bitcast = true}).data[3], 1.5f);
  auto h = tl::cast<tl::half>(x);
  EXPECT_EQ(tl::cast<std::int16_t>(h, {.bitcast = true}).data[1], std::int16_t(0xBE00));
  EXPECT_EQ(tl::cast<tl::bfloat16>(h, {.bitcast = true}).data[2].bits, 0xBE00);
  EXPECT_EQ(tl::cast<std::uint32_t>(std::int32_t{-1}, {.bitcast = true}), 0xFFFFFFFFu);
  EXPECT_EQ(tl::cast<std::int64_t>(tl::full<double, 2>(1.0), {.bitcast = true}).data[1],
            std::int64_t{0x3FF0000000000000});
}

TEST(CastOptions, TowardZeroTruncatesTheMagnitude) {
  const float third = 1.0f / 3.0f;
  auto rz = [](auto v) {
    return tl::cast<tl::half>(v, {.fp_downcast_rounding = tl::rounding::rtz});
  };
  // fp16 numbers are 2 apart above 2048: 2051 lies halfway between 2050 and 2052; to nearest even
  // it rounds to 2052, toward zero to 2050 (and -2051 to -2050).
  EXPECT_EQ(float(rz(2051.0f)), 2050.0f);
  EXPECT_EQ(float(rz(-2051.0f)), -2050.0f);
  EXPECT_EQ(float(tl::cast<tl::half>(2051.0f)), 2052.0f);
  EXPECT_EQ(rz(1e6f).bits, 0x7BFF); // past fp16's range: the largest finite, not infinity
  EXPECT_EQ(rz(-INFINITY).bits, 0xFC00);
  EXPECT_LE(float(rz(third)), third);
  EXPECT_EQ(
      tl::cast<tl::bfloat16>(1.0f + 0x1.fep-8f, {.fp_downcast_rounding = tl::rounding::rtz}).bits,
      0x3F80);
  auto tenth = tl::full<double, 2>(0.1);
  EXPECT_EQ(tl::cast<float>(tenth, {.fp_downcast_rounding = tl::rounding::rtz}).data[0],
            0x1.999998p-4f);
  EXPECT_EQ(tl::cast<float>(tenth).data[0], 0x1.99999ap-4f);
  EXPECT_TRUE(std::isnan(float(rz(NAN))));
}

TEST(CastOptions, TheSameTypeIsTheValueItself) { // as Triton's cast, before it checks options
  auto x = tl::full<float, 4>(0.1f);
  EXPECT_EQ(tl::cast<float>(x, {.fp_downcast_rounding = tl::rounding::rtz}).data[2], 0.1f);
  EXPECT_EQ(
      tl::cast<float>(x, {.fp_downcast_rounding = tl::rounding::rtz, .bitcast = true}).data[0],
      0.1f);
}

TEST(CastOptionsDeathTest, MisusedOptionsAbort) {
  auto x = tl::full<float, 4>(1.0f);
  EXPECT_DEATH(tl::cast<std::int16_t>(x, {.bitcast = true}),
               "a bitcast needs types of the same width");
  EXPECT_DEATH(tl::cast<double>(x, {.fp_downcast_rounding = tl::rounding::rtz}),
               "fp_downcast_rounding rounds a float narrowed to a narrower float");
  EXPECT_DEATH(
      tl::cast<std::int32_t>(x, {.fp_downcast_rounding = tl::rounding::rtz, .bitcast = true}),
      "a bitcast rounds nothing");
}

TEST(Hints, LoadsAndStoresAsWithout) {
  float xs[8] = {1, 2, 3, 4, 5, 6, 7, 8}, ys[8] = {};
  float *x = xs, *y = ys;
  auto offs = tl::arange<0, 8>();
  auto v = tl::load(x + offs, offs < 6, -1.0f,
                    {.cache_modifier = tl::cache::cg, .eviction_policy = tl::evict_last});
  EXPECT_EQ(v.data, (std::array<float, 8>{1, 2, 3, 4, 5, 6, -1, -1}));
  EXPECT_EQ(tl::load(x + offs, offs < 2, {.cache_modifier = tl::cache::cv}).data,
            (std::array<float, 8>{1, 2, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(tl::load(x + 3, {.is_volatile = true}), 4.0f);
  tl::store(y + offs, v, offs > 0, {.cache_modifier = tl::cache::cs});
  tl::store(y, 9.0f, {.eviction_policy = tl::evict_first});
  EXPECT_EQ(std::vector<float>(y, y + 8), (std::vector<float>{9, 2, 3, 4, 5, 6, -1, -1}));
}

TEST(HintsDeathTest, AnotherAccessKindsModifierAborts) {
  float xs[4] = {};
  float *x = xs;
  EXPECT_DEATH(tl::load(x, {.cache_modifier = tl::cache::cs}),
               "a load's cache_modifier is ca, cg or cv");
  EXPECT_DEATH(tl::store(x, 1.0f, {.cache_modifier = tl::cache::ca}),
               "a store's cache_modifier is wb, cg, cs or wt");
  EXPECT_DEATH(tl::load(x, {.eviction_policy = tl::evict_first, .is_volatile = true}),
               "a volatile load takes no cache_modifier or eviction_policy");
}
