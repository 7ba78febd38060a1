// EXPECT: not_translated_trans.cpp:10:12: error: tilec cannot translate 'tl::trans' yet: it runs in the CPU reference (tl.hpp) only; its CUDA and HIP lowering (tensor cores) is in progress
#include <tilec/tl.hpp>

// tl::trans is in the language before the translator lowers it: rejected at the call.
template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, const float *in) {
  auto r = tl::arange<0, B>();
  auto x = tl::load(in + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r));
  auto t = tl::trans(x);
  tl::store(out + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r), t);
}
template void k<16>(float *, const float *);
