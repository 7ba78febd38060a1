// EXPECT: recursive_call.cpp:9:37: error: 'twice' calls itself; tilec inlines the functions a kernel calls, so recursion is not supported
// EXPECT: recursive_call.cpp:15:13: note: in the call to 'twice' here
#include <tilec/tl.hpp>

// A compile-time depth would make the recursion end in C++; tilec still refuses it, as it inlines
// every call.
float twice(float x, int depth) {
  float y = x * 2.0f;
  return depth > 0 ? y : y + 0.0f * twice(x, depth - 1);
}

template <int B>
TILEC_KERNEL(num_warps = 1)
void k(float *out, float s) {
  float v = twice(s, 1);
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(v));
}
template void k<32>(float *, float);
