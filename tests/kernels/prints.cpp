// tl::device_print: Triton's lines ("pid (x, y, z) idx (i, j) prefix: value"), each element once,
// for tiles in a blocked layout, a replicated one (a tile smaller than the block), a reduction's
// slice, a dot's accumulator (an mma layout on the GPU) and scalars; several operands, tl::hex, a
// print without operands, a print in a pipelined loop. tests/gpu/prints.cu compares the lines with
// the CPU reference's, sorted (the GPU's threads print in any order).
#include <tilec/tl.hpp>

// Rows of x [rows, cols]: each program prints its BR x BC tile (masked elements as loaded, 0),
// the row sums (a slice), then the sums in hexadecimal beside their row numbers, and writes the
// sums; the first program also prints a line without operands.
template <int BR, int BC>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(rows, BR)))
void print_rows(const float *x, float *sums, int rows, int cols) {
  auto r = tl::program_id(0) * BR + tl::arange<0, BR>();
  auto c = tl::arange<0, BC>();
  auto mask = tl::expand_dims<1>(r < rows) & tl::expand_dims<0>(c < cols);
  auto tile = tl::load(x + tl::expand_dims<1>(r) * cols + tl::expand_dims<0>(c), mask, 0.0f);
  if (tl::program_id(0) == 0)
    tl::device_print("rows of x");
  tl::device_print("x", tile);
  auto s = tl::sum<1>(tile);
  tl::device_print("sum", s);
  tl::device_print("row, sum bits: ", r, s, tl::hex);
  tl::store(sums + r, s, r < rows);
}

// Element types and scalars: a tile of 8 (replicated over the 128 threads) of int8, uint64, fp16,
// bf16 and bool, and the scalars n, a float and a program id, with a % in the prefix.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void print_types(const int8_t *a, const uint64_t *b, const tl::half *h, const tl::bfloat16 *g,
                 int *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto m = offs < n;
  auto av = tl::load(a + offs, m, int8_t(0));
  auto bv = tl::load(b + offs, m, uint64_t(0));
  auto hv = tl::load(h + offs, m, 0.0f);
  auto gv = tl::load(g + offs, m, 0.0f);
  tl::device_print("types", av, bv, hv, gv, av < 0);
  tl::device_print("halves", hv, tl::hex);
  tl::device_print("100% scalars", n, 0.25f, tl::program_id(0));
  tl::store(out + offs, tl::cast<int>(av) + tl::cast<int>(hv), m);
}

// A dot's accumulator printed where it is (at 32 x 32 on 4 warps, the layout of mma.sync's
// accumulators on CUDA, of MFMA's on HIP), in a K loop of two stages that prints each step's A
// tile.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM)))
void print_dot(const tl::half *a, const tl::half *b, float *c, int M, int N, int K) {
  auto rm = tl::expand_dims<1>(tl::program_id(0) * BM + tl::arange<0, BM>());
  auto rn = tl::expand_dims<0>(tl::arange<0, BN>());
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 : tl::range<2>(0, K, BK)) {
    auto ka = tl::expand_dims<0>(k0 + tl::arange<0, BK>());
    auto kb = tl::expand_dims<1>(k0 + tl::arange<0, BK>());
    auto av = tl::load(a + rm * K + ka, (rm < M) & (ka < K), 0.0f);
    auto bv = tl::load(b + kb * N + rn, (kb < K) & (rn < N), 0.0f);
    tl::device_print("a", av);
    acc = tl::dot(av, bv, acc);
  }
  tl::device_print("acc", acc);
  tl::store(c + rm * N + rn, acc, (rm < M) & (rn < N));
}

template void print_rows<4, 32>(const float *, float *, int, int);
template void print_types<8>(const int8_t *, const uint64_t *, const tl::half *,
                             const tl::bfloat16 *, int *, int);
template void print_dot<32, 32, 16>(const tl::half *, const tl::half *, float *, int, int, int);
