// EXPECT: not_a_kernel.cpp:5:5: error: 'table' is marked as a kernel but is not a function
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 4)
int table[4];

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  tl::store(out, 1.0f);
}
template void k<16>(float *);
