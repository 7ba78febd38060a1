// ARG: --target=hip
// EXPECT: too_many_threads.cpp:8:6: error: num_warps = 32 makes 2048 threads per block on hip, whose warps have 64 lanes; a block has at most 1024 threads (num_warps <= 16)
// num_warps = 32 is 1024 threads with CUDA's 32-lane warps, but 2048 with HIP's 64-lane wavefronts.
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 32)
void k(float *out) {
  tl::store(out + tl::arange<0, BLOCK>(), tl::full<float, BLOCK>(1.0f));
}
template void k<4096>(float *);
