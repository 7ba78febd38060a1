// EXPECT: rank3_scan.cpp:11:12: error: 'tl::cumsum' of a rank-3 tile is not supported yet; tilec's rank-3 tiles have creation, elementwise ops, loads and stores, atomics, reductions, expand_dims, broadcast_to, permute, reshape, join, split, interleave and cat
#include <tilec/tl.hpp>

// A scan of a rank-3 tile: the CPU reference computes it, the translator does not yet.
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out) {
  auto i = tl::expand_dims<1>(tl::expand_dims<1>(tl::arange<0, 2>())) * 256;
  auto j = tl::expand_dims<0>(tl::expand_dims<1>(tl::arange<0, 16>())) * 16;
  auto at = i + j + tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, 16>()));
  auto v = tl::load(x + at);
  auto c = tl::cumsum<1>(v);
  tl::store(out + at, c);
}
