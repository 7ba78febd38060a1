// EXPECT: join_rank3.cpp:10:16: error: tl::join: tiles have rank <= 3, so join takes 1-D or 2-D tiles
#include <tilec/tl.hpp>

// Joining 3-D tiles would give a rank-4 tile, which tiles cannot be.
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out) {
  auto at = tl::expand_dims<1>(tl::arange<0, 16>()) * 16 + tl::expand_dims<0>(tl::arange<0, 16>());
  auto v = tl::load(x + at);
  auto w = tl::join(v, v);
  auto j = tl::join(w, w);
  tl::store(out + at, tl::sum<2>(tl::sum<3>(j)));
}
