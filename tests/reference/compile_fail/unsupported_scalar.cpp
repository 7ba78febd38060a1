// EXPECT: no match for
// A scalar of no element type (__int128) is not an operand of tile operators.
#include <tilec/tl.hpp>
void f(__int128 n) {
  auto m = tl::arange<0, 4>() < n;
  (void)m;
}
