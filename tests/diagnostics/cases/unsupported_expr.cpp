// EXPECT: unsupported_expr.cpp:7:13: error: expression '*p' is not supported in a tilec kernel
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, const float *p) {
  float v = *p;
  tl::store(out, v);
}
template void k<16>(float *, const float *);
