// Row sums of an M x N row-major matrix: out[i] = sum_j x[i, j]. One program per BM rows; the
// columns are walked in BN-wide chunks into a [BM, BN] accumulator that sum<1> reduces once.
#include <tilec/tl.hpp>

template <int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM)))
void row_sum_kernel(const float *x, float *out, int M, int N, int stride) {
  int pid = tl::program_id(0);
  auto rows = pid * BM + tl::arange<0, BM>();
  auto row_mask = tl::expand_dims<1>(rows) < M;
  auto acc = tl::zeros<float, BM, BN>();
  for (int off = 0; off < N; off += BN) {
    auto cols = off + tl::arange<0, BN>();
    auto mask = row_mask & (tl::expand_dims<0>(cols) < N);
    acc += tl::load(x + tl::expand_dims<1>(rows) * stride + tl::expand_dims<0>(cols), mask, 0.0f);
  }
  tl::store(out + rows, tl::sum<1>(acc), rows < M);
}

template void row_sum_kernel<16, 64>(const float *, float *, int, int, int);
