// EXPECT: cast_bitcast_rtz.cpp:9:44: error: tl::cast of 'f32' to 'i32': a bitcast keeps the bits and rounds nothing; give either 'bitcast' or 'fp_downcast_rounding'
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, int32_t *y) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  tl::store(y + offs, tl::cast<int32_t>(v, {.fp_downcast_rounding = tl::rounding::rtz, .bitcast = true}));
}
template void k<128>(const float *, int32_t *);
