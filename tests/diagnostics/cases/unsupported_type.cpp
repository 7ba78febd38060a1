// EXPECT: unsupported_type.cpp:7:15: error: type 'long double' is not supported in a tilec kernel; expected bool, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, float, double, tl::half, tl::bfloat16, tl::float8_e4m3, tl::float8_e5m2, a pointer to one of those, or a tl::tile of them
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  long double u = n;
  tl::store(out, 1.0f);
}
template void k<16>(float *, int);
