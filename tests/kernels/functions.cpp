// Device functions (issue 16, item 1): a kernel that calls functions of its own, written as a C++
// programmer writes them: a function template in a namespace taking a tile by const reference, a
// plain function on scalars, a function template that loads and returns a tile, a void function
// that stores, nested calls, a function called twice, and an `if constexpr` at a function's end
// choosing what it returns, and functions returning several values (a pair, an aggregate, a tuple)
// taken apart by structured bindings, and lambdas (passed to a helper, with an init-capture, called
// where written). tilec inlines every call; tests/gpu/functions.cu compares with the CPU
// reference of this source and with float64.
#include <tilec/tl.hpp>

#include <tuple>
#include <type_traits>
#include <utility>

namespace act {
/// GELU with the tanh approximation, on any float tile.
template <class T> T gelu_tanh(const T &x) {
  const float k0 = 0.7978845608f, k1 = 0.044715f;
  auto inner = k0 * (x + k1 * x * x * x);
  return 0.5f * x * (1.0f + tl::tanh(inner));
}
} // namespace act

inline int row_start(int row, int stride) { return row * stride; }

template <int BLOCK> auto load_row(const float *base, int row, int stride, int n) {
  auto cols = tl::arange<0, BLOCK>();
  return tl::load(base + row_start(row, stride) + cols, cols < n, 0.0f);
}

template <int BLOCK, class T> void store_row(float *base, int row, int stride, int n, T values) {
  auto cols = tl::arange<0, BLOCK>();
  tl::store(base + row_start(row, stride) + cols, values, cols < n);
}

/// Scales half tiles by 2 and leaves others alone: the branch is chosen at compile time.
template <class T> auto scaled(T x) {
  if constexpr (std::is_same_v<typename T::value_type, tl::half>) {
    auto y = x * 2.0f;
    return y;
  } else {
    return x;
  }
}

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (rows))
void gelu_rows(const float *in, float *out, float *twice, int rows, int n, int stride) {
  int row = tl::program_id(0);
  auto x = load_row<BLOCK>(in, row, stride, n);
  auto y = act::gelu_tanh(x);
  store_row<BLOCK>(out, row, stride, n, scaled(y));
  // The same function again, on its own result (its locals get names of their own).
  store_row<BLOCK>(twice, row, stride, n, act::gelu_tanh(act::gelu_tanh(x)));
}

/// Several values returned at once, taken apart by structured bindings at the call: a pair, a small
/// aggregate, a tuple of three tiles.
template <class T, class M> auto mean_rstd(const T &x, const M &mask, int n, float eps) {
  float mean = tl::sum(tl::where(mask, x, 0.0f)) / n;
  auto d = tl::where(mask, x - mean, 0.0f);
  float var = tl::sum(d * d) / n;
  return std::make_pair(mean, tl::rsqrt(var + eps));
}
struct Bounds {
  float lo, hi;
};
template <class T> Bounds bounds(const T &x) { return {tl::min(x), tl::max(x)}; }
/// Several values made by another function: inlined in turn.
template <class T> Bounds range_of(const T &x) { return bounds(x); }
template <class T> auto signs(const T &x) {
  return std::tuple{tl::maximum(x, 0.0f), tl::minimum(x, 0.0f), tl::abs(x)};
}

// Row statistics through functions returning several values: out = (x - mean) * rstd + pos + neg
// - |x| (pos + neg is x), stats = [2 mean, rstd, min, max] per row.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (rows))
void row_stats(const float *in, float *out, float *stats, int rows, int n, int stride) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto x = tl::load(in + row * stride + cols, cols < n, 0.0f);
  auto [mean, rstd] = mean_rstd(x, cols < n, n, 1e-5f);
  auto [lo, hi] = range_of(tl::where(cols < n, x, mean));
  auto [pos, neg, mag] = signs(x);
  auto [twice_mean, r] = std::make_pair(mean * 2.0f, rstd);
  tl::store(out + row * stride + cols, (x - mean) * rstd + pos + neg - mag, cols < n);
  tl::store(stats + 4 * row, twice_mean);
  tl::store(stats + 4 * row + 1, r);
  tl::store(stats + 4 * row + 2, lo);
  tl::store(stats + 4 * row + 3, hi);
}

/// A function that takes a function object, as the combine functions of reductions will.
template <class T, class F> auto apply_twice(const T &x, F f) { return f(f(x)); }

// Lambdas: one capturing a parameter by copy, passed to a helper that calls it twice; one with an
// init-capture and statements of its own; one called where it is written, capturing by reference.
// out = x s^2 + (x + s + 1) - x.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void lambdas(const float *in, float *out, float s, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto x = tl::load(in + offs, mask, 0.0f);
  auto scale = [s](auto t) { return t * s; };
  auto shift = [c = s + 1.0f](auto t) {
    auto u = t + c;
    return u;
  };
  auto y = apply_twice(x, scale) + shift(x);
  tl::store(out + offs, [&](auto t) { return t - x; }(y), mask);
}

/// A value chosen at run time: each branch of the `if` at the end returns (an `else if` too).
template <class T> auto leaky(const T &x, float slope) {
  if (slope > 0.0f) {
    auto neg = x * slope;
    return tl::where(x > 0.0f, x, neg);
  } else if (slope < -1.0f) {
    return -x;
  } else {
    return tl::maximum(x, 0.0f);
  }
}

// out = leaky(x, slope) + 1: x or x * slope (slope > 0), -x (slope < -1), else max(x, 0).
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void choose(const float *in, float *out, float slope, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto x = tl::load(in + offs, mask, 0.0f);
  tl::store(out + offs, leaky(x, slope) + 1.0f, mask);
}

template void gelu_rows<256>(const float *, float *, float *, int, int, int);
template void choose<512>(const float *, float *, float, int);
template void lambdas<512>(const float *, float *, float, int);
template void row_stats<256>(const float *, float *, float *, int, int, int);
