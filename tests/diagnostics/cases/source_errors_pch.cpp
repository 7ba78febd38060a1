// ARG: --pch-dir
// ARG: ../source_errors_pch-pch
// EXPECT: source_errors_pch.cpp:10:17: error: expected ';' at end of declaration
// EXPECT: source_errors_pch.cpp: error: kernel source has C++ errors; nothing was written
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  float x = 1.0f
  tl::store(out, x);
}
template void k<16>(float *);
