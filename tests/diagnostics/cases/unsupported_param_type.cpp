// EXPECT: unsupported_param_type.cpp:6:27: error: kernel parameter 'scale' has unsupported type 'double'; expected a pointer to float, tl::half, tl::bfloat16, int8_t, int32_t or int64_t, or a scalar of one of those types
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, double scale) {
  tl::store(out, 1.0f);
}
template void k<16>(float *, double);
