// EXPECT: cast_options_variable.cpp:8:20: error: the options of a cast must be a compile-time constant; 'bits' is not
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, int32_t *y) {
  auto offs = tl::arange<0, B>();
  tl::cast_options bits = {.bitcast = true}; // a constexpr variable would do
  tl::store(y + offs, tl::cast<int32_t>(tl::load(x + offs), bits));
}
template void k<128>(const float *, int32_t *);
