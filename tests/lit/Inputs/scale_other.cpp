// A second input for tests/lit/instance_names.cpp: a kernel named like one of the first input's.
#include <tilec/tl.hpp>
namespace other {
template <int B>
TILEC_KERNEL(num_warps = 1)
void scale(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(8.0f));
}
template void scale<16>(float *);
} // namespace other
