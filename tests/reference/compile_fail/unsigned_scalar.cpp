// EXPECT: unsigned and 16-bit integers are not supported
#include <tilec/tl.hpp>
void f(unsigned n) {
  auto m = tl::arange<0, 4>() < n;
  (void)m;
}
