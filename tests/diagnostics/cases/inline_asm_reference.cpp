// EXPECT: inline_asm_reference.cpp:11:44: error: the reference function of 'tl::inline_asm_elementwise' reads 'shift' of the kernel; it must compute the result from its arguments and constants, as a lambda: [](auto x) { return ...; }
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const int *x, int *y, int shift) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  // The PTX has the shift as a constant; the reference reads the kernel's variable.
  auto s = tl::inline_asm_elementwise<int>("shl.b32 $0, $1, 3;", "=r,r",
                                           [shift](int a) { return a << shift; }, v);
  tl::store(y + offs, s);
}
template void k<128>(const int *, int *, int);
