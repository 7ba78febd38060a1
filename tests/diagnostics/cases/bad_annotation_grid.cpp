// EXPECT: bad_annotation_grid.cpp:5:37: error: invalid kernel setting 'out'; expected an integer scalar parameter; 'out' has type ptr<f32>
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4, grid = (out + 1))
void k(float *out, int n) {
  tl::store(out, 1.0f);
}
template void k<16>(float *, int);
