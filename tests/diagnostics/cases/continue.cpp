// EXPECT: continue.cpp:9:7: error: 'continue' is not supported in a tilec kernel (as in Triton); restructure the loop condition
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  for (int i = 0; i < n; ++i) {
    if (i == 3)
      continue;
    tl::store(out + i, 1.0f);
  }
}
template void k<16>(float *, int);
