// EXPECT: uninitialized_var.cpp:7:9: error: variable 'acc' must be initialized where it is declared
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  float acc;
  acc = 1.0f;
  tl::store(out, acc);
}
template void k<16>(float *);
