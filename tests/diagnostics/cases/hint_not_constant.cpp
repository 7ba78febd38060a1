// EXPECT: hint_not_constant.cpp:9:31: error: the hints of 'tl::load' must be a compile-time constant; '{.eviction_policy = streaming ? tl::evict_first : tl::evi...' is not
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *y, int streaming) {
  auto offs = tl::arange<0, B>();
  // Hints are chosen when the kernel is translated: a template parameter can choose them.
  auto v = tl::load(x + offs, {.eviction_policy = streaming ? tl::evict_first : tl::evict_last});
  tl::store(y + offs, v);
}
template void k<128>(const float *, float *, int);
