// Column maximum and column sum of an M x N row-major matrix, reducing along axis 0. One program
// per BN columns; a while loop walks the rows in BM-high chunks.
#include <tilec/tl.hpp>

template <int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(N, BN)))
void col_reduce_kernel(const float *x, float *col_max, float *col_sum, int M, int N, int stride) {
  int pid = tl::program_id(0);
  auto cols = pid * BN + tl::arange<0, BN>();
  auto col_mask = cols < N;
  auto best = tl::full<float, BN>(-tl::inf);
  auto total = tl::zeros<float, BN>();
  int row = 0;
  while (row < M) {
    auto rows = row + tl::arange<0, BM>();
    auto mask = (tl::expand_dims<1>(rows) < M) & tl::expand_dims<0>(col_mask);
    auto t = tl::load(x + tl::expand_dims<1>(rows) * stride + tl::expand_dims<0>(cols), mask,
                      -tl::inf);
    best = tl::maximum(best, tl::max<0>(t));
    total += tl::sum<0>(tl::where(mask, t, 0.0f));
    row += BM;
  }
  tl::store(col_max + cols, best, col_mask);
  tl::store(col_sum + cols, total, col_mask);
}

template void col_reduce_kernel<32, 32>(const float *, float *, float *, int, int, int);
