// EXPECT: scan_axis.cpp:9:29: error: tl: scan axis out of range
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out) {
  auto offs = tl::arange<0, B>();
  // A 1-D tile has no axis 1: tl.cumsum(x, axis=1) is an error in Triton too.
  tl::store(out + offs, tl::cumsum<1>(tl::load(x + offs)));
}
template void k<128>(const float *, float *);
