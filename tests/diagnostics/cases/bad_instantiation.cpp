// ARG: --instantiate
// ARG: k<1024, 4>
// EXPECT: tilec: error: cannot instantiate 'k<1024, 4>': the template arguments do not match the kernel's template parameters
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  tl::store(out, 1.0f);
}
