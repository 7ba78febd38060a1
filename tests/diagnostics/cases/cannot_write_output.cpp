// PLAIN
// ARG: -o
// ARG: missing_dir/out.cu
// EXPECT: tilec: error: cannot write output file 'missing_dir/out.cu': No such file or directory
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  tl::store(out, 1.0f);
}
template void k<16>(float *);
