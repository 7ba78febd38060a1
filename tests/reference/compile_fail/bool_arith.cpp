// EXPECT: arithmetic on bool operands
#include <tilec/tl.hpp>
void f() {
  auto m = tl::arange<0, 4>() < 2;
  auto s = m + m;
  (void)s;
}
