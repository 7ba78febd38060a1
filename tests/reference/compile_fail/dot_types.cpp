// EXPECT: operands must both be tl::half, both tl::bfloat16, both float or both int8_t
#include <tilec/tl.hpp>
void f() {
  auto c = tl::dot(tl::tile<tl::half, 16, 16>{}, tl::tile<float, 16, 16>{});
  (void)c;
}
