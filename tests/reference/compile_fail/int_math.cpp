// EXPECT: math functions need a floating-point operand
#include <tilec/tl.hpp>
void f() {
  auto e = tl::exp(tl::arange<0, 4>());
  (void)e;
}
