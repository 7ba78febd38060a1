// Per-row argmax, argmin and max of an M x N row-major matrix with N <= BN: one [BM, BN] tile per
// program, reduced along axis 1. Ties go to the smallest column index. Also the argmax and argmin
// of each program's whole tile (no axis): the flattened index r * BN + c, the first in row-major
// order among equal values.
#include <tilec/tl.hpp>

template <int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM)))
void row_argmax_kernel(const float *x, int *argmax_out, int *argmin_out, float *max_out,
                       int *tile_argmax_out, int *tile_argmin_out, int M, int N, int stride) {
  int pid = tl::program_id(0);
  auto rows = pid * BM + tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rows) < M) & (tl::expand_dims<0>(cols) < N);
  auto ptrs = x + tl::expand_dims<1>(rows) * stride + tl::expand_dims<0>(cols);
  // Masked-off columns read as -inf for the maximum and +inf for the minimum, so they never win.
  auto hi = tl::load(ptrs, mask, -tl::inf);
  auto lo = tl::load(ptrs, mask, tl::inf);
  auto row_mask = rows < M;
  tl::store(argmax_out + rows, tl::argmax<1>(hi), row_mask);
  tl::store(max_out + rows, tl::max<1>(hi), row_mask);
  tl::store(argmin_out + rows, tl::argmin<1>(lo), row_mask);
  tl::store(tile_argmax_out + pid, tl::argmax(hi));
  tl::store(tile_argmin_out + pid, tl::argmin(lo));
}

template void row_argmax_kernel<8, 128>(const float *, int *, int *, float *, int *, int *, int, int,
                                         int);
