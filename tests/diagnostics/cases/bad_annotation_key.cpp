// EXPECT: bad_annotation_key.cpp:5:29: error: invalid kernel setting 'num_stages = 3'; expected 'num_warps' or 'grid'
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4, num_stages = 3)
void k(float *out) {
  tl::store(out, 1.0f);
}
template void k<16>(float *);
