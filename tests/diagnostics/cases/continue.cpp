// EXPECT: continue.cpp:10:7: error: 'continue' is supported as the last statement of a branch of an 'if' in the loop's own body; restructure the loop
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  for (int i = 0; i < n; ++i) {
    // Statements after the continue: never run, and not supported.
    if (i == 3) {
      continue;
      tl::store(out + i, 2.0f);
    }
    tl::store(out + i, 1.0f);
  }
}
template void k<16>(float *, int);
