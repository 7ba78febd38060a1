// EXPECT: inline_asm_constraints.cpp:10:67: error: 'tl::inline_asm_elementwise' has the constraints "=r,r" for 2 operand(s): tilec takes one output ("=r") and then one input an operand
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const int *x, int *y) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  // Two operands, one input constraint.
  auto s = tl::inline_asm_elementwise<int>("add.s32 $0, $1, $2;", "=r,r",
                                           [](int a, int b) { return a + b; }, v, v);
  tl::store(y + offs, s);
}
template void k<128>(const int *, int *);
