// EXPECT: no_kernels.cpp: error: no tilec kernel instantiation found in 'no_kernels.cpp'; mark a function template with TILEC_KERNEL(...) and instantiate it explicitly or with --instantiate
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  tl::store(out, 1.0f);
}
