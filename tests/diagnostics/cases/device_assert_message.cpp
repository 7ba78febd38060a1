// EXPECT: device_assert_message.cpp:10:32: error: the message of 'tl::device_assert' (a string literal) must be a compile-time constant; 'n > 0 ? "negative" : "empty"' is not
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *y, int n) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  // The message is written into the generated code: a literal.
  tl::device_assert(v >= 0.0f, n > 0 ? "negative" : "empty");
  tl::store(y + offs, v);
}
template void k<128>(const float *, float *, int);
