// EXPECT: break_continue.cpp:10:7: error: 'break' is not supported in a tilec kernel (as in Triton); restructure the loop condition
// EXPECT: break_continue.cpp:15:15: note: in instantiation 'k<16>' requested here
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  for (int i = 0; i < n; ++i) {
    if (i == 3)
      break;
    tl::store(out + i, 1.0f);
  }
}

template void k<16>(float *, int);
