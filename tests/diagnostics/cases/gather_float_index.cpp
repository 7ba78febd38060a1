// EXPECT: gather_float_index.cpp:10:29: error: tl: gather's indices are integers
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, const float *where, float *out) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  // Positions computed in float must be converted: tl::cast<int32_t>(...).
  tl::store(out + offs, tl::gather<0>(v, tl::load(where + offs)));
}
template void k<128>(const float *, const float *, float *);
