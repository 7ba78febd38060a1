// Fused softmax over the rows of a matrix, as in Triton's tutorial 02. One program per row; in
// softmax_kernel the whole row fits in one tile of BLOCK >= n_cols elements, so the row is read once
// and written once. softmax_looped takes rows of any width in BLOCK-wide chunks. One source for
// float, tl::half and tl::bfloat16 rows: the arithmetic is in float (a no-op cast for float rows),
// the result is rounded to T once, when stored.
#include <tilec/tl.hpp>

template <class T, int BLOCK, int NUM_WARPS>
TILEC_KERNEL(num_warps = NUM_WARPS, grid = (n_rows))
void softmax_kernel(T *out, const T *in, int in_row_stride, int out_row_stride, int n_rows, int n_cols) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  // Masked-off columns read as -inf so they do not change the maximum and become exp(-inf) = 0.
  auto x = tl::cast<float>(tl::load(in + row * in_row_stride + cols, mask, -tl::inf));
  auto shifted = x - tl::max(x);
  auto num = tl::exp(shifted);
  auto den = tl::sum(num);
  tl::store(out + row * out_row_stride + cols, tl::cast<T>(num / den), mask);
}

// Rows wider than a block: two passes over BLOCK-wide chunks (the loop of Triton's tutorial 05). The
// first keeps, per position in the chunk, a running maximum and a running sum of exp(x - maximum),
// rescaled whenever the maximum grows (online softmax); their combination gives the row's maximum
// and sum. The second pass writes exp(x - max) / sum. The row is read twice and written once, with
// BLOCK / (32 * NUM_WARPS) elements a thread whatever the width. num_stages = 2: each chunk's loads
// are issued while the chunk before is computed (rows of several chunks are what this kernel is for).
template <class T, int BLOCK, int NUM_WARPS>
TILEC_KERNEL(num_warps = NUM_WARPS, num_stages = 2, grid = (n_rows))
void softmax_looped(T *out, const T *in, int in_row_stride, int out_row_stride, int n_rows, int n_cols) {
  int row = tl::program_id(0);
  auto run_max = tl::full<float, BLOCK>(-tl::inf);
  auto run_sum = tl::zeros<float, BLOCK>();
  for (int off = 0; off < n_cols; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto x = tl::cast<float>(tl::load(in + row * in_row_stride + cols, cols < n_cols, -tl::inf));
    auto new_max = tl::maximum(run_max, x);
    // A position no column has reached yet holds -inf in both: exp(-inf - -inf) would be NaN.
    auto seen = new_max > -tl::inf;
    run_sum = tl::where(seen, run_sum * tl::exp(run_max - new_max) + tl::exp(x - new_max), 0.0f);
    run_max = new_max;
  }
  float row_max = tl::max(run_max);
  float row_sum = tl::sum(tl::where(run_max > -tl::inf, run_sum * tl::exp(run_max - row_max), 0.0f));
  for (int off = 0; off < n_cols; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto mask = cols < n_cols;
    auto x = tl::cast<float>(tl::load(in + row * in_row_stride + cols, mask, -tl::inf));
    tl::store(out + row * out_row_stride + cols, tl::cast<T>(tl::exp(x - row_max) / row_sum), mask);
  }
}

template void softmax_kernel<float, 1024, 4>(float *, const float *, int, int, int, int);
template void softmax_kernel<float, 4096, 8>(float *, const float *, int, int, int, int);
template void softmax_kernel<tl::half, 1024, 4>(tl::half *, const tl::half *, int, int, int, int);
template void softmax_looped<float, 1024, 4>(float *, const float *, int, int, int, int);
