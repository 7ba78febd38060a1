// EXPECT: break_continue.cpp:14:9: error: this statement follows a 'break' and never runs; remove it, or move it before the 'break'
// EXPECT: break_continue.cpp:21:15: note: in instantiation 'k<16>' requested here
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  for (int i = 0; i < n; ++i) {
    // A break in a nested `if` (supported: the rest of the body is skipped through a flag), with
    // a statement after it that never runs.
    if (i > 1) {
      if (i == 3) {
        break;
        tl::store(out + i, 3.0f);
      }
      tl::store(out + i, 2.0f);
    }
    tl::store(out + i, 1.0f);
  }
}
template void k<16>(float *, int);
