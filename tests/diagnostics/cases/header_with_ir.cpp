// PLAIN
// ARG: --emit=ir
// ARG: --header=out.h
// EXIT: 2
// EXPECT: tilec: error: --header needs CUDA or HIP output, not --emit=ir
#include <tilec/tl.hpp>
