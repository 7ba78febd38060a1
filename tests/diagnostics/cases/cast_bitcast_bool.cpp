// EXPECT: cast_bitcast_bool.cpp:9:41: error: tl::cast of 'i8' to 'i1': a bitcast takes no bool (Triton's int1)
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const int8_t *x, bool *y) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  tl::store(y + offs, tl::cast<bool>(v, {.bitcast = true}));
}
template void k<128>(const int8_t *, bool *);
