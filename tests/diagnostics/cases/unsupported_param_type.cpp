// EXPECT: unsupported_param_type.cpp:6:32: error: kernel parameter 'scale' has unsupported type 'long double'; expected a pointer to bool, a signed or unsigned integer of 8, 16, 32 or 64 bits, float, double, tl::half or tl::bfloat16, or a scalar of one of those types
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, long double scale) {
  tl::store(out, 1.0f);
}
template void k<16>(float *, long double);
