// EXPECT: return_value.cpp:6:1: error: a tilec kernel must return void
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
int k(float *out) {
  tl::store(out, 1.0f);
  return 0;
}
template int k<16>(float *);
