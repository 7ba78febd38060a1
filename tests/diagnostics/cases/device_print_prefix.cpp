// EXPECT: device_print_prefix.cpp:10:20: error: the prefix of 'tl::device_print' (a string literal) must be a compile-time constant; 'n > 0 ? "x" : "empty x"' is not
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *y, int n) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  // The prefix is written into the generated code's format: a literal.
  tl::device_print(n > 0 ? "x" : "empty x", v);
  tl::store(y + offs, v);
}
template void k<128>(const float *, float *, int);
