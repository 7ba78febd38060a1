// Fused softmax over the rows of a matrix, as in Triton's tutorial 02. One program per row; the whole
// row fits in one tile of BLOCK >= n_cols elements, so the row is read once and written once.
#include <tilec/tl.hpp>

template <int BLOCK, int NUM_WARPS>
TILEC_KERNEL(num_warps = NUM_WARPS, grid = (n_rows))
void softmax_kernel(float *out, const float *in, int in_row_stride, int out_row_stride, int n_rows,
                    int n_cols) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  // Masked-off columns read as -inf so they do not change the maximum and become exp(-inf) = 0.
  auto x = tl::load(in + row * in_row_stride + cols, mask, -tl::inf);
  auto shifted = x - tl::max(x);
  auto num = tl::exp(shifted);
  auto den = tl::sum(num);
  tl::store(out + row * out_row_stride + cols, num / den, mask);
}

template void softmax_kernel<1024, 4>(float *, const float *, int, int, int, int);
template void softmax_kernel<4096, 8>(float *, const float *, int, int, int, int);
