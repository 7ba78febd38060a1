// EXPECT: too_many_registers.cpp:7:8: error: tile 'big' needs 2048 elements per thread; at most 256 fit in registers (raise num_warps or shrink the tile)
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 1)
void k(float *out, const float *in) {
  auto big = tl::load(in + tl::arange<0, B>());
  tl::store(out + tl::arange<0, B>(), big);
}
template void k<65536>(float *, const float *);
