// EXPECT: random_offsets.cpp:10:29: error: tl::rand, randn, randint: offsets must be int32, uint32, int64 or uint64
// EXPECT: random_offsets.cpp: error: kernel source has C++ errors; nothing was written
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int seed) {
  auto offs = tl::cast<int16_t>(tl::arange<0, B>());
  // int16 offsets: tl.hpp's static_assert, at the call.
  tl::store(out + offs, tl::rand(seed, offs));
}
template void k<128>(float *, int);
