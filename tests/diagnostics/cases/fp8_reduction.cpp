// EXPECT: fp8_reduction.cpp:10:22: error: tl: reductions and scans of fp8 tiles are not supported; convert to float first (tl::cast<float>(x))
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const tl::float8_e4m3 *x, float *out) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  // An fp8 sum would round after every addition: tilec (as Triton) asks for the conversion.
  tl::store(out, tl::sum(v));
}
template void k<128>(const tl::float8_e4m3 *, float *);
