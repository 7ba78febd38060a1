// EXPECT: duplicate_instance.cpp:17:6: error: the generated code would name 'k<16>' 'k_16', as it names another instantiation of this output; rename one of the kernels
// EXPECT: duplicate_instance.cpp:9:6: note: the other instantiation, 'k<16>', is here
// Two kernels named k in different namespaces: both instantiations would be emitted as k_16.
#include <tilec/tl.hpp>

namespace a {
template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(1.0f));
}
} // namespace a

namespace b {
template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(2.0f));
}
} // namespace b

template void a::k<16>(float *);
template void b::k<16>(float *);
