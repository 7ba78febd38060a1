// ARG: --instantiate
// ARG: add_kernle<1024>
// EXPECT: tilec: error: no kernel named 'add_kernle' to instantiate
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void add_kernel(float *out) {
  tl::store(out, 1.0f);
}
