// EXPECT: bad_annotation_key.cpp:5:29: error: invalid kernel setting 'num_ctas = 2'; expected 'num_warps', 'num_stages', 'grid' or 'warp_specialize'
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4, num_ctas = 2)
void k(float *out) {
  tl::store(out, 1.0f);
}
template void k<16>(float *);
