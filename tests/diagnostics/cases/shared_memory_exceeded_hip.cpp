// ARG: --target=hip
// EXPECT: shared_memory_exceeded_hip.cpp:9:6: error: kernel needs 66048 bytes of shared memory; the target allows 65536 on gfx90a
#include <tilec/tl.hpp>

// A 128x128 f32 transpose stages its tile through 128 rows of 129 floats (one of padding) of shared
// memory: over the 64 KB of LDS a gfx90a workgroup has (CUDA runs it, tests/kernels/big_shared.cpp).
template <int B>
TILEC_KERNEL(num_warps = 4)
void t(const float *in, float *out, int n) {
  auto r = tl::arange<0, B>();
  auto tile = tl::load(in + tl::expand_dims<1>(r) * n + tl::expand_dims<0>(r));
  tl::store(out + tl::expand_dims<0>(r) * n + tl::expand_dims<1>(r), tile);
}
template void t<128>(const float *, float *, int);
