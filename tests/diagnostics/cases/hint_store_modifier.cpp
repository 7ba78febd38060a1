// EXPECT: hint_store_modifier.cpp:9:43: error: tl::load: cache_modifier 'cs' is a store's; a load takes 'ca', 'cg' or 'cv'
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *y) {
  auto offs = tl::arange<0, B>();
  // .cs (streaming) is one of PTX's store cache operators; Triton's loads take .ca, .cg and .cv.
  auto v = tl::load(x + offs, offs < 100, {.cache_modifier = tl::cache::cs});
  tl::store(y + offs, v, offs < 100);
}
template void k<128>(const float *, float *);
