// EXPECT: not_translated_yet.cpp:13:12: error: tilec cannot translate 'tl::dot' yet: it runs in the CPU reference (tl.hpp) only; its CUDA and HIP lowering (tensor cores) is in progress
#include <tilec/tl.hpp>

// tl::dot and tl::trans are in the language (the CPU reference computes them) before the
// translator lowers them: a kernel that uses one is rejected where the call is, not misreported as
// a call tilec does not know.
template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *c, const tl::half *a, const tl::half *b) {
  auto r = tl::arange<0, B>();
  auto x = tl::load(a + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r));
  auto y = tl::load(b + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r));
  auto z = tl::dot(x, y);
  tl::store(c + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r), z);
}
template void k<16>(float *, const tl::half *, const tl::half *);
