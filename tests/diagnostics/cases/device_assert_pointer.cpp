// EXPECT: device_assert_pointer.cpp:9:7: error: tl: a pointer converts only to a pointer to the same type (adding const)
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *y) {
  auto offs = tl::arange<0, B>();
  // A condition of pointers: test what they point at, or compare them.
  tl::device_assert(x + offs);
  tl::store(y + offs, tl::load(x + offs));
}
template void k<128>(const float *, float *);
