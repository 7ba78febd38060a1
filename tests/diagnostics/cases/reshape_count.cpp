// EXPECT: reshape_count.cpp:8:16: error: tl::reshape: the new shape must have as many elements as the tile
#include <tilec/tl.hpp>

// A reshape keeps the number of elements: 64 values do not make 4 rows of 32.
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out) {
  auto v = tl::load(x + tl::arange<0, 64>());
  auto m = tl::reshape<4, 32>(v);
  tl::store(out + tl::arange<0, 128>(), tl::ravel(m));
}
