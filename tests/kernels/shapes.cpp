// Shape ops: tl::reshape, tl::ravel, tl::permute, tl::join, tl::split, tl::interleave and tl::cat,
// which rearrange a tile's elements in row-major order through shared memory. Ragged blocks, a
// reshaped mask, tiles smaller than the block's threads, 8- to 64-bit elements and fp8.
#include <tilec/tl.hpp>

// Each block of R * C values as R rows of C: stored through 2-D offsets (rows, under the mask
// reshaped alike), as the C columns one after another (cols: the transpose raveled), and reshaped
// once more to 2R rows of C / 2 (halves).
template <int R, int C, class T>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, R * C)))
void reshapes(const T *x, T *rows, T *cols, T *halves, int n) {
  const int base = tl::program_id(0) * (R * C);
  auto offs = base + tl::arange<0, R * C>();
  auto m = tl::reshape<R, C>(tl::load(x + offs, offs < n));
  auto at = base + tl::expand_dims<1>(tl::arange<0, R>()) * C +
            tl::expand_dims<0>(tl::arange<0, C>());
  tl::store(rows + at, m, tl::reshape<R, C>(offs < n));
  tl::store(cols + offs, tl::ravel(tl::permute<1, 0>(m)), offs < n);
  auto half_at = base + tl::expand_dims<1>(tl::arange<0, 2 * R>()) * (C / 2) +
                 tl::expand_dims<0>(tl::arange<0, C / 2>());
  tl::store(halves + half_at, tl::reshape<2 * R, C / 2>(m), half_at < n);
}

// Complex numbers stored as interleaved (re, im) pairs: each block's BLOCK pairs of z and w as
// [BLOCK, 2] tiles, split into their parts, (z.re - w.im, z.im + w.re) joined back into pairs
// (out), and z's conjugate interleaved from its parts (conj).
template <int BLOCK, class T>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void complex_pairs(const T *z, const T *w, T *out, T *conj, int n) {
  auto i = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto pair = tl::expand_dims<1>(i) * 2 + tl::expand_dims<0>(tl::arange<0, 2>());
  auto mask = tl::expand_dims<1>(i) < n;
  auto [zr, zi] = tl::split(tl::load(z + pair, mask));
  auto [wr, wi] = tl::split(tl::load(w + pair, mask));
  tl::store(out + pair, tl::join(zr - wi, zi + wr), mask);
  auto flat = tl::program_id(0) * (2 * BLOCK) + tl::arange<0, 2 * BLOCK>();
  tl::store(conj + flat, tl::interleave(zr, -zi), flat < 2 * n);
}

// Each block's BLOCK values of x, then of y (both), and the same as rows: BLOCK / 16 rows of x's
// 16 columns, then y's (rows).
template <int BLOCK, class T>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void cats(const T *x, const T *y, T *both, T *rows, int n) {
  auto i = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto a = tl::load(x + i, i < n);
  auto b = tl::load(y + i, i < n);
  auto o = tl::program_id(0) * (2 * BLOCK) + tl::arange<0, 2 * BLOCK>();
  tl::store(both + o, tl::cat(a, b, /*can_reorder=*/true));
  auto r = tl::cat(tl::reshape<BLOCK / 16, 16>(a), tl::reshape<BLOCK / 16, 16>(b));
  auto at = tl::program_id(0) * (2 * BLOCK) + tl::expand_dims<1>(tl::arange<0, BLOCK / 8>()) * 16 +
            tl::expand_dims<0>(tl::arange<0, 16>());
  tl::store(rows + at, r);
}

// The maximum of each group of BLOCK / G consecutive values: a reduction of the reshaped block.
template <int G, int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void group_max(const float *x, float *out, int n) {
  auto i = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto groups = tl::reshape<G, BLOCK / G>(tl::load(x + i, i < n, -INFINITY));
  tl::store(out + tl::program_id(0) * G + tl::arange<0, G>(), tl::max<1>(groups));
}

template void reshapes<8, 32, float>(const float *, float *, float *, float *, int);
template void reshapes<16, 64, tl::half>(const tl::half *, tl::half *, tl::half *, tl::half *, int);
template void reshapes<4, 8, int64_t>(const int64_t *, int64_t *, int64_t *, int64_t *, int);
template void reshapes<32, 16, uint8_t>(const uint8_t *, uint8_t *, uint8_t *, uint8_t *, int);
template void reshapes<16, 16, tl::float8_e4m3>(const tl::float8_e4m3 *, tl::float8_e4m3 *,
                                                tl::float8_e4m3 *, tl::float8_e4m3 *, int);
template void complex_pairs<256, float>(const float *, const float *, float *, float *, int);
template void complex_pairs<64, int32_t>(const int32_t *, const int32_t *, int32_t *, int32_t *,
                                         int);
template void cats<512, float>(const float *, const float *, float *, float *, int);
template void cats<64, tl::bfloat16>(const tl::bfloat16 *, const tl::bfloat16 *, tl::bfloat16 *,
                                     tl::bfloat16 *, int);
template void group_max<8, 1024>(const float *, float *, int);
