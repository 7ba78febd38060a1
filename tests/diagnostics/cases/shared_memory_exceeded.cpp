// EXPECT: shared_memory_exceeded.cpp:8:6: error: kernel needs 263168 bytes of shared memory; the target allows 232448 on sm_90a
#include <tilec/tl.hpp>

// A 256x256 f32 transpose stages its tile through 256 rows of 257 floats (one of padding) of shared
// memory: over the 227 KB a block may have on sm_90a (above 48 KB only as dynamic shared memory).
template <int B>
TILEC_KERNEL(num_warps = 16)
void t(const float *in, float *out, int n) {
  auto r = tl::arange<0, B>();
  auto tile = tl::load(in + tl::expand_dims<1>(r) * n + tl::expand_dims<0>(r));
  tl::store(out + tl::expand_dims<0>(r) * n + tl::expand_dims<1>(r), tile);
}
template void t<256>(const float *, float *, int);
