// EXPECT: grid_overflow.cpp:6:48: error: '65536 * 65536' overflows 'int' in the grid expression
// A constant part of a grid expression overflows int (as C++ computes it), even next to a parameter.
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (n * (65536 * BLOCK)))
void k(float *out, int n) {
  tl::store(out + tl::arange<0, BLOCK>(), tl::full<float, BLOCK>(1.0f));
}
template void k<65536>(float *, int);
