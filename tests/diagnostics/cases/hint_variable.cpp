// EXPECT: hint_variable.cpp:8:20: error: the hints of a load or store must be a compile-time constant; 'hints' is not
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *y, int streaming) {
  auto offs = tl::arange<0, B>();
  tl::load_options hints; // hints are chosen when the kernel is translated: constexpr
  if (streaming)
    hints.eviction_policy = tl::evict_first;
  auto v = tl::load(x + offs, hints);
  tl::store(y + offs, v);
}
template void k<128>(const float *, float *, int);
