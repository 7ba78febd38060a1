// EXPECT: static_assert_failed.cpp:9:17: error: static assertion failed due to requirement '40 % 16 == 0': BLOCK must be a multiple of 16
#include <tilec/tl.hpp>

// Triton's tl.static_assert is C++'s static_assert: checked when the kernel is instantiated,
// reported at its line and column, and nothing is written.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void k(float *out, int n) {
  static_assert(BLOCK % 16 == 0, "BLOCK must be a multiple of 16");
  auto offs = tl::program_id(0) * 64 + tl::arange<0, 64>();
  tl::store(out + offs, tl::full<float, 64>(1.0f), offs < n);
}
template void k<40>(float *, int);
