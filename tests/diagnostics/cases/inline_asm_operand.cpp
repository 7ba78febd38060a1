// EXPECT: inline_asm_operand.cpp:12:59: error: 'tl::inline_asm_elementwise' has operand 1 of i8: tilec passes values of 16, 32 and 64 bits (Triton's pack > 1 is not supported)
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const int8_t *x, int *y) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  // An 8-bit operand: Triton packs four into a register (pack = 4), which tilec does not.
  auto s = tl::inline_asm_elementwise<int>("cvt.s32.s8 $0, $1;", "=r,r",
                                           [](int8_t a) { return int(a); },
                                                          v);
  tl::store(y + offs, s);
}
template void k<128>(const int8_t *, int *);
