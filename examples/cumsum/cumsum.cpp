// Running sums along the rows of an M x N matrix, torch.cumsum(x, dim=-1), two ways:
//  - rows_cumsum: BLOCK_M rows of up to BLOCK_N columns in one 2-D tile, each row scanned at once
//    (short rows: the scan of every row is one tl::cumsum along axis 1);
//  - row_cumsum_long: one program per row, BLOCK columns at a time; each block's running sums plus
//    the sum of the blocks before it (a carry kept in float).
// fp16 inputs are summed in float and rounded once per output.
#include <tilec/tl.hpp>

template <class T, int BLOCK_M, int BLOCK_N>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BLOCK_M)))
void rows_cumsum(const T *x, T *y, int M, int N, int stride) {
  auto rows = tl::program_id(0) * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto cols = tl::arange<0, BLOCK_N>();
  auto mask = (tl::expand_dims<1>(rows) < M) & (tl::expand_dims<0>(cols) < N);
  auto offsets = tl::expand_dims<1>(rows) * stride + tl::expand_dims<0>(cols);
  auto v = tl::cast<float>(tl::load(x + offsets, mask, 0.0f));
  tl::store(y + offsets, tl::cast<T>(tl::cumsum<1>(v)), mask);
}

template <class T, int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (M))
void row_cumsum_long(const T *x, T *y, int M, int N, int stride) {
  auto row = tl::program_id(0);
  float carry = 0.0f;
  for (int start = 0; start < N; start += BLOCK) {
    auto cols = start + tl::arange<0, BLOCK>();
    auto mask = (cols < N) & (row < M);
    auto v = tl::cast<float>(tl::load(x + row * stride + cols, mask, 0.0f));
    tl::store(y + row * stride + cols, tl::cast<T>(tl::cumsum(v) + carry), mask);
    carry += tl::sum(v);
  }
}

template void rows_cumsum<float, 16, 128>(const float *, float *, int, int, int);
template void rows_cumsum<tl::half, 16, 128>(const tl::half *, tl::half *, int, int, int);
template void row_cumsum_long<float, 2048>(const float *, float *, int, int, int);
template void row_cumsum_long<tl::half, 2048>(const tl::half *, tl::half *, int, int, int);
