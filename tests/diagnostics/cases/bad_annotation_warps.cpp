// EXPECT: bad_annotation_warps.cpp:5:26: error: invalid kernel setting 'num_warps = W'; expected a power of two between 1 and 32 for 'num_warps' (got 3)
#include <tilec/tl.hpp>

template <int B, int W>
TILEC_KERNEL(num_warps = W)
void k(float *out) {
  tl::store(out, 1.0f);
}
template void k<16, 3>(float *);
