// EXPECT: sort_dim.cpp:8:27: error: tl::sort: tiles are sorted along their last dim
#include <tilec/tl.hpp>

// Triton sorts along the last dim only; a sort along dim 0 of a 2-D tile is an error.
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out) {
  auto at = tl::expand_dims<1>(tl::arange<0, 16>()) * 16 + tl::expand_dims<0>(tl::arange<0, 16>());
  tl::store(out + at, tl::sort<0>(tl::load(x + at)));
}
