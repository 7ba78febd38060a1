// ARG: --namespace
// ARG: kernels::std
// EXIT: 2
// EXPECT: tilec: error: invalid --namespace 'kernels::std': 'std' is a name the generated code needs for itself
#include <tilec/tl.hpp>
template <int B>
TILEC_KERNEL(num_warps = 1)
void k(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(1.0f));
}
template void k<32>(float *);
