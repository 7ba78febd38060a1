// EXPECT: early_return.cpp:12:7: error: 'return' is only allowed as the last statement of a kernel, or at the end of a branch of an 'if' of the kernel's own block (not in a loop or a nested block); nothing may follow it
// An early return ends a branch of an `if` of the kernel's own block (the rest of the block is its
// other branch); one inside a loop would end the program in the middle of the loop, which tilec
// does not lower.
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  for (int i = 0; i < n; ++i) {
    if (i == 3)
      return;
    tl::store(out + i, 1.0f);
  }
}
template void k<16>(float *, int);
