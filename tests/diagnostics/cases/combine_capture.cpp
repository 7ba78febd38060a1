// EXPECT: combine_capture.cpp:11:52: error: the combine function of 'tl::associative_scan' reads 'scale' of the kernel; it must compute its result from its two arguments and constants, as a lambda: [](auto a, auto b) { return ...; }
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out, float scale) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  // The combine function becomes a function of the generated code's own, called by every thread
  // of a scan's steps: it cannot see the kernel's variables.
  tl::store(out + offs, tl::associative_scan<0>(v, [scale](float a, float b) { return a + scale * b; }));
}
template void k<128>(const float *, float *, float);
