// EXPECT: bad_annotation_warp_specialize.cpp:5:51: error: invalid kernel setting 'WARPS'; expected 'true', 'false' or a bool meta-parameter name
#include <tilec/tl.hpp>

template <int WARPS>
TILEC_KERNEL(num_warps = WARPS, warp_specialize = WARPS)
void k(float *out) {
  tl::store(out, 1.0f);
}
template void k<4>(float *);
