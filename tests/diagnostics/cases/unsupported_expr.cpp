// EXPECT: unsupported_expr.cpp:8:19: error: expression '&n' is not supported in a tilec kernel
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  // Kernel values have no addresses.
  const int *at = &n;
  tl::store(out, static_cast<float>(at != nullptr));
}
template void k<16>(float *, int);
