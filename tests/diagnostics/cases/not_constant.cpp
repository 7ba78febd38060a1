// EXPECT: not_constant.cpp:7:28: error: the program axis must be a compile-time constant; 'axis' is not
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int axis) {
  int pid = tl::program_id(axis);
  tl::store(out + pid, 1.0f);
}
template void k<16>(float *, int);
