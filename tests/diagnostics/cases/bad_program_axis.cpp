// EXPECT: bad_program_axis.cpp:7:28: error: program axis must be 0, 1 or 2; got 3
#include <tilec/tl.hpp>

template <int AXIS>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  int pid = tl::program_id(AXIS);
  tl::store(out + pid, 1.0f);
}
template void k<3>(float *);
