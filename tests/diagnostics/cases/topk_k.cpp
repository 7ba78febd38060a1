// EXPECT: topk_k.cpp:8:44: error: tl::topk: K must be at most the length of a row
#include <tilec/tl.hpp>

// tl::topk keeps at most a row's elements: 64 of a row of 32 is an error.
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out) {
  auto v = tl::load(x + tl::arange<0, 32>());
  tl::store(out + tl::arange<0, 64>(), tl::topk<64>(v));
}
