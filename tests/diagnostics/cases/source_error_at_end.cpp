// EXPECT: source_error_at_end.cpp:10:24: error: expected '}'
// EXPECT: source_error_at_end.cpp:9:20: note: to match this '{'
// EXPECT: source_error_at_end.cpp: error: kernel source has C++ errors; nothing was written
// The file ends without a newline, inside the kernel's body: Clang's error is at its very end
// (found by the fuzzer: tilec took it for an error on an --instantiate line and printed nothing).
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  tl::store(out, 1.0f);