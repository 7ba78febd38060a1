// EXPECT: cast_rtz_widening.cpp:10:42: error: tl::cast of 'f16' to 'f32': 'fp_downcast_rounding' rounds a float narrowed to a narrower float; this cast narrows no float
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const tl::half *x, float *y) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  // fp16 -> fp32 is exact: there is nothing to round.
  tl::store(y + offs, tl::cast<float>(v, {.fp_downcast_rounding = tl::rounding::rtz}));
}
template void k<128>(const tl::half *, float *);
