// Tiled matrix transpose: out[j, i] = in[i, j] for an M x N row-major input.
// The load is contiguous along the columns of `in` and the store along the columns of `out`, so the
// two need different thread layouts: tilec stages the tile through shared memory between them.
#include <tilec/tl.hpp>

template <int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM), cdiv(N, BN)))
void transpose_kernel(const float *in, float *out, int M, int N, int in_stride, int out_stride) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  auto rm = pid_m * BM + tl::arange<0, BM>();
  auto rn = pid_n * BN + tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N);
  auto tile = tl::load(in + tl::expand_dims<1>(rm) * in_stride + tl::expand_dims<0>(rn), mask);
  tl::store(out + tl::expand_dims<0>(rn) * out_stride + tl::expand_dims<1>(rm), tile, mask);
}

template void transpose_kernel<64, 64>(const float *, float *, int, int, int, int);
