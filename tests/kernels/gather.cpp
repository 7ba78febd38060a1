// tl::gather and tl::flip: elements of a tile at indices along an axis, through shared memory.
// Indices come from memory, negative and past the end too (taken modulo the axis's size), of
// int32 and int64; the index tile may be longer or shorter than the source along the axis. And
// tl::histogram, which counts into shared memory: masked, with values outside the bins, on a tile
// smaller than the block's threads (whose copies must count once), and unmasked bytes.
#include <tilec/tl.hpp>

// out[i][j] = src[index[i][j]][j]: BI rows of indices into a block of BM rows (AXIS 0), or
// out[i][j] = src[i][index[i][j]]: BJ columns of indices into BN columns (AXIS 1).
template <int BM, int BN, int BI, int BJ, int AXIS, class I>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(m, BM)))
void gather_2d(const float *src, const I *index, float *out, int m) {
  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto v = tl::load(src + tl::expand_dims<1>(rows) * BN + tl::expand_dims<0>(tl::arange<0, BN>()),
                    tl::expand_dims<1>(rows) < m, 0.0f);
  // The block's indices: BI x BJ of them (one of BI, BJ is the source's size along the other axis).
  auto at = (tl::program_id(0) * BI + tl::expand_dims<1>(tl::arange<0, BI>())) * BJ +
            tl::expand_dims<0>(tl::arange<0, BJ>());
  auto idx = tl::load(index + at);
  tl::store(out + at, tl::gather<AXIS>(v, idx));
}

// Each block of BLOCK values reversed (1-D), and each BM x BN block flipped up-down and left-right.
template <int BLOCK, int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void flips(const tl::half *x, tl::half *reversed, const int32_t *y, int32_t *updown,
           int32_t *leftright, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(reversed + offs, tl::flip(tl::load(x + offs, mask)), mask);
  auto at = tl::program_id(0) * BM * BN + tl::expand_dims<1>(tl::arange<0, BM>()) * BN +
            tl::expand_dims<0>(tl::arange<0, BN>());
  auto block = tl::load(y + at);
  tl::store(updown + at, tl::flip<0>(block));
  tl::store(leftright + at, tl::flip(block));
}

// Each block's histogram of the values where the mask is set (values outside [0, BINS) count
// nowhere).
template <int BLOCK, int BINS, class T>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void histograms(const T *x, int32_t *counts, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto bins = tl::program_id(0) * BINS + tl::arange<0, BINS>();
  tl::store(counts + bins, tl::histogram<BINS>(tl::load(x + offs, mask), mask));
}

// 256 bins of bytes, every element counted (whole blocks).
TILEC_KERNEL(num_warps = 2, grid = (blocks))
void byte_histograms(const uint8_t *x, int32_t *counts, int blocks) {
  if (tl::program_id(0) >= blocks) // never, with the grid above
    return;
  auto offs = tl::program_id(0) * 512 + tl::arange<0, 512>();
  tl::store(counts + tl::program_id(0) * 256 + tl::arange<0, 256>(),
            tl::histogram<256>(tl::load(x + offs)));
}

// One row of n_cols (at most BLOCK) a program: reversed, and gathered at the row's indices
// (bench/gather.py times them beside Triton and checks them against torch).
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (rows))
void flip_rows(const float *x, float *y, int rows, int n_cols) {
  auto cols = tl::arange<0, BLOCK>();
  auto at = tl::program_id(0) * BLOCK + cols;
  auto v = tl::load(x + at, (cols < n_cols) & (tl::program_id(0) < rows));
  tl::store(y + at, tl::flip(v));
}
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (rows))
void gather_rows(const float *x, const int32_t *index, float *y, int rows) {
  auto at = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = tl::full<bool, BLOCK>(tl::program_id(0) < rows);
  tl::store(y + at, tl::gather<0>(tl::load(x + at, mask), tl::load(index + at, mask)), mask);
}

template void flip_rows<1024>(const float *, float *, int, int);
template void gather_rows<1024>(const float *, const int32_t *, float *, int);
template void histograms<1024, 64, int32_t>(const int32_t *, int32_t *, int);
template void histograms<32, 16, int64_t>(const int64_t *, int32_t *, int);
template void gather_2d<64, 32, 128, 32, 0, int32_t>(const float *, const int32_t *, float *, int);
template void gather_2d<16, 64, 16, 32, 1, int64_t>(const float *, const int64_t *, float *, int);
template void flips<512, 32, 16>(const tl::half *, tl::half *, const int32_t *, int32_t *,
                                 int32_t *, int);
