// Scans: tl::cumsum and tl::cumprod along either axis, forward and reverse, over the layouts a
// scan meets: one warp along the axis or several, repetitions of the layout along it (2048
// elements on 512 threads' worth), a tile smaller than the threads (copies), a slice layout (the
// row sums of a 2-D tile), integers widened to int32 (int8) or wrapping (int32 products), and a
// running sum over the chunks of a long row with a carry between them (the scan's shared memory
// reused every iteration).
#include <tilec/tl.hpp>

template <int BLOCK, bool REVERSE>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void cumsum_1d(const float *x, float *y, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0.0f);
  tl::store(y + offs, tl::cumsum<0, REVERSE>(v), mask);
}

// Each row's running sums (AXIS 1) or each column's (AXIS 0) of a BM x BN block; x's rows are
// `stride` apart, y's `n`.
template <int BM, int BN, int AXIS, bool REVERSE>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(m, BM), cdiv(n, BN)))
void cumsum_2d(const float *x, float *y, int m, int n, int stride) {
  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto cols = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rows) < m) & (tl::expand_dims<0>(cols) < n);
  auto v = tl::load(x + tl::expand_dims<1>(rows) * stride + tl::expand_dims<0>(cols), mask, 0.0f);
  tl::store(y + tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols),
            tl::cumsum<AXIS, REVERSE>(v), mask);
}

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void cumprod_1d(const float *x, float *y, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 1.0f);
  tl::store(y + offs, tl::cumprod(v), mask);
}

// int8 running sums in int32 (Triton's rule), and int32 running products that wrap.
template <int BLOCK, bool REVERSE>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, BLOCK)))
void int_scans(const int8_t *x, const int32_t *f, int32_t *sums, int32_t *prods, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(sums + offs, tl::cumsum<0, REVERSE>(tl::load(x + offs, mask)), mask);
  tl::store(prods + offs, tl::cumprod<0, REVERSE>(tl::load(f + offs, mask, 1)), mask);
}

// The running sums of the row sums of a BM x BN block: a scan of a 1-D tile in a slice layout.
template <int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(m, BM)))
void row_sums_cumsum(const float *x, float *y, int m, int n, int stride) {
  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rows) < m) & (tl::expand_dims<0>(cols) < n);
  auto v = tl::load(x + tl::expand_dims<1>(rows) * stride + tl::expand_dims<0>(cols), mask, 0.0f);
  tl::store(y + rows, tl::cumsum(tl::sum<1>(v)), rows < m);
}

// The running sums of each whole row, BLOCK elements at a time: every chunk's scan plus the sum
// of the chunks before it.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (m))
void row_cumsum_looped(const float *x, float *y, int m, int n, int stride) {
  auto row = tl::program_id(0);
  float carry = 0.0f;
  for (int start = 0; start < n; start += BLOCK) {
    auto cols = start + tl::arange<0, BLOCK>();
    auto mask = (cols < n) & (row < m);
    auto v = tl::load(x + row * stride + cols, mask, 0.0f);
    tl::store(y + row * n + cols, tl::cumsum(v) + carry, mask);
    carry += tl::sum(v);
  }
}

// Every element type: running sums (S: the type cumsum gives, int32 / uint32 for narrower
// integers, float for bfloat16) and running products (P: float for bfloat16), both ways.
template <class T, class S, class P, int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void typed_scans(const T *x, S *sums, S *rsums, P *prods, P *rprods, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask);
  tl::store(sums + offs, tl::cumsum(v), mask);
  tl::store(rsums + offs, tl::cumsum<0, true>(v), mask);
  auto f = tl::load(x + offs, mask, T(1));
  tl::store(prods + offs, tl::cumprod(f), mask);
  tl::store(rprods + offs, tl::cumprod<-1, true>(f), mask);
}

// bool: running counts in int32.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void count_positive(const float *x, int32_t *counts, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(counts + offs, tl::cumsum(tl::load(x + offs, mask, 0.0f) > 0.0f), mask);
}

// The kernel's own combine functions (lambdas): running maxima (tl::associative_scan, both ways)
// and the block's maximum (tl::reduce); a forward fill, the last nonzero value so far, whose
// combine is associative but not commutative (b wins unless it is 0); fp16 running maxima.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void combine_1d(const float *x, float *maxima, float *rmaxima, float *block_max, float *filled,
                tl::half *hmaxima, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, -tl::inf);
  auto larger = [](float a, float b) { return a > b ? a : b; };
  tl::store(maxima + offs, tl::associative_scan<0>(v, larger), mask);
  tl::store(rmaxima + offs, tl::associative_scan<0, true>(v, larger), mask);
  tl::store(block_max + tl::program_id(0),
            tl::reduce(v, [](auto a, auto b) { return tl::maximum(a, b); }));
  auto sparse = tl::where(v > 0.5f, v, 0.0f);
  auto last_nonzero = [](float earlier, float later) { return later != 0.0f ? later : earlier; };
  tl::store(filled + offs, tl::associative_scan<0>(sparse, last_nonzero), mask);
  auto h = tl::cast<tl::half>(v);
  tl::store(hmaxima + offs,
            tl::associative_scan<0>(h, [](tl::half a, tl::half b) { return tl::maximum(a, b); }),
            mask);
}

// Along either axis of a 2-D block: the columns' backward fill (reverse scan along axis 0) and
// the rows' xor (tl::reduce along axis 1) of int32 values.
template <int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(m, BM)))
void combine_2d(const int32_t *x, int32_t *filled, int32_t *row_xor, int m, int n) {
  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rows) < m) & (tl::expand_dims<0>(cols) < n);
  auto at = tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols);
  auto v = tl::load(x + at, mask, 0);
  auto keep = [](int32_t earlier, int32_t later) { return later != 0 ? later : earlier; };
  tl::store(filled + at, tl::associative_scan<0, true>(v, keep), mask);
  tl::store(row_xor + rows, tl::reduce<1>(v, [](int32_t a, int32_t b) { return a ^ b; }), rows < m);
}

// The running sums along the rows of a matrix product: the scan of a tensor-core accumulator,
// which layout assignment converts to a blocked layout first. m rows of a (K = 32) times b.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(m, BM)))
void dot_cumsum(const tl::half *a, const tl::half *b, float *c, int m) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto rows = tl::expand_dims<1>(rm) < m;
  auto x = tl::load(a + tl::expand_dims<1>(rm) * BK + tl::expand_dims<0>(rk), rows, tl::half(0.0f));
  auto y = tl::load(b + tl::expand_dims<1>(rk) * BN + tl::expand_dims<0>(rn));
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), tl::cumsum<1>(tl::dot(x, y)),
            rows);
}

template void cumsum_1d<2048, false>(const float *, float *, int);
template void cumsum_1d<2048, true>(const float *, float *, int);
template void cumsum_1d<64, false>(const float *, float *, int);
template void cumsum_1d<256, true>(const float *, float *, int);
template void cumsum_2d<4, 1024, 1, false>(const float *, float *, int, int, int);
template void cumsum_2d<16, 64, 1, true>(const float *, float *, int, int, int);
template void cumsum_2d<256, 16, 0, false>(const float *, float *, int, int, int);
template void cumsum_2d<32, 32, 0, true>(const float *, float *, int, int, int);
template void cumprod_1d<1024>(const float *, float *, int);
template void int_scans<512, false>(const int8_t *, const int32_t *, int32_t *, int32_t *, int);
template void int_scans<128, true>(const int8_t *, const int32_t *, int32_t *, int32_t *, int);
template void row_sums_cumsum<64, 32>(const float *, float *, int, int, int);
template void row_cumsum_looped<512>(const float *, float *, int, int, int);
template void typed_scans<int8_t, int32_t, int8_t, 256>(const int8_t *, int32_t *, int32_t *,
                                                        int8_t *, int8_t *, int);
template void typed_scans<int16_t, int32_t, int16_t, 256>(const int16_t *, int32_t *, int32_t *,
                                                          int16_t *, int16_t *, int);
template void typed_scans<int32_t, int32_t, int32_t, 256>(const int32_t *, int32_t *, int32_t *,
                                                          int32_t *, int32_t *, int);
template void typed_scans<int64_t, int64_t, int64_t, 256>(const int64_t *, int64_t *, int64_t *,
                                                          int64_t *, int64_t *, int);
template void typed_scans<uint8_t, uint32_t, uint8_t, 256>(const uint8_t *, uint32_t *, uint32_t *,
                                                           uint8_t *, uint8_t *, int);
template void typed_scans<uint16_t, uint32_t, uint16_t, 256>(const uint16_t *, uint32_t *,
                                                             uint32_t *, uint16_t *, uint16_t *,
                                                             int);
template void typed_scans<uint32_t, uint32_t, uint32_t, 256>(const uint32_t *, uint32_t *,
                                                             uint32_t *, uint32_t *, uint32_t *,
                                                             int);
template void typed_scans<uint64_t, uint64_t, uint64_t, 256>(const uint64_t *, uint64_t *,
                                                             uint64_t *, uint64_t *, uint64_t *,
                                                             int);
template void typed_scans<tl::half, tl::half, tl::half, 256>(const tl::half *, tl::half *,
                                                             tl::half *, tl::half *, tl::half *,
                                                             int);
template void typed_scans<tl::bfloat16, float, float, 256>(const tl::bfloat16 *, float *, float *,
                                                           float *, float *, int);
template void typed_scans<float, float, float, 256>(const float *, float *, float *, float *,
                                                    float *, int);
template void typed_scans<double, double, double, 256>(const double *, double *, double *, double *,
                                                       double *, int);
template void count_positive<1024>(const float *, int32_t *, int);
template void combine_1d<1024>(const float *, float *, float *, float *, float *, tl::half *, int);
template void combine_2d<64, 32>(const int32_t *, int32_t *, int32_t *, int, int);
template void dot_cumsum<64, 64, 32>(const tl::half *, const tl::half *, float *, int);
