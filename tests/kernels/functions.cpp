// Device functions (issue 16, item 1): a kernel that calls functions of its own, written as a C++
// programmer writes them: a function template in a namespace taking a tile by const reference, a
// plain function on scalars, a function template that loads and returns a tile, a void function
// that stores, nested calls, a function called twice, and an `if constexpr` at a function's end
// choosing what it returns. tilec inlines every call; tests/gpu/functions.cu compares with the CPU
// reference of this source and with float64.
#include <tilec/tl.hpp>

#include <type_traits>

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

template void gelu_rows<256>(const float *, float *, float *, int, int, int);
