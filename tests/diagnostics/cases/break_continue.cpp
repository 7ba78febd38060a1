// EXPECT: break_continue.cpp:12:9: error: 'break' is supported as the last statement of a branch of an 'if' in the loop's own body; restructure the loop
// EXPECT: break_continue.cpp:19:15: note: in instantiation 'k<16>' requested here
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  for (int i = 0; i < n; ++i) {
    // A break in a nested `if`: not at the end of a branch of an `if` of the loop's body.
    if (i > 1) {
      if (i == 3)
        break;
      tl::store(out + i, 2.0f);
    }
    tl::store(out + i, 1.0f);
  }
}

template void k<16>(float *, int);
