// EXPECT: every dim of \[M, K\] x \[K, N\] must be a power of two >= 16
#include <tilec/tl.hpp>
void f() {
  auto c = tl::dot(tl::tile<tl::half, 8, 16>{}, tl::tile<tl::half, 16, 16>{});
  (void)c;
}
