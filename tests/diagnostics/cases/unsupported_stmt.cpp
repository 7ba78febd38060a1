// EXPECT: unsupported_stmt.cpp:9:3: error: statement 'switch' is not supported in a tilec kernel
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  auto o = tl::arange<0, B>();
  tl::store(out + o, 0.0f);
  switch (n) {
  case 0:
    tl::store(out, 1.0f);
  }
}
template void k<16>(float *, int);
