// ARG: duplicate_instance.cpp
// EXPECT: duplicate_instance.cpp:12:6: error: 'a::k<16>' is instantiated by two inputs of this output; host code of each would call its launcher by the same name (translate them into separate outputs, or put one kernel in a namespace)
// EXPECT: duplicate_instance.cpp:12:6: note: the other instantiation, 'a::k<16>', is here
// Two inputs translated into one output instantiate the same kernel (here: this file twice). Within
// one input, and across inputs for different kernels, tilec tells instantiations apart
// (tests/lit/instance_names.cpp).
#include <tilec/tl.hpp>

namespace a {
template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(1.0f));
}
} // namespace a

template void a::k<16>(float *);
