// EXPECT: grid_division_by_zero.cpp:6:37: error: division by zero in the grid expression
// cdiv by a constant zero, whatever the dividend.
#include <tilec/tl.hpp>

template <int BLOCK, int PER_PROGRAM>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, PER_PROGRAM)))
void k(float *out, int n) {
  tl::store(out + tl::arange<0, BLOCK>(), tl::full<float, BLOCK>(1.0f));
}
template void k<128, 0>(float *, int);
