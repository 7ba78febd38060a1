// ARG: duplicate_instance.cpp
// EXPECT: duplicate_instance.cpp:12:6: error: the generated code would name 'a::k<16>' 'a::k_16', as it names another instantiation of this output; rename one of the kernels
// EXPECT: duplicate_instance.cpp:12:6: note: the other instantiation, 'a::k<16>', is here
// Two inputs translated into one output instantiate the same kernel (here: this file twice). Within
// one input, tilec tells such instantiations apart (tests/lit/instance_names.cpp); across inputs it
// cannot, as each input's host code expects the launcher a::launch_k_16.
#include <tilec/tl.hpp>

namespace a {
template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(1.0f));
}
} // namespace a

template void a::k<16>(float *);
