// EXPECT: hint_load_modifier.cpp:9:43: error: tl::store: cache_modifier 'cv' is a load's; a store takes 'wb', 'cg', 'cs' or 'wt'
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *y) {
  auto offs = tl::arange<0, B>();
  // .cv (fetch again) is a load's cache operator.
  tl::store(y + offs, tl::load(x + offs), {.cache_modifier = tl::cache::cv});
}
template void k<128>(const float *, float *);
