// Aligned variants chosen at launch (issue 17, item 3): rows `stride` elements apart, n of them
// read, as row-wise production kernels index them. tilec emits the general kernel and a variant
// for 16-byte aligned x and out with stride and n multiples of 16 (unchecked 16-byte vectors, one
// mask test per vector); the launcher picks the variant when the arguments qualify.
// tests/gpu/aligned.cu runs qualifying and non-qualifying arguments (ragged n, a stride of 8
// halves, pointers one element or 16 bytes past an allocation's start) and checks both the results
// and, on the emulator, which variant ran.
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (rows))
void scale_rows_strided(const tl::half *x, tl::half *out, float alpha, int64_t stride, int rows,
                        int n) {
  int64_t row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto v = tl::cast<float>(tl::load(x + row * stride + cols, mask, 0.0f));
  tl::store(out + row * stride + cols, tl::cast<tl::half>(v * alpha + 1.0f), mask);
}

template void scale_rows_strided<1024>(const tl::half *, tl::half *, float, int64_t, int, int);
