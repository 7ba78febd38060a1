// EXPECT: unsupported_type.cpp:7:12: error: type 'unsigned int' is not supported in a tilec kernel; expected bool, int8_t, int32_t, int64_t, float, tl::half, tl::bfloat16, a pointer to one of those, or a tl::tile of them
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  unsigned u = n;
  tl::store(out, 1.0f);
}
template void k<16>(float *, int);
