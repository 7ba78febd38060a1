// EXPECT: scan_bool_product.cpp:10:29: error: tl: cumprod of bool; cast to an integer type first
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, int *out) {
  auto offs = tl::arange<0, B>();
  auto positive = tl::load(x + offs) > 0.0f;
  // Products of bools: tilec asks for the integer type the products should have.
  tl::store(out + offs, tl::cumprod(positive));
}
template void k<128>(const float *, int *);
