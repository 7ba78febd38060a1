// EXPECT: split_result.cpp:8:17: error: 'tl::split' returns two tiles; bind them where it is called: auto [a, b] = tl::split(x);
#include <tilec/tl.hpp>

// tl::split returns two tiles, which only a structured binding takes apart.
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out) {
  auto at = tl::expand_dims<1>(tl::arange<0, 64>()) * 2 + tl::expand_dims<0>(tl::arange<0, 2>());
  auto halves = tl::split(tl::load(x + at));
  tl::store(out + tl::arange<0, 64>(), std::get<0>(halves));
}
