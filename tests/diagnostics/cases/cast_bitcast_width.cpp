// EXPECT: cast_bitcast_width.cpp:9:44: error: tl::cast of 'f32' to 'i16': a bitcast needs types of the same width; these have 32 and 16 bits
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, int16_t *y) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  tl::store(y + offs, tl::cast<int16_t>(v, {.bitcast = true}));
}
template void k<128>(const float *, int16_t *);
