// EXPECT: random_four_results.cpp:9:12: error: 'tl::rand4x' returns four tiles; bind them where it is called: auto [r0, r1, r2, r3] = tl::rand4x(seed, offsets);
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int seed) {
  auto offs = tl::arange<0, B>();
  // The tuple kept whole: tilec wants the four tiles bound where they are made.
  auto u = tl::rand4x(seed, offs);
  tl::store(out + offs, std::get<0>(u));
}
template void k<128>(float *, int);
