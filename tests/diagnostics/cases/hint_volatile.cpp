// EXPECT: hint_volatile.cpp:9:31: error: tl::load: a volatile load takes no cache_modifier or eviction_policy (PTX's ld.volatile has none)
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *y) {
  auto offs = tl::arange<0, B>();
  // PTX's ld.volatile takes no cache operator or eviction priority.
  auto v = tl::load(x + offs, {.eviction_policy = tl::evict_first, .is_volatile = true});
  tl::store(y + offs, v);
}
template void k<128>(const float *, float *);
