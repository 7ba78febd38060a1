// ARG: --pch-dir
// ARG: pch_dir_not_a_directory.cpp
// EXPECT: tilec: error: cannot precompile <tilec/tl.hpp> into --pch-dir 'pch_dir_not_a_directory.cpp': Not a directory
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  tl::store(out, 1.0f);
}
template void k<16>(float *);
