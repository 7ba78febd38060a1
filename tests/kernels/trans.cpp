// tl::trans outside a dot (docs/language.md "Matrix products"): for a [BM, BN] tile of x (M rows of
// N) and the matching [BN, BM] tiles of y and out (N rows of M), out = trans(x) + y, and
// back = trans(trans(x) * 2) (M rows of N, as x): a transposed view used in arithmetic, stored in
// the other orientation, and a transpose of an expression transposed back. float, fp16, int32 and
// int8 (wrapping); tile shapes square and not, down to 16 x 16 (two elements a thread). Then
// reductions along either axis of a transposed view (trans_reduce).
#include <tilec/tl.hpp>

template <class T, int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM) * cdiv(N, BN)))
void trans_add(const T *x, const T *y, T *out, T *back, int M, int N, int ldx, int ldy) {
  int pid = tl::program_id(0);
  int num_n = tl::cdiv(N, BN);
  auto m = (pid / num_n) * BM + tl::arange<0, BM>();
  auto n = (pid % num_n) * BN + tl::arange<0, BN>();
  auto xm = tl::expand_dims<1>(m); // x's tile: rows m, columns n
  auto xn = tl::expand_dims<0>(n);
  auto yn = tl::expand_dims<1>(n); // y's and out's: rows n, columns m
  auto ym = tl::expand_dims<0>(m);
  auto xmask = (xm < M) & (xn < N);
  auto ymask = (yn < N) & (ym < M);
  auto xv = tl::load(x + xm * ldx + xn, xmask);
  auto yv = tl::load(y + yn * ldy + ym, ymask);
  tl::store(out + yn * ldy + ym, tl::trans(xv) + yv, ymask);
  tl::store(back + xm * ldx + xn, tl::trans(tl::trans(xv) * 2), xmask);
}

template void trans_add<float, 32, 64>(const float *, const float *, float *, float *, int, int,
                                       int, int);
template void trans_add<tl::half, 64, 32>(const tl::half *, const tl::half *, tl::half *,
                                          tl::half *, int, int, int, int);
template void trans_add<int32_t, 16, 16>(const int32_t *, const int32_t *, int32_t *, int32_t *,
                                         int, int, int, int);
template void trans_add<int8_t, 32, 32>(const int8_t *, const int8_t *, int8_t *, int8_t *, int,
                                        int, int, int);

// Reductions of a transposed view (int32, exact): program p covers columns [p BN, p BN + BN) of x
// and all its M <= BM rows; colsum[n] = sum over m of x[m][n] (axis 1 of trans(x)), and
// rowmax[p M + m] = the maximum of x[m][n] over the program's columns (axis 0 of trans(x)).
template <int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(N, BN)))
void trans_reduce(const int32_t *x, int32_t *colsum, int32_t *rowmax, int M, int N, int ldx) {
  int pid = tl::program_id(0);
  auto m = tl::arange<0, BM>();
  auto n = pid * BN + tl::arange<0, BN>();
  auto xm = tl::expand_dims<1>(m);
  auto xn = tl::expand_dims<0>(n);
  auto mask = (xm < M) & (xn < N);
  auto zeros = tl::load(x + xm * ldx + xn, mask, 0);    // masked off: adds nothing
  auto lows = tl::load(x + xm * ldx + xn, mask, -1000); // masked off: below every value
  tl::store(colsum + n, tl::sum<1>(tl::trans(zeros)), n < N);
  tl::store(rowmax + pid * M + m, tl::max<0>(tl::trans(lows)), m < M);
}

template void trans_reduce<64, 32>(const int32_t *, int32_t *, int32_t *, int, int, int);
