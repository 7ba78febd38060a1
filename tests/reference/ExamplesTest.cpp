// The example kernels run through tl::launch on random data at ragged sizes, compared with plain
// loops in double. Inputs sit in guarded buffers of exact size, so a masked tail that touches
// memory past the end crashes the test; outputs are poisoned with NaN before each run.
#include "examples/layer_norm/layer_norm.cpp"
#include "examples/softmax/softmax.cpp"
#include "examples/swiglu/swiglu.cpp"
#include "examples/transpose/transpose.cpp"
#include "examples/vector_add/vector_add.cpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/reference/TestUtil.hpp"

namespace tilec::test {
namespace {

// The guard is real: reading one element past the end of a guarded buffer kills the process.
TEST(GuardedBufferDeathTest, ReadPastEndCrashes) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        GuardedBuffer<float> b(1000);
        volatile float v = b.data()[1000];
        (void)v;
      },
      "");
}

// An unmasked load of the ragged tail is caught by the guard (what the masked tests rely on).
TEST(GuardedBufferDeathTest, UnmaskedTailLoadCrashes) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        GuardedBuffer<float> b(1000);
        auto v = tl::load(b.data() + 512 + tl::arange<0, 1024>());
        std::printf("%f\n", static_cast<double>(tl::sum(v)));
      },
      "");
}

class VectorAdd : public ::testing::TestWithParam<int> {};
TEST_P(VectorAdd, MatchesLoop) {
  const int n = GetParam();
  auto rng = makeRng(1, static_cast<std::uint64_t>(n));
  GuardedBuffer<float> x(n), y(n), out(n);
  fillRandom(x, rng, -10, 10);
  fillRandom(y, rng, -10, 10);
  out.fill(nanF());
  tl::launch(tl::grid3{tl::cdiv(n, 1024)}, add_kernel<1024>, x.data(), y.data(), out.data(), n);
  RelError err;
  for (int i = 0; i < n; ++i)
    err.add(out[i], double(x[i]) + double(y[i]));
  EXPECT_LT(err.value(), kTolFp32);
}
INSTANTIATE_TEST_SUITE_P(Sizes, VectorAdd, ::testing::Values(1, 1000, 1024, 1025, 4097));

struct SoftmaxCase {
  int rows, cols, block;
};
class Softmax : public ::testing::TestWithParam<SoftmaxCase> {};
TEST_P(Softmax, MatchesLoop) {
  const auto [rows, cols, block] = GetParam();
  auto rng = makeRng(2, static_cast<std::uint64_t>(rows * 100000 + cols));
  // Padded strides: the padding of the output must stay untouched.
  const int inStride = cols + 3, outStride = cols + 5;
  GuardedBuffer<float> in(static_cast<std::size_t>((rows - 1) * inStride + cols));
  GuardedBuffer<float> out(static_cast<std::size_t>((rows - 1) * outStride + cols));
  fillRandom(in, rng, -5, 5);
  out.fill(nanF());
  if (block == 1024)
    tl::launch(tl::grid3{rows}, softmax_kernel<float, 1024, 4>, out.data(), in.data(), inStride, outStride,
               rows, cols);
  else
    tl::launch(tl::grid3{rows}, softmax_kernel<float, 4096, 8>, out.data(), in.data(), inStride, outStride,
               rows, cols);
  RelError err;
  for (int r = 0; r < rows; ++r) {
    double mx = -INFINITY, den = 0;
    for (int c = 0; c < cols; ++c)
      mx = std::max(mx, double(in[r * inStride + c]));
    for (int c = 0; c < cols; ++c)
      den += std::exp(double(in[r * inStride + c]) - mx);
    for (int c = 0; c < cols; ++c)
      err.add(out[r * outStride + c], std::exp(double(in[r * inStride + c]) - mx) / den);
    for (int c = cols; c < outStride && r + 1 < rows; ++c)
      EXPECT_TRUE(std::isnan(out[r * outStride + c])) << "padding written at " << r << "," << c;
  }
  // The CPU sums the row sequentially in float (docs/language.md), whose relative error grows like
  // 2^-24 * sqrt(n / 3): about 1e-6 at n = 3000. Rows longer than 2048 get 4e-6 for that reason.
  EXPECT_LT(err.value(), cols > 2048 ? 4e-6 : kTolFp32);
}
INSTANTIATE_TEST_SUITE_P(Shapes, Softmax,
                         ::testing::Values(SoftmaxCase{3, 1, 1024}, SoftmaxCase{5, 1000, 1024},
                                           SoftmaxCase{2, 1024, 1024}, SoftmaxCase{3, 3000, 4096},
                                           SoftmaxCase{2, 4096, 4096}));

struct LayerNormCase {
  int rows, cols;
};
class LayerNorm : public ::testing::TestWithParam<LayerNormCase> {};
TEST_P(LayerNorm, MatchesLoop) {
  const auto [M, N] = GetParam();
  auto rng = makeRng(3, static_cast<std::uint64_t>(M * 100000 + N));
  const int stride = N;
  const float eps = 1e-5f;
  GuardedBuffer<tl::half> X(static_cast<std::size_t>(M * N)), Y(static_cast<std::size_t>(M * N));
  GuardedBuffer<tl::half> W(N), B(N);
  GuardedBuffer<float> Mean(M), Rstd(M);
  fillRandom(X, rng, -2, 3);
  fillRandom(W, rng, 0.5f, 1.5f);
  fillRandom(B, rng, -1, 1);
  Y.fill(nanH());
  Mean.fill(nanF());
  Rstd.fill(nanF());
  tl::launch(tl::grid3{M}, layer_norm_fwd<1024, 8>, X.data(), Y.data(), W.data(), B.data(),
             Mean.data(), Rstd.data(), stride, M, N, eps);
  RelError errY, errMean, errRstd;
  for (int r = 0; r < M; ++r) {
    double mean = 0, var = 0;
    for (int c = 0; c < N; ++c)
      mean += float(X[r * stride + c]);
    mean /= N;
    for (int c = 0; c < N; ++c)
      var += (float(X[r * stride + c]) - mean) * (float(X[r * stride + c]) - mean);
    var /= N;
    const double rstd = 1.0 / std::sqrt(var + eps);
    errMean.add(Mean[r], mean);
    errRstd.add(Rstd[r], rstd);
    for (int c = 0; c < N; ++c)
      errY.add(float(Y[r * stride + c]),
               (float(X[r * stride + c]) - mean) * rstd * float(W[c]) + float(B[c]));
  }
  EXPECT_LT(errY.value(), kTolFp16);
  EXPECT_LT(errMean.value(), kTolFp32);
  EXPECT_LT(errRstd.value(), kTolFp32);
}
INSTANTIATE_TEST_SUITE_P(Shapes, LayerNorm,
                         ::testing::Values(LayerNormCase{1, 1}, LayerNormCase{3, 1500},
                                           LayerNormCase{2, 2048}, LayerNormCase{4, 1000},
                                           LayerNormCase{2, 3333}));

class Swiglu : public ::testing::TestWithParam<int> {};
TEST_P(Swiglu, MatchesLoop) {
  const int n = GetParam();
  auto rng = makeRng(4, static_cast<std::uint64_t>(n));
  GuardedBuffer<tl::half> a(n), b(n), out(n);
  fillRandom(a, rng, -6, 6);
  fillRandom(b, rng, -3, 3);
  out.fill(nanH());
  tl::launch(tl::grid3{tl::cdiv(n, 2048)}, swiglu_kernel<2048>, a.data(), b.data(), out.data(), n);
  RelError err;
  for (int i = 0; i < n; ++i) {
    const double x = float(a[i]), y = float(b[i]);
    err.add(float(out[i]), x / (1.0 + std::exp(-x)) * y);
  }
  EXPECT_LT(err.value(), kTolFp16);
}
INSTANTIATE_TEST_SUITE_P(Sizes, Swiglu, ::testing::Values(1, 2048, 2049, 5000));

struct TransposeCase {
  int M, N;
};
class Transpose : public ::testing::TestWithParam<TransposeCase> {};
TEST_P(Transpose, MatchesLoop) {
  const auto [M, N] = GetParam();
  auto rng = makeRng(5, static_cast<std::uint64_t>(M * 100000 + N));
  GuardedBuffer<float> in(static_cast<std::size_t>(M * N)), out(static_cast<std::size_t>(M * N));
  fillRandom(in, rng, -100, 100);
  out.fill(nanF());
  tl::launch(tl::grid3{tl::cdiv(M, 64), tl::cdiv(N, 64)}, transpose_kernel<64, 64>, in.data(),
             out.data(), M, N, N, M);
  int wrong = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      wrong += !(out[j * M + i] == in[i * N + j]); // exact, and NaN (unwritten) counts as wrong
  EXPECT_EQ(wrong, 0);
}
INSTANTIATE_TEST_SUITE_P(Shapes, Transpose,
                         ::testing::Values(TransposeCase{1, 1}, TransposeCase{65, 130},
                                           TransposeCase{128, 64}, TransposeCase{64, 1}));

} // namespace
} // namespace tilec::test
