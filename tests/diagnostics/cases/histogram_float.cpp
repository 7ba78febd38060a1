// EXPECT: histogram_float.cpp:9:47: error: tl: histogram counts integers
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, int *counts) {
  auto offs = tl::arange<0, B>();
  // Bins have width 1 and start at 0: floats are binned by the kernel first (tl::cast<int32_t>).
  tl::store(counts + tl::arange<0, 16>(), tl::histogram<16>(tl::load(x + offs)));
}
template void k<128>(const float *, int *);
