// EXPECT: bad_operand_bits.cpp:10:45: error: tl::popc and tl::clz need 32- or 64-bit integer operands
// EXPECT: bad_operand_bits.cpp: error: kernel source has C++ errors; nothing was written
// tl::popc, clz and umulhi take 32- or 64-bit integers: on a float tile, tl.hpp's static_assert
// says so (one error, at the call), and nothing is written.
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out) {
  auto v = tl::load(x + tl::arange<0, 128>());
  tl::store(out + tl::arange<0, 128>(), tl::popc(v));
}
