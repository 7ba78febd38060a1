// EXPECT: early_return_unreachable.cpp:13:5: error: 'return' is only allowed as the last statement of a kernel, or at the end of a branch of an 'if' of the kernel's own block (not in a loop or a nested block); nothing may follow it
// Both branches of the `if` return: the store after it never runs (C++ accepts it; tilec reports it
// rather than translate code that cannot run).
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  if (n > 0) {
    tl::store(out, 1.0f);
    return;
  } else {
    return;
  }
  tl::store(out + 1, 2.0f);
}
template void k<16>(float *, int);
