// tl::sort and tl::topk: each row of a tile (its last dim) sorted by a bitonic network in shared
// memory. Rows of 1-D and 2-D tiles, ascending and descending, floats with NaNs, infinities and
// signed zeros (IEEE 754 totalOrder), fp64, fp16, bf16, fp8, integers, a row shorter than the block's
// threads, and ragged blocks whose masked-off elements read 0 and sort with the rest.
#include <tilec/tl.hpp>

// Each block of BLOCK values sorted (out), under the mask of the values that exist.
template <int BLOCK, bool DESCENDING, class T>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void sort_blocks(const T *x, T *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n);
  tl::store(out + offs, tl::sort<0, DESCENDING>(v), offs < n);
}

// R rows of N a program: each row sorted ascending (sorted), and its K largest (top).
template <int R, int N, int K, class T>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(m, R)))
void sort_rows(const T *x, T *sorted, T *top, int m) {
  auto rows = tl::program_id(0) * R + tl::arange<0, R>();
  auto in_rows = tl::expand_dims<1>(rows < m);
  auto v = tl::load(x + tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(tl::arange<0, N>()),
                    in_rows);
  tl::store(sorted + tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(tl::arange<0, N>()),
            tl::sort(v), in_rows);
  tl::store(top + tl::expand_dims<1>(rows) * K + tl::expand_dims<0>(tl::arange<0, K>()),
            tl::topk<K>(v), in_rows);
}

template void sort_blocks<1024, false, float>(const float *, float *, int);
template void sort_blocks<256, true, tl::half>(const tl::half *, tl::half *, int);
template void sort_blocks<64, false, int32_t>(const int32_t *, int32_t *, int);
template void sort_blocks<32, true, uint8_t>(const uint8_t *, uint8_t *, int);
template void sort_blocks<128, false, tl::float8_e5m2>(const tl::float8_e5m2 *, tl::float8_e5m2 *,
                                                       int);
template void sort_blocks<512, true, double>(const double *, double *, int);
template void sort_rows<16, 64, 8, float>(const float *, float *, float *, int);
template void sort_rows<4, 256, 16, tl::bfloat16>(const tl::bfloat16 *, tl::bfloat16 *,
                                                  tl::bfloat16 *, int);
template void sort_rows<8, 32, 32, int64_t>(const int64_t *, int64_t *, int64_t *, int);
