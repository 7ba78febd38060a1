// Reductions of reductions and a few conversions that review found wrong once:
// - a 2-D tile summed along its rows, then the per-row sums (a sliced layout spread over warps)
//   reduced again across warps; and the whole 2-D tile reduced to a scalar;
// - `~` on a bool tile (logical not) and int32 -> bf16 (one rounding).
#include <tilec/tl.hpp>

template <int BM, int BN>
TILEC_KERNEL(num_warps = 8, grid = (cdiv(M, BM)))
void nested_reduce(const float *x, float *block_row_max, float *block_total, int M, int N) {
  int pid = tl::program_id(0);
  auto rm = pid * BM + tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N);
  auto t = tl::load(x + tl::expand_dims<1>(rm) * N + tl::expand_dims<0>(rn), mask, 0.0f);
  auto row_sums = tl::sum<1>(t);
  tl::store(block_row_max + pid, tl::max(tl::where(rm < M, row_sums, -tl::inf)));
  tl::store(block_total + pid, tl::sum(t));
}

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void int_bits(const int *a, tl::bfloat16 *as_bf16, bool *not_positive, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto m = offs < n;
  auto v = tl::load(a + offs, m);
  tl::store(as_bf16 + offs, tl::cast<tl::bfloat16>(v), m);
  tl::store(not_positive + offs, ~(v > 0), m);
}

template void nested_reduce<64, 64>(const float *, float *, float *, int, int);
template void int_bits<512>(const int *, tl::bfloat16 *, bool *, int);
