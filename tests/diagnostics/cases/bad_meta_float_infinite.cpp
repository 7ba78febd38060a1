// EXPECT: bad_meta_float_infinite.cpp:7:28: error: type 'float' is not supported in a tilec kernel; expected a finite floating-point meta-parameter
// A float meta-parameter must be finite: the output declares it as a constant of the kernel's
// instance, and no literal spells an infinity (nor would the instance name).
#include <tilec/tl.hpp>
#include <limits>

template <int BLOCK, float CAP>
TILEC_KERNEL(num_warps = 1)
void k(const float *x, float *out) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::minimum(tl::load(x + offs), CAP));
}
template void k<32, std::numeric_limits<float>::infinity()>(const float *, float *);
