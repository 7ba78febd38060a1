// EXPECT: unsupported_call.cpp:10:13: error: call to 'helper' is not supported in a tilec kernel; only tl:: operations and functions whose definition the kernel sees can be called
#include <tilec/tl.hpp>

float helper(float x); // declared only: its definition is elsewhere

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, float s) {
  auto o = tl::arange<0, B>();
  float v = helper(s);
  tl::store(out + o, v);
}
template void k<16>(float *, float);
