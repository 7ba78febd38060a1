// EXPECT: continue.cpp:11:7: error: this statement follows a 'continue' and never runs; remove it, or move it before the 'continue'
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  for (int i = 0; i < n; ++i) {
    // Statements after the continue: never run (C++ accepts them; tilec reports them).
    if (i == 3) {
      continue;
      tl::store(out + i, 2.0f);
    }
    tl::store(out + i, 1.0f);
  }
}
template void k<16>(float *, int);
