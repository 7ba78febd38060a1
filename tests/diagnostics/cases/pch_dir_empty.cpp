// PLAIN
// ARG: --pch-dir=
// EXIT: 2
// EXPECT: tilec: error: the argument for option '--pch-dir' should follow immediately after the equal sign
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  tl::store(out, 1.0f);
}
template void k<16>(float *);
