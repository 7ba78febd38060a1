// EXPECT: join_rank2.cpp:9:16: error: tl::join: tiles have rank <= 2, so join takes 1-D tiles
#include <tilec/tl.hpp>

// Joining 2-D tiles would give a rank-3 tile, which tiles cannot be yet.
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out) {
  auto at = tl::expand_dims<1>(tl::arange<0, 16>()) * 16 + tl::expand_dims<0>(tl::arange<0, 16>());
  auto v = tl::load(x + at);
  auto j = tl::join(v, v);
  tl::store(out + at, tl::sum<2>(j));
}
