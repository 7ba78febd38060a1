// EXPECT: random_offsets.cpp:10:29: error: tl::rand, randn, randint: offsets must be int32 or uint32 (Triton's 32-bit stream)
// EXPECT: random_offsets.cpp: error: kernel source has C++ errors; nothing was written
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int seed) {
  auto offs = tl::cast<int64_t>(tl::arange<0, B>());
  // int64 offsets: tl.hpp's static_assert, at the call.
  tl::store(out + offs, tl::rand(seed, offs));
}
template void k<128>(float *, int);
