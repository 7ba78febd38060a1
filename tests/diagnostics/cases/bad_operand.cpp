// EXPECT: bad_operand.cpp:9:22: error: invalid operand of type tile<16x16xf32> for 'tl::argmax'; expected a 1-D tile (give the axis for 2-D tiles: tl::argmax<AXIS>(x))
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(int *out) {
  auto r = tl::arange<0, B>();
  auto t = tl::cast<float>(tl::expand_dims<1>(r) * tl::expand_dims<0>(r));
  int i = tl::argmax(t);
  tl::store(out, i);
}
template void k<16>(int *);
