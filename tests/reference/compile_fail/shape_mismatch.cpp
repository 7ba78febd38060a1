// EXPECT: operand shapes do not broadcast
#include <tilec/tl.hpp>
void f() {
  auto s = tl::arange<0, 4>() + tl::arange<0, 8>();
  (void)s;
}
