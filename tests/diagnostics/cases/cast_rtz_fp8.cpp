// EXPECT: cast_rtz_fp8.cpp:10:52: error: tl::cast of 'f32' to 'f8e5m2': an fp8 type is rounded to nearest even only (Triton rounds toward zero only fp32 to float8e5, by truncation)
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, tl::float8_e5m2 *y) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  // fp8 conversions round to nearest even and saturate; rounding toward zero is not offered.
  tl::store(y + offs, tl::cast<tl::float8_e5m2>(v, {.fp_downcast_rounding = tl::rounding::rtz}));
}
template void k<128>(const float *, tl::float8_e5m2 *);
