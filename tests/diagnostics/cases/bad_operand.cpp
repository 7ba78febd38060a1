// EXPECT: bad_operand.cpp:9:4: error: invalid operand of type f32 for '++'; expected an integer or pointer scalar
// An operand that C++ accepts and tilec does not: ++ on a float. (tl::argmax of a 2-D tile, refused
// here before, is now the flattened index: tests/kernels/row_argmax.cpp.)
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  float f = 1.0f;
  f++;
  tl::store(out, f);
}
