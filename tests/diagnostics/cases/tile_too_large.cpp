// EXPECT: tile_too_large.cpp:7:8: error: tile of 2097152 elements is too large; at most 1048576 elements per tile
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  auto big = tl::zeros<float, B>();
  tl::store(out, tl::sum(big));
}
template void k<2097152>(float *);
