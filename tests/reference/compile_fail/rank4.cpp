// EXPECT: tl::tile: rank must be 1, 2 or 3
#include <tilec/tl.hpp>
void f() {
  tl::tile<float, 2, 2, 2, 2> t;
  (void)t;
}
