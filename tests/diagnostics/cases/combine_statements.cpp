// EXPECT: combine_statements.cpp:12:52: error: the combine function of 'tl::associative_scan' has statements other than declarations of scalars; it must compute its result from its two arguments and constants, as a lambda: [](auto a, auto b) { return ...; }
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  auto larger = [](float a, float b) {
    if (a > b) { return a; } else { return b; }
  };
  tl::store(out + offs, tl::associative_scan<0>(v, larger));
}
template void k<128>(const float *, float *);
