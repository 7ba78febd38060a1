// EXPECT: bad_annotation_stages.cpp:5:42: error: invalid kernel setting 'num_stages = 0'; expected a number between 1 and 8 for 'num_stages' (got 0)
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4, num_stages = 0)
void k(float *out) {
  tl::store(out, 1.0f);
}
template void k<16>(float *);
