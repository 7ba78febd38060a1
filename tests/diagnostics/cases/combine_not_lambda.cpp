// EXPECT: combine_not_lambda.cpp:13:32: error: the combine function of 'tl::reduce' is not a lambda; it must compute its result from its two arguments and constants, as a lambda: [](auto a, auto b) { return ...; }
#include <tilec/tl.hpp>

float larger(float a, float b) { return a > b ? a : b; }

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  // A function passed by name arrives as a pointer, which tilec cannot follow: wrap it in a
  // lambda, [](float a, float b) { return larger(a, b); }.
  tl::store(out, tl::reduce(v, larger));
}
template void k<128>(const float *, float *);
