// EXPECT: early_return.cpp:8:5: error: 'return' is only allowed as the last statement of a kernel
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  if (n == 0)
    return;
  tl::store(out, 1.0f);
}
template void k<16>(float *, int);
